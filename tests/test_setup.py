"""The set-up notices a course folder that has moved: a venv's scripts name the folder they were made in."""
import os
import shutil
import subprocess
import sys

from conftest import HOME


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
