"""Lab 08 on a cluster, played on this machine: two nodes, each a network namespace with a host name of its own (a UTS
namespace) and an sshd of its own (Debian's openssh-server, keys the test makes), joined by a virtual link. Open MPI's
own launcher starts the ranks on both over ssh from a hostfile, and they talk over TCP on that link. The nodes share
this machine's file system, as a cluster's nodes share NFS or Lustre. Needs root (namespaces, sshd); elsewhere it
skips, saying why; CI runs it. Everything it starts (namespaces, sshd, ranks, files) is gone afterwards."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ENV, HOME, missing_as_root, rows, sha256, survivors
import leftovers

IN_CI = os.environ.get("CI") == "true"
NODES = {"a": "10.213.0.1", "b": "10.213.0.2"}  # inside the namespaces only: no route of the machine's is touched


def missing():
    """Why this machine cannot play a cluster (empty: it can)."""
    return missing_as_root("network and host-name namespaces, sshd",
                           ("sshd", "ssh", "iproute2", "util-linux", "mpi"))


pytestmark = pytest.mark.skipif(bool(missing()) and not IN_CI, reason=f"a cluster of two nodes: {missing()}")


class Cluster:
    """Two nodes, a and b; node a starts the jobs (mpirun runs there), as a cluster's login or first node would."""

    def __init__(self, folder):
        self.folder = folder
        tag = os.getpid()
        self.namespaces = {n: f"{leftovers.SUITE}-{tag}-{n}" for n in NODES}  # named by this process: see tests/leftovers.py
        # host names as the namespaces': Open MPI names its session folders by them (TMPDIR/ompi.HOST.UID), so what a
        # killed mpirun leaves there is this run's by name too
        self.hostnames = dict(self.namespaces)
        self.hostfile = folder / "hosts"
        self.unshared = folder / "unshared"  # node b sees a memory file system of its own here: a folder the nodes do not share
        self.sshds = []
        self.made_privsep = False

    def up(self):
        f = self.folder
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(f / "id")], check=True)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(f / "host_key")], check=True)
        shutil.copy(f / "id.pub", f / "authorized_keys")
        (f / "sshd_config").write_text(f"Port 22\nHostKey {f / 'host_key'}\nAuthorizedKeysFile {f / 'authorized_keys'}\n"
                                       "PermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                       "UsePAM no\nStrictModes no\nPidFile none\n")
        (f / "ssh_config").write_text(f"Host *\n  IdentityFile {f / 'id'}\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n"
                                      "  LogLevel ERROR\n  BatchMode yes\n")
        self.hostfile.write_text("".join(f"{address} slots=2\n" for address in NODES.values()))
        a, b = (f"cv{os.getpid() % 100000}{n}" for n in NODES)  # interface names: at most 15 characters
        for n, ns in self.namespaces.items():
            subprocess.run(["ip", "netns", "add", ns], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", "lo", "up"], check=True)
        subprocess.run(["ip", "link", "add", a, "type", "veth", "peer", "name", b], check=True)
        for n, link in (("a", a), ("b", b)):
            ns = self.namespaces[n]
            subprocess.run(["ip", "link", "set", link, "netns", ns], check=True)
            subprocess.run(["ip", "-n", ns, "addr", "add", f"{NODES[n]}/24", "dev", link], check=True)
            subprocess.run(["ip", "-n", ns, "link", "set", link, "up"], check=True)
        if not Path("/run/sshd").exists():  # sshd's privilege-separation folder (a service manager would make it)
            Path("/run/sshd").mkdir(mode=0o755)
            (f / leftovers.MADE_PRIVSEP).touch()
            self.made_privsep = True
        self.unshared.mkdir()
        for n in NODES:
            self.sshds.append(subprocess.Popen(self.on(n, ["/usr/sbin/sshd", "-D", "-e", "-f", str(f / "sshd_config")], own_mounts=n == "b"),
                                               stderr=subprocess.PIPE, text=True))
        for n in NODES:  # each answers, under its own name
            for _ in range(50):
                said = subprocess.run(self.on("a", ["ssh", "-F", str(f / "ssh_config"), NODES[n], "hostname"]), capture_output=True, text=True)
                if said.returncode == 0:
                    break
                time.sleep(0.1)
            assert said.stdout.strip() == self.hostnames[n], said.stderr

    def on(self, node, argv, own_mounts=False):
        """argv as run on a node: in its network namespace, under its host name; with own_mounts, in a mount namespace
        of its own where the unshared folder is a tmpfs (what it starts, an sshd's sessions, inherits both)."""
        mounts = ["--mount", "--propagation", "private"] if own_mounts else []
        mount = f"mount -t tmpfs course-unshared {self.unshared} && " if own_mounts else ""
        return ["ip", "netns", "exec", self.namespaces[node], "unshare", "--uts", *mounts, "sh", "-c",
                f'hostname {self.hostnames[node]} && {mount}exec "$@"', "sh", *argv]

    def env(self):
        """The environment a learner on node a sets for lab 08 (COURSE_MPI_ARGS), and what points Open MPI at this
        cluster's ssh and link."""
        link = "10.213.0.0/24"
        return dict(ENV, COURSE_MPI_ARGS=f"--hostfile {self.hostfile} --map-by node",
                    OMPI_MCA_plm_rsh_agent=f"ssh -F {self.folder / 'ssh_config'}", OMPI_MCA_pml="ob1", OMPI_MCA_btl="tcp,self",
                    OMPI_MCA_btl_tcp_if_include=link, OMPI_MCA_oob_tcp_if_include=link)

    def down(self):
        for ns in self.namespaces.values():  # whatever still runs on a node: sshd, a session, a rank
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
            for pid in pids:
                subprocess.run(["kill", "-9", pid], capture_output=True)
        for sshd in self.sshds:
            sshd.kill()
            sshd.wait()
        for ns in self.namespaces.values():
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)  # its end of the link goes with it
            for session in leftovers.TMP.glob(f"ompi.{ns}.*"):  # a rank's mpirun that was stopped cannot remove its own
                shutil.rmtree(session, ignore_errors=True)
        if self.made_privsep:
            Path("/run/sshd").rmdir()


@pytest.fixture(scope="module")
def cluster():
    print(leftovers.said(leftovers.cluster(), "a stopped run of the cluster tests"))
    folder = Path(tempfile.mkdtemp(prefix=f"{leftovers.CLUSTER}{os.getpid()}-"))
    folder.chmod(0o755)
    nodes = Cluster(folder)
    try:
        nodes.up()
        yield nodes
    finally:
        nodes.down()
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        assert not [ns for ns in nodes.namespaces.values() if ns in listed], "a node's namespace was left"
        assert survivors(lambda line: str(folder) in line or "10.213.0." in line) == [], "a process of the cluster was left"
        shutil.rmtree(folder)


def mpi_command(cluster, procs, snippet_argv, flags):
    return cluster.on("a", ["mpirun", "--allow-run-as-root", "-q", "--oversubscribe", *cluster.env()["COURSE_MPI_ARGS"].split(),
                            "-np", str(procs), "-x", "COURSE_SCRATCH", *snippet_argv, *flags])


def test_one_file_written_from_two_nodes_is_byte_for_byte_the_one_nodes(cluster, commands, tmp_path):
    """Four ranks, two on each node (a hostfile, --map-by node), write one array's blocks into one shared file, in C and
    in Java: the file is typed_arrays' big-endian ints, as one process writes them; both nodes are named in the
    records; reading it back over the two nodes sums the same as on one."""
    reference = tmp_path / "reference.dat"
    out = subprocess.run(commands("typed_arrays", "c") + ["--strategy", "big", "--op", "write", "--file-size", "64k", "--op-size", "64k",
                         "--repeat", "1", "--warmup", "0", "--file", str(reference), "--keep"], env=ENV, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    flags = ["--procs", "4", "--file-size", "64k", "--op-size", "4k", "--lock", "none", "--repeat", "1", "--warmup", "0"]
    env = dict(cluster.env(), COURSE_SCRATCH=str(tmp_path))
    sums = set()
    for language, strategy in (("c", "independent"), ("c", "collective"), ("java", "view-direct"), ("java", "mapped")):
        target = tmp_path / f"{language}-{strategy}.dat"
        out = subprocess.run(mpi_command(cluster, 4, commands("mpi_file", language), flags + ["--strategy", strategy, "--op", "write",
                             "--file", str(target), "--keep"]), env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert sha256(target) == sha256(reference), f"{language} {strategy}"
        assert [(r["hosts"], r["host_procs"], r["transport"]) for r in rows(out.stdout)] \
            == [([cluster.hostnames["a"], cluster.hostnames["b"]], [2, 2], ["tcp"])], out.stdout
        assert all(min(2, os.cpu_count()) <= cores <= os.cpu_count() for r in rows(out.stdout) for cores in r["host_cores"]), \
            "each node's processes may run on as many CPUs as mpirun bound them to, at most the node's"
        out = subprocess.run(mpi_command(cluster, 4, commands("mpi_file", language), flags + ["--strategy", strategy, "--op", "read",
                             "--file", str(tmp_path / "r.dat")]), env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        sums |= {r["checksum"] for r in rows(out.stdout)}
    assert len(sums) == 1, "every strategy in both languages reads the same ints across two nodes"


def test_lab_08_runs_its_sweeps_with_ranks_on_both_nodes(cluster, tmp_path):
    """Lab 08 in smoke, its JupyterLab kernel on node a and COURSE_MPI_ARGS naming the hostfile, as the README tells a
    learner with a cluster: no cell fails, every saved run of two or more processes had ranks on both nodes, and the
    saved machine card names them."""
    results, scratch = tmp_path / "results", tmp_path / "scratch"
    results.mkdir()
    scratch.mkdir()
    code = ("import sys; sys.path.insert(0, 'tools'); from labs import execute, HOME; "
            "execute(HOME / 'labs/08-mpi-processes.ipynb', 'smoke', scratch=sys.argv[1])")
    env = dict(cluster.env(), COURSE_RESULTS=str(results))
    out = subprocess.run(cluster.on("a", [sys.executable, "-c", code, str(scratch)]), env=env, cwd=HOME, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    saved = [json.loads(f.read_text()) for f in results.glob("08-mpi-processes-smoke-*.json")]
    assert len(saved) == 1, [f.name for f in results.iterdir()]
    jobs = [r for r in saved[0]["runs"] if r.get("procs")]
    both = [cluster.hostnames["a"], cluster.hostnames["b"]]
    assert jobs and all(r["hosts"] == (both if r["procs"] >= 2 else both[:1]) for r in jobs), \
        sorted({(r["procs"], tuple(r.get("hosts", []))) for r in jobs})
    assert any(r["procs"] >= 2 for r in jobs)
    largest = max(jobs, key=lambda r: r["procs"])
    assert all(sum(r["host_procs"]) == r["procs"] and all(1 <= c <= os.cpu_count() for c in r["host_cores"]) for r in jobs)
    assert all(r["transport"] == ["tcp"] for r in jobs if len(r["hosts"]) == 2), "the nodes' one link: TCP over the virtual one"
    each = "; ".join(f"{h}: {n} process{'' if n == 1 else 'es'} on {c} core{'' if c == 1 else 's'}"
                     for h, n, c in zip(both, largest["host_procs"], largest["host_cores"]))
    assert saved[0]["machine"]["mpi nodes"] == f"2 ({each})", "the saved machine card names the job's nodes"
    assert saved[0]["machine"]["mpi transport"] == "TCP" and saved[0]["machine"]["mpi-io"] == "ompio"
    assert list(scratch.iterdir()) == []


def test_a_shared_file_one_node_cannot_see_stops_the_job_in_one_line_naming_that_node(cluster, commands):
    """The scratch folder on a file system node b does not share (its own tmpfs there, as a node's own /tmp would be):
    the job stops before any timed run, with one line naming the process and its node, in C and in Java."""
    env = dict(cluster.env(), COURSE_SCRATCH=str(cluster.unshared))
    for language, strategy in (("c", "independent"), ("java", "view-direct")):
        target = cluster.unshared / f"{language}.dat"
        out = subprocess.run(mpi_command(cluster, 2, commands("mpi_file", language), ["--procs", "2", "--file-size", "64k", "--op-size", "4k",
                             "--lock", "none", "--repeat", "1", "--warmup", "0", "--strategy", strategy, "--op", "write", "--file", str(target)]),
                             env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode != 0 and out.stdout == "", out.stdout
        said = [line for line in out.stderr.splitlines() if "cannot see the file" in line]
        assert said == [f"mpi_file: --file {target}: process 1 (on {cluster.hostnames['b']}) cannot see the file process 0 made;"
                        " the scratch folder must be on a file system every process shares (COURSE_SCRATCH)"], out.stderr
        assert not target.exists(), "the job removed what process 0 made"
