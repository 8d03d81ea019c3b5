"""The course's Slurm job scripts on a real Slurm: a one-host cluster (slurmctld, slurmd and munge from Debian's
packages) that the test starts itself, since there is no service manager here, with its configuration, key, state and
logs in a folder of its own, on ports nothing else uses. Needs root (Slurm's daemons); elsewhere it skips, saying why;
CI runs it. Everything it starts (daemons, jobs, JupyterLab) is gone afterwards."""
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

from pathlib import Path

import pytest

from conftest import ENV, HOME, cmdline, missing_as_root, survivors
import leftovers

IN_CI = os.environ.get("CI") == "true"


def missing():
    """Why this machine cannot run a Slurm of its own (empty: it can)."""
    return missing_as_root("Slurm's daemons", ("slurm", "slurm-client", "munge"))


pytestmark = pytest.mark.skipif(bool(missing()) and not IN_CI, reason=f"a one-host Slurm: {missing()}")


def loopback_ports(count):
    """count ports the kernel gives on the loopback, all held at once while it picks them (one at a time, it could give
    the same port twice); closed for the daemons to take."""
    held = [socket.create_server(("127.0.0.1", 0)) for _ in range(count)]
    try:
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


class Slurm:
    """One host, one node, one partition; every path in one folder, so nothing of it lands in /etc, /run or /var."""

    def __init__(self, folder):
        self.folder = folder
        self.node = socket.gethostname().split(".")[0]
        self.daemons = []

    def up(self):
        f = self.folder
        (f / "state").mkdir()
        (f / "spool").mkdir()
        (f / "munge.key").write_bytes(secrets.token_bytes(1024))
        (f / "munge.key").chmod(0o600)
        ctld, node = loopback_ports(2)
        (f / "slurm.conf").write_text(f"""ClusterName=course
SlurmctldHost={self.node}
SlurmUser=root
SlurmctldPort={ctld}
SlurmdPort={node}
AuthType=auth/munge
AuthInfo=socket={f / 'munge.socket'}
CredType=cred/munge
StateSaveLocation={f / 'state'}
SlurmdSpoolDir={f / 'spool'}
SlurmctldPidFile={f / 'slurmctld.pid'}
SlurmdPidFile={f / 'slurmd.pid'}
SlurmctldLogFile={f / 'slurmctld.log'}
SlurmdLogFile={f / 'slurmd.log'}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName={self.node} CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=course Nodes={self.node} Default=YES MaxTime=INFINITE State=UP
""")
        self.daemons.append(subprocess.Popen(["munged", "-F", "-f", f"--socket={f / 'munge.socket'}", f"--key-file={f / 'munge.key'}",
                                              f"--log-file={f / 'munged.log'}", f"--pid-file={f / 'munged.pid'}",
                                              f"--seed-file={f / 'munged.seed'}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for daemon in (["slurmctld", "-D", "-i"], ["slurmd", "-D"]):
            self.daemons.append(subprocess.Popen(daemon, env=self.env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for _ in range(100):  # the node reports to the controller
            said = subprocess.run(["sinfo", "-h", "-o", "%t"], env=self.env(), capture_output=True, text=True)
            if said.stdout.strip() == "idle":
                return
            time.sleep(0.2)
        raise AssertionError(f"Slurm's node never came up: {said.stdout}{said.stderr}{(f / 'slurmd.log').read_text()[-2000:]}")

    def env(self, **extra):
        return dict(ENV, SLURM_CONF=str(self.folder / "slurm.conf"), **extra)

    def submit(self, script, *args, **extra):
        out = subprocess.run(["sbatch", "--parsable", *args, str(script)], env=self.env(**extra), cwd=HOME,
                             capture_output=True, text=True, check=True)
        return out.stdout.strip().split(";")[0]

    def finished(self, job, patience_s=120):
        for _ in range(patience_s * 5):
            if not subprocess.run(["squeue", "-h", "-j", job], env=self.env(), capture_output=True, text=True).stdout.strip():
                return
            time.sleep(0.2)
        raise AssertionError(f"job {job} never ended")

    def down(self):
        for daemon in reversed(self.daemons):
            daemon.terminate()
            try:
                daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()


def left_by(folder, grace=15.0):
    """This Slurm's processes still there after up to grace seconds, {pid: command line}: those whose command line names
    its folder, and its job steps' slurmstepd, whose environment does (its slurmd's SLURM_CONF); another Slurm's on the
    machine are not its."""
    deadline = time.time() + grace
    while True:
        left = leftovers.processes(lambda line, environ: str(folder) in line
                                   or (line.startswith("slurmstepd") and str(folder).encode() in environ))
        if not left or time.time() > deadline:
            return left
        time.sleep(0.2)


@pytest.fixture(scope="module")
def slurm():
    print(leftovers.said(leftovers.slurm(), "a stopped run of the Slurm tests"))
    folder = Path(tempfile.mkdtemp(prefix=f"{leftovers.SLURM}{os.getpid()}-"))  # named by this process: see tests/leftovers.py
    cluster = Slurm(folder)
    try:
        cluster.up()
        yield cluster
    finally:
        cluster.down()
        assert left_by(folder) == {}, "a process of the Slurm was left"
        shutil.rmtree(folder)


def test_the_jupyterlab_job_starts_the_learners_jupyterlab_and_says_how_to_reach_it(slurm, tmp_path):
    """cluster/jupyterlab.sbatch, submitted as the README says: the job's output names the node, the port and the ssh
    tunnel, then the address once JupyterLab answers there with the learner's token; scancel ends it all."""
    token = secrets.token_hex(8)
    job = slurm.submit(HOME / "cluster/jupyterlab.sbatch", f"--output={tmp_path}/jupyterlab-%j.out",
                       COURSE_MY_LABS=str(tmp_path / "my-labs"), COURSE_TOKEN=token)
    output = tmp_path / f"jupyterlab-{job}.out"
    try:
        for _ in range(600):
            said = output.read_text() if output.exists() else ""
            if "Open it at" in said:
                break
            time.sleep(0.2)
        assert "Open it at" in said, said
        port = re.search(r"port (\d+) \(job " + job, said).group(1)
        assert f"ssh -N -L {port}:127.0.0.1:{port} -J " in said and f"@{slurm.node}" in said, said
        assert f"http://127.0.0.1:{port}/lab/tree/00-start-here.ipynb?token={token}" in said, said
        status = urllib.request.Request(f"http://127.0.0.1:{port}/api/status", headers={"Authorization": f"token {token}"})
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(status, timeout=10) as answer:
            assert answer.status == 200
        assert len(list((tmp_path / "my-labs").glob("[0-9][0-9]-*.ipynb"))) == len(list((HOME / "labs").glob("[0-9][0-9]-*.ipynb")))
    finally:
        subprocess.run(["scancel", job], env=slurm.env())
        slurm.finished(job)
    assert survivors(lambda line: str(tmp_path) in line) == [], "JupyterLab outlived its job"


def test_lab_08_as_a_batch_job_and_then_charted_and_judged_where_nothing_runs(slurm, tmp_path):
    """cluster/lab08.sbatch runs lab 08 headless in the preset named, inside the allocation, and names the results file;
    lab 08 opened on that file (COURSE_LOAD) where no MPI is (COURSE_MPIRUN names none) shows its runs, charts and
    verdicts, runs nothing, and saves nothing new."""
    results, scratch = tmp_path / "results", tmp_path / "scratch"
    results.mkdir()
    scratch.mkdir()
    job = slurm.submit(HOME / "cluster/lab08.sbatch", "-n", "2", f"--output={tmp_path}/lab08-%j.out",
                       COURSE_PRESET="smoke", COURSE_RESULTS=str(results), COURSE_SCRATCH=str(scratch))
    slurm.finished(job, patience_s=600)
    said = (tmp_path / f"lab08-{job}.out").read_text()
    saved = sorted(results.glob("08-mpi-processes-smoke-*.json"))
    assert len(saved) == 1 and f"lab 08's runs: {saved[0]}" in said, said[-3000:]
    assert f"COURSE_LOAD={saved[0]} make lab" in said
    offered = subprocess.run(["srun", "--mpi=list"], env=slurm.env(), capture_output=True, text=True).stdout.split()
    card = json.loads(saved[0].read_text())["machine"]
    assert card["mpi launcher"] == ("srun --mpi=pmix" if "pmix" in offered else "mpirun"), "Slurm's own launcher where it offers PMIx"
    from labs import execute, kernel_environment
    with kernel_environment({"COURSE_LOAD": str(saved[0]), "COURSE_MPIRUN": str(tmp_path / "no-mpi/mpirun"), "COURSE_RESULTS": str(results)}):
        nb = execute(HOME / "labs/08-mpi-processes.ipynb", "smoke", scratch=scratch)
    shown = "".join(str(out.get("data", {}).get("text/plain", "")) + str(out.get("text", "")) for cell in nb.cells for out in cell.get("outputs", []))
    assert f"loaded from {saved[0]}" in shown and "Judged on: MPI jobs of up to" in shown and "too close to call" in shown, shown[-2000:]
    assert sorted(results.iterdir()) == saved, "nothing saved besides the batch job's results"
    assert list(scratch.iterdir()) == []


def test_another_slurm_s_job_step_is_not_left_by_this_one(tmp_path):
    """The survivor check counts this Slurm's job steps alone: a slurmstepd whose environment names another Slurm's
    configuration (a cluster's own, on a teacher's machine) is not this one's; one naming this folder's is."""
    def step(conf):
        return subprocess.Popen(["bash", "-c", 'exec -a "slurmstepd: [9.batch]" sleep 60'], env=dict(ENV, SLURM_CONF=conf))
    others, ours = step("/etc/slurm/slurm.conf"), step(str(tmp_path / "slurm.conf"))
    try:
        deadline = time.time() + 30  # each has exec'd under its new name
        while not all(cmdline(Path(f"/proc/{p.pid}")).startswith("slurmstepd") for p in (others, ours)) and time.time() < deadline:
            time.sleep(0.05)
        assert list(left_by(tmp_path, grace=0)) == [ours.pid]
    finally:
        for process in (others, ours):
            process.kill()
            process.wait()
