"""make autograde, feedback and grades: every hand-in graded in a sandbox of its own (tools/sandbox.py), its marks
merged into the class's gradebook; nbgrader's feedback pages and the grade table after."""
import fcntl
import itertools
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sandbox
from classroom_folder import (ENVIRONMENT, KERNEL, NBGRADER, ROOT, STUDENT_ID, ensure, generate, gradebook, grading_java_home,
                              grading_kernel, nbgrader, prepare, run_kit)
from labs import HOME, preset_names

UNSANDBOXED = "COURSE_UNSANDBOXED"  # =1: grade with the teacher's own rights, knowingly
GRADE_SECONDS = "COURSE_GRADE_SECONDS"  # the most one hand-in's grading may take (default an hour)
GRADE_JOBS = "COURSE_GRADE_JOBS"  # hand-ins graded at once (default: as many as the cores and memory allow)
GRADE_PRESET = "COURSE_GRADE_PRESET"  # the preset graded labs run in (default smoke: no mark depends on a measurement's size)
NOT_ALL_GRADED = 3  # autograde's exit status when it graded the others but not every hand-in (each said in one line)
ONE_AT_A_TIME = threading.Lock()  # the course's gradebook (merging a hand-in's marks), between grading threads


def autograde(labs):
    """Grades every learner's hand-in of each lab. Each runs in a sandbox of its own (see sandboxed), up to
    COURSE_GRADE_JOBS at once; where bubblewrap is missing, refuses unless the teacher sets COURSE_UNSANDBOXED=1."""
    prepare()
    held = open(ROOT / ".grading.lock", "w")  # released when this process ends, however it ends
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(f"classroom: another autograde is grading {ROOT}: wait for it to end (two would merge marks over each other)")
    hand_ins = [(lab, d.parent.name) for lab in labs
                for d in sorted((ROOT / "submitted").glob(f"*/{lab}")) if d.is_dir()]
    for lab in labs:
        if not any(graded == lab for graded, _ in hand_ins):
            print(f"classroom: no hand-ins of {lab} under {ROOT / 'submitted'} (expected <student>/{lab}/{lab}.ipynb)")
    if not hand_ins:
        return
    preset = grading_preset()
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        if os.environ.get(UNSANDBOXED) != "1":
            sys.exit("classroom: autograde runs learners' code and bubblewrap is not installed to fence it in: "
                     f"sudo apt-get install bubblewrap (or set {UNSANDBOXED}=1 to grade with your own full rights)")
        print(f"classroom: {UNSANDBOXED}=1: grading WITHOUT a sandbox, with your rights, network and files", file=sys.stderr)
        os.environ["COURSE_PRESET"] = preset  # the kernels nbgrader starts inherit it
        for lab in dict.fromkeys(lab for lab, _ in hand_ins):
            nbgrader("autograde", lab, "--create", "--force")
        return
    problem = sandbox.check(bwrap)
    if problem:
        sys.exit(f"classroom: {problem}")
    limits = grading_limits(preset)
    seconds = whole_number(GRADE_SECONDS, "3600")
    jobs = whole_number(GRADE_JOBS, str(default_jobs(limits)))
    print(f"classroom: grading {len(hand_ins)} hand-ins, {jobs} at a time, in the {preset} preset; each in a sandbox "
          f"(limits held by {sandbox.how_limits_hold()})", file=sys.stderr)
    precompile()  # the sandbox sees the course read-only: every snippet must be built before

    outcomes = {(lab, student): unsafe_submission(ROOT / "submitted" / student / lab, student) for lab, student in hand_ins}
    safe = [hand_in for hand_in in hand_ins if not outcomes[hand_in]]
    for lab in dict.fromkeys(lab for lab, _ in safe):
        if not (ROOT / "source" / lab).is_dir():
            sys.exit(f"classroom: {lab} was never released here ({ROOT / 'source' / lab} is missing): make assignments first")
    templates = {}
    finished = itertools.count(1)  # next() on it is atomic: grading threads share it

    def grade(lab, student):
        return sandboxed(bwrap, lab, student, seconds, preset, limits, templates[lab], lambda: f"{next(finished)}/{len(safe)}")

    try:
        for lab in dict.fromkeys(lab for lab, _ in safe):
            templates[lab] = course_of_one_lab(lab)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            outcomes.update(zip(safe, pool.map(lambda hand_in: grade(*hand_in), safe)))
    finally:
        for template in templates.values():
            remove_tree(template.parent)
    problems = [f"{student} ({lab}): {outcomes[lab, student]}" for lab, student in hand_ins if outcomes[lab, student]]
    for problem in problems:
        print(f"classroom: not graded (marks left as they were): {problem}", file=sys.stderr)
    if problems:
        sys.exit(NOT_ALL_GRADED)


