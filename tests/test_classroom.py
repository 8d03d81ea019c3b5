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
    import classroom_folder as tool  # tools/ is on the path (conftest)
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
        "classroom release: no lab 99-no-such-lab (labs: " + ", ".join(sorted(p.stem for p in (HOME / "labs").glob("[0-9][0-9]-*.ipynb"))) + ")"


def test_the_tool_takes_labs_as_make_passes_them_and_says_in_one_line_what_is_wrong(tmp_path):
    """make passes LAB="02-buffering 03-operation-size" as one argument: the tool splits it; a bad lab, a command it
    does not know or a second lab where one goes is one line naming it (exit 2); --help says how to call each command."""
    env = dict(ENV, COURSE_CLASSROOM=str(tmp_path / "classroom"))
    labs = ", ".join(sorted(p.stem for p in (HOME / "labs").glob("[0-9][0-9]-*.ipynb")))
    for args, said in [(["scores", "02-buffering 03-no-such-lab"], f"classroom scores: no lab 03-no-such-lab (labs: {labs})"),
                       (["feedback", "01-raw-io", "9"], f"classroom feedback: no lab 9 (labs: {labs})"),
                       (["collect", "02-buffering 03-operation-size", "x.zip"],
                        "classroom collect: '02-buffering 03-operation-size': name one lab (02-buffering)"),
                       (["grade"], "classroom: argument COMMAND: invalid choice: 'grade' (choose from 'prepare', 'release', "
                                   "'autograde', 'scores', 'feedback', 'grades', 'collect', 'handin', 'class-results')")]:
        out = classroom(*args, env=env)
        assert (out.returncode, out.stderr.strip()) == (2, said), args
    helped = classroom("autograde", "--help", env=env)
    assert helped.returncode == 0 and "one argument holding several at spaces" in " ".join(helped.stdout.split())
    scored = classroom("scores", "02-buffering 03-operation-size", env=env)  # split, then: nothing graded yet
    assert scored.stderr.strip() == f"classroom: no gradebook in {tmp_path / 'classroom'} yet: make autograde grades the hand-ins first"


def test_prepare_keeps_a_configuration_the_teacher_changed(tmp_path):
    env = dict(ENV, COURSE_CLASSROOM=str(tmp_path / "classroom"))
    assert classroom("prepare", env=env).returncode == 0
    config = tmp_path / "classroom" / "nbgrader_config.py"
    assert config.read_text() == (HOME / "classroom/nbgrader_config.py").read_text(), "a new classroom gets the course's"
    config.write_text(config.read_text() + "\nc.ExecutePreprocessor.timeout = 1200  # the teacher's\n")
    kept = classroom("prepare", env=env)
    assert kept.returncode == 0 and "the teacher's" in config.read_text(), "prepare wrote over the teacher's configuration"
    assert kept.stderr.strip() == f"classroom: keeping your {config} (it differs from the course's {HOME / 'classroom/nbgrader_config.py'}; delete it to take the course's)"


def errors(notebook):
    """The cells of an executed notebook that ended in an error: (index, error name, its message and frames)."""
    return [(i, out.ename, "\n".join([out.evalue, *out.traceback])) for i, cell in enumerate(nbformat.read(notebook, as_version=4).cells)
            for out in cell.get("outputs", []) if out.output_type == "error"]


def test_a_gradebook_the_course_makes_is_stamped_as_nbgrader_stamps_its_own(tmp_path):
    """The course's tools read the version a new gradebook is stamped with in their own process (classroom_folder's
    schema_head), where nbgrader starts `alembic heads` for it: the same version, so nbgrader's commands and its
    migrations take the course's gradebooks as their own."""
    import sqlite3
    import classroom_folder as tool
    own = subprocess.run([sys.executable, "-c", "from nbgrader.api import get_alembic_version; print(get_alembic_version())"],
                         env=ENV, capture_output=True, text=True, check=True).stdout.strip()
    with tool.gradebook(tmp_path):
        pass
    with sqlite3.connect(tmp_path / "gradebook.db") as made:
        assert made.execute("SELECT version_num FROM alembic_version").fetchall() == [(own,)]


