#!/usr/bin/env bash
# The course's one set-up, used by `make`, `.ci/run` and `binder/postBuild` alike.
# Idempotent: every step leaves a stamp keyed by its inputs and is skipped when they are unchanged.
#   setup/setup.sh              set up what is missing
#   setup/setup.sh --precompile also compile every snippet now (Binder: a fast first run)
#   setup/setup.sh --for-hub    also JupyterHub and its proxy: `make hub`
#   setup/setup.sh --for-tests  also the tools only the tests use (pytest, playwright-core, axe-core, the hub's), and --precompile: `make test`
set -euo pipefail

COURSE_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# make splits paths at spaces, class paths and PATH at colons, build/env.sh quotes them in "…" (where " $ ` \
# would act), and the JVM reads file names as UTF-8
case "$COURSE_HOME" in
  *[[:space:]]*|*:*) printf "setup: error: the course's folder %s holds a space or a colon, which make and Java's class paths cannot carry: move or clone it to a path without them\n" "$COURSE_HOME" >&2; exit 1 ;;
  *[\"\$\`\\]*) printf "setup: error: the course's folder %s holds one of \" \$ \` \\, which the course's shell scripts cannot carry: move or clone it to a path without them\n" "$COURSE_HOME" >&2; exit 1 ;;
esac
if ! printf '%s' "$COURSE_HOME" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then
  printf "setup: error: the course's folder %q is not valid UTF-8, which Java needs to open its files: move or clone it to a path in UTF-8\n" "$COURSE_HOME" >&2; exit 1
fi
BUILD="$COURSE_HOME/build"
# The Python environment: the course's own .venv, or one that already holds setup/requirements.txt (COURSE_VENV: Binder's
# conda environment, so that its image holds one Jupyter, not two)
VENV="${COURSE_VENV:-$COURSE_HOME/.venv}"
STAMPS="$BUILD/stamps"
JBANG_HOME="$BUILD/tools/jbang"
PROFILER_HOME="$BUILD/tools/async-profiler"
KERNEL_DIR="$VENV/share/jupyter/kernels/java-course"
mkdir -p "$STAMPS"
# two set-ups at once (two `make lab`s, a test run beside a notebook) take turns: each step checks then writes
if command -v flock >/dev/null 2>&1; then
  exec 9>"$BUILD/.setup.lock"
  flock -n 9 || { printf 'setup: waiting for another set-up of this course to finish\n'; flock 9; }
fi
MVN=(mvn -q -B -C -Dstyle.color=never)  # -C: a download whose checksum does not match the repository's fails, not warns
# (Maven's own JVM runs with C1 alone, .mvn/jvm.config: a build of seconds, in which C2's compiles never pay back, takes
# half the CPU. It holds no comment: Maven reads every word of it as a JVM option.)

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# A step runs only when the hash of its inputs differs from its stamp.
inputs_hash() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }
fresh() { [ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]; }
stamp() { echo "$2" > "$STAMPS/$1"; }

# --- JDK: JAVA_HOME if set, else the newest full JDK >= 17 -------------------------------
jdk_feature() {  # prints the feature version (17, 25, ...) of the JDK at $1, or nothing
  local release="$1/release"
  [ -f "$release" ] || return 0
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
}
is_full_jdk() { [ -x "$1/bin/javac" ] && [ -x "$1/bin/jshell" ]; }