def whole_number(variable, default):
    value = os.environ.get(variable, default)
    if not value.isdigit() or int(value) < 1:
        sys.exit(f"classroom: {variable}={value}: must be a whole number, 1 or more")
    return int(value)


def default_jobs(limits):
    """As many hand-ins at once as there are cores, and as fit in the memory available beside what is running."""
    available = next(int(line.split()[1]) * 1024 for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemAvailable:"))
    return max(1, min(len(os.sched_getaffinity(0)), available // limits.memory))


def unsafe_submission(folder, student):
    """Why a hand-in cannot be graded (a name that is not an id, a link out of it), or None."""
    if not STUDENT_ID.fullmatch(student):
        return "its folder name is not a student id (letters, digits, . _ -; at most 64)"
    if folder.is_symlink() or folder.parent.is_symlink():
        return f"{folder} is a symbolic link (a hand-in holds files only)"
    for path in folder.rglob("*"):
        if path.is_symlink():
            return f"{path.relative_to(folder)} is a symbolic link (a hand-in holds files only)"
    return None


def precompile():
    """The kit builds every snippet and its class cache (a cache hit each when nothing changed): the sandbox may not."""
    run_kit("course.run.Precompile", capture=True)


# What grading reads of the course (read-only; its Python environment too, wherever it lies): the kit (and the kernel's imports of it), the snippets and what the set-up built of
# them (their class archives too, which the teacher's own runs made), the presets and the published figures. Nothing else of it: not data/results, build/handin, build/grading
# (other hand-ins), build/classroom, the class view or report, scratch/.
COURSE_PARTS = ["kit/target", "kit/startup.jsh", "kit/startup-foreign.jsh", "java-snippets", "c-snippets", "labs/presets.json", "data/published",
                "data/results.schema.json", "data/not-judged.csv", "setup", "build/env.sh", "build/tools", "build/c",
                "build/native", "build/jbang-built", "build/jbang-home", "build/jbang-repo", "build/cds"]


def course_read_only():
    """The course's parts grading reads, its Python environment and Python's installation (the environment's base), the
    course kernel's folder, and every JDK a lab may run outside /usr."""
    paths = [HOME / part for part in COURSE_PARTS if (HOME / part).exists()] + [ENVIRONMENT, Path(sys.base_prefix).resolve(),
                                                                                Path(grading_kernel().resource_dir).resolve()]
    jdks = [grading_java_home()] + os.environ.get("JAVA_HOMES", "").split(":")
    paths += [Path(j).resolve() for j in jdks if j and not Path(j).resolve().is_relative_to("/usr")]
    return list(dict.fromkeys(paths))


def grading_preset():
    """COURSE_GRADE_PRESET, else smoke; refused in one line when no lab has it."""
    preset = os.environ.get(GRADE_PRESET, "smoke")
    names = preset_names()
    if preset not in names:
        sys.exit(f"classroom: {GRADE_PRESET}={preset}: no such preset (allowed: {', '.join(names)})")
    return preset


def grading_limits(preset):
    """The sandbox's limits for grading labs in this preset: sized by its largest file (the kit's Preset.largestSize)."""
    return sandbox.Limits.for_largest_file(int(run_kit("course.run.Preset", "largest-size", preset, capture=True).stdout))


def course_of_one_lab(lab):
    """An nbgrader course folder holding one lab, its student version generated and a gradebook of it alone: made once
    per lab and copied for each hand-in (generating takes nbgrader seconds)."""
    course = Path(tempfile.mkdtemp(prefix=f".{lab}-", dir=ensure(HOME / "build/grading"))) / "course"
    try:
        (course / "source").mkdir(parents=True)
        shutil.copy(ROOT / "nbgrader_config.py", course)
        shutil.copytree(ROOT / "source" / lab, course / "source" / lab)
        generate(course, [lab])
    except BaseException:  # nbgrader's failure exits: no folder left behind either way
        shutil.rmtree(course.parent)
        raise
    return course


# nbclient's words for a kernel that exited before it answered its first request
KERNEL_DIED_AT_START = "Kernel died before replying to kernel_info"


def sandboxed(bwrap, lab, student, seconds, preset, limits, template, progress):
    """Autogrades one hand-in in two nested sandboxes (tools/sandbox.py), then copies its marks and graded notebook
    into the course. Outside: nbgrader, with a private course folder holding this learner's hand-in and a
    gradebook of this lab alone (so no other learner's work or marks). Inside: the kernel (the learner's code),
    which can write only its own scratch, results, flame graphs, home and /tmp: not the gradebook or the graded
    notebook. The kernel talks to nbgrader over TCP, so both share the outer sandbox's network, which has no way out."""
    work = Path(tempfile.mkdtemp(prefix=f"{student}-", dir=ensure(HOME / "build/grading")))
    try:
        course = work / "course"
        shutil.copytree(template, course)
        shutil.copytree(ROOT / "submitted" / student / lab, course / "submitted" / student / lab)
        for d in ("home/runtime", "tmp", "kernel/scratch", "kernel/results", "kernel/flamegraphs", "kernel/home", "kernel/tmp"):
            (work / d).mkdir(parents=True)
        read_only = course_read_only()
        kernels = write_kernel(bwrap, work, read_only, course / "autograded" / student / lab)
        env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": str(work / "home"), "JUPYTER_PATH": str(kernels),
               "JUPYTER_RUNTIME_DIR": str(work / "home/runtime"), "TMPDIR": str(work / "home/runtime"),  # connection files: the kernel reads them
               "COURSE_SCRATCH": str(work / "kernel/scratch"),
               "COURSE_RESULTS": str(work / "kernel/results"), "COURSE_FLAMEGRAPHS": str(work / "kernel/flamegraphs"),
               "COURSE_PRESET": preset}
        env["JAVA_HOME"] = grading_java_home()
        cmd = sandbox.command(bwrap, [NBGRADER, "autograde", lab, "--student", student, "--create", "--force"], limits,
                              read_only=read_only, writable={work: work}, tmp=work / "tmp", env=env, cwd=course,
                              holds_sandbox=True)
        for attempt in (1, 2):
            with open(work / "nbgrader.log", "w+") as log:
                done = sandbox.run(cmd, work, limits, seconds, name=work.name, stdout=log)
                log.seek(0)
                said = log.read()
            sys.stderr.write(said)
            # a kernel that died as it started (once in a suite's run, under load) has run none of the learner's code: once more
            if attempt == 1 and done.returncode != 0 and not done.stopped and KERNEL_DIED_AT_START in said:
                print(f"classroom: {student} ({lab}): the kernel died as it started; grading it once more", file=sys.stderr)
                continue
            break
        print(f"classroom: [{progress()}] {student} ({lab}): {done.seconds:.0f} s, at most {sandbox.size(done.peak_memory)} of memory, "
              f"{done.peak_tasks} tasks, {sandbox.size(done.peak_disk)} on disk", file=sys.stderr)
        if done.stopped:
            return f"stopped: {done.stopped}"
        if done.returncode != 0:
            return f"nbgrader failed (exit {done.returncode}; its messages are above)"
        with ONE_AT_A_TIME:
            merge_marks(course, lab, student)
        graded = ROOT / "autograded" / student / lab
        if graded.exists():
            shutil.rmtree(graded)
        shutil.copytree(course / "autograded" / student / lab, graded)
        return None
    finally:
        remove_tree(work)


def remove_tree(folder):
    """Removes a sandbox's folder. bubblewrap's end kills what was left in its pid namespace, but those processes may
    still be exiting for a moment after it returns (and a folder they held is then not empty yet): try again a while."""
    for _ in range(50):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            return
        time.sleep(0.1)


def write_kernel(bwrap, work, read_only, notebook_folder):
    """A copy of the course's kernelspec whose kernel runs in the inner sandbox: it sees what grading reads, the
    connection file and its notebook's folder read-only, and writes only its own scratch, results, flame graphs,
    home and /tmp (JUPYTER_PATH puts it before the real one). It shares the outer sandbox's network (loopback)."""
    spec = json.loads((Path(grading_kernel().resource_dir) / "kernel.json").read_text())
    kernel = work / "kernel"
    writable = {kernel / "scratch": kernel / "scratch", kernel / "results": kernel / "results",
                kernel / "home": kernel / "home", kernel / "flamegraphs": kernel / "flamegraphs"}
    inner = [bwrap, *sandbox.namespaces(own_network=False),
             *sandbox.mounts(read_only + [work / "home/runtime"], writable, kernel / "tmp",
                             extra=["--ro-bind-try", str(notebook_folder), str(notebook_folder)]),
             "--setenv", "HOME", str(kernel / "home"),
             # its own /tmp, not nbgrader's TMPDIR (the connection files' folder, read-only here): Open MPI makes its
             # session folder in TMPDIR, and lab 08's every run failed without one it could write
             "--setenv", "TMPDIR", "/tmp"]
    spec["argv"] = inner + spec["argv"]
    target = work / "kernels/kernels" / KERNEL
    target.mkdir(parents=True)
    (target / "kernel.json").write_text(json.dumps(spec))
    return work / "kernels"


def merge_marks(course, lab, student):
    """This learner's marks and comments from the sandbox's gradebook into the course's."""
    with gradebook(course) as graded, gradebook(ROOT) as book:
        book.update_or_create_student(student)
        source = graded.find_submission(lab, student)
        # its timestamp too: Formgrader counts a hand-in as autograded only when the gradebook's matches the hand-in's
        book.update_or_create_submission(lab, student, timestamp=source.timestamp)
        for notebook in source.notebooks:
            for grade in notebook.grades:
                target = book.find_grade(grade.name, notebook.name, lab, student)
                target.auto_score = grade.auto_score
                target.needs_manual_grade = grade.needs_manual_grade  # a written answer waits for the teacher
            for comment in notebook.comments:
                book.find_comment(comment.name, notebook.name, lab, student).auto_comment = comment.auto_comment
        book.db.commit()


def feedback(lab):
    """nbgrader's feedback for every graded hand-in of a lab (feedback/<student>/<lab>/<lab>.html): marks, comments and
    the tests a learner could see, never a hidden one (classroom/nbgrader_config.py)."""
    prepare()
    nbgrader("generate_feedback", lab, "--force")
    print(f"feedback: {ROOT / 'feedback'}/<student>/{lab}/{lab}.html")


def grades():
    """The class's marks as one CSV table (nbgrader export): build/classroom/grades.csv."""
    prepare()
    nbgrader("export", f"--to={ROOT / 'grades.csv'}")
    print(f"grades: {ROOT / 'grades.csv'}")