def test_learners_are_named_by_the_lms_only():
    import lms
    assert lms.learner("Jane Doe_123456_assignsubmission_file_") == ("jane-doe-123456", "Jane Doe")
    assert lms.learner("Karen Spärck Jones_7_assignsubmission_onlinetext_") == ("karen-sparck-jones-7", "Karen Spärck Jones")
    assert lms.learner("doejane_LATE_12345_67890_handin-jane.zip") == ("doejane-12345", "doejane")
    assert lms.learner('=cmd|"x",y_5_assignsubmission_file_')[1] == "cmd| x y", "no formula, comma or quote reaches the grade table"
    assert lms.learner("handin-jane.zip") is None and lms.learner("notes") is None


def test_collect_sorts_a_moodle_download_and_sets_aside_unsafe_archives(tmp_path):
    """A Moodle-style download: good hand-ins are collected under the LMS's names; an archive that would write outside
    its folder, holds a link, a set-user-id file or an archive, or is not a zip, is set aside with its reason."""
    import stat
    course = tmp_path / "course"
    env = dict(ENV, COURSE_CLASSROOM=str(course))
    assert classroom("release", LAB, env=env).returncode == 0
    notebook = (HOME / "labs" / f"{LAB}.ipynb").read_bytes()

    def handin(*entries):
        out = tmp_path / f"h{len(list(tmp_path.iterdir()))}.zip"
        with zipfile.ZipFile(out, "w") as z:
            for entry in entries:
                z.writestr(*entry) if isinstance(entry, tuple) else z.writestr(entry, b"x")
        return out.read_bytes()

    link = zipfile.ZipInfo("link.ipynb")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    setuid = zipfile.ZipInfo(f"{LAB}.ipynb")
    setuid.external_attr = (stat.S_IFREG | 0o4755) << 16
    download = tmp_path / "download.zip"
    with zipfile.ZipFile(download, "w") as z:
        z.writestr("Ada Lovelace_1_assignsubmission_file_/handin-ada.zip", handin((f"{LAB}.ipynb", notebook), ("learner.txt", "ada")))
        z.writestr(f"Alan Turing_2_assignsubmission_file_/{LAB}.ipynb", notebook)  # a notebook handed in on its own
        z.writestr("Eve Out_3_assignsubmission_file_/handin-eve.zip", handin(("../../outside.ipynb", notebook)))
        z.writestr("Mal Link_4_assignsubmission_file_/handin-mal.zip", handin((link, "/etc/passwd")))
        z.writestr("Sid Uid_5_assignsubmission_file_/handin-sid.zip", handin((setuid, notebook)))
        z.writestr("Nes Ted_6_assignsubmission_file_/handin-nes.zip", handin(("inner.zip", handin((f"{LAB}.ipynb", notebook)))))
        z.writestr("Tar Ball_7_assignsubmission_file_/handin-tar.tar.gz", b"not even a tar")
        z.writestr(f"stray/{LAB}.ipynb", notebook)  # no LMS named it: nobody's
    out = classroom("collect", LAB, str(download), env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == (f"collected 2 hand-ins of {LAB} into {course / 'submitted'}: "
                                                   "ada-lovelace-1, alan-turing-2")
    left_out = [line for line in out.stderr.splitlines() if line.startswith("classroom: left out")]
    assert left_out == [
        "classroom: left out Eve Out_3_assignsubmission_file_/handin-eve.zip: a path out of it (../../outside.ipynb)",
        "classroom: left out Mal Link_4_assignsubmission_file_/handin-mal.zip: a symbolic link (link.ipynb)",
        "classroom: left out Nes Ted_6_assignsubmission_file_/handin-nes.zip: an archive inside (inner.zip)",
        f"classroom: left out Sid Uid_5_assignsubmission_file_/handin-sid.zip: a file that would run as its owner (set-user-id or set-group-id: {LAB}.ipynb)",
        "classroom: left out Tar Ball_7_assignsubmission_file_/handin-tar.tar.gz: not a zip"]
    assert sorted(p.parent.name for p in (course / "submitted").glob(f"*/{LAB}")) == ["ada-lovelace-1", "alan-turing-2"]
    assert (course / "submitted/ada-lovelace-1" / LAB / f"{LAB}.ipynb").read_bytes() == notebook
    assert not list(tmp_path.rglob("outside.ipynb"))
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as book:
        assert [(s.id, s.first_name, s.last_name) for s in book.students] == [("ada-lovelace-1", "Ada", "Lovelace"), ("alan-turing-2", "Alan", "Turing")]
    assert classroom("collect", LAB, str(tmp_path / "nope.zip"), env=env).stderr.strip() == \
        f"classroom: FROM={tmp_path / 'nope.zip'}: no such file or folder (the LMS's download: its zip, or the folder it unpacks to)"


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
        assert linked.returncode == 3, "graded the rest, but not this one"
        assert linked.stderr.strip().splitlines()[-1] == (f"classroom: not graded (marks left as they were): someone ({LAB}): "
                                                          f"{LAB}.ipynb is a symbolic link (a hand-in holds files only)")
        assert not (course / "autograded").exists()
        (course / "submitted/someone" / LAB / f"{LAB}.ipynb").unlink()
        shutil.copy(HOME / "labs" / f"{LAB}.ipynb", course / "submitted/someone" / LAB)
        unreleased = classroom("autograde", LAB, env=dict(ENV, COURSE_CLASSROOM=str(course)))
        assert unreleased.returncode != 0 and unreleased.stderr.strip().splitlines()[-1] == \
            f"classroom: {LAB} was never released here ({course / 'source' / LAB} is missing): make assignments first"
    preset = classroom("autograde", LAB, env=dict(ENV, COURSE_CLASSROOM=str(course), COURSE_GRADE_PRESET="fast"))
    assert preset.returncode != 0 and preset.stderr.strip() == "classroom: COURSE_GRADE_PRESET=fast: no such preset (allowed: smoke, quick, paper)"
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


def test_handin_zips_notebooks_and_checked_results_under_the_learners_id_and_refuses_anything_else(tmp_path):
    results, out, notebooks = tmp_path / "results", tmp_path / "out", tmp_path / "notebooks"
    results.mkdir()
    notebooks.mkdir()
    doc = {"lab": "01-raw-io", "preset": "smoke", "started": "x", "machine": {"cores": "2"}, "runs": [], "verdicts": []}
    (results / "01-raw-io-smoke-1.json").write_text(json.dumps(doc))
    (results / "00-start-here-smoke-1.json").write_text(json.dumps(dict(doc, lab="00-start-here")))
    (results / ".saving-123.json").write_text('{"lab": "01-raw-io", "pre')  # a lab's save under way (or one that died half-way)
    shutil.copy(HOME / "labs/01-raw-io.ipynb", notebooks)
    (notebooks / "notes.ipynb").write_text("{}")  # not a lab: not handed in
    env = dict(ENV, COURSE_HANDIN=str(out), COURSE_NOTEBOOKS=str(notebooks))
    ok = classroom("handin", "jane-doe", str(results), env=env)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == f"hand in this file: {out / 'handin-jane-doe.zip'} (1 notebooks, 2 results)"
    archive = zipfile.ZipFile(out / "handin-jane-doe.zip")
    assert sorted(archive.namelist()) == ["01-raw-io.ipynb", "learner.txt", "results/00-start-here-smoke-1.json", "results/01-raw-io-smoke-1.json"]
    assert archive.read("learner.txt") == b"jane-doe\n"
    for bad_id, said in [("", "classroom: say who you are: make handin ID=<your learner id, as your teacher asked>"),
                         ("../x", "classroom: learner id '../x': use letters, digits, . _ - (at most 64, a letter or digit first), "
                                  "for example: make handin ID=jane-doe")]:
        refused = classroom("handin", bad_id, str(results), env=env)
        assert refused.returncode != 0 and refused.stderr.strip() == said
    odd = results / os.fsdecode(b"\xff.json")
    odd.write_text(json.dumps(doc))
    refused = classroom("handin", "jane-doe", str(results), env=env)
    assert refused.returncode != 0 and refused.stderr.strip() == f"classroom: {str(odd)!r}: a results file's name must be UTF-8 text: rename it"
    odd.unlink()
    for text, said in [("[1, 2]", "not a lab's results: JSON, but not an object"),
                       (json.dumps(dict(doc, lab="99-nothing")), "no such lab: 99-nothing")]:  # the kit checks as the teacher's view will
        (results / "notes.json").write_text(text)
        bad = classroom("handin", "ada", str(results), env=env)
        assert bad.returncode != 0 and bad.stderr.strip() == f"classroom: {results / 'notes.json'}: {said}"
    assert sorted(p.name for p in out.iterdir()) == ["handin-jane-doe.zip"], "no zip, no partial file when a file is refused"
    empty = classroom("handin", "ada", str(tmp_path / "nothing"), env=env)
    assert empty.returncode != 0 and "no results in" in empty.stderr


def jdk(feature):
    """A full JDK of this feature release under /usr/lib/jvm (its release file says so), or None."""
    for home in sorted(Path("/usr/lib/jvm").glob("*")):
        release = home / "release"
        if not home.is_symlink() and (home / "bin/jshell").exists() and release.exists() \
                and re.search(rf'^JAVA_VERSION="{feature}[."]', release.read_text(), re.M):
            return home
    return None


JDK17 = jdk(17)
# The labs with parts that need Java 22: the JDK 17 test below grades their blank releases (and their answers) there
ON_JDK_17 = ["06-bulk-jni", "09-jdk-against-jdk", "10-past-the-page-cache"]


@needs_bwrap
def test_every_release_grades_to_zero_without_a_crash(course, tmp_path):
    """Every other lab's untouched student version, autograded for real in one call, two at a time: zero on each
    graded cell, and nbgrader finishes (a stub that broke the kernel or the cells after it would not). Every cell runs
    in the sandbox, where the course is read-only: the only errors are the unanswered exercises' own (in their answer
    and test cells, and the stub's UnsupportedOperationException in cells that call it), so every other cell ran
    clean, those that profile with strace, async-profiler and JDK Flight Recorder among them (labs 01 and 02 here, 09
    and 10 in the JDK 17 test where it runs; none calls an exercise). Full marks for the source versions follow from test_notebooks, which runs every graded
    cell, and from the README's round trip (test_round_trip), which grades labs 02 and 03 answered right. The labs
    the JDK 17 test grades blank are left to it where it runs (its JDK is here, or CI)."""
    graded_elsewhere = ON_JDK_17 if JDK17 or CI else []
    labs = [p.stem for p in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb"))
            if p.stem != LAB and p.stem not in graded_elsewhere and (MPI or CI or "mpi" not in p.stem)]  # lab 08 needs Open MPI (CI has it)
    env = dict(ENV, COURSE_CLASSROOM=str(course), COURSE_SCRATCH=str(tmp_path / "scratch"), COURSE_GRADE_JOBS="2")
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
        exercises = {i for i, c in enumerate(nbformat.read(course / "release" / lab / f"{lab}.ipynb", as_version=4).cells)
                     if {"grade", "solution"} & {k for k, v in c.metadata.get("nbgrader", {}).items() if v is True}}
        assert [e for e in errors(course / "autograded/untouched" / lab / f"{lab}.ipynb")
                if e[0] not in exercises and "UnsupportedOperationException" not in e[2]] == [], lab
    assert list((tmp_path / "scratch").iterdir()) == []


@needs_bwrap
@pytest.mark.skipif(JDK17 is None and not CI, reason="no JDK 17 here: sudo apt-get install openjdk-17-jdk-headless")
def test_on_jdk_17_right_answers_earn_their_marks_and_what_needs_a_newer_java_is_left_out(tmp_path):
    """The oldest JDK the course takes, in the course kernel (the set-up's own kernelspec writer, pointed at JDK 17):
    labs 06, 09 and 10, which have parts that need Java 22, released and autograded there. The source versions
    (answered right) earn every mark still graded, the untouched releases zero; no cell ends in an error but an
    unanswered exercise's own, or a right answer in Java 22's API (a cell marked as needing it); and lab 10's mapping
    exercise, which needs Java 22, is left out of the marks, with a line saying so at release and in its check."""
    labs = ON_JDK_17
    kernel = tmp_path / "jupyter/kernels/java-course"
    kernel.mkdir(parents=True)
    shutil.copy(Path(sys.prefix) / "share/jupyter/kernels/java-course/jjava.jar", kernel)
    subprocess.run([sys.executable, str(HOME / "setup/kernelspec.py"), str(kernel), str(JDK17), str(HOME), "17"], check=True)
    course, scratch = tmp_path / "course", tmp_path / "scratch"
    scratch.mkdir()
    env = dict(ENV, COURSE_CLASSROOM=str(course), COURSE_SCRATCH=str(scratch), COURSE_GRADE_JOBS="2",
               JUPYTER_PATH=str(tmp_path / "jupyter"))
    released = classroom("release", *labs, env=env)
    assert released.returncode == 0, released.stderr
    assert "classroom: 10-past-the-page-cache's lab10-map-sum-check needs Java 22; grading here runs Java 17, " \
           "so it is left out of the marks" in released.stderr
    for lab in labs:
        for student, version in (("right", "source"), ("untouched", "release")):
            (course / "submitted" / student / lab).mkdir(parents=True)
            shutil.copy(course / version / lab / f"{lab}.ipynb", course / "submitted" / student / lab)
    graded = classroom("autograde", *labs, env=env)
    assert graded.returncode == 0, graded.stderr[-3000:]
    for lab in labs:
        source = nbformat.read(course / "source" / lab / f"{lab}.ipynb", as_version=4)
        points = {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"]) for c in source.cells
                  if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"}
        marks = scores(course, lab)
        assert {g: marks["right"][g] for g in points} == points, f"{lab}: a right answer lost marks on JDK 17"
        assert {g: marks["untouched"][g] for g in points} == {g: 0.0 for g in points}, lab
        newer = {i for i, c in enumerate(source.cells) if c.metadata.get("course", {}).get("needs_java", 17) > 17}
        assert [e for e in errors(course / "autograded/right" / lab / f"{lab}.ipynb") if e[0] not in newer] == [], lab
        exercises = {i for i, c in enumerate(nbformat.read(course / "release" / lab / f"{lab}.ipynb", as_version=4).cells)
                     if {"grade", "solution"} & {k for k, v in c.metadata.get("nbgrader", {}).items() if v is True}}
        assert [e for e in errors(course / "autograded/untouched" / lab / f"{lab}.ipynb")
                if e[0] not in exercises and "UnsupportedOperationException" not in e[2]] == [], lab
    assert "lab10-map-sum-check" not in scores(course, "10-past-the-page-cache")["right"], "left out of the marks"
    checked = [c for c in nbformat.read(course / "autograded/right/10-past-the-page-cache/10-past-the-page-cache.ipynb",
                                        as_version=4).cells if "sumInts(mine)" in c.source]
    said = "".join(o.get("text", "") for o in checked[0].outputs)
    assert "needs Java 22 or later; this kernel runs Java 17" in said, said
    assert list(scratch.iterdir()) == []
