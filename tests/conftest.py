"""Shared fixtures: the course's tools (as set up by setup/setup.sh) and compiled snippets."""
import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jsonschema
import pytest

HOME = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HOME / "tools"))  # tools/labs.py runs notebooks for the tests and the report
import leftovers  # noqa: E402 (tests/, on the path as the conftest's folder)
BUILD = HOME / "build"

# A run's first process marks the run (leftovers.RUN, which every test process and all it starts inherit; pytest_configure
# starts its reaper).
FIRST = "PYTEST_XDIST_WORKER" not in os.environ
if FIRST:
    os.environ[leftovers.RUN] = str(os.getpid())

# The labs run here save their results apart from the learner's data/results (and its disk ceiling); the notebooks'
# kernels inherit this. Named by the test process's pid: what a stopped run left, its reaper or the next run removes.
leftovers.results()
RESULTS = Path(tempfile.mkdtemp(prefix=f"{leftovers.RESULTS}{os.getpid()}-"))
os.environ["COURSE_RESULTS"] = str(RESULTS)


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(RESULTS, ignore_errors=True)


def pytest_configure(config):
    """The run's reaper, in a session of its own: once the first process has ended, however it ended (Ctrl-C, SIGTERM,
    a CI timeout's SIGKILL), it stops the run's processes and removes what they left (tests/leftovers.py), saying so on
    the run's own stderr (not pytest's capture of it).

    SIGTERM (make's, when it is stopped; a CI's) stops the run as Ctrl-C does: each test process's fixtures tear down
    what they made. The first process of a run spread over workers (xdist's) passes it on to them as SIGINT, which
    Ctrl-C sends them through the terminal's process group but a SIGTERM to the first alone does not."""
    if FIRST:
        with config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
            subprocess.Popen([sys.executable, str(leftovers.REAPER), str(os.getpid())], start_new_session=True,
                             stdin=subprocess.DEVNULL, env={k: v for k, v in os.environ.items() if k != leftovers.RUN})

    def stop_as_if_interrupted(signum, frame):
        if config.pluginmanager.hasplugin("dsession"):  # the first process, which runs no test itself
            for proc in Path("/proc").glob("[0-9]*"):
                if leftovers.parent(proc.name) == os.getpid() and str(leftovers.REAPER) not in leftovers.cmdline(proc):
                    try:
                        os.kill(int(proc.name), signal.SIGINT)
                    except ProcessLookupError:
                        pass
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, stop_as_if_interrupted)


# make test spreads the test files over the cores (pytest-xdist), each file a whole, handing them out in the order they
# were collected (--no-loadscope-reorder: xdist's own order puts the files with most tests first). The files that start
# machine-wide services as root (users, a hub, Slurm, namespaces) go as one, so they run one after another on one
# worker: first the test that stops a run of them midway, then their own runs, the next ones. The longest go first
# (seconds as a full run on two cores measured them), so that none is left running alone at the end while the other
# core idles; the rest follow in their own order.
SERVICES = ["test_stopped_run.py", "test_hub.py", "test_slurm.py", "test_cluster.py"]
LONGEST_FIRST = [*SERVICES, "test_notebooks.py", "test_binder.py", "test_classroom.py", "test_cross_language.py", "test_round_trip.py",
                 "test_kernel.py", "test_bad_input.py", "test_java_unit.py", "test_c.py", "test_browser.py", "test_make_lab.py"]


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests keep their order


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's scheduling by file (--dist loadfile), the services' files one unit (xdist's own groups, --dist
    loadgroup, rename tests in a way pytest 9 no longer reads)."""
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            file = nodeid.split("::", 1)[0]
            return "services" if Path(file).name in SERVICES else file
    return ByFile(config, log)


def course_env():
    """The environment setup/setup.sh recorded in build/env.sh (JAVA_HOME, jbang, PATH), as a shell that sources it has
    it (the file is shell, read by the shell alone: make's recipes source it too)."""
    sourced = subprocess.run(["bash", "-c", 'source "$1" && env -0', "bash", str(BUILD / "env.sh")],
                             capture_output=True, check=True).stdout.decode()
    env = dict(os.environ)
    for name, value in (item.split("=", 1) for item in sourced.split("\0") if "=" in item):
        if name not in ("_", "SHLVL") and os.environ.get(name) != value:
            env[name] = value
    env.pop("COURSE_SCRATCH", None)
    return env


ENV = course_env()


def course_kernel():
    """A course kernel in the labs' folder and its client (jupyter_client's start_new_kernel), started once more where
    the first died before it answered: jupyter_client finds the kernel's ports free, closes them and hands their numbers
    over, and on a busy machine another process may take one meanwhile (JJava then stops: "Address already in use")."""
    from jupyter_client.manager import start_new_kernel
    try:
        return start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
    except RuntimeError as died:
        if "Kernel died before replying" not in str(died):
            raise
        return start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))


def kernel_env(scratch):
    """The environment a test's kernel starts in: the course's, the smoke preset, scratch files in this folder."""
    env = dict(ENV)
    env.update(COURSE_PRESET="smoke", COURSE_HOME=str(HOME), COURSE_SCRATCH=str(scratch))
    return env


