"""A test run stopped midway leaves the machine as it found it. Three runs of the services' own tests, each stopped once
its service is busy, as make test is stopped: the hub's round trip by SIGTERM to pytest (what make passes on when it
is stopped) while learners' servers run as their users; Slurm's JupyterLab job by SIGKILL to the run's whole process group
(a CI timeout's hard stop: no teardown runs) while the job runs; the cluster's lab 08 by SIGINT to the group (Ctrl-C)
while ranks run on both nodes. After each (and its reaper, tests/leftovers.py), no user, group, namespace, mount,
process, folder or changed mode of the run is left. The services' own tests run after this file on the same worker
(conftest's SERVICES): they are the next run, which must be green. Needs root; elsewhere it skips, saying why."""
import grp
import os
import pwd
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import HOME, missing_as_root
from hub.answers import answer_paths
import leftovers
import test_cluster
import test_hub
import test_slurm

IN_CI = os.environ.get("CI") == "true"
# what the services' tests start, by a word of its command line (none of this suite's other tests starts any)
STARTED_BY_SERVICES = ("jupyterhub", "configurable-http-proxy", "ngshare", "slurmctld", "slurmd", "slurmstepd", "munged", "orted",
            f"{leftovers.HUBS}/course-hub-", f"{leftovers.TMP}/{leftovers.SLURM}", f"{leftovers.TMP}/{leftovers.CLUSTER}")

pytestmark = pytest.mark.skipif(bool(missing_as_root("the services' tests", ())) and not IN_CI,
                                reason=f"a stopped run of the services' tests: {missing_as_root('the services tests', ())}")


def machine():
    """What a stopped run of the services' tests could change: users, groups, network namespaces, the mounts, the
    answers' groups and modes, the services' folders, the state files the hub test keeps while it runs."""
    modes = {}
    for path in answer_paths():
        st = path.lstat()
        modes[str(path)] = (st.st_gid, stat.S_IMODE(st.st_mode))
    folders = [*leftovers.HUBS.glob("course-hub-*"), *leftovers.TMP.glob(f"{leftovers.SLURM}*"), *leftovers.TMP.glob(f"{leftovers.CLUSTER}*"),
               *leftovers.TMP.glob(f"ompi.{leftovers.SUITE}-*")]
    return {"users": sorted(u.pw_name for u in pwd.getpwall()),
            "groups": sorted(g.gr_name for g in grp.getgrall()),
            "namespaces": subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split("\n"),
            "mounts": sorted(" ".join(line.split()[3:5]) for line in Path("/proc/self/mountinfo").read_text().splitlines()),
            "modes": modes,
            "folders": sorted(map(str, folders)),
            "state files": [str(f) for f in (leftovers.MODES, leftovers.MADE_NGSHARE) if f.exists()],
            "services' processes": sorted(leftovers.processes(lambda line, environ: any(name in line for name in STARTED_BY_SERVICES)).values())}


def marked(run):
    """{pid: command line} of the processes that carry the run's mark."""
    return leftovers.processes(leftovers.carrying(run))


def stopped(tmp_path, test, busy, stop):
    """Runs one test of a service's file in a run of its own; once busy(run's pid) holds, stops it with stop(run);
    returns what the run and its reaper printed, once both have ended."""
    # a run of its own: its first process marks it and starts its reaper (conftest), not this run's
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST") and k != leftovers.RUN}
    log = tmp_path / f"{test.split('::')[0].removeprefix('tests/')}.log"
    with open(log, "w") as out:
        # --pdeathsig: if this test's process is killed, the run it started stops too
        run = subprocess.Popen(["setpriv", "--pdeathsig", "TERM", sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-s",
                                f"--basetemp={tmp_path / 'run'}", test], cwd=HOME, env=env, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True)
    deadline = time.monotonic() + 300
    while not busy(run.pid):
        assert run.poll() is None, f"{test} ended before it was stopped:\n{log.read_text()[-3000:]}"
        assert time.monotonic() < deadline, f"{test} never got busy:\n{log.read_text()[-3000:]}"
        time.sleep(0.2)
    stop(run)
    run.wait(timeout=120)
    deadline = time.monotonic() + 120
    reaper = lambda line, environ: line.split()[-2:] == [str(leftovers.REAPER), str(run.pid)]  # noqa: E731
    while leftovers.processes(reaper):
        assert time.monotonic() < deadline, "the stopped run's reaper never ended"
        time.sleep(0.2)
    assert marked(run.pid) == {}, "a process of the stopped run outlived its reaper"
    return log.read_text()