pick_jdk() {
  if [ -n "${JAVA_HOME:-}" ]; then
    is_full_jdk "$JAVA_HOME" || die "JAVA_HOME=$JAVA_HOME is not a full JDK (needs bin/javac and bin/jshell)"
    local v; v=$(jdk_feature "$JAVA_HOME")
    [ -n "$v" ] && [ "$v" -ge 17 ] || die "JAVA_HOME=$JAVA_HOME is JDK '${v:-unknown}'; the course needs 17 or newer"
    JDK="$JAVA_HOME"; JDK_REASON="JAVA_HOME is set"
    return
  fi
  local best="" best_v=0 candidate v
  local candidates=(/usr/lib/jvm/*)
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for candidate in "${candidates[@]}"; do
    [ -d "$candidate" ] && is_full_jdk "$candidate" || continue
    v=$(jdk_feature "$candidate"); [ -n "$v" ] || continue
    if [ "$v" -gt "$best_v" ]; then best="$(readlink -f "$candidate")"; best_v=$v; fi
  done
  [ "$best_v" -ge 17 ] || die "no JDK 17 or newer found in /usr/lib/jvm or on PATH; install one (e.g. apt-get install openjdk-17-jdk) or set JAVA_HOME"
  JDK="$best"; JDK_REASON="newest full JDK found (JAVA_HOME not set)"
}

# --- required and optional tools ---------------------------------------------------------
apt_install() {  # only as root (a container, CI), and said aloud; a normal user gets the one line to run
  if [ "$(id -u)" = 0 ] && [ "${COURSE_NO_APT:-}" != 1 ] && command -v apt-get >/dev/null 2>&1; then
    say "running as root: apt-get install $* (COURSE_NO_APT=1 to skip)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null) \
      || say "apt-get install $* failed; continuing without"
  else
    say "optional packages missing; to install them all: sudo apt-get install $*"
  fi
}

# Whether a row of setup/packages.tsv is here: each command it names on PATH, or any one of the files it names.
present() {  # what-shows-it
  local word files=0 file_found=0
  for word in $1; do
    if [[ $word == /* ]]; then files=1; [ -e "$word" ] && file_found=1
    else command -v "$word" >/dev/null || return 1; fi
  done
  [ $files = 0 ] || [ $file_found = 1 ]
}

# The labs' rows of setup/packages.tsv (the tests' rows are the tests' own): name, what shows it, packages, what for.
labs_rows() { grep -v '^#' "$COURSE_HOME/setup/packages.tsv" | awk -F'\t' '$4 ~ /^labs: /'; }

check_tools() {
  command -v gcc >/dev/null || die "gcc not found; install it: sudo apt-get install gcc"
  command -v mvn >/dev/null || die "Maven not found; install it: sudo apt-get install maven"
  local name found packages purpose missing=() line=""
  while IFS=$'\t' read -r name found packages purpose; do
    present "$found" || read -ra missing -d '' <<< "${missing[*]} $packages" || true
  done < <(labs_rows)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
  while IFS=$'\t' read -r name found packages purpose; do
    if present "$found"; then line+=" $name:found"; else line+=" $name:missing"; fi
  done < <(labs_rows)
  say "optional tools:$line"
  while IFS=$'\t' read -r name found packages purpose; do
    present "$found" || say "  $name (${purpose#labs: }): sudo apt-get install $packages"
  done < <(labs_rows)
}

# --- Python environment and the kernel ---------------------------------------------------
# Installs a lock file of setup/ into an environment exactly (hashes, --no-deps), then holds it to its requirements
# (pip check); $3 begins the one line that names what is missing.
install_locked() {  # environment lock-file message
  "$1/bin/pip" install -q --disable-pip-version-check --require-hashes --no-deps -r "$COURSE_HOME/setup/$2"
  "$1/bin/pip" check -q --disable-pip-version-check >/dev/null || die "$3: $("$1/bin/pip" check --disable-pip-version-check | head -3)"
}

setup_venv() {
  if [ -n "${COURSE_VENV:-}" ]; then
    "$VENV/bin/python" -c 'import jupyterlab, nbclient, nbgrader, vl_convert' 2>/dev/null && [ -f "$VENV/share/jupyter/kernels/java/jjava.jar" -o -f "$KERNEL_DIR/jjava.jar" ] \
      || die "COURSE_VENV=$VENV does not hold the course's packages (setup/requirements.txt, with jjava's kernel): install them there, or unset COURSE_VENV"
    say "Python environment: COURSE_VENV=$VENV"
    return
  fi
  local key; key=$(inputs_hash "$COURSE_HOME/setup/requirements.lock"; python3 --version)
  # a venv's scripts name its folder in their first line: a course folder moved or copied since has to make it again
  local made_in; made_in=$(head -1 "$VENV/bin/pip" 2>/dev/null || true)
  if [ -n "$made_in" ] && [[ "$made_in" != "#!$VENV/bin/python"* ]]; then
    say "the course folder has moved since .venv was made (${made_in#\#!}): making .venv again"
    rm -rf "$VENV"
  fi
  if fresh venv "$key" && [ -x "$VENV/bin/jupyter" ]; then return; fi
  say "creating .venv (every package pinned with its hashes: setup/requirements.lock)"
  python3 -m venv "$VENV"
  # --no-deps: the lock names every package (and leaves one out on purpose: see its head); pip check then says if
  # one that is needed is missing
  install_locked "$VENV" requirements.lock "the environment misses a package"
  stamp venv "$key"
}

# The course installs its own kernelspec (setup/kernelspec.py writes it: the chosen JDK's java on jjava.jar). The stock kernel goes from the
# course's own .venv; an environment COURSE_VENV names is someone else's and keeps it (the course's JupyterLab
# settings offer the course's kernel alone either way: setup/jupyterlab/*/jupyter_config.json).
install_kernel() {
  local stock="$VENV/share/jupyter/kernels/java"
  if [ -f "$stock/jjava.jar" ] && ! cmp -s "$stock/jjava.jar" "$KERNEL_DIR/jjava.jar"; then
    mkdir -p "$KERNEL_DIR"
    cp "$stock/jjava.jar" "$KERNEL_DIR/jjava.jar"
  fi
  [ -n "${COURSE_VENV:-}" ] || rm -rf "$stock"
  [ -f "$KERNEL_DIR/jjava.jar" ] || die "jjava.jar missing from .venv; remove .venv and run again"
  # A JVM started with SIGINT ignored (JupyterLab run as a script's background job, by some service managers) keeps
  # it ignored and the stop button stops nothing: the kernel starts with SIGINT's default restored (coreutils 8.31+).
  local restore=()
  if env --default-signal=INT true 2>/dev/null; then
    restore=("$(command -v env)" --default-signal=INT)
  else
    say "env cannot restore SIGINT here (coreutils before 8.31): start JupyterLab from a shell that does not ignore it, or the stop button stops nothing"
  fi
  "$VENV/bin/python" "$COURSE_HOME/setup/kernelspec.py" "$KERNEL_DIR" "$JDK" "$COURSE_HOME" "$JDK_FEATURE" "${restore[@]}"
}

# A learner's JupyterLab asks no server for news or updates (the course runs offline, on Binder too).
# In overrides.d/, a file of the course's own: the environment's overrides.json, if any, is its owner's and stays theirs.
install_lab_settings() {
  mkdir -p "$VENV/share/jupyter/lab/settings/overrides.d"
  cp "$COURSE_HOME/setup/jupyterlab/overrides.json" "$VENV/share/jupyter/lab/settings/overrides.d/java-io-course.json"
}

# --- jbang and async-profiler from Maven Central ------------------------------------------
setup_jvm_tools() {
  local key; key=$(inputs_hash "$COURSE_HOME/setup/jbang/pom.xml" "$COURSE_HOME/setup/jbang/jbang")
  if fresh jvm-tools "$key" && [ -x "$JBANG_HOME/jbang" ]; then return; fi
  say "resolving jbang and async-profiler (setup/jbang/pom.xml)"
  rm -rf "$JBANG_HOME/lib"
  "${MVN[@]}" -f "$COURSE_HOME/setup/jbang/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$JBANG_HOME/lib" -DexcludeArtifactIds=async-profiler
  install -m 755 "$COURSE_HOME/setup/jbang/jbang" "$JBANG_HOME/jbang"
  mkdir -p "$PROFILER_HOME"
  "${MVN[@]}" -f "$COURSE_HOME/setup/jbang/pom.xml" dependency:copy-dependencies \
      -DoutputDirectory="$PROFILER_HOME" -DincludeArtifactIds=async-profiler
  (cd "$PROFILER_HOME" && unzip -o -q async-profiler-*.jar 'linux-*/libasyncProfiler.so')
  stamp jvm-tools "$key"
}

# --- what only the tests use: pytest, and from npm playwright-core and axe-core for the browser tests (Chromium comes from Debian) ---
setup_test_tools() {
  local key; key=$(inputs_hash "$COURSE_HOME/setup/requirements-test.lock"; python3 --version)
  if ! { fresh test-tools "$key" && [ -x "$VENV/bin/pytest" ]; }; then
    say "installing the test tools (setup/requirements-test.lock)"
    "$VENV/bin/pip" install -q --disable-pip-version-check --require-hashes -r "$COURSE_HOME/setup/requirements-test.lock"
    stamp test-tools "$key"
  fi
  # tests/test_cluster.py plays two nodes, each with an sshd of its own (Open MPI starts its ranks over ssh)
  [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null || apt_install openssh-server openssh-client
  # tests/test_slurm.py starts a one-host Slurm (its controller, a node daemon, munge) to run the course's job scripts
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null && command -v munged >/dev/null \
    || apt_install slurmctld slurmd slurm-client munge
  setup_browser_driver
}

# An npm part pinned by its lock file (npm ci: exactly the lock's versions, their integrity checked), from setup/NAME into
# build/tools/NAME; WHAT names it aloud. Returns non-zero, its messages in build/npm-NAME.log, when npm is missing or fails.
npm_part() {  # NAME WHAT
  local name=$1 what=$2 key; key=$(inputs_hash "$COURSE_HOME/setup/$name/package.json" "$COURSE_HOME/setup/$name/package-lock.json")
  if fresh "npm-$name" "$key" && [ -d "$BUILD/tools/$name/node_modules" ]; then return 0; fi
  command -v npm >/dev/null || { echo "npm not found" > "$BUILD/npm-$name.log"; return 1; }
  say "installing $what (setup/$name/package.json)"
  mkdir -p "$BUILD/tools/$name"
  cp "$COURSE_HOME/setup/$name/package.json" "$COURSE_HOME/setup/$name/package-lock.json" "$BUILD/tools/$name/"
  (cd "$BUILD/tools/$name" && npm ci --no-audit --no-fund --silent >"$BUILD/npm-$name.log" 2>&1) || return 1
  stamp "npm-$name" "$key"
}

# Optional: a failure is one line and the set-up goes on (the browser test then says why it is skipped).
setup_browser_driver() {
  npm_part browser "playwright-core and axe-core" \
    || say "npm failed (its messages: build/npm-browser.log); going on without playwright-core and axe-core, the browser tests will be skipped"
}

# --- the course hub (make hub; tests/test_hub.py starts one): JupyterHub in .venv, its proxy from npm ---------------
# For make hub a proxy that cannot be installed stops the set-up; for the tests it is one line (test_hub.py then skips).
setup_hub() {  # strict|optional
  local key; key=$(inputs_hash "$COURSE_HOME/setup/requirements-hub.lock"; python3 --version)
  if ! { fresh hub "$key" && [ -x "$VENV/bin/jupyterhub" ]; }; then
    say "installing JupyterHub, its idle culler, LTI login and ngshare's nbgrader plugin (setup/requirements-hub.lock)"
    # --no-deps, as for requirements.lock (see its head); pip check says if anything needed is missing, but for the
    # requirements the lock overrides on purpose (setup/requirements-hub.overrides names each, with why)
    "$VENV/bin/pip" install -q --disable-pip-version-check --require-hashes --no-deps -r "$COURSE_HOME/setup/requirements-hub.lock"
    local overridden wrong
    overridden=$(grep -v '^#' "$COURSE_HOME/setup/requirements-hub.overrides" | sed -E 's/[<>=!~ ;].*//' | paste -sd '|')
    wrong=$("$VENV/bin/pip" check --disable-pip-version-check | grep -Ev "^No broken requirements|has requirement ($overridden)[<>=!~ ]" || true)
    [ -z "$wrong" ] || die "the hub's packages miss one: $(head -3 <<<"$wrong")"
    stamp hub "$key"
  fi
  # ngshare (HUB_EXCHANGE=ngshare) in an environment of its own: it needs an older SQLAlchemy (see its requirements)
  local ngshare="$BUILD/tools/ngshare"
  key=$(inputs_hash "$COURSE_HOME/setup/requirements-ngshare.lock"; python3 --version)
  if ! { fresh ngshare "$key" && [ -x "$ngshare/bin/python" ]; }; then
    say "making ngshare's environment (setup/requirements-ngshare.lock)"
    rm -rf "$ngshare" && python3 -m venv "$ngshare"
    install_locked "$ngshare" requirements-ngshare.lock "ngshare's packages miss one"
    stamp ngshare "$key"
  fi
  npm_part hub configurable-http-proxy && return 0
  local why; why="configurable-http-proxy could not be installed: $(tail -1 "$BUILD/npm-hub.log") (all of it: build/npm-hub.log; npm comes with: sudo apt-get install npm)"
  if [ "$1" = strict ]; then die "$why"; fi
  say "$why; the hub's test will be skipped"
}

# --- the kit (Java library the notebooks load) --------------------------------------------
build_kit() {
  # the key holds the kernel's jar too: a new JJava (setup/requirements.txt) builds the kit again against it
  local key; key=$(find "$COURSE_HOME/kit/pom.xml" "$COURSE_HOME/kit/src/main" "$KERNEL_DIR/jjava.jar" \
      -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
  key="$key-$JDK_FEATURE"
  if fresh kit "$key" && [ -f "$COURSE_HOME/kit/target/course-kit.jar" ]; then return; fi
  say "building the kit (kit/pom.xml)"
  # JJava is not on Maven Central; the kit compiles against the kernel's own jar (version "kernel": kit/pom.xml).
  "${MVN[@]}" install:install-file -Dfile="$KERNEL_DIR/jjava.jar" -DgroupId=org.dflib.jjava \
      -DartifactId=jjava -Dversion=kernel -Dpackaging=jar
  "${MVN[@]}" -f "$COURSE_HOME/kit/pom.xml" package -DskipTests
  # a new file renamed over the old: a kernel still running on the old jar keeps its file (rewritten in place, its
  # next class load would fail)
  mv -f "$COURSE_HOME/kit/target/course-kit-new.jar" "$COURSE_HOME/kit/target/course-kit.jar"
  stamp kit "$key"
}

write_env() {  # what make, the kernel, tests and the report share
  cat > "$BUILD/env.sh" <<EOF
# written by setup/setup.sh; source it to get the course's tools
export COURSE_HOME="$COURSE_HOME"
export JAVA_HOME="$JDK"
export JBANG_DIR="$BUILD/jbang-home"
export JBANG_REPO="$BUILD/jbang-repo"
export PATH="$JDK/bin:$JBANG_HOME:$VENV/bin:\$PATH"
EOF
}

precompile() {  # [a JDK other than the course's, and why]
  local jdk=${1:-$JDK}
  say "pre-compiling snippets${2:+ on JDK $(jdk_feature "$jdk") at $jdk ($2)}"
  COURSE_HOME="$COURSE_HOME" JAVA_HOME="$jdk" "$jdk/bin/java" -cp "$COURSE_HOME/kit/target/course-kit.jar" course.run.Precompile
}

# The tests also grade on JDK 17, the oldest the course takes (tests/test_classroom.py), where /usr/lib/jvm has one: the
# snippets' class caches for it are made here too, on every core, as the course JDK's are (a cache belongs to one JDK)
precompile_on_jdk_17() {
  local candidate
  for candidate in /usr/lib/jvm/*; do
    [ ! -L "$candidate" ] && is_full_jdk "$candidate" && [ "$(jdk_feature "$candidate")" = 17 ] || continue
    [ "$(readlink -f "$candidate")" = "$JDK" ] || precompile "$candidate" "the tests grade on it too"
    return 0
  done
}

# The course's Python modules importable by every Python of the environment, as an installed package's are: one .pth
# file in its site-packages names the course's folder (the hub package, hub/) and its tools/ (written each time: the
# course may have moved)
course_on_python_path() {
  local site; site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  printf '%s\n%s\n' "$COURSE_HOME" "$COURSE_HOME/tools" > "$site/java-io-course.pth"
}

main() {
  local precompile=0 for_tests=0 for_hub=0 arg
  for arg in "$@"; do
    case $arg in
      --precompile) precompile=1 ;;
      --for-hub) for_hub=1; precompile=1 ;;  # learners may only read the course's build folder: everything built now
      --for-tests) for_tests=1; for_hub=1; precompile=1 ;;  # the tests run every snippet: built here at once, on every core
      *) die "unknown option $arg (allowed: --precompile, --for-hub, --for-tests)" ;;
    esac
  done
  pick_jdk
  JDK_FEATURE=$(jdk_feature "$JDK")
  say "JDK $JDK_FEATURE at $JDK ($JDK_REASON)"
  [ "$JDK_FEATURE" -ge 22 ] || say "  JDK $JDK_FEATURE < 22: the Foreign Function & Memory parts of later labs will be skipped"
  check_tools
  setup_venv
  course_on_python_path
  install_kernel
  install_lab_settings
  setup_jvm_tools
  [ $for_tests = 0 ] || setup_test_tools
  if [ $for_hub = 1 ]; then setup_hub "$([ $for_tests = 1 ] && echo optional || echo strict)"; fi
  write_env
  build_kit
  [ $precompile = 0 ] || precompile
  [ $for_tests = 0 ] || precompile_on_jdk_17
  say "ready"
}

# sourced (the tests call its steps one by one), it only defines them
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