def kit_answer(*args):
    """What the kit's course.run.Build prints for args, one line each: it builds a snippet as a lab does
    (content-hashed, written atomically, gcc/mpicc for C, jbang for Java, JNI libraries beside)."""
    out = subprocess.run([f"{ENV['JAVA_HOME']}/bin/java", "-cp", str(HOME / "kit/target/course-kit.jar"), "course.run.Build", *args],
                         env=ENV, capture_output=True, text=True)
    assert out.returncode == 0, f"course.run.Build {' '.join(args)}: {out.stderr}"
    return out.stdout.splitlines()


@pytest.fixture(scope="session")
def native_library():
    """native_library(name) -> the folder holding libNAME.so (c-snippets/jni/NAME.c), built by the kit."""
    return functools.cache(lambda name: Path(kit_answer("library", name)[0]).parent)


@pytest.fixture(scope="session")
def commands():
    """commands(snippet, language) -> the argv that runs a snippet, built by the kit."""
    return functools.cache(lambda snippet, language: kit_answer("command", snippet, language))


def packages():
    """setup/packages.tsv, the one place that says where each tool the course looks for comes from: {name: (what shows
    it is here, its Debian packages)}."""
    rows = {}
    for line in (HOME / "setup/packages.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, found, debian, _ = line.split("\t")
            rows[name] = (found.split(), debian)
    return rows


PACKAGES = packages()


def present(name):
    """Whether a row of setup/packages.tsv is here: every command it names on PATH, and any one of the files it names."""
    files = [word for word in PACKAGES[name][0] if word.startswith("/")]
    commands = [word for word in PACKAGES[name][0] if not word.startswith("/")]
    return all(map(shutil.which, commands)) and (not files or any(Path(f).exists() for f in files))


def not_installed(name):
    """The one line a test that needs a row of setup/packages.tsv skips with where it is missing ("" where it is here)."""
    return "" if present(name) else f"{name} is not installed (apt-get install {PACKAGES[name][1]})"


def needs(name):
    """A test that needs a row of the labs' tools: CI installs them (setup.sh as root), so there a missing one fails the
    test instead of skipping it."""
    return pytest.mark.skipif(not present(name) and os.environ.get("CI") != "true", reason=not_installed(name))


MPI = present("mpi")
needs_mpi = needs("mpi")
needs_bwrap = needs("bubblewrap")  # make autograde's sandbox
needs_liburing = needs("liburing")  # lab 10's io_uring reads link liburing where its header is (the kit's Build)


def missing_as_root(why_root, needed):
    """Why a test that needs root (for why_root) and these rows of setup/packages.tsv cannot run here, in one line with
    the install command; "" when it can."""
    if os.geteuid() != 0:
        return f"needs root ({why_root})"
    return next(filter(None, map(not_installed, needed)), "")


BROWSER_DRIVER = BUILD / "tools/browser"  # playwright-core, which the browser tests drive Debian Chromium with, and axe-core


def browser_missing():
    """Why no browser test can run here (None: one can), with the install line."""
    if not shutil.which("chromium"):
        return "no Chromium: sudo apt-get install chromium (setup/setup.sh installs it in CI as root)"
    if not shutil.which("node"):
        return "no Node.js: sudo apt-get install nodejs npm"
    for part in ("playwright-core", "axe-core"):
        if not (BROWSER_DRIVER / "node_modules" / part).is_dir():
            return f"no {part} in build/tools/browser: run setup/setup.sh with npm available"
    return None


def mpirun(procs):
    """The launcher the kit uses: quiet, more processes than cores allowed, root allowed only for root."""
    return ["mpirun"] + (["--allow-run-as-root"] if os.geteuid() == 0 else []) + ["-q", "--oversubscribe", "-np", str(procs)]


cmdline = leftovers.cmdline  # the command line of a /proc/PID folder, as one string ("" once the process is gone)


def survivors(matches, grace=15.0):
    """The command lines of the processes that matches(command line) picks and that are still there after
    up to grace seconds: whoever stops them (mpirun, the kit) may return once it has signalled them, and a
    killed process stays visible while the kernel tears down its memory."""
    deadline = time.time() + grace
    while True:
        left = [line for line in map(cmdline, Path("/proc").glob("[0-9]*")) if line and matches(line)]
        if not left or time.time() > deadline:
            return left
        time.sleep(0.2)


@pytest.fixture(scope="session")
def evict_helper(commands):
    """The page-cache evicter cold runs use (COURSE_EVICT), built by the kit."""
    return commands("evict", "c")[0]


def run_snippet(cmd, args, env_extra=None, **kw):
    env = dict(ENV)
    env.update(env_extra or {})
    return subprocess.run(cmd + args, env=env, capture_output=True, text=True, timeout=300, **kw)


SCHEMA = json.loads((HOME / "data/results.schema.json").read_text())
# what a lab saves (and a learner hands in), and one run record: the line each harness prints per run
SAVED_RESULTS = jsonschema.Draft202012Validator(SCHEMA)
RUN_RECORD = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/run"})


def rows(stdout):
    """The runs a snippet printed, each held to the run record (so every test that runs a snippet checks its output)."""
    found = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    for row in found:
        RUN_RECORD.validate(row)
    return found


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