def learners_servers(run):
    """Whether a learner of the run's hub has a server running (as that learner)."""
    learner = re.compile(rf"{leftovers.SUITE}({'|'.join(leftovers.ROLES[1:])})\d+")  # not the instructor, nor a Formgrader's grader
    learners = {u.pw_uid for u in pwd.getpwall() if learner.fullmatch(u.pw_name)}
    servers = leftovers.processes(lambda line, environ: "jupyterhub-singleuser" in line)
    return bool(marked(run)) and any(owner(pid) in learners for pid in servers)


def owner(pid):
    try:
        return Path(f"/proc/{pid}").stat().st_uid
    except OSError:
        return None


def a_job_running(run):
    """Whether a Slurm job of the run runs (its processes carry the job's id and the run's mark)."""
    return bool(leftovers.processes(leftovers.carrying(run, also=b"SLURM_JOB_ID=")))


def ranks_on_node_b(run):
    """Whether an MPI job of the run has its daemon (Open MPI's orted, started over ssh) on node b."""
    for ns in re.findall(rf"^({leftovers.SUITE}-\d+-b)\b", subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout, re.M):
        pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
        if any(leftovers.cmdline(Path(f"/proc/{pid}")).startswith("orted") for pid in pids):
            return True
    return False


@pytest.mark.parametrize("test, busy, stop, missing", [
    ("tests/test_hub.py::test_a_class_round_trip_on_the_hub", learners_servers, lambda run: run.send_signal(signal.SIGTERM),
     test_hub.missing),
    ("tests/test_slurm.py::test_the_jupyterlab_job_starts_the_learners_jupyterlab_and_says_how_to_reach_it", a_job_running,
     lambda run: os.killpg(run.pid, signal.SIGKILL), test_slurm.missing),
    ("tests/test_cluster.py::test_lab_08_runs_its_sweeps_with_ranks_on_both_nodes", ranks_on_node_b,
     lambda run: os.killpg(run.pid, signal.SIGINT), test_cluster.missing),
], ids=["hub by SIGTERM", "Slurm by SIGKILL", "cluster by Ctrl-C"])
def test_a_run_stopped_midway_leaves_the_machine_as_it_was(tmp_path, test, busy, stop, missing):
    if missing():
        assert not IN_CI, f"CI must run {test}: {missing()}"
        pytest.skip(missing())
    before = machine()
    said = stopped(tmp_path, test, busy, stop)
    after = machine()
    assert {k: v for k, v in after.items() if v != before[k]} == {}, f"left by the stopped run:\n{said[-3000:]}"
    print(said[-1500:])


def test_what_stopped_mpi_jobs_left_in_dev_shm_goes_and_a_live_job_s_stays():
    """A stopped MPI job leaves Open MPI's shared-memory files in /dev/shm (the vader transport's segments): the reaper
    removes this user's that no process maps, and keeps one a live process still maps."""
    import mmap
    tag = f"{os.getpid()}{time.monotonic_ns() % 100000}"
    left, live = Path(f"/dev/shm/vader_segment.test.{os.geteuid()}.{tag}.0"), Path(f"/dev/shm/vader_segment.test.{os.geteuid()}.{tag}.1")
    for path in (left, live):
        path.write_bytes(b"\0" * 4096)
    try:
        with open(live, "r+b") as held, mmap.mmap(held.fileno(), 4096):
            found = leftovers.mpi_segments()
            assert not left.exists() and live.exists(), found
            assert any("MPI shared-memory files" in line for line in found)
    finally:
        left.unlink(missing_ok=True)
        live.unlink(missing_ok=True)
