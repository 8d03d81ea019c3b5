"""Binder rehearsal. Binder's own build (repo2docker, conda-forge) cannot run here, so this rehearses what
it does to the course, as a learner's Binder session would meet it: the course copied into a fresh home
(repo2docker puts the repository in $HOME), with the Maven downloads the set-up made, owned by a user who is not root and cannot become root, the
JDK only at a JAVA_HOME outside /usr/lib/jvm (hidden, as a conda prefix would have it), 2 GiB of memory
(a cgroup, as Binder's pods), a private /tmp, and the older JDK binder/apt.txt installs at its Debian place (this
machine's JDK 17, read-only); then binder/postBuild, then labs 00, 08 and 09 in smoke through the course kernel, lab 09
judging JDK-8298639 between the two JDKs. Afterwards nothing may belong to that user outside the home, and the private /tmp may
hold only what the JVM itself keeps there.

Stand-in: repo2docker's conda environment is played by a venv at the same place (/srv/conda/envs/notebook, its
NB_PYTHON_PREFIX) holding setup/requirements.lock, made as that user before postBuild runs. The image must hold that
one environment (no second .venv), offer the course's kernel alone and start on the learner's copies. It needs root (another user, a cgroup, a mount namespace);
outside CI a machine without them skips it, saying why."""
import json
import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ENV, HOME, missing_as_root
import leftovers
from leftovers import memory_cgroup, remove_cgroup

MEMORY = 2 << 30
APT_JDK = Path("/usr/lib/jvm/java-17-openjdk-amd64")  # where binder/apt.txt's openjdk-17-jdk-headless lies on Ubuntu
IN_CI = os.environ.get("CI") == "true"


def missing():
    """Why this machine cannot rehearse (empty: it can)."""
    unmet = missing_as_root("another user, a cgroup, a mount namespace", ("bubblewrap", "util-linux", "git"))
    if unmet:
        return unmet
    if memory_cgroup() is None:
        return "no writable cgroup v1 memory controller"
    if not (APT_JDK / "bin/javac").exists():
        return f"no JDK 17 at {APT_JDK} to play binder/apt.txt's: sudo apt-get install openjdk-17-jdk-headless"
    return ""


def free_uid():
    """A user id no account has, one per test process (two rehearsals at once must not count each other's
    files); what it owns afterwards and did not before, the rehearsal made."""
    taken = {entry.pw_uid for entry in pwd.getpwall()}
    return next(uid for uid in range(4200 + os.getpid() % 700, 6000) if uid not in taken)


def owned_by(uid, *spared):
    """Files and folders the user owns on the root filesystem and in /dev/shm, outside the spared folders."""
    prune = [arg for folder in spared for arg in ("-path", str(folder), "-o")] + ["-path", "/proc"]
    out = subprocess.run(["find", "/", "/dev/shm", "-xdev", "(", *prune, ")", "-prune", "-o", "-uid", str(uid), "-print0"],
                         capture_output=True)
    return set(filter(None, out.stdout.split(b"\0")))


