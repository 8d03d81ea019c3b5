"""nbgrader with the Java kernel, for real: the labs released as assignments, then autograded. The
source version earns full marks, the untouched release version zero on every autograded cell (and no
crash), and a wrong answer zero on its own cell only."""
import json
import os
import re
import shutil
import socket
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


# A learner's answer that tries to get out: write the course and its own graded notebook, reach the network and a Unix
# socket of the host, signal a process outside, read the teacher's results and home, the other hand-ins being
# graded and the class view. Each attempt prints what stopped it; then it answers wrong (the last, short operation
# forgotten), which must cost that cell's marks and no other's. {socket}, {pid}: filled in by the test.
ESCAPES = """long systemCalls(long fileSize, long opSize, String pattern) {
    String home = System.getenv("COURSE_HOME");
    java.util.function.BiConsumer<String, java.util.concurrent.Callable<Object>> attempt = (what, action) -> {
        try { System.out.println("ESCAPED " + what + ": " + action.call()); }
        catch (Exception e) { System.out.println("stopped " + what + ": " + e.getClass().getSimpleName()); }
    };
    attempt.accept("write course", () -> java.nio.file.Files.writeString(java.nio.file.Path.of(home, "escaped.txt"), "x"));
    attempt.accept("write notebook", () -> java.nio.file.Files.writeString(java.nio.file.Path.of("03-operation-size.ipynb"), "x"));
    attempt.accept("network", () -> { try (var s = new java.net.Socket()) { s.connect(new java.net.InetSocketAddress("10.0.0.1", 80), 3000); } return "connected"; });
    attempt.accept("unix socket", () -> { try (var s = java.nio.channels.SocketChannel.open(java.net.UnixDomainSocketAddress.of("{socket}"))) { return s.write(java.nio.ByteBuffer.wrap("hello".getBytes())); } });
    attempt.accept("signal", () -> ProcessHandle.of({pid}L).map(ProcessHandle::destroyForcibly).orElseThrow(() -> new java.util.NoSuchElementException()));
    System.out.println("grading shows: " + java.util.Arrays.toString(new java.io.File(home + "/build/grading").list()));
    for (String path : new String[] {home + "/data/results", home + "/build/class-results.html", System.getProperty("user.home")}) {
        attempt.accept("read " + path, () -> java.nio.file.Files.isDirectory(java.nio.file.Path.of(path))
                ? java.util.Arrays.toString(new java.io.File(path).list()) : java.nio.file.Files.readString(java.nio.file.Path.of(path)));
    }
    return fileSize / opSize;  // and a wrong answer: forgets the short last operation
}"""
# Hand-ins that use up what the sandbox allows: each is stopped, said, and left ungraded, while the others grade.
HOG = """long systemCalls(long fileSize, long opSize, String pattern) {
    java.util.List<byte[]> held = new java.util.ArrayList<>();
    while (true) { byte[] b = new byte[64 << 20]; java.util.Arrays.fill(b, (byte) 1); held.add(b); }
}"""
FORK_BOMB = """long systemCalls(long fileSize, long opSize, String pattern) {
    try { while (true) new ProcessBuilder("sleep", "60").start(); }
    catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }
}"""


def hand_in(course, student, source, answer=None):
    """Hands in the lab's source notebook as student, with the system-calls exercise answered by `answer` if given."""
    nb = nbformat.read(source, as_version=4)
    for cell in nb.cells:
        if answer is not None and cell.metadata.get("nbgrader", {}).get("grade_id") == "lab03-system-calls":
            cell.source = answer
    (course / "submitted" / student / LAB).mkdir(parents=True)
    nbformat.write(nb, course / "submitted" / student / LAB / f"{LAB}.ipynb")


def errors(notebook):
    """The cells of an executed notebook that ended in an error: (index, error name)."""
    return [(i, out.ename) for i, cell in enumerate(nbformat.read(notebook, as_version=4).cells)
            for out in cell.get("outputs", []) if out.output_type == "error"]


