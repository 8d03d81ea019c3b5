"""The classroom side: nbgrader assignments made from the labs themselves.

    python tools/classroom.py release [LAB ...]   # build/classroom/release/<lab>/<lab>.ipynb for students
    python tools/classroom.py autograde LAB        # grade build/classroom/submitted/*/<lab>/
    python tools/classroom.py scores LAB           # {student: {grade cell: points}} from the gradebook

The course folder is build/classroom (COURSE_CLASSROOM overrides it); nbgrader_config.py comes from
classroom/. A lab's id is its file name without .ipynb (02-buffering)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from labs import HOME, lab_paths

ROOT = Path(os.environ.get("COURSE_CLASSROOM", HOME / "build/classroom"))
NBGRADER = str(HOME / ".venv/bin/nbgrader")


def nbgrader(*args):
    subprocess.run([NBGRADER, *args], cwd=ROOT, check=True)  # nbgrader_config.py in ROOT makes it the course


def prepare():
    ROOT.mkdir(parents=True, exist_ok=True)
    shutil.copy(HOME / "classroom/nbgrader_config.py", ROOT / "nbgrader_config.py")


def release(labs):
    """Copies each lab into source/<lab>/ and generates its student version in release/<lab>/."""
    prepare()
    for lab in labs:
        source = ROOT / "source" / lab
        if source.exists():
            shutil.rmtree(source)
        source.mkdir(parents=True)
        shutil.copy(HOME / "labs" / f"{lab}.ipynb", source / f"{lab}.ipynb")
        nbgrader("generate_assignment", lab, "--force")
        print(f"released {ROOT / 'release' / lab / (lab + '.ipynb')}")


def autograde(lab):
    prepare()
    nbgrader("autograde", lab, "--create", "--force")


def scores(lab):
    """Points per student and graded cell, read from the gradebook nbgrader keeps."""
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{ROOT / 'gradebook.db'}") as book:
        out = {}
        for submission in book.assignment_submissions(lab):
            notebook = submission.notebooks[0]
            out[submission.student_id] = {grade.name: grade.score for grade in notebook.grades}
        return out


if __name__ == "__main__":
    command, names = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("release", [])
    ids = names or [p.stem for p in lab_paths()]
    known = {p.stem for p in lab_paths()}
    for name in ids:
        if name not in known:
            sys.exit(f"classroom: no lab {name} (labs: {', '.join(sorted(known))})")
    if command == "release":
        release(ids)
    elif command == "autograde":
        for name in ids:
            autograde(name)
    elif command == "scores":
        for name in ids:
            print(name, scores(name))
    else:
        sys.exit(f"classroom: unknown command {command} (allowed: release, autograde, scores)")
