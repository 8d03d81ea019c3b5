"""The classroom folder (build/classroom; COURSE_CLASSROOM overrides it) and nbgrader there: its configuration, the
student versions it generates, its gradebook's marks, and the course kernel grading runs."""
import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from labs import HOME

ROOT = Path(os.environ.get("COURSE_CLASSROOM", HOME / "build/classroom"))
ENVIRONMENT = Path(sys.prefix)  # the course's Python environment: .venv, or the one COURSE_VENV named to the set-up
NBGRADER = str(ENVIRONMENT / "bin/nbgrader")
KERNEL = "java-course"  # the course kernel's name (setup/kernelspec.py writes its spec)
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # what a hand-in's folder, and a learner's id, may be named


def nbgrader(*args):
    subprocess.run([NBGRADER, *args], cwd=ROOT, check=True)  # nbgrader_config.py in ROOT makes it the course


@functools.cache
def schema_head():
    """The version nbgrader stamps a new gradebook with (its alembic migrations' head), read in this process: nbgrader's
    own get_alembic_version starts an `alembic heads` command for it, a second of CPU each time a gradebook is made,
    and grading makes one for every lab it grades."""
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR
    return ScriptDirectory(ALEMBIC_DIR).get_current_head()


def nbgrader_api():
    """nbgrader's gradebook API for this process, its new gradebooks stamped by schema_head."""
    import nbgrader.api
    nbgrader.api.get_alembic_version = schema_head
    return nbgrader.api


def gradebook(folder):
    """The gradebook of an nbgrader course folder (made there when it has none)."""
    return nbgrader_api().Gradebook(f"sqlite:///{Path(folder) / 'gradebook.db'}")


def generate(course, labs):
    """nbgrader's generate_assignment for each lab of the course folder, in this process: nbgrader's own
    command takes seconds to start, once per lab."""
    nbgrader_api()  # the assignment's gradebook, made here
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    for lab in labs:
        result = api.generate_assignment(lab, force=True)
        if not result["success"]:
            sys.exit(f"classroom: nbgrader could not make the student version of {lab}:\n{result.get('log', '')}{result.get('error', '')}")


def prepare():
    """The classroom folder with the course's nbgrader configuration; a configuration the teacher changed there is kept."""
    ROOT.mkdir(parents=True, exist_ok=True)
    ours, theirs = HOME / "classroom/nbgrader_config.py", ROOT / "nbgrader_config.py"
    if not theirs.exists():
        shutil.copy(ours, theirs)
    elif theirs.read_bytes() != ours.read_bytes():
        print(f"classroom: keeping your {theirs} (it differs from the course's {ours}; delete it to take the course's)", file=sys.stderr)


@functools.cache  # read once a run: every hand-in asks for it several times, and it does not change meanwhile
def grading_kernel():
    """The course kernel's spec as Jupyter finds it (JUPYTER_PATH first, then the course's environment): grading runs
    the JDK it names."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    try:
        return KernelSpecManager().get_kernel_spec(KERNEL)
    except NoSuchKernel:
        sys.exit(f"classroom: no {KERNEL} kernel is installed here: run setup/setup.sh")


def grading_java_home():
    return grading_kernel().env["JAVA_HOME"]


def java_feature(java_home):
    """The JDK's feature release (17, 25) from its own release file."""
    found = re.search(r'^JAVA_VERSION="(\d+)', (Path(java_home) / "release").read_text(), re.M)
    if not found:
        sys.exit(f"classroom: {java_home}/release names no JAVA_VERSION: is JAVA_HOME a JDK?")
    return int(found.group(1))


def ensure(folder):
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def scores(lab, root=ROOT):
    """Points per student and graded cell, read from the gradebook nbgrader keeps (in the course folder root);
    None for a written answer that waits for the teacher's marks (nbgrader's formgrader, or its manual grading)."""
    with gradebook(root) as book:
        out = {}
        for submission in book.assignment_submissions(lab):
            notebook = next(n for n in submission.notebooks if n.name == lab)  # the lab's one notebook, by its name
            out[submission.student_id] = {grade.name: None if grade.needs_manual_grade else grade.score for grade in notebook.grades}
        return out


def run_kit(*args, check=True, capture=False):
    """Runs the kit (course-kit.jar) on grading's JDK, its errors reaching the teacher as they are: the kit owns the
    rules grading shares with it."""
    java_home = grading_java_home()
    return subprocess.run([str(Path(java_home) / "bin/java"), "-cp", str(HOME / "kit/target/course-kit.jar"), *args], check=check,
                          stdout=subprocess.PIPE if capture else None, text=True, env=dict(os.environ, COURSE_HOME=str(HOME), JAVA_HOME=java_home))