@pytest.mark.skipif(bool(missing()) and not IN_CI, reason=f"Binder rehearsal: {missing()}")
def test_binder_postbuild_and_labs_as_a_learner(tmp_path):
    uid = free_uid()
    home, private_tmp, conda = tmp_path / "jovyan", tmp_path / "tmp", tmp_path / "conda"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=HOME, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):  # the committed course as it stands in this tree, nothing it built
        if (HOME / name).exists():
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HOME / name, home / name)
            # the modes a checkout gives (git keeps only the executable bit): not this tree's, which a hub test running
            # beside this one may have closed to other users (hub/answers.py hides the answers)
            (home / name).chmod(0o755 if os.access(HOME / name, os.X_OK) else 0o644)
    # Maven's downloads (jbang, async-profiler, the kit's plugins) as the set-up fetched them: the rehearsal checks the
    # image's own steps, not the registry the set-up has already reached. Maven keeps them in the home Java sees, the
    # password file's (not $HOME)
    repository = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".m2/repository"
    if repository.is_dir():
        shutil.copytree(repository, home / ".m2/repository", symlinks=True)
    conda.mkdir()
    private_tmp.mkdir(mode=0o1777)
    private_tmp.chmod(0o1777)
    subprocess.run(["chown", "-R", f"{uid}:{uid}", str(home), str(conda)], check=True)
    passwd, group = tmp_path / "passwd", tmp_path / "group"
    passwd.write_text(Path("/etc/passwd").read_text() + f"jovyan:x:{uid}:{uid}::/home/jovyan:/bin/bash\n")
    group.write_text(Path("/etc/group").read_text() + f"jovyan:x:{uid}:\n")
    java_home = Path(ENV["JAVA_HOME"]).resolve()
    before = owned_by(uid, home, private_tmp, conda)  # an earlier rehearsal's leftovers, if any
    print(leftovers.said(leftovers.rehearsals(), "a stopped rehearsal"))
    cgroup = memory_cgroup() / f"{leftovers.REHEARSAL}{os.getpid()}"
    cgroup.mkdir()
    try:
        (cgroup / "memory.limit_in_bytes").write_text(str(MEMORY))
        env_prefix = "/srv/conda/envs/notebook"  # repo2docker's NB_PYTHON_PREFIX
        path = f"/opt/conda/lib/jvm/bin:{env_prefix}/bin:/usr/local/bin:/usr/bin:/bin"
        script = (f"cd /home/jovyan && python3 -m venv {env_prefix}"
                  f" && {env_prefix}/bin/pip install -q --disable-pip-version-check --require-hashes --no-deps -r setup/requirements.lock"
                  " && bash binder/postBuild"
                  " && bash binder/start bash -c 'echo \"$JUPYTER_CONFIG_PATH\" > build/config-path && jupyter kernelspec list --json > build/kernels.json'"
                  " && COURSE_PRESET=smoke python tools/report.py 00-start-here 08-mpi-processes 09-jdk-against-jdk")
        sandbox = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(passwd), "/etc/passwd", "--ro-bind", str(group), "/etc/group",
                   "--tmpfs", "/opt", "--perms", "0755", "--dir", "/opt/conda", "--perms", "0755", "--dir", "/opt/conda/lib",
                   "--ro-bind", str(java_home), "/opt/conda/lib/jvm", "--tmpfs", "/usr/lib/jvm",
                   "--ro-bind", str(APT_JDK), str(APT_JDK),
                   "--tmpfs", "/home", "--bind", str(home), "/home/jovyan", "--bind", str(private_tmp), "/tmp",
                   "--tmpfs", "/srv", "--perms", "0755", "--dir", "/srv/conda", "--perms", "0755", "--dir", "/srv/conda/envs",
                   "--bind", str(conda), env_prefix,
                   "--unshare-pid", "--die-with-parent",
                   "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--no-new-privs", "--inh-caps=-all",
                   "env", "-i", "HOME=/home/jovyan", "USER=jovyan", "LANG=C.UTF-8", f"PATH={path}",
                   "JAVA_HOME=/opt/conda/lib/jvm", f"NB_PYTHON_PREFIX={env_prefix}", "bash", "-c", script]
        into_cgroup = f'echo $$ > "{cgroup}/cgroup.procs" && exec "$@"'
        # pdeathsig: if this test's process is killed, the sandbox goes with it (bwrap's --die-with-parent ties
        # the sandbox to bwrap only)
        run = subprocess.run(["setpriv", "--pdeathsig", "KILL", "sh", "-c", into_cgroup, "sh", *sandbox],
                             capture_output=True, text=True, timeout=1500)
        print(run.stdout, run.stderr)  # shown with -s, or when the test fails
        log = run.stdout[-3000:] + run.stderr[-3000:]
        assert run.returncode == 0, log
        assert "setup: JDK" in run.stdout and "/opt/conda/lib/jvm (JAVA_HOME is set)" in run.stdout, log
        built = [line for line in run.stdout.splitlines() if line.startswith("precompiled ") and "/" not in line]
        assert built and [line for line in built if not line.endswith(" and its class cache")] == [], \
            f"the image holds each Java snippet's class cache, made at set-up: {built}"
        report = (home / "build/report.html").read_text()
        assert "2.0 GiB memory" in report, "the labs saw Binder's memory limit"
        assert "Lab 08" in report or "08-mpi-processes" in report
        assert not (home / ".venv").exists(), "one Python environment in the image, not a second Jupyter"
        kernels = set(json.loads((home / "build/kernels.json").read_text())["kernelspecs"])
        assert kernels == {"java-course"}, f"the learner is offered the course's kernel alone: {kernels}"
        assert (conda / "share/jupyter/kernels/java/kernel.json").exists(), "the set-up removed nothing of the environment"
        config = (home / "build/config-path").read_text().strip().split(":")
        assert "/home/jovyan/setup/jupyterlab/learner" in config and "/home/jovyan/binder/jupyter" in config, config
        copies = sorted((home / "my-labs").glob("*.ipynb"))
        assert len(copies) == len(list((home / "labs").glob("[0-9][0-9]-*.ipynb"))), "the learner's copies are made"
        assert not [c.name for c in copies if "BEGIN SOLUTION" in c.read_text()], "no answers in them"
        lab09 = json.loads(max((home / "data/results").glob("09-jdk-against-jdk-smoke-*.json")).read_text())
        raf = next(v for v in lab09["verdicts"] if v["claim"] == "openjdk.jdk-8298639.raf-read-faster")
        assert raf["verdict"] != "not measured" and "on java 17" in raf["measured"], raf
    finally:
        remove_cgroup(cgroup)
    try:
        assert sorted(owned_by(uid, home, private_tmp, conda) - before) == [], "written outside the course's home"
        left = sorted(p.name for p in private_tmp.iterdir())
        assert set(left) <= {"hsperfdata_jovyan"}, f"left in /tmp: {left}"
    finally:
        shutil.rmtree(tmp_path)  # about 1.5 GB, and files of a user that does not exist
