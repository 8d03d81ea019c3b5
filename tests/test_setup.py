"""The set-up: it notices a course folder that has moved (a venv's scripts name the folder they were made in), refuses
a folder make or Java cannot carry, goes on when npm fails, and adds to an environment it does not own without removing
anything."""
import json
import os
import shutil
import subprocess
import sys

from conftest import ENV, HOME


def test_a_moved_course_makes_its_venv_again(tmp_path):
    course = tmp_path / "course"
    (course / "setup").mkdir(parents=True)
    shutil.copy(HOME / "setup/setup.sh", course / "setup/setup.sh")
    (course / "setup/requirements.lock").write_text("")  # pip has nothing to fetch: only the venv itself is made
    subprocess.run([sys.base_prefix + "/bin/python3", "-m", "venv", str(tmp_path / "old/.venv")], check=True)
    shutil.move(tmp_path / "old/.venv", course / ".venv")  # the folder the venv was made in moved
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "JAVA_HOME")}
    out = subprocess.run(["bash", str(course / "setup/setup.sh")], env=env, capture_output=True, text=True, timeout=300)
    assert f"the course folder has moved since .venv was made ({tmp_path}/old/.venv/bin/python" in out.stdout
    assert "): making .venv again" in out.stdout
    assert (course / ".venv/bin/pip").read_text().splitlines()[0].startswith(f"#!{course}/.venv/bin/python")
    # it goes on to the kernel, which this bare copy lacks: the set-up says so and stops
    assert out.returncode != 0 and "jjava.jar missing from .venv" in out.stderr


def test_setup_refuses_a_folder_make_or_java_cannot_carry(tmp_path):
    """A space or a colon in the course's path (make and class paths split there), a character build/env.sh's
    double quotes would act on, or bytes that are not UTF-8 (the JVM cannot open them): one line naming the
    folder, exit 1, nothing made. (A comma and a single quote work: tried with a whole set-up and two labs.)"""
    shell = b"holds one of \" $ ` \\, which the course's shell scripts cannot carry"
    for name, problem in ((b"with space", b"holds a space or a colon"), (b"with:colon", b"holds a space or a colon"),
                          (b'a"quote', shell), (b"a$dollar", shell), (b"a`tick", shell), (b"a\\backslash", shell),
                          (b"latin1-\xe9t\xe9", b"is not valid UTF-8")):
        course = os.path.join(bytes(tmp_path), name)
        os.makedirs(os.path.join(course, b"setup"))
        shutil.copy(HOME / "setup/setup.sh", os.path.join(course, b"setup/setup.sh").decode(errors="surrogateescape"))
        out = subprocess.run(["bash", os.path.join(course, b"setup/setup.sh")], capture_output=True, timeout=60)
        assert out.returncode == 1, out.stderr
        [line] = out.stderr.splitlines()
        assert line.startswith(b"setup: error: the course's folder ") and problem in line, line
        assert os.listdir(course) == [b"setup"], "nothing made"


def test_a_failing_npm_leaves_the_set_up_going(tmp_path):
    """playwright-core and axe-core are the browser tests' alone: an npm that fails (offline, behind a proxy) is one line, and the
    set-up goes on under its own `set -e` (a fallback once sat inside a comment, and a failed npm ended make lab)."""
    course = tmp_path / "course"
    (course / "setup/browser").mkdir(parents=True)
    shutil.copy(HOME / "setup/setup.sh", course / "setup/setup.sh")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(HOME / "setup/browser" / name, course / "setup/browser" / name)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "npm").write_text("#!/bin/sh\necho 'npm ERR! network request failed' >&2\nexit 1\n")
    (fake / "npm").chmod(0o755)
    script = f'set -euo pipefail; source "{course}/setup/setup.sh"; setup_browser_driver; echo "went on"'
    out = subprocess.run(["bash", "-c", script], env=dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}"),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-2:] == [
        "setup: npm failed (its messages: build/npm-browser.log); going on without playwright-core and axe-core, the browser tests will be skipped",
        "went on"], out.stdout
    assert "network request failed" in (course / "build/npm-browser.log").read_text()
    assert not (course / "build/stamps/npm-browser").exists(), "a failed install leaves no stamp: the next set-up tries again"


