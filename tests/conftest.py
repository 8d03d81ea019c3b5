"""Shared fixtures: the course's tools (as set up by setup/setup.sh) and compiled snippets."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HOME = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HOME / "tools"))  # tools/labs.py runs notebooks for the tests and the report
BUILD = HOME / "build"

# The labs run here save their results apart from the learner's data/results (and its disk ceiling);
# the notebooks' kernels inherit this.
RESULTS = Path(tempfile.mkdtemp(prefix="course-test-results-"))
os.environ["COURSE_RESULTS"] = str(RESULTS)


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(RESULTS, ignore_errors=True)


def course_env():
    """The environment setup/setup.sh recorded in build/env.sh (JAVA_HOME, jbang, PATH)."""
    env = dict(os.environ)
    text = (BUILD / "env.sh").read_text()
    for name, value in re.findall(r'^export (\w+)="(.*)"$', text, re.M):
        env[name] = value.replace("$PATH", os.environ.get("PATH", ""))
    env.pop("COURSE_SCRATCH", None)
    return env


ENV = course_env()


def snippet_class(snippet):
    return "".join(part.capitalize() for part in snippet.split("_"))


@pytest.fixture(scope="session")
def native_library(tmp_path_factory):
    """native_library(name) -> the folder holding libNAME.so, c-snippets/jni/NAME.c built as the kit builds it."""
    out = tmp_path_factory.mktemp("native")

    def build(name):
        folder = out / name
        if not folder.exists():
            folder.mkdir()
            include = Path(ENV["JAVA_HOME"]) / "include"
            source = HOME / "c-snippets/jni" / f"{name}.c"
            subprocess.run([compiler(source), "-O2", "-Wall", "-Werror", "-shared", "-fPIC", f"-I{include}", f"-I{include / 'linux'}",
                            "-o", str(folder / f"lib{name}.so"), str(source)], check=True)
        return folder

    return build


@pytest.fixture(scope="session")
def commands(tmp_path_factory, native_library):
    """commands(snippet, language) -> argv prefix; Java through jbang, C through gcc -O2."""
    out = tmp_path_factory.mktemp("bin")
    cache = {}

    def build(snippet, language):
        key = (snippet, language)
        if key in cache:
            return cache[key]
        if language == "c":
            binary = out / snippet
            source = HOME / "c-snippets" / f"{snippet}.c"
            subprocess.run([compiler(source), "-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-o", str(binary),
                            str(source), str(HOME / "c-snippets" / "harness.c")], check=True)
            cache[key] = [str(binary)]
        else:
            source = HOME / "java-snippets" / f"{snippet_class(snippet)}.java"
            jbang = str(BUILD / "tools/jbang/jbang")
            subprocess.run([jbang, "build", str(source)], check=True, env=ENV, capture_output=True)
            info = subprocess.run([jbang, "info", "tools", str(source)], check=True, env=ENV,
                                  capture_output=True, text=True).stdout
            info = json.loads(info[info.index("{"):])
            uses_native = libraries(source) or "java.lang.foreign" in source.read_text()
            native_access = ["--enable-native-access=ALL-UNNAMED"] if uses_native else []
            path = ":".join(str(native_library(name)) for name in libraries(source))  # one property: the JVM keeps the last
            cache[key] = [f"{ENV['JAVA_HOME']}/bin/java"] + ([f"-Djava.library.path={path}"] if path else []) + native_access + [
                "-cp", info["applicationJar"], info["mainClass"]]
        return cache[key]

    return build


def compiler(source):
    """gcc, or mpicc for sources that include <mpi.h> (as the kit chooses)."""
    return "mpicc" if "#include <mpi.h>" in source.read_text() else "gcc"


MPI = shutil.which("mpirun") and shutil.which("mpicc")
# CI installs Open MPI (setup.sh as root), so there a missing MPI fails the tests instead of skipping them
needs_mpi = pytest.mark.skipif(not MPI and os.environ.get("CI") != "true",
                               reason="Open MPI is not installed (apt-get install openmpi-bin libopenmpi-dev)")


# make autograde grades in a bubblewrap sandbox; CI installs it, a newcomer without it skips those tests
needs_bwrap = pytest.mark.skipif(not shutil.which("bwrap") and os.environ.get("CI") != "true",
                                 reason="bubblewrap is not installed (apt-get install bubblewrap)")


def mpirun(procs):
    """The launcher the kit uses: quiet, more processes than cores allowed, root allowed only for root."""
    return ["mpirun"] + (["--allow-run-as-root"] if os.geteuid() == 0 else []) + ["-q", "--oversubscribe", "-np", str(procs)]


def cmdline(proc):
    """The command line of a /proc/PID folder, as one string ("" once the process is gone)."""
    try:
        return (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def libraries(source):
    """The native libraries a Java snippet and its //SOURCES load (System.loadLibrary)."""
    files = [source] + [source.parent / name for line in source.read_text().splitlines() if line.startswith("//SOURCES ")
                        for name in line.split()[1:]]
    return sorted({m for f in files for m in re.findall(r'System\.loadLibrary\("(\w+)"\)', f.read_text())})


@pytest.fixture(scope="session")
def evict_helper(tmp_path_factory):
    binary = tmp_path_factory.mktemp("evict") / "evict"
    subprocess.run(["gcc", "-O2", "-pthread", "-o", str(binary), str(HOME / "c-snippets/evict.c"),
                    str(HOME / "c-snippets/harness.c")], check=True)
    return str(binary)


def run_snippet(cmd, args, env_extra=None, **kw):
    env = dict(ENV)
    env.update(env_extra or {})
    return subprocess.run(cmd + args, env=env, capture_output=True, text=True, timeout=300, **kw)


def rows(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
