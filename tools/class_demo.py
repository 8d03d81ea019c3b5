"""A class of learners, simulated through the whole round trip: `make class-demo` (LEARNERS=30, LMS=moodle|canvas).

Each learner hands in lab 03 the way `make handin` packs it (their notebook in handin-<id>.zip), as an LMS's
"download all submissions" holds it; the kinds cycle through right, wrong, empty, partly done and hostile (one
that tries every way out of the sandbox, one that eats memory, one that forks without end). Then, as a teacher
would, by commands: collect (nbgrader's zip_collect), autograde (each hand-in in its sandbox), feedback, the grade
table. Every grade, every feedback file and every row of the CSV is checked against what each kind must get, and
the host's Unix socket and a process outside against what the hostile ones tried. Exits non-zero on any
difference, saying which; prints the wall time of each step."""
import argparse
import csv
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat

from labs import HOME

LAB = "03-operation-size"  # pure-function exercises: the marks cannot depend on the machine
CLASSROOM = HOME / "tools/classroom.py"

# The hostile answers to the system-calls exercise. ESCAPES tries to get out, printing what stopped each attempt, then
# answers wrong (the last, short operation forgotten): it must lose that cell's marks and no other's. {socket} and {pid}
# are a Unix socket and a process of the host's, filled in by the demo.
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
WRONG = """long systemCalls(long fileSize, long opSize, String pattern) {
    return fileSize / opSize;  // forgets the short last operation
}"""
HOG = """long systemCalls(long fileSize, long opSize, String pattern) {
    java.util.List<byte[]> held = new java.util.ArrayList<>();
    while (true) { byte[] b = new byte[64 << 20]; java.util.Arrays.fill(b, (byte) 1); held.add(b); }
}"""
FORK_BOMB = """long systemCalls(long fileSize, long opSize, String pattern) {
    try { while (true) new ProcessBuilder("sleep", "60").start(); }
    catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }
}"""

# What each kind hands in (the system-calls answer; None keeps the source's), and the marks it must get: None for a
# written answer that waits for the teacher, and no marks at all for a hand-in the sandbox stopped (with the reason).
KINDS = {
    "right": {"from": "source", "answer": None, "marks": {"lab03-system-calls-check": 2.0, "lab03-knee-check": 2.0, "lab03-think": None}},
    "wrong": {"from": "source", "answer": WRONG, "marks": {"lab03-system-calls-check": 0.0, "lab03-knee-check": 2.0, "lab03-think": None}},
    "empty": {"from": "release", "answer": None, "marks": {"lab03-system-calls-check": 0.0, "lab03-knee-check": 0.0, "lab03-think": 0.0}},
    "partly": {"from": "release", "answer": "right", "marks": {"lab03-system-calls-check": 2.0, "lab03-knee-check": 0.0, "lab03-think": 0.0}},
    "escaper": {"from": "source", "answer": ESCAPES, "marks": {"lab03-system-calls-check": 0.0, "lab03-knee-check": 2.0, "lab03-think": None}},
    "hog": {"from": "source", "answer": HOG, "stopped": "stopped: its processes held more than 4.0 GiB of memory together"},
    "bomb": {"from": "source", "answer": FORK_BOMB, "stopped": "stopped: it ran more than 1024 processes and threads at once"},
}
# the order kinds are dealt in: a class has more right and wrong hand-ins than hostile ones, and one of each comes first
DEAL = ["right", "wrong", "empty", "partly", "escaper", "hog", "bomb", "right", "right", "wrong", "right", "partly", "right", "empty"]
NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth", "Frances Allen",
         "John Backus", "Margaret Hamilton", "Ken Thompson", "Radia Perlman", "Niklaus Wirth", "Joan Clarke", "Tony Hoare",
         "Hedy Lamarr", "Dennis Ritchie", "Sophie Wilson", "Leslie Lamport", "Karen Spärck Jones", "Fran Bilas"]


