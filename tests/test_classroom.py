"""nbgrader with the Java kernel, for real: the labs released as assignments, then autograded. The
source version earns full marks, the untouched release version zero on every autograded cell (and no
crash), and a wrong answer zero on its own cell only."""
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from conftest import ENV, HOME, MPI, needs_bwrap

CI = os.environ.get("CI") == "true"

LAB = "03-operation-size"  # pure-function exercises: the marks cannot depend on the machine


def classroom(*args, env=None):
    return subprocess.run([sys.executable, str(HOME / "tools/classroom.py"), *args], env=env, cwd=HOME,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """One course folder for this file's tests: every lab released once (nbgrader takes seconds a lab);
    each test hands in under student names of its own."""
    folder = tmp_path_factory.mktemp("classroom") / "course"
    out = classroom("release", env=dict(ENV, COURSE_CLASSROOM=str(folder)))
    assert out.returncode == 0, out.stderr
    return folder


def scores(course, lab):
    import classroom as tool  # tools/ is on the path (conftest)
    return tool.scores(lab, course)


def test_release_removes_solutions_and_keeps_tests(course):
    env = dict(ENV, COURSE_CLASSROOM=str(course))
    for lab in sorted(p.stem for p in (HOME / "labs").glob("[0-9][0-9]-*.ipynb")):
        nb = nbformat.read(course / "release" / lab / f"{lab}.ipynb", as_version=4)
        graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
        solutions = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert len(graded) >= 1 and len(solutions) >= 1, lab
        for cell in solutions:
            if cell.cell_type == "markdown":  # a written answer, graded by hand: the model answer is gone
                assert cell.source == "YOUR ANSWER HERE" and cell.metadata["nbgrader"]["points"] > 0, lab
            else:
                assert "BEGIN SOLUTION" not in cell.source and "UnsupportedOperationException" in cell.source, lab
    assert classroom("release", "99-no-such-lab", env=env).stderr.strip() == \
        "classroom: no lab 99-no-such-lab (labs: " + ", ".join(sorted(p.stem for p in (HOME / "labs").glob("[0-9][0-9]-*.ipynb"))) + ")"


# A learner's answer that tries to get out: write the course and the gradebook, reach the network, read the
# teacher's results and home. Each attempt prints what stopped it; then it answers wrong (the last, short
# operation forgotten), which must cost that cell's marks and no other's.
ESCAPES = """long systemCalls(long fileSize, long opSize, String pattern) {
    java.nio.file.Path book = java.nio.file.Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (book != null && !java.nio.file.Files.exists(book.resolve("gradebook.db"))) book = book.getParent();
    for (String target : new String[] {System.getenv("COURSE_HOME") + "/escaped.txt", book + "/gradebook.db"}) {
        try { java.nio.file.Files.writeString(java.nio.file.Path.of(target), "x", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND); System.out.println("ESCAPED write " + target); }
        catch (Exception e) { System.out.println("stopped write: " + e.getMessage()); }
    }
    try (var s = new java.net.Socket()) { s.connect(new java.net.InetSocketAddress("10.0.0.1", 80), 3000); System.out.println("ESCAPED network"); }
    catch (Exception e) { System.out.println("stopped network: " + e.getClass().getSimpleName()); }
    for (String folder : new String[] {System.getenv("COURSE_HOME") + "/data/results", System.getProperty("user.home")}) {
        String[] seen = new java.io.File(folder).list();
        System.out.println("seen in " + folder + ": " + (seen == null ? "[]" : java.util.Arrays.toString(seen)));
    }
    return fileSize / opSize;  // and a wrong answer: forgets the short last operation
}"""


@needs_bwrap
def test_autograde_source_release_and_a_wrong_answer_that_tries_to_escape(course, tmp_path):
    env = dict(ENV, COURSE_CLASSROOM=str(course), COURSE_PRESET="smoke", COURSE_SCRATCH=str(tmp_path / "scratch"), COURSE_GRADE_JOBS="2")
    (tmp_path / "scratch").mkdir()
    released = course / "release" / LAB / f"{LAB}.ipynb"
    source = HOME / "labs" / f"{LAB}.ipynb"
    for student in ("right", "blank", "escaper"):
        (course / "submitted" / student / LAB).mkdir(parents=True)
    shutil.copy(source, course / "submitted/right" / LAB / f"{LAB}.ipynb")
    shutil.copy(released, course / "submitted/blank" / LAB / f"{LAB}.ipynb")
    escaper = nbformat.read(released, as_version=4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in nbformat.read(source, as_version=4).cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in escaper.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id == "lab03-system-calls":
            cell.source = ESCAPES
        elif grade_id in answers:
            cell.source = answers[grade_id]
    nbformat.write(escaper, course / "submitted/escaper" / LAB / f"{LAB}.ipynb")
    (HOME / "data/results").mkdir(parents=True, exist_ok=True)
    teachers = HOME / "data/results/teacher-sandbox-probe.json"
    teachers.write_text("{}")  # the teacher's own results: a hand-in must not see them

    try:
        out = classroom("autograde", LAB, env=env)
    finally:
        teachers.unlink()
    assert out.returncode == 0, out.stderr[-3000:]
    got = scores(course, LAB)
    # the written answer waits for the teacher (None) where there is one, and scores zero where it was left empty
    assert got["right"] == {"lab03-system-calls-check": 2.0, "lab03-knee-check": 2.0, "lab03-think": None}
    assert got["blank"] == {"lab03-system-calls-check": 0.0, "lab03-knee-check": 0.0, "lab03-think": 0.0}
    assert got["escaper"] == {"lab03-system-calls-check": 0.0, "lab03-knee-check": 2.0, "lab03-think": None}, \
        "a wrong answer loses its own cell's marks only, escape attempts and all"
    graded = "".join(str(output.get("text", "")) for cell in nbformat.read(course / "autograded/escaper" / LAB / f"{LAB}.ipynb", as_version=4).cells
                     for output in cell.get("outputs", []))  # what the escaper's code printed
    assert "ESCAPED" not in graded
    assert graded.count("Read-only file system") >= 2 and "stopped network: " in graded
    assert f"seen in {HOME}/data/results: []" in graded, "the teacher's results are hidden"
    home = Path.home().resolve()
    shown = {p.resolve().relative_to(home).parts[0] for p in (HOME, Path(sys.base_prefix), Path(ENV.get("JAVA_HOME", "/")))
             if p.resolve().is_relative_to(home) and p.resolve() != home}
    seen_home = re.search(rf"seen in {re.escape(str(home))}: \[(.*)\]", graded)
    assert seen_home and {n for n in seen_home.group(1).split(", ") if n} <= shown, "the teacher's home shows only the installations grading needs"
    assert not (HOME / "escaped.txt").exists()
    assert list((tmp_path / "scratch").iterdir()) == [], "each hand-in had a scratch folder of its own"
    assert not any((HOME / "build/grading").iterdir()), "the sandboxes' folders are removed"


def test_autograde_refuses_without_a_sandbox_and_leaves_out_links(tmp_path):
    course = tmp_path / "course"
    env = dict(ENV, COURSE_CLASSROOM=str(course), PATH=str(tmp_path / "empty"))
    (course / "submitted/someone" / LAB).mkdir(parents=True)
    refused = classroom("autograde", LAB, env=env)
    assert refused.returncode != 0
    assert refused.stderr.strip() == ("classroom: autograde runs learners' code and bubblewrap is not installed to fence it in: "
                                      "sudo apt-get install bubblewrap (or set COURSE_UNSANDBOXED=1 to grade with your own full rights)")
    if shutil.which("bwrap"):
        (course / "submitted/someone" / LAB / f"{LAB}.ipynb").symlink_to(HOME / "labs" / f"{LAB}.ipynb")
        linked = classroom("autograde", LAB, env=dict(ENV, COURSE_CLASSROOM=str(course)))
        assert linked.returncode != 0
        assert linked.stderr.strip().splitlines()[-1] == (f"classroom: not graded (their marks are left as they were): someone ({LAB}): "
                                                          f"{LAB}.ipynb is a symbolic link (a hand-in holds files only)")
        assert not (course / "autograded").exists()
    bad = classroom("autograde", LAB, env=dict(ENV, COURSE_CLASSROOM=str(course), COURSE_GRADE_SECONDS="soon"))
    if shutil.which("bwrap"):
        assert bad.returncode != 0 and bad.stderr.strip() == "classroom: COURSE_GRADE_SECONDS=soon: must be a whole number, 1 or more"


def test_a_second_autograde_of_one_course_is_refused_while_the_first_grades(tmp_path):
    import fcntl
    course = tmp_path / "course"
    (course / "submitted/someone" / LAB).mkdir(parents=True)
    with open(course / ".grading.lock", "w") as held:  # as a first autograde holds it while it grades
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        second = classroom("autograde", LAB, env=dict(ENV, COURSE_CLASSROOM=str(course)))
    assert second.returncode != 0
    assert second.stderr.strip() == f"classroom: another autograde is grading {course}: wait for it to end (two would merge marks over each other)"
    assert not (course / "autograded").exists() and not (course / "gradebook.db").exists()


def test_handin_zips_checked_results_and_refuses_anything_else(tmp_path):
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    doc = {"lab": "01-raw-io", "preset": "smoke", "started": "x", "machine": {"cores": "2"}, "runs": [], "verdicts": []}
    (results / "01-raw-io-smoke-1.json").write_text(json.dumps(doc))
    (results / "00-start-here-smoke-1.json").write_text(json.dumps(dict(doc, lab="00-start-here")))
    (results / ".saving-123.json").write_text('{"lab": "01-raw-io", "pre')  # a lab's save under way (or one that died half-way)
    env = dict(ENV, COURSE_HANDIN=str(out))
    ok = classroom("handin", str(results), env=env)
    assert ok.returncode == 0, ok.stderr
    [archive] = out.glob("results-*.zip")
    assert sorted(zipfile.ZipFile(archive).namelist()) == ["00-start-here-smoke-1.json", "01-raw-io-smoke-1.json"]
    archive.unlink()
    (results / "notes.json").write_text("[1, 2]")
    bad = classroom("handin", str(results), env=env)
    assert bad.returncode != 0
    assert bad.stderr.strip() == f"classroom: {results / 'notes.json'} is not a lab's results (expected the JSON a lab saves: lab, preset, machine, runs, verdicts)"
    assert list(out.iterdir()) == [], "no zip when a file is refused"
    empty = classroom("handin", str(tmp_path / "nothing"), env=env)
    assert empty.returncode != 0 and "no results in" in empty.stderr


@needs_bwrap
def test_every_release_grades_to_zero_without_a_crash(course, tmp_path):
    """Every other lab's untouched student version, autograded for real in one call, two at a time: zero on
    each graded cell, and nbgrader finishes (a stub that broke the kernel or the cells after it would
    not). Full marks for the source versions follow from test_notebooks, which runs every graded cell."""
    labs = [p.stem for p in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb")) 
            if p.stem != LAB and (MPI or CI or "mpi" not in p.stem)]  # lab 08 needs Open MPI (CI has it)
    env = dict(ENV, COURSE_CLASSROOM=str(course), COURSE_PRESET="smoke", COURSE_SCRATCH=str(tmp_path / "scratch"), COURSE_GRADE_JOBS="2")
    (tmp_path / "scratch").mkdir()
    for lab in labs:
        (course / "submitted/untouched" / lab).mkdir(parents=True)
        shutil.copy(course / "release" / lab / f"{lab}.ipynb", course / "submitted/untouched" / lab / f"{lab}.ipynb")
    out = classroom("autograde", *labs, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    for lab in labs:
        graded = {c.metadata["nbgrader"]["grade_id"] for c in nbformat.read(HOME / "labs" / f"{lab}.ipynb", as_version=4).cells
                  if c.metadata.get("nbgrader", {}).get("grade")}
        assert scores(course, lab)["untouched"] == {grade_id: 0.0 for grade_id in graded}, lab
    assert list((tmp_path / "scratch").iterdir()) == []
