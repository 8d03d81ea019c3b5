"""A class's round trip as the README's "Teaching with it" shows it, through make: each command there run as it is
written, and `make class-demo` (a simulated class, every mark checked). Grading runs learners' code in the sandbox,
so these need bubblewrap (CI has it)."""
import csv
import gzip
import json
import shutil
import subprocess
import urllib.request
import zipfile

import nbformat

from conftest import ENV, HOME, needs_bwrap


@needs_bwrap
def test_a_class_through_the_round_trip_from_a_canvas_download():
    """`make class-demo`, as the README shows it, with one learner of every kind (right, wrong, empty, partly done, one
    that tries every way out of the sandbox, a memory hog, a fork bomb) in a Canvas-style download: collected, graded
    two at a time, fed back and tabled; the demo checks every mark, feedback page and grade-table row, the host's
    socket and a process outside, and exits non-zero on any difference."""
    assert "make class-demo" in readme_round_trip()
    done = subprocess.run(["make", "-s", "class-demo"], cwd=HOME, capture_output=True, text=True, timeout=1200,
                          env=dict(ENV, LEARNERS="7", LMS="canvas", COURSE_GRADE_JOBS="2"))
    assert done.returncode == 0, done.stderr[-4000:]
    assert "7 learners of 03-operation-size (canvas): collected, graded, fed back and tabled as expected" in done.stdout


def readme_round_trip():
    """The commands of the README's round trip ('Teaching with it'), as written there."""
    block = (HOME / "README.md").read_text().split("A class's round trip, in order", 1)[1].split("```", 2)[1]
    return [line.split("#")[0].strip() for line in block.splitlines() if line.startswith("make ")]


@needs_bwrap
def test_the_readme_round_trip_runs_as_written(tmp_path):
    """Each command of the README's round trip, run as it is written, through make, in the course folder; what is the
    teacher's and the learner's is this test's own (COURSE_CLASSROOM, HOME with its Downloads, COURSE_MY_LABS,
    COURSE_RESULTS, COURSE_HANDIN, COURSE_CLASS_RESULTS). The learner of step 2 hands in labs 02 and 03 answered
    right, with saved results; one make autograde grades both, full marks; each is fed back, tabled and shown."""
    import classroom_folder as tool  # tools/ is on the path (conftest)
    import test_make_lab
    from nbgrader.api import Gradebook
    commands = readme_round_trip()
    assert commands[0] == "make assignments" and commands[-1] == "make class-demo", commands
    labs = ["02-buffering", "03-operation-size"]
    home, classroom, mine, results = tmp_path / "home", tmp_path / "classroom", tmp_path / "mine", tmp_path / "results"
    for folder in (home / "Downloads", mine, results):
        folder.mkdir(parents=True)
    for lab in labs:
        shutil.copy(HOME / "labs" / f"{lab}.ipynb", mine)  # the source: every exercise answered right
        with gzip.open(HOME / f"kit/src/test/resources/runs/{lab}.json.gz") as saved:  # a lab's real results
            (results / f"{lab}-quick-1.json").write_bytes(saved.read())
    own = dict(HOME=str(home), COURSE_CLASSROOM=str(classroom), COURSE_MY_LABS=str(mine), COURSE_RESULTS=str(results),
               COURSE_HANDIN=str(tmp_path / "handin"), COURSE_CLASS_RESULTS=str(tmp_path / "class-results.html"),
               COURSE_GRADE_JOBS="2")
    env = dict(ENV, **own)

    def run(command):
        done = subprocess.run(["bash", "-c", command], cwd=HOME, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}{done.stderr[-3000:]}"
        return done

    for command in commands:
        if command == "make class-demo":
            continue  # test_a_class_through_the_round_trip_from_a_canvas_download runs it
        if command == "make formgrade":  # a server: it answers, with Formgrader, until stopped
            with test_make_lab.served("formgrade", tmp_path, **own) as (base, token, _):
                assert test_make_lab.status(f"{base}/formgrader?token={token}") == 200
                # its Autograde would run jane's code with the teacher's rights: it refuses, naming the sandboxed way
                # (her marks, checked below, stay the sandbox's)
                pressed = urllib.request.Request(f"{base}/formgrader/api/submission/{labs[0]}/jane-doe-7/autograde", data=b"",
                                                 method="POST", headers={"Authorization": f"token {token}"})
                refused = json.load(urllib.request.urlopen(pressed, timeout=120))
                assert not refused["success"] and "make autograde" in refused.get("log", "") + refused.get("error", ""), refused
            continue
        done = run(command)
        if command.startswith("make handin"):  # the learner uploads it; the LMS's download holds it in Moodle's layout
            for lab in labs:
                with zipfile.ZipFile(home / f"Downloads/lab{lab[:2]}.zip", "w") as download:
                    download.write(tmp_path / "handin/handin-jane-doe.zip", "Jane Doe_7_assignsubmission_file_/handin-jane-doe.zip")
        if command.startswith("make autograde"):
            assert done.stderr.count("jane-doe-7 (") == 2, done.stderr  # one line per graded hand-in
    for lab in labs:
        points = {c.metadata["nbgrader"]["grade_id"]: None if c.cell_type == "markdown" else float(c.metadata["nbgrader"]["points"])
                  for c in nbformat.read(HOME / "labs" / f"{lab}.ipynb", as_version=4).cells if c.metadata.get("nbgrader", {}).get("grade")}
        assert tool.scores(lab, classroom) == {"jane-doe-7": points}, lab  # written answers wait for the teacher (None)
        assert (classroom / "feedback/jane-doe-7" / lab / f"{lab}.html").is_file(), lab
    with open(classroom / "grades.csv", newline="") as table:  # a row for every lab released; marks where handed in
        marks = {row["assignment"]: float(row["score"]) for row in csv.DictReader(table) if row["student_id"] == "jane-doe-7"}
    assert {lab for lab, score in marks.items() if score} == set(labs), marks
    assert "jane-doe" in (tmp_path / "class-results.html").read_text()
    with Gradebook(f"sqlite:///{classroom / 'gradebook.db'}") as book:
        assert [(s.first_name, s.last_name) for s in book.students] == [("Jane", "Doe")]