def test_a_proxy_npm_cannot_install_stops_make_hub_and_skips_the_hub_s_test(tmp_path):
    """configurable-http-proxy is the hub's: for make hub (strict) an npm that fails stops the set-up in one line; for
    make test (optional) the set-up goes on and tests/test_hub.py skips, saying why."""
    course = tmp_path / "course"
    (course / "setup/hub").mkdir(parents=True)
    shutil.copy(HOME / "setup/setup.sh", course / "setup/setup.sh")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(HOME / "setup/hub" / name, course / "setup/hub" / name)
    (course / "setup/requirements-hub.lock").write_text("")
    (course / "setup/requirements-ngshare.lock").write_text("")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "npm").write_text("#!/bin/sh\necho 'npm ERR! network request failed' >&2\nexit 1\n")
    (fake / "npm").chmod(0o755)
    for made in (course / ".venv/bin/jupyterhub", course / "build/tools/ngshare/bin/python"):
        made.parent.mkdir(parents=True)
        made.write_text("")
        made.chmod(0o755)
    for mode, status, last in (("optional", 0, "the hub's test will be skipped"), ("strict", 1, "npm comes with: sudo apt-get install npm)")):
        # the hub's Python packages and ngshare's count as installed (their stamps match): only the proxy is tried
        script = (f'set -euo pipefail; source "{course}/setup/setup.sh"; '
                  'for part in hub ngshare; do stamp $part "$(inputs_hash "$COURSE_HOME/setup/requirements-$part.lock"; python3 --version)"; done; '
                  f'setup_hub {mode}; echo "went on"')
        out = subprocess.run(["bash", "-c", script], env=dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}"),
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == status, out.stderr
        said = (out.stdout + out.stderr).strip().splitlines()
        assert any(line.endswith(last) and "configurable-http-proxy could not be installed" in line for line in said), said
        assert ("went on" in out.stdout) == (mode == "optional")


def test_a_named_environment_keeps_what_it_had(tmp_path):
    """COURSE_VENV names an environment the course does not own (a conda user's): the set-up adds the course's kernel
    and JupyterLab settings beside what is there and removes nothing (JJava's own kernel, the owner's overrides.json).
    The course's kernel starts its JVM with SIGINT's default restored (a JVM keeps a SIGINT it was started ignoring)."""
    env_dir = tmp_path / "conda-env"
    stock = env_dir / "share/jupyter/kernels/java"
    stock.mkdir(parents=True)
    shutil.copy(HOME / ".venv/share/jupyter/kernels/java-course/jjava.jar", stock / "jjava.jar")
    (stock / "kernel.json").write_text("{}")
    settings = env_dir / "share/jupyter/lab/settings"
    settings.mkdir(parents=True)
    (settings / "overrides.json").write_text('{"theirs": true}')
    (env_dir / "bin").mkdir()
    (env_dir / "bin/python").symlink_to(sys.executable)
    before = sorted(str(p.relative_to(env_dir)) for p in env_dir.rglob("*"))
    script = (f'set -euo pipefail; source "{HOME}/setup/setup.sh"; JDK="{ENV["JAVA_HOME"]}"; JDK_FEATURE=25; '
              "install_kernel; install_lab_settings")
    out = subprocess.run(["bash", "-c", script], env=dict(ENV, COURSE_VENV=str(env_dir)), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    after = sorted(str(p.relative_to(env_dir)) for p in env_dir.rglob("*"))
    assert set(before) <= set(after) and (settings / "overrides.json").read_text() == '{"theirs": true}', "nothing removed or changed"
    assert set(after) - set(before) == {"share/jupyter/kernels/java-course", "share/jupyter/kernels/java-course/jjava.jar",
                                        "share/jupyter/kernels/java-course/kernel.json", "share/jupyter/lab/settings/overrides.d",
                                        "share/jupyter/lab/settings/overrides.d/java-io-course.json"}
    argv = json.loads((env_dir / "share/jupyter/kernels/java-course/kernel.json").read_text())["argv"]
    assert argv[1:3] == ["--default-signal=INT", f"{ENV['JAVA_HOME']}/bin/java"], argv
