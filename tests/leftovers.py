"""What a stopped test run left on this machine, found by the names the suite owns, removed, and said in one line.

Each fixture that makes something outside a folder of its own (users and groups, a hub, Slurm's daemons, network
namespaces, a cgroup) first removes here what an earlier, killed run of it left. And each run has a reaper: conftest
starts this file in a session of its own (Ctrl-C, and the signals a CI timeout sends the run's process group, do not
reach it); once the run's first process has ended, however it ended, the reaper stops every process that carries the
run's mark (RUN, in the environment each test process and all it starts inherit) and removes what they left.

    python tests/leftovers.py PID    (the reaper of the run whose first process is PID)"""
import errno
import grp
import json
import os
import pwd
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOME = Path(__file__).resolve().parent.parent
TMP = Path(tempfile.gettempdir())
RUN = "COURSE_TEST_RUN"  # the environment variable that marks a run's processes: the pid of its first process
REAPER = HOME / "tests/leftovers.py"  # this file, as each run's reaper runs it: REAPER PID

# Every name the hub test gives a user, group or class begins with SUITE, so what a stopped run left is the suite's
# to find and remove, never a real user's or class's.
SUITE = "cth"
ROLES = ("ada", "ben", "cleo", "dan", "eve")  # the hub test's instructor and four learners
SUITE_USER = re.compile(rf"{SUITE}({'|'.join(ROLES)})\d+|{SUITE}p\d+n\d+|lti-{SUITE}\d+|grader-{SUITE}-io-[abc]")  # cthp…n…: a roster's
# people (make hub-people); lti-<sub>: the LMS's
SUITE_GROUP = re.compile(rf"{SUITE_USER.pattern}|(nbgrader|formgrade)-{SUITE}-io-[abc]")
MODES = HOME / "build/hub-test-modes.json"  # the answers' modes and groups before the hub's install changed them, until put back
MADE_NGSHARE = HOME / "build/hub-test-made-ngshare"  # there while the hub test's install made the hub's ngshare account
SLURM = f"{SUITE}-slurm-"  # /tmp/cth-slurm-<pid>-…: a one-host Slurm's folder (its configuration, key, state, logs)
CLUSTER = f"{SUITE}-cluster-"  # /tmp/cth-cluster-<pid>-…: the two nodes' folder; their namespaces cth-<pid>-a and -b
MADE_PRIVSEP = "made-run-sshd"  # in a cluster's folder: it made sshd's /run/sshd, to be removed with it
HUBS = Path("/tmp")  # where the hub tests' folders lie (/tmp/course-hub-…, which their learners must reach)
RESULTS = "course-test-results-"  # /tmp/course-test-results-<pid>-…: where a run's labs saved their results
REHEARSAL = "course-binder-rehearsal-"  # the Binder rehearsal's memory cgroup, course-binder-rehearsal-<pid>


class Busy(Exception):
    """Another run, still alive, plays a hub here: its users and classes are not leftovers."""


def alive(pid):
    """Whether a process of that pid runs (a zombie has ended)."""
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def pid_in(name, prefix):
    """The pid a name made of prefix + pid + "-…" carries (0 if none)."""
    rest = name.removeprefix(prefix).split("-")[0]
    return int(rest) if name.startswith(prefix) and rest.isdigit() else 0