def notebook(kind, classroom):
    """A learner's lab 03 notebook of this kind, as JSON text."""
    spec = KINDS[kind]
    source = HOME / "labs" / f"{LAB}.ipynb"
    nb = nbformat.read(source if spec["from"] == "source" else classroom / "release" / LAB / f"{LAB}.ipynb", as_version=4)
    answer = spec["answer"]
    if answer == "right":
        answer = next(c.source for c in nbformat.read(source, as_version=4).cells
                      if c.metadata.get("nbgrader", {}).get("grade_id") == "lab03-system-calls")
    for cell in nb.cells:
        if answer is not None and cell.metadata.get("nbgrader", {}).get("grade_id") == "lab03-system-calls":
            cell.source = answer
    return nbformat.writes(nb)


def class_of(size):
    """[(name, LMS number, kind)] of a class of this size."""
    return [(f"{NAMES[i % len(NAMES)]}{'' if i < len(NAMES) else ' ' + str(i // len(NAMES) + 1)}", 100001 + i, DEAL[i % len(DEAL)])
            for i in range(size)]


def download(learners, lms, classroom, out, host_socket, outside_pid):
    """The LMS's "download all submissions" zip: each learner's handin-<id>.zip where Moodle or Canvas puts it."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, number, kind in learners:
            text = notebook(kind, classroom).replace("{socket}", str(host_socket)).replace("{pid}", str(outside_pid))
            handin = tempfile.SpooledTemporaryFile()
            with zipfile.ZipFile(handin, "w", zipfile.ZIP_DEFLATED) as inner:
                inner.writestr("learner.txt", f"{kind}-{number}\n")
                inner.writestr(f"{LAB}.ipynb", text)
            handin.seek(0)
            own = f"handin-{kind}-{number}.zip"
            where = (f"{name}_{number}_assignsubmission_file_/{own}" if lms == "moodle"
                     else f"{name.replace(' ', '').lower()}_{number}_{number + 5000}_{own}")
            z.writestr(where, handin.read())


def student_id(name, number, lms):
    import lms as layouts
    entry = f"{name}_{number}_assignsubmission_file_" if lms == "moodle" else f"{name.replace(' ', '').lower()}_{number}_1_x.zip"
    return layouts.learner(entry)[0]


def step(what, args, env, problems, check=True):
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(CLASSROOM), *args], env=env, capture_output=True, text=True)
    print(f"class-demo: {what}: {time.monotonic() - start:.0f} s", flush=True)
    if check and done.returncode != 0:
        problems.append(f"{what} failed: {done.stderr.strip()[-2000:]}")
    return done


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--lms", choices=["moodle", "canvas"], default="moodle")
    parser.add_argument("--keep", action="store_true", help="keep the demo's classroom folder to look at")
    args = parser.parse_args()
    if not 1 <= args.learners <= 500:
        sys.exit(f"class-demo: --learners {args.learners}: from 1 to 500")
    demo = Path(tempfile.mkdtemp(prefix="class-demo-", dir=HOME / "build"))
    classroom = demo / "classroom"
    env = dict(os.environ, COURSE_CLASSROOM=str(classroom), COURSE_SCRATCH=str(demo / "scratch"))
    (demo / "scratch").mkdir()
    host_socket = Path("/var/tmp") / f"course-class-demo-{os.getpid()}.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(host_socket))
    listener.listen()
    listener.settimeout(0.1)
    outside = subprocess.Popen(["sleep", "3600"])
    learners = class_of(args.learners)
    problems = []
    start = time.monotonic()
    try:
        step("release", ["release", LAB], env, problems)
        download(learners, args.lms, classroom, demo / "download.zip", host_socket, outside.pid)
        step("collect", ["collect", LAB, str(demo / "download.zip")], env, problems)
        graded = step(f"autograde {len(learners)} hand-ins", ["autograde", LAB], env, problems, check=False)
        print(f"class-demo: {each_handin(graded.stderr)}", flush=True)
        step("feedback", ["feedback", LAB], env, problems)
        step("grades", ["grades"], env, problems)
        try:
            listener.accept()
            problems.append("a hand-in connected to the host's Unix socket")
        except TimeoutError:
            pass
        if outside.poll() is not None:
            problems.append("a hand-in killed a process outside its sandbox")
        problems += check(learners, args.lms, classroom, graded)
        if (HOME / "escaped.txt").exists():
            problems.append("a hand-in wrote the course folder")
        ours = tuple(f"{student_id(name, number, args.lms)}-" for name, number, _ in learners)  # others may grade beside
        if any(folder.name.startswith(ours) for folder in (HOME / "build/grading").iterdir()):
            problems.append("a sandbox's folder was left in build/grading")
        if list((demo / "scratch").iterdir()):
            problems.append("a hand-in wrote the scratch folder outside its sandbox")
    finally:
        listener.close()
        host_socket.unlink()
        outside.kill()
        if not args.keep:
            shutil.rmtree(demo, ignore_errors=True)
    took = time.monotonic() - start
    if problems:
        sys.exit("class-demo: FAILED:\n  " + "\n  ".join(problems))
    print(f"class-demo: {len(learners)} learners of {LAB} ({args.lms}): collected, graded, fed back and tabled as expected "
          f"in {took:.0f} s on {len(os.sched_getaffinity(0))} cores" + (f"; kept in {demo}" if args.keep else ""))


def each_handin(log):
    """What one hand-in took, from autograde's line for each ("classroom: [3/30] ada-100001 (lab): 17 s, at most …")."""
    seconds = sorted(int(s) for s in re.findall(r"^classroom: \[\d+/\d+\] \S+ \(\S+\): (\d+) s,", log, re.M))
    if not seconds:
        return "no hand-in was graded"
    return (f"a hand-in took {seconds[len(seconds) // 2]} s (median; {seconds[0]} to {seconds[-1]} s), "
            f"{sum(seconds)} s of grading in all")


