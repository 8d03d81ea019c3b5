"""The classroom side: nbgrader assignments made from the labs themselves.

    python tools/classroom.py release [LAB ...]   # build/classroom/release/<lab>/<lab>.ipynb for students
    python tools/classroom.py autograde LAB        # grade build/classroom/submitted/*/<lab>/
    python tools/classroom.py scores LAB           # {student: {grade cell: points}} from the gradebook
    python tools/classroom.py handin [FOLDER]      # a learner's results (data/results) in one zip to hand in
    python tools/classroom.py class-results [FOLDER]  # the teacher's view of the zips in FOLDER (build/handin)

The course folder is build/classroom (COURSE_CLASSROOM overrides it); nbgrader_config.py comes from
classroom/. A lab's id is its file name without .ipynb (02-buffering)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import zipfile
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


def handin(folder):
    """Checks every results file a lab saved and zips them into build/handin/ (COURSE_HANDIN overrides it);
    a file that is not a lab's results stops it with a one-line error, and no zip is left behind."""
    files = sorted(f for f in Path(folder).glob("*.json") if not f.name.startswith("."))  # .saving-*: a save under way
    if not files:
        sys.exit(f"classroom: no results in {folder} (run a lab first; each saves its results there)")
    for f in files:
        try:
            doc = json.loads(f.read_text())
            ok = isinstance(doc, dict) and {"lab", "preset", "machine", "runs", "verdicts"} <= doc.keys()
        except (OSError, ValueError):
            ok = False
        if not ok:
            sys.exit(f"classroom: {f} is not a lab's results (expected the JSON a lab saves: lab, preset, machine, runs, verdicts)")
    out_dir = Path(os.environ.get("COURSE_HANDIN", HOME / "build/handin"))
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"results-{socket.gethostname()}-{time.strftime('%Y%m%d-%H%M%S')}.zip"
    partial = target.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(f, f.name)
    partial.replace(target)
    print(f"hand in this file: {target} ({len(files)} results)")


def class_results(folder):
    """Runs classroom/class-results.ipynb on the zips in folder and writes build/class-results.html
    (COURSE_CLASS_RESULTS overrides it), charts as static SVG; a failed cell makes the exit status 1."""
    from report import run_to_html, write_page
    os.environ["COURSE_HANDIN"] = str(Path(folder).resolve())  # the kernel inherits it
    body, failed = run_to_html(HOME / "classroom/class-results.ipynb", os.environ.get("COURSE_PRESET", "quick"))
    out = Path(os.environ.get("COURSE_CLASS_RESULTS", HOME / "build/class-results.html"))
    write_page(out, "Class results", body)
    print(f"class results: wrote {out}")
    if failed:
        sys.exit("classroom: class results failed: " + "; ".join(failed))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "class-results":
        class_results(sys.argv[2] if len(sys.argv) > 2 else os.environ.get("COURSE_HANDIN") or HOME / "build/handin")
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "handin":
        handin(sys.argv[2] if len(sys.argv) > 2 else os.environ.get("COURSE_RESULTS") or HOME / "data/results")
        sys.exit(0)
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
        sys.exit(f"classroom: unknown command {command} (allowed: release, autograde, scores, handin)")