def cmdline(proc):
    """The command line of a /proc/PID folder, as one string ("" once the process is gone)."""
    try:
        return (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def parent(pid):
    """The pid of a process's parent (0 once it is gone)."""
    try:
        return int(re.search(r"\nPPid:\t(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1))
    except OSError:
        return 0


def carrying(run, also=b""):
    """A matcher for processes(): those that carry the run's mark (and the bytes also in their environment)."""
    mark = f"{RUN}={run}".encode()
    return lambda line, environ: mark in environ.split(b"\0") and also in environ


def processes(matches):
    """{pid: command line} of the processes whose command line or environment (one bytes string) matches(line, environ)."""
    found = {}
    for proc in Path("/proc").glob("[0-9]*"):
        if int(proc.name) == os.getpid():
            continue
        try:
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue  # gone meanwhile, or another user's that we may not read
        line = cmdline(proc)
        if line and matches(line, environ):
            found[int(proc.name)] = line
    return found


def kill(found, patience_s=30):
    """SIGKILL to each of {pid: command line}; returns once they are gone (a killed JVM gives back its heap first)."""
    for pid in found:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + patience_s
    while any(alive(pid) for pid in found) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [f"process {pid} ({line[:80].strip()})" for pid, line in sorted(found.items())]


def remove_people(users, groups):
    """Users (their processes first, and what their JVMs left in the shared /tmp) and groups the tests made."""
    for user in users:
        subprocess.run(["pkill", "-KILL", "-u", user], check=False)
    for user in users:
        subprocess.run(["userdel", "--remove", user], check=False, capture_output=True)
        shutil.rmtree(f"/tmp/hsperfdata_{user}", ignore_errors=True)
    for group in groups:
        subprocess.run(["groupdel", group], check=False, capture_output=True)


def put_back(modes):
    """The answers' groups and modes as they were before the hub's install closed them."""
    for path, (gid, mode) in modes.items():
        if Path(path).exists() and not Path(path).is_symlink():
            os.chown(path, -1, gid)
            os.chmod(path, mode)
    MODES.unlink(missing_ok=True)


def playing_hub(folder):
    """The pid of the live test process that plays the hub in this /tmp/course-hub-* folder, or 0."""
    owner = (folder / "owner.pid").read_text() if (folder / "owner.pid").exists() else ""
    return int(owner) if owner.isdigit() and running(int(owner)) else 0


def running(pid):
    """Whether a test run's process of that pid still runs (its folders and namespaces are not leftovers)."""
    return alive(pid) and in_a_run(pid)


def in_a_run(pid):
    """Whether a process belongs to a test run: it carries a run's mark, or is a run's first process (which set the mark
    for what it starts, not in its own starting environment) and so has a reaper waiting for it. A pid reused since by
    another process is neither."""
    try:
        if any(entry.startswith(f"{RUN}=".encode()) for entry in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")):
            return True
    except OSError:
        return False
    return bool(processes(lambda line, environ: line.split()[-2:] == [str(REAPER), str(pid)]))


def hub(own=0):
    """What hub tests stopped before their end left: their hubs' processes and folders, their users and groups (by
    SUITE's names), the hub's ngshare account where a test made it, the answers' modes. The classes' names are fixed,
    so one run at a time plays a hub on a machine: raises Busy while another's (not process own's) still plays."""
    for folder in HUBS.glob("course-hub-*"):
        if playing_hub(folder) not in (0, own):
            raise Busy(f"another run of the hub tests plays a hub on this machine (pid {playing_hub(folder)}, {folder}): one at a time")
    found = kill(processes(lambda line, environ: f"{HUBS}/course-hub-" in line or f"HUB_HOME={HUBS}/course-hub-".encode() in environ))
    # the idle culler names neither its hub nor its folder: known by its parent, which the kill above left it without
    found += kill({pid: line for pid, line in processes(lambda line, environ: "jupyterhub_idle_culler" in line).items()
                   if "jupyterhub" not in cmdline(Path(f"/proc/{parent(pid)}"))})
    users = [u.pw_name for u in pwd.getpwall() if SUITE_USER.fullmatch(u.pw_name)]
    groups = [g.gr_name for g in grp.getgrall() if SUITE_GROUP.fullmatch(g.gr_name)]
    if MADE_NGSHARE.exists():
        from hub.settings import NGSHARE_ACCOUNT
        users.append(NGSHARE_ACCOUNT)
        groups.append(NGSHARE_ACCOUNT)
    remove_people(users, groups)
    MADE_NGSHARE.unlink(missing_ok=True)
    folders = list(HUBS.glob("course-hub-*"))
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
    if MODES.exists():
        put_back({path: tuple(held) for path, held in json.loads(MODES.read_text()).items()})
        found.append("the answers' modes")
    return found + [*(f"user {u}" for u in users), *(f"group {g}" for g in groups), *(f"folder {f}" for f in folders)]


def slurm():
    """A one-host Slurm whose test ended before stopping it: its daemons and jobs (which name its folder in their
    command line or environment, SLURM_CONF), and the folder."""
    found = []
    for folder in TMP.glob(f"{SLURM}*"):
        if not running(pid_in(folder.name, SLURM)):
            found += kill(processes(lambda line, environ: str(folder) in line or str(folder).encode() in environ))
            shutil.rmtree(folder, ignore_errors=True)
            found.append(f"folder {folder}")
    return found


def cluster():
    """Two nodes whose test ended before taking them down: what runs in their namespaces, the namespaces (their ends
    of the link go with them), Open MPI's session folders named by their host names (the namespaces'), what names their
    folder, sshd's /run/sshd where the test made it, the folder."""
    found = []
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout if shutil.which("ip") else ""
    for ns in re.findall(rf"^({SUITE}-(\d+)-[ab])\b", listed, re.M):
        if not running(int(ns[1])):
            pids = subprocess.run(["ip", "netns", "pids", ns[0]], capture_output=True, text=True).stdout.split()
            found += kill({int(pid): cmdline(Path(f"/proc/{pid}")) for pid in pids})
            subprocess.run(["ip", "netns", "del", ns[0]], capture_output=True)
            found.append(f"namespace {ns[0]}")
    for session in TMP.glob(f"ompi.{SUITE}-*-[ab].*"):
        if not running(pid_in(session.name, f"ompi.{SUITE}-")):
            shutil.rmtree(session, ignore_errors=True)
            found.append(f"folder {session}")
    for folder in TMP.glob(f"{CLUSTER}*"):
        if not running(pid_in(folder.name, CLUSTER)):
            found += kill(processes(lambda line, environ: str(folder) in line))
            if (folder / MADE_PRIVSEP).exists():
                try:
                    Path("/run/sshd").rmdir()
                except OSError:
                    pass
            shutil.rmtree(folder, ignore_errors=True)
            found.append(f"folder {folder}")
    return found


def memory_cgroup():
    """The folder of this process's cgroup v1 memory controller (where a child may be made), or None."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            folder = Path("/sys/fs/cgroup/memory") / path.lstrip("/")
            return folder if os.access(folder, os.W_OK) else None
    return None


def remove_cgroup(cgroup, patience_s=60):
    """Kills what is left in a cgroup and removes it. Processes just killed may still be exiting (a JVM giving back a
    large heap): cgroup v1 refuses rmdir (EBUSY) until the last task has gone."""
    deadline = time.monotonic() + patience_s
    while True:
        for pid in filter(None, (cgroup / "cgroup.procs").read_text().split()):
            subprocess.run(["kill", "-9", pid])
        try:
            cgroup.rmdir()
            return
        except OSError as busy:
            if busy.errno != errno.EBUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def rehearsals():
    """The memory cgroups of Binder rehearsals whose test process has ended."""
    parent = memory_cgroup()
    stale = [c for c in parent.glob(f"{REHEARSAL}*") if not running(pid_in(c.name, REHEARSAL))] if parent else []
    for cgroup in stale:
        remove_cgroup(cgroup)
    return [f"cgroup {c}" for c in stale]


def results():
    """The results folders of runs that have ended."""
    stale = [f for f in TMP.glob(f"{RESULTS}*") if not running(pid_in(f.name, RESULTS))]
    for folder in stale:
        shutil.rmtree(folder, ignore_errors=True)
    return [f"folder {f}" for f in stale]


def mpi_segments():
    """This user's Open MPI shared-memory files (/dev/shm: the vader transport's segments, OMPIO's semaphores) that no
    process has open or mapped any more: what MPI jobs the tests stopped left behind (a job ending by itself removes
    its own). A live job maps its segments, so none of a running job's is taken. Root takes those of users that are
    gone too (the hub test's learners, removed with their accounts)."""
    shm = Path("/dev/shm")

    def ours(uid):
        if uid == os.geteuid():
            return True
        try:
            pwd.getpwuid(uid)
            return False
        except KeyError:
            return os.geteuid() == 0

    mine = [f for f in (*shm.glob("vader_segment.*"), *shm.glob("sem.OMPIO_*"))
            if f.is_file() and not f.is_symlink() and ours(f.lstat().st_uid)]
    if not mine:
        return []
    held = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            held.update(line.split(maxsplit=5)[5].strip() for line in (proc / "maps").read_text().splitlines() if "/dev/shm/" in line)
            held.update(os.readlink(fd) for fd in (proc / "fd").iterdir() if "/dev/shm/" in os.readlink(fd))
        except (OSError, IndexError):
            continue  # gone, or not ours to read
    stale = [f for f in mine if str(f) not in held]
    for f in stale:
        f.unlink(missing_ok=True)
    return [f"{len(stale)} MPI shared-memory files in /dev/shm"] if stale else []


def everything():
    """All of the above that this user may remove (the rest is root's)."""
    found = results() + mpi_segments()
    if os.geteuid() == 0:
        for kind in (hub, slurm, cluster, rehearsals):
            try:
                found += kind()
            except Busy:
                pass  # another run's hub: not ours to take
    return found


def said(found, what):
    """The one line that says what was removed ("" when nothing was)."""
    return f"removed what {what} left: {', '.join(found)}" if found else ""


def group_of(pid):
    """A process's process group (0 once it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError):
        return 0


def reap(run):
    """Waits until the run's first process has ended, then stops the rest of the run and removes what it left."""
    try:
        group = os.getpgid(run)
        ended = os.pidfd_open(run)
        select.select([ended], [], [])  # readable once the process has ended
    except ProcessLookupError:
        group = 0  # ended already
    # a stopped run's test processes (its process group: xdist's workers, what they start in the foreground) tear down
    # what they made for a few seconds (xdist gives them 10) before it kills them
    deadline = time.monotonic() + 20
    ours = carrying(run)
    while any(group_of(pid) == group for pid in processes(ours)) and time.monotonic() < deadline:
        time.sleep(0.2)
    line = said(kill(processes(ours)) + everything(), f"the test run {run}")
    if line:
        print(f"tests: {line}", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, str(HOME / "tools"))
    reap(int(sys.argv[1]))
