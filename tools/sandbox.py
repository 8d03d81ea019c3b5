"""The grading sandbox: code a person handed in runs here, never with the teacher's rights.

Built from an allowlist (bubblewrap): the code sees the system's programs and libraries, a few files of
/etc, the JDK, Python and the course's environment and sources, all read-only, and the folders it is
given; nothing else exists for it. No home folder, no /run or /var (and so no Unix socket of the host:
a read-only mount does not stop connect() on a socket file, only its absence does), no other hand-in,
no build output of the course. It has a network namespace of its own (loopback only: no way out, and
no abstract socket of the host), a process namespace of its own (it can signal nothing outside), and
its /tmp is a folder of the hand-in's on disk, not memory.

Its limits, each stated once in Limits with why, hold for all its processes together. The kernel
stops what it can stop at once (rlimits on each file's size and each process's CPU time; a cgroup's
memory and process count where this user may make one, else RLIMIT_NPROC); a watchdog polling every
WATCH_SECONDS stops the hand-in when its processes together pass a line (memory, processes, disk, files)
and says which. Where the kernel's wall is not there (memory without a cgroup), the watchdog is the limit.

    python tools/sandbox.py check     # one line: can bubblewrap make its namespaces here, and how limits are held
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

MiB, GiB = 1 << 20, 1 << 30
WATCH_SECONDS = 0.2  # how often the watchdog looks: a runaway allocation passes its line by at most what it grows in this time
KERNEL_MARGIN = 64  # the kernel's process wall sits this far above the watchdog's line, so the watchdog sees it reached and says so


@dataclass(frozen=True)
class Limits:
    memory: int  # bytes resident, all processes together
    tasks: int  # processes and threads together
    file_size: int  # bytes, any one file
    disk: int  # bytes written, all files together (its scratch, results, /tmp, home)
    files: int  # files and folders, all together
    cpu_seconds: int  # CPU time of any one process

    @staticmethod
    def for_largest_file(largest):
        """The limits of one hand-in whose lab writes files of at most `largest` bytes (its preset's biggest size)."""
        return Limits(
            # nbgrader (~150 MB), the lab's kernel JVM (~0.5 GB), jbang's and the run's JVMs, lab 08's MPI ranks, with room
            memory=4 * GiB,
            # a JVM starts 20-40 threads; lab 08 runs a kernel, mpirun and its JVM ranks at once: a few hundred tasks at most
            tasks=1024,
            # a lab's largest file, twice over: a run's own file beside the data file it reads
            file_size=max(2 * largest, 256 * MiB),
            # those two files, twice (a write's file and a copy's target), and a GiB for the notebook, results, JVM logs
            disk=4 * largest + GiB,
            files=100_000,  # a lab makes a few hundred (jbang's caches are read-only, outside)
            # the longest lab's kernel uses a few minutes of CPU in quick; a process that spins for half an hour is lost
            cpu_seconds=1800,
        )


SYSTEM = ["/usr", "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
          "/etc/nsswitch.conf", "/etc/hosts", "/etc/host.conf", "/etc/gai.conf", "/etc/passwd", "/etc/group",
          "/etc/openmpi",  # lab 08's mpirun reads its defaults here
          "/sys/fs/cgroup", "/sys/devices/system/cpu"]  # read-only facts the JVM and the kit read (CPUs, memory limit)
SHARED_MEMORY = 256 * MiB  # /dev/shm, memory-backed: Open MPI's shared-memory transport (lab 08) needs room here


def system_paths():
    """What every sandbox sees of the system, read-only: /usr and its links, a few files of /etc (the JDKs'
    configuration under /etc/java-* among them), the facts of /sys the JVM reads."""
    paths = SYSTEM + sorted(str(p) for p in Path("/etc").glob("java-*"))
    return [p for p in paths if os.path.lexists(p)]


# Where a sandbox that holds another one keeps the host's /proc. A process namespace of its own needs a /proc of its own,
# and Linux mounts one only where a whole /proc is already in view (bubblewrap's own covers parts of it): so the
# outer sandbox (nbgrader, the course's code) has the host's here, which the inner one (the learner's) never sees.
HOST_PROC = "/.host-proc"


def mounts(read_only, writable, tmp, extra=(), holds_sandbox=False):
    """bubblewrap's arguments for a sandbox that sees the system, `read_only` (paths) and `writable`
    ({path outside: path inside}), with `tmp` as its /tmp; everything else is absent and its root read-only.
    holds_sandbox: another sandbox with a process namespace of its own will be made inside (see HOST_PROC)."""
    args = []
    for top in ("bin", "lib", "lib64", "sbin"):  # merged /usr: links into it; elsewhere real folders
        path = Path("/") / top
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for path in system_paths():
        args += ["--ro-bind", path, path]
    args += ["--dev", "/dev", "--size", str(SHARED_MEMORY), "--tmpfs", "/dev/shm", "--proc", "/proc",
             "--bind", str(tmp), "/tmp"] + (["--bind", "/proc", HOST_PROC] if holds_sandbox else [])
    # What lies under /tmp (a course cloned there) is shown after /tmp, on folders of its own made read-only at the
    # end: the folders leading to it would otherwise be made in the sandbox's writable /tmp, and look writable.
    under_tmp = sorted({Path("/tmp", Path(p).relative_to("/tmp").parts[0]) for p in [*read_only, *writable.values()]
                        if Path(p).is_relative_to("/tmp") and Path(p) != Path("/tmp")})
    for top in under_tmp:
        args += ["--tmpfs", str(top)]
    for path in read_only:
        args += ["--ro-bind", str(path), str(path)]
    for outside, inside in writable.items():
        args += ["--bind", str(outside), str(inside)]
    args += list(extra)
    # last: nothing else can be made (bubblewrap's own root and /dev are memory-backed)
    for top in under_tmp:
        args += ["--remount-ro", str(top)]
    return args + ["--remount-ro", "/dev", "--remount-ro", "/"]


def command(bwrap, argv, limits, read_only=(), writable=None, tmp=None, env=None, cwd=None, holds_sandbox=False):
    """The whole command line of a sandbox: its namespaces, what it sees (see mounts), a clean environment
    holding env, and argv run under the kernel's limits."""
    args = [bwrap, *namespaces(), *mounts(read_only, writable or {}, tmp, holds_sandbox=holds_sandbox)]
    for name, value in (env or {}).items():
        args += ["--setenv", name, value]
    if cwd:
        args += ["--chdir", str(cwd)]
    return args + rlimits(limits, os.geteuid() == 0) + list(argv)


def rlimits(limits, root):
    """`prlimit` in front of the sandboxed command: set inside the sandbox, so that RLIMIT_NPROC counts the
    sandbox's own processes (set outside, it would count every process of the teacher's). It binds no one
    who is root (the kernel exempts root): there the cgroup is the wall."""
    args = ["prlimit", f"--fsize={limits.file_size}", f"--cpu={limits.cpu_seconds}", "--core=0"]
    if not root:
        args.append(f"--nproc={limits.tasks + KERNEL_MARGIN}")
    return args + ["--"]


NOBODY = "65534"  # who the code is inside: nobody, whoever grades (root included), with no capability


def namespaces(own_network=True):
    """A user (as nobody), process, IPC, host-name and cgroup namespace of its own, and a network of its own unless
    it must share its parent's (a kernel and nbgrader talk over loopback). Outermost, the environment starts empty."""
    return ["--unshare-user", "--uid", NOBODY, "--gid", NOBODY, "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc",
            "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session"] \
        + (["--unshare-net", "--clearenv"] if own_network else [])


class Cgroup:
    """A cgroup v1 memory and pids pair below this process's own (so the container's limits still hold),
    where this user may make one (root on a host with v1 controllers); None elsewhere."""

    def __init__(self, folders):
        self.folders = folders  # {"memory": Path, "pids": Path}

    @staticmethod
    def make(name, limits):
        """The sandbox's cgroup: the kernel's walls just above the watchdog's lines."""
        return Cgroup.walled(name, limits.memory + GiB // 2, limits.tasks + KERNEL_MARGIN)

    @staticmethod
    def walled(name, memory, tasks, cpu_shares=None):
        """A cgroup of this name below this process's own, holding its members to `memory` bytes (swap included where
        the kernel counts it) and `tasks` processes and threads, and, given cpu_shares, to that weight of the CPUs
        against its siblings (cpu.shares: each learner's server an equal share, however many threads it runs); None
        where none may be made."""
        own = {}
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for c in controllers.split(","):
                own[c] = path
        folders = {}
        wanted = ("memory", "pids", "cpu") if cpu_shares else ("memory", "pids")
        for controller in wanted:
            base = Path("/sys/fs/cgroup") / controller
            if controller not in own or not os.access(base / "cgroup.procs", os.W_OK):
                break
            folder = base / own[controller].lstrip("/") / name
            try:
                folder.mkdir()
            except OSError:
                break
            folders[controller] = folder
        cgroup = Cgroup(folders)
        if len(folders) < len(wanted):
            cgroup.remove()
            return None
        (folders["memory"] / "memory.limit_in_bytes").write_text(str(memory))
        swap = folders["memory"] / "memory.memsw.limit_in_bytes"
        if swap.exists():
            swap.write_text(str(memory))
        (folders["pids"] / "pids.max").write_text(str(tasks))
        if cpu_shares:
            (folders["cpu"] / "cpu.shares").write_text(str(cpu_shares))
        return cgroup

    def admit(self, uid):
        """Lets the user `uid` move its own processes in (wrap, run as that user); its walls stay root's to set."""
        for folder in self.folders.values():
            os.chown(folder / "cgroup.procs", uid, -1)

    # the shell's script is this constant; the folders and argv reach it as arguments, never inside its text
    JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 1; shift; done; shift; exec "$@"'

    def wrap(self, argv):
        """argv run as a member of this cgroup from its first instruction (a shell joins, then becomes argv)."""
        return ["/bin/sh", "-c", self.JOIN, "sh", *map(str, self.folders.values()), "--", *argv]

    def oom_kills(self):
        for line in (self.folders["memory"] / "memory.oom_control").read_text().splitlines():
            if line.startswith("oom_kill "):
                return int(line.split()[1])
        return 0

    def remove(self):
        for folder in self.folders.values():
            for _ in range(50):  # the last processes may still be leaving
                try:
                    for pid in (folder / "cgroup.procs").read_text().split():
                        os.kill(int(pid), signal.SIGKILL)
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except (OSError, ValueError):
                    time.sleep(0.05)


@dataclass
class Outcome:
    returncode: int
    stopped: str | None  # why the watchdog or the kernel stopped it, or None
    seconds: float
    peak_memory: int
    peak_tasks: int
    peak_disk: int


def processes():
    """{pid: (ppid, threads)} of every process, from /proc/PID/stat."""
    out = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rindex(")") + 2:].split()  # the name may hold spaces and brackets
        out[int(entry.name)] = (int(fields[1]), int(fields[17]))
    return out


def proportional_memory(pid):
    """A process's share of the memory it holds (PSS: a page shared by n processes counts 1/n to each, so forks and
    JVMs sharing libraries are not counted many times over), in bytes; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def held_by(uids):
    """What the processes of these users hold together (PSS: a page shared by several counted once)."""
    held = 0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if proc.stat().st_uid in uids:
                held += proportional_memory(int(proc.name))
        except OSError:
            continue  # gone meanwhile
    return held


def tree_usage(root_pid):
    """Memory (PSS) and tasks of root_pid and all its descendants (a pid namespace's orphans stay below it)."""
    table = processes()
    children = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    tree, todo = [], [root_pid]
    while todo:
        pid = todo.pop()
        if pid in table:
            tree.append(pid)
        todo += children.get(pid, [])
    tasks = sum(table[pid][1] for pid in tree)
    return sum(proportional_memory(pid) for pid in tree), tasks


def disk_usage(folder, most_entries):
    """Bytes allocated and entries under folder, links not followed; stops counting past most_entries."""
    used = entries = 0
    todo = [folder]
    while todo and entries <= most_entries:
        try:
            with os.scandir(todo.pop()) as it:
                for entry in it:
                    entries += 1
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    used += st.st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
        except OSError:
            continue
    return used, entries


def size(n):
    return f"{n / GiB:.1f} GiB" if n >= GiB else f"{n / MiB:.0f} MiB"


def run(argv, work, limits, timeout, name, stdout=None, use_cgroup=True):
    """Runs argv (a bubblewrap command line, with rlimits inside) under the watchdog, and a cgroup where one
    can be made (use_cgroup=False: the watchdog alone, as where none can). Everything it writes must lie under
    work. Stops it when a limit is passed or after timeout seconds; the Outcome says why."""
    cgroup = Cgroup.make(name, limits) if use_cgroup and os.geteuid() == 0 else None
    start = time.monotonic()
    peak = {"memory": 0, "tasks": 0, "disk": 0}
    stopped = None
    proc = subprocess.Popen(cgroup.wrap(argv) if cgroup else argv, stdout=stdout, stderr=subprocess.STDOUT if stdout else None)
    try:
        while True:
            try:
                proc.wait(WATCH_SECONDS)
                break
            except subprocess.TimeoutExpired:
                pass
            memory, tasks = tree_usage(proc.pid)
            disk, entries = disk_usage(work, limits.files)
            peak = {"memory": max(peak["memory"], memory), "tasks": max(peak["tasks"], tasks), "disk": max(peak["disk"], disk)}
            if tasks > limits.tasks:
                stopped = f"it ran more than {limits.tasks} processes and threads at once"
            elif memory > limits.memory:
                stopped = f"its processes held more than {size(limits.memory)} of memory together"
            elif disk > limits.disk:
                stopped = f"it wrote more than {size(limits.disk)} of files"
            elif entries > limits.files:
                stopped = f"it made more than {limits.files:,} files"
            elif time.monotonic() - start > timeout:
                stopped = f"it took longer than {timeout} s"
            if stopped:
                proc.kill()  # bubblewrap: its pid namespace, and every process in it, goes with it
                proc.wait()
                break
        if cgroup and stopped is None and cgroup.oom_kills():
            stopped = f"it went past its memory ({size(limits.memory)}) and the kernel stopped one of its processes"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if cgroup:
            cgroup.remove()
    return Outcome(proc.returncode, stopped, time.monotonic() - start, peak["memory"], peak["tasks"], peak["disk"])


USERNS_HELP = ("on Ubuntu 23.10 and later AppArmor keeps programs from making user namespaces: allow it with "
               "'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0' (for good: a file in /etc/sysctl.d), "
               "or give bwrap an AppArmor profile that allows 'userns'")


def check(bwrap):
    """None when bubblewrap can make the namespaces grading needs here; else one line saying why not and what to do."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = subprocess.run([bwrap, *namespaces(), *mounts([], {}, tmp), "true"], capture_output=True, text=True)
    if probe.returncode == 0:
        return None
    said = (probe.stderr.strip().splitlines() or ["no message"])[-1]
    hint = USERNS_HELP if "uid map" in said or "ermission" in said or "not permitted" in said else "see bubblewrap's message"
    return f"bubblewrap cannot make a sandbox here ({said}): {hint}"


def how_limits_hold():
    root = os.geteuid() == 0
    cgroup = Cgroup.make(f"course-check-{os.getpid()}", Limits.for_largest_file(0)) if root else None
    if cgroup:
        cgroup.remove()
        return "memory and processes by a cgroup, files and CPU time by rlimits, and a watchdog"
    if root:
        return "files and CPU time by rlimits; memory and processes by a watchdog only (no cgroup may be made here)"
    return "files, CPU time and processes by rlimits; memory by a watchdog only (no cgroup may be made here)"


if __name__ == "__main__":
    if sys.argv[1:] != ["check"]:
        sys.exit("usage: python tools/sandbox.py check")
    found = shutil.which("bwrap")
    if not found:
        sys.exit("sandbox: bubblewrap is not installed: sudo apt-get install bubblewrap")
    problem = check(found)
    if problem:
        sys.exit("sandbox: " + problem)
    print("sandbox: ready; limits held by " + how_limits_hold())