@needs_bwrap
def test_autograde_grades_right_blank_and_wrong_and_contains_hostile_hand_ins(course, tmp_path):
    env = dict(ENV, COURSE_CLASSROOM=str(course), COURSE_SCRATCH=str(tmp_path / "scratch"), COURSE_GRADE_JOBS="2")
    (tmp_path / "scratch").mkdir()
    source = HOME / "labs" / f"{LAB}.ipynb"
    host_socket = Path("/var/tmp") / f"course-test-{os.getpid()}.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(host_socket))
    listener.listen()
    listener.settimeout(0.1)
    outside = subprocess.Popen(["sleep", "600"])
    hand_in(course, "right", source)
    hand_in(course, "blank", course / "release" / LAB / f"{LAB}.ipynb")
    hand_in(course, "escaper", source, ESCAPES.replace("{socket}", str(host_socket)).replace("{pid}", str(outside.pid)))
    hand_in(course, "hog", source, HOG)
    hand_in(course, "bomb", source, FORK_BOMB)
    (HOME / "data/results").mkdir(parents=True, exist_ok=True)
    teachers = HOME / "data/results/teacher-sandbox-probe.json"
    teachers.write_text("{}")  # the teacher's own results: a hand-in must not see them
    try:
        out = classroom("autograde", LAB, env=env)
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing connected to the host's socket
        assert outside.poll() is None, "the process outside lives"
    finally:
        teachers.unlink()
        listener.close()
        host_socket.unlink()
        outside.kill()
    assert out.returncode != 0, out.stderr[-3000:]
    assert out.stderr.strip().splitlines()[-1] == (
        f"classroom: not graded (their marks are left as they were): bomb ({LAB}): stopped: it ran more than 1024 processes "
        f"and threads at once; hog ({LAB}): stopped: its processes held more than 4.0 GiB of memory together"), out.stderr[-3000:]
    got = scores(course, LAB)
    # the written answer waits for the teacher (None) where there is one, and scores zero where it was left empty
    assert got == {"right": {"lab03-system-calls-check": 2.0, "lab03-knee-check": 2.0, "lab03-think": None},
                   "blank": {"lab03-system-calls-check": 0.0, "lab03-knee-check": 0.0, "lab03-think": 0.0},
                   "escaper": {"lab03-system-calls-check": 0.0, "lab03-knee-check": 2.0, "lab03-think": None}}, \
        "a wrong answer loses its own cell's marks only, escape attempts and all; the stopped hand-ins have none"
    assert errors(course / "autograded/right" / LAB / f"{LAB}.ipynb") == [], "every cell of a right hand-in runs"
    graded = "".join(str(output.get("text", "")) for cell in nbformat.read(course / "autograded/escaper" / LAB / f"{LAB}.ipynb", as_version=4).cells
                     for output in cell.get("outputs", []))  # what the escaper's code printed
    assert "ESCAPED" not in graded, graded
    assert len({line for line in graded.splitlines() if line.startswith("stopped ")}) == 8, graded  # each of the eight attempts
    shown = re.search(r"grading shows: \[(.*)\]", graded).group(1).split(", ")
    assert len(shown) == 1 and shown[0].startswith("escaper-"), f"no other hand-in being graded is in view: {shown}"
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
    (results / "notes.json").write_text("[1, 2]")
    bad = classroom("handin", "ada", str(results), env=env)
    assert bad.returncode != 0
    assert bad.stderr.strip() == f"classroom: {results / 'notes.json'} is not a lab's results (expected the JSON a lab saves: lab, preset, machine, runs, verdicts)"
    assert sorted(p.name for p in out.iterdir()) == ["handin-jane-doe.zip"], "no zip, no partial file when a file is refused"
    empty = classroom("handin", "ada", str(tmp_path / "nothing"), env=env)
    assert empty.returncode != 0 and "no results in" in empty.stderr


@needs_bwrap
def test_every_release_grades_to_zero_without_a_crash(course, tmp_path):
    """Every other lab's untouched student version, autograded for real in one call, two at a time: zero on
    each graded cell, and nbgrader finishes (a stub that broke the kernel or the cells after it would
    not). Full marks for the source versions follow from test_notebooks, which runs every graded cell; the
    labs that profile (strace, async-profiler, JDK Flight Recorder) are handed in right too, and every cell
    of theirs must run in the sandbox, where the course is read-only."""
    labs = [p.stem for p in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb")) 
            if p.stem != LAB and (MPI or CI or "mpi" not in p.stem)]  # lab 08 needs Open MPI (CI has it)
    profiling = [lab for lab in labs if lab.startswith(("01-", "02-", "09-"))]
    env = dict(ENV, COURSE_CLASSROOM=str(course), COURSE_SCRATCH=str(tmp_path / "scratch"), COURSE_GRADE_JOBS="2")
    (tmp_path / "scratch").mkdir()
    for lab in labs:
        (course / "submitted/untouched" / lab).mkdir(parents=True)
        shutil.copy(course / "release" / lab / f"{lab}.ipynb", course / "submitted/untouched" / lab / f"{lab}.ipynb")
    for lab in profiling:
        (course / "submitted/profiler" / lab).mkdir(parents=True)
        shutil.copy(HOME / "labs" / f"{lab}.ipynb", course / "submitted/profiler" / lab / f"{lab}.ipynb")
    out = classroom("autograde", *labs, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    for lab in labs:
        graded = {c.metadata["nbgrader"]["grade_id"] for c in nbformat.read(HOME / "labs" / f"{lab}.ipynb", as_version=4).cells
                  if c.metadata.get("nbgrader", {}).get("grade")}
        assert scores(course, lab)["untouched"] == {grade_id: 0.0 for grade_id in graded}, lab
    for lab in profiling:
        assert errors(course / "autograded/profiler" / lab / f"{lab}.ipynb") == [], lab
    assert list((tmp_path / "scratch").iterdir()) == []