def check(learners, lms, classroom, graded):
    """Each learner's marks, feedback and row of the grade table against what their kind must get."""
    import classroom_folder as tool
    got = tool.scores(LAB, classroom)
    rows = {row["student_id"]: row for row in csv.DictReader((classroom / "grades.csv").open(newline=""))}
    problems = []
    stopped = [line for line in graded.stderr.splitlines() if line.startswith("classroom: not graded")]
    for name, number, kind in learners:
        student = student_id(name, number, lms)
        spec = KINDS[kind]
        if "stopped" in spec:
            if not any(line.endswith(f"{student} ({LAB}): {spec['stopped']}") for line in stopped):
                problems.append(f"{student} ({kind}): expected '{spec['stopped']}' among the hand-ins not graded")
            if student in got:
                problems.append(f"{student} ({kind}): has marks, but its grading was stopped")
            if student not in rows or float(rows[student]["score"]) != 0:  # nbgrader's table: no submission, no marks
                problems.append(f"{student} ({kind}): grade table row {rows.get(student)}, expected a score of 0")
            continue
        if got.get(student) != spec["marks"]:
            problems.append(f"{student} ({kind}): marks {got.get(student)}, expected {spec['marks']}")
        page = classroom / "feedback" / student / LAB / f"{LAB}.html"
        if not page.is_file() or "HIDDEN TESTS" in page.read_text():
            problems.append(f"{student} ({kind}): no feedback page, or one that shows a hidden test")
        row = rows.get(student)
        expected_score = sum(v or 0 for v in spec["marks"].values())
        first, _, last = name.rpartition(" ") if lms == "moodle" else ("", "", name.replace(" ", "").lower())
        if row is None or float(row["score"]) != expected_score or row["last_name"] != last or row["first_name"] != first:
            problems.append(f"{student} ({kind}): grade table row {row}, expected score {expected_score} for {name}")
        graded_nb = classroom / "autograded" / student / LAB / f"{LAB}.ipynb"
        outputs = [o for c in nbformat.read(graded_nb, as_version=4).cells for o in c.get("outputs", [])]
        if kind == "right" and any(o.output_type == "error" for o in outputs):
            problems.append(f"{student} (right): a cell of its graded notebook failed")
        if kind == "escaper":
            printed = "".join(str(o.get("text", "")) for o in outputs)
            attempts = {line for line in printed.splitlines() if line.startswith("stopped ")}
            shown = re.search(r"grading shows: \[(.*)\]", printed)
            if "ESCAPED" in printed or len(attempts) != 8 or not shown or len(shown.group(1).split(", ")) != 1:
                problems.append(f"{student} (escaper): got out, or not every attempt was stopped: {printed[-1500:]}")
    return problems


if __name__ == "__main__":
    main()
