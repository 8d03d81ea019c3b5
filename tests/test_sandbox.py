"""The grading sandbox (tools/sandbox.py) against hostile code, run directly in it (a few seconds each): what it
must not reach it cannot, and what it must not use up it is stopped at, with the reason said. The whole
round trip through nbgrader is in test_classroom.py."""
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import HOME, needs_bwrap

import sandbox  # tools/ is on the path (conftest)

MiB = sandbox.MiB
SMALL = sandbox.Limits(memory=512 * MiB, tasks=200, file_size=32 * MiB, disk=128 * MiB, files=5_000, cpu_seconds=60)
PYTHON = [Path(sys.prefix), Path(sys.base_prefix).resolve()]  # the interpreter the hostile programs run on


def run_inside(tmp_path, program, limits=SMALL, seconds=60, cgroup=True):
    """Runs a Python program in a sandbox whose writable folder is tmp_path/work; returns (Outcome, what it printed)."""
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True)
    script = tmp_path / "program.py"
    script.write_text(textwrap.dedent(program))
    cmd = sandbox.command(shutil.which("bwrap"), [sys.executable, str(script)], limits, read_only=PYTHON + [script],
                          writable={work: work}, tmp=work / "tmp", env={"PATH": "/usr/bin:/bin"}, cwd=work)
    log = tmp_path / "printed.txt"
    with open(log, "w") as out:
        outcome = sandbox.run(cmd, work, limits, seconds, name=f"course-test-{os.getpid()}-{tmp_path.name}", stdout=out,
                              use_cgroup=cgroup)
    return outcome, log.read_text()


@needs_bwrap
def test_it_sees_only_what_it_is_given(tmp_path):
    """A host's Unix socket, its home, /run and /var, the course's outputs and other hand-ins are not there;
    what is there cannot be written; the network has no way out, not even to the host's loopback."""
    host_socket = Path("/var/tmp") / f"course-test-{os.getpid()}.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(host_socket))
    listener.listen()
    tcp = socket.create_server(("127.0.0.1", 0))
    other = tmp_path / "other-hand-in"
    other.mkdir()
    (other / "answer.ipynb").write_text("another learner's work")
    try:
        outcome, printed = run_inside(tmp_path, f"""
            import os, socket
            def attempt(what, action):
                try:
                    action()
                    print("ESCAPED", what)
                except OSError as e:
                    print("stopped", what, type(e).__name__)
            def unix():
                s = socket.socket(socket.AF_UNIX)
                s.connect({str(host_socket)!r})
            attempt("unix socket", unix)
            attempt("network", lambda: socket.create_connection(("10.0.0.1", 80), timeout=3))
            attempt("host loopback", lambda: socket.create_connection(("127.0.0.1", {tcp.getsockname()[1]}), timeout=3))
            print("home shows:", sorted(os.listdir({str(Path.home())!r})) if os.path.isdir({str(Path.home())!r}) else [])
            for path in ["/run", "/var", {str(HOME / 'build/grading')!r}, {str(HOME / 'data/results')!r},
                         {str(other)!r}, {str(HOME / 'build/class-results.html')!r}, "/etc/shadow"]:
                attempt("read " + path, lambda: os.listdir(path) if os.path.isdir(path) else open(path).read())
            for path in ["/escaped", {str(HOME / 'escaped.txt')!r}, "/usr/escaped", "/dev/escaped", {str(sys.prefix)!r} + "/escaped"]:
                attempt("write " + path, lambda: open(path, "w").write("x"))
            open("/tmp/mine", "w").write("its own /tmp")
            """)
    finally:
        listener.close()
        host_socket.unlink()
        tcp.close()
    assert outcome.returncode == 0 and outcome.stopped is None, printed
    assert "ESCAPED" not in printed, printed
    assert printed.count("stopped") == 15, printed
    home = Path.home().resolve()
    on_the_way = {p.relative_to(home).parts[0] for p in PYTHON + [tmp_path] if p.is_relative_to(home) and p != home}
    shown = eval(printed.split("home shows:")[1].splitlines()[0])
    assert set(shown) <= on_the_way, f"the home folder shows only the way to what the sandbox was given: {shown}"
    assert (tmp_path / "work/tmp/mine").read_text() == "its own /tmp", "its /tmp is a folder on disk, in its own work folder"
    assert not (HOME / "escaped.txt").exists()


@needs_bwrap
def test_it_cannot_signal_a_process_outside(tmp_path):
    outside = subprocess.Popen(["sleep", "60"])
    try:
        outcome, printed = run_inside(tmp_path, f"""
            import os, signal
            try:
                os.kill({outside.pid}, signal.SIGKILL)
                print("sent")
            except ProcessLookupError:
                print("no such process")
            print("processes in view:", sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
            """)
        assert outside.poll() is None, "the process outside lives"
    finally:
        outside.kill()
        outside.wait()
    assert outcome.returncode == 0, printed
    seen = eval(printed.split("processes in view:")[1])
    assert max(seen) < 10, f"a process namespace of its own: {printed}"


@needs_bwrap
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup-where-possible", "watchdog-only"])
def test_a_fork_bomb_is_stopped(tmp_path, cgroup):
    outcome, printed = run_inside(tmp_path, """
        import os, time
        while True:
            try:
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
            except OSError:
                time.sleep(0.01)
        """, cgroup=cgroup)
    # stopped for its processes, not when its time ran out (the sandbox's clock is the last resort, and says so)
    assert outcome.stopped == "it ran more than 200 processes and threads at once", (outcome, printed)


@needs_bwrap
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup-where-possible", "watchdog-only"])
def test_memory_past_the_limit_is_stopped(tmp_path, cgroup):
    outcome, printed = run_inside(tmp_path, """
        import time
        held = []
        while True:
            held.append(b"x" * (32 << 20))  # touched, so resident
            time.sleep(0.02)
        """, cgroup=cgroup)
    assert outcome.stopped is not None and "memory" in outcome.stopped, (outcome, printed)
    assert outcome.peak_memory < 2 * SMALL.memory


@needs_bwrap
def test_filling_the_disk_is_stopped_and_a_file_past_its_size_refused(tmp_path):
    outcome, printed = run_inside(tmp_path, """
        import os
        try:
            with open("/tmp/one-big-file", "wb") as f:
                f.write(b"x" * (48 << 20))  # past the file-size limit (32 MiB)
        except OSError as e:
            print("refused:", e.strerror, flush=True)
        os.remove("/tmp/one-big-file")
        n = 0
        while True:  # files each under the limit, until the disk would fill
            with open(f"/tmp/part-{n}", "wb") as f:
                f.write(b"x" * (16 << 20))
                os.fsync(f.fileno())
            n += 1
        """)
    assert "refused: File too large" in printed, printed
    assert outcome.stopped == "it wrote more than 128 MiB of files", (outcome, printed)


@needs_bwrap
def test_the_check_says_how_to_let_bubblewrap_make_namespaces(tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    said = sandbox.check(str(fake))
    assert said.startswith("bubblewrap cannot make a sandbox here (bwrap: setting up uid map: Permission denied): on Ubuntu")
    assert "kernel.apparmor_restrict_unprivileged_userns=0" in said and "\n" not in said
    assert sandbox.check(shutil.which("bwrap")) is None
