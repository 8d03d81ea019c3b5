"""The classroom side: nbgrader assignments made from the labs themselves (python tools/classroom.py --help).

The course folder is build/classroom (COURSE_CLASSROOM overrides it); nbgrader_config.py comes from
classroom/. A lab's id is its file name without .ipynb (02-buffering)."""
import argparse
import fcntl
import functools
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sandbox
from labs import HOME, lab_paths, preset_names

ROOT = Path(os.environ.get("COURSE_CLASSROOM", HOME / "build/classroom"))
ENVIRONMENT = Path(sys.prefix)  # the course's Python environment: .venv, or the one COURSE_VENV named to the set-up
NBGRADER = str(ENVIRONMENT / "bin/nbgrader")
KERNEL = "java-course"  # the course kernel's name (setup/kernelspec.py writes its spec)


def nbgrader(*args):
    subprocess.run([NBGRADER, *args], cwd=ROOT, check=True)  # nbgrader_config.py in ROOT makes it the course


def generate(course, labs):
    """nbgrader's generate_assignment for each lab of the course folder, in this process: nbgrader's own
    command takes seconds to start, once per lab."""
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


def release(labs):
    """Copies each lab into source/<lab>/ and generates its student version in release/<lab>/."""
    prepare()
    feature = java_feature(grading_java_home())
    for lab in labs:
        source = ROOT / "source" / lab
        if source.exists():
            shutil.rmtree(source)
        source.mkdir(parents=True)
        nb = json.loads((HOME / "labs" / f"{lab}.ipynb").read_text())
        for grade_id, needs in leave_out_what_needs_newer_java(nb, feature):
            print(f"classroom: {lab}'s {grade_id} needs Java {needs}; grading here runs Java {feature}, so it is left out of the marks",
                  file=sys.stderr)
        (source / f"{lab}.ipynb").write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    generate(ROOT, labs)
    for lab in labs:
        print(f"released {ROOT / 'release' / lab / (lab + '.ipynb')}")


def leave_out_what_needs_newer_java(nb, feature):
    """Makes each graded cell that needs a newer Java than grading runs (its metadata's course.needs_java; its check
    skips itself there, saying so) an ungraded one, so no learner gains or loses its points; yields (grade id, needs)."""
    for cell in nb["cells"]:
        needs = cell["metadata"].get("course", {}).get("needs_java", 0)
        grading = cell["metadata"].get("nbgrader", {})
        if needs > feature and grading.get("grade"):
            grading["grade"] = False
            grading.pop("points", None)
            yield grading["grade_id"], needs


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


STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# the fields every saved lab's results has (data/results.schema.json says which; the kit checks the rest)
RESULTS_FIELDS = json.loads((HOME / "data/results.schema.json").read_text())["required"]
UNSANDBOXED = "COURSE_UNSANDBOXED"  # =1: grade with the teacher's own rights, knowingly
GRADE_SECONDS = "COURSE_GRADE_SECONDS"  # the most one hand-in's grading may take (default an hour)
GRADE_JOBS = "COURSE_GRADE_JOBS"  # hand-ins graded at once (default: as many as the cores and memory allow)
GRADE_PRESET = "COURSE_GRADE_PRESET"  # the preset graded labs run in (default smoke: no mark depends on a measurement's size)
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
    if problems:
        sys.exit("classroom: not graded (their marks are left as they were): " + "; ".join(problems))


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
    """The kit builds every snippet (a cache hit each when nothing changed)."""
    java_home = grading_java_home()
    subprocess.run([str(Path(java_home) / "bin/java"), "-cp", str(HOME / "kit/target/course-kit.jar"), "course.run.Build"], check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, COURSE_HOME=str(HOME), JAVA_HOME=java_home))


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
    """The sandbox's limits for grading labs in this preset: sized by its largest file (labs/presets.json)."""
    presets = json.loads((HOME / "labs/presets.json").read_text())
    sizes = [parse_size(s) for lab, by_name in presets.items() if not lab.startswith("_")
             for s in strings(by_name.get(preset, {})) if re.fullmatch(r"\d+[kmg]", s)]
    return sandbox.Limits.for_largest_file(max(sizes, default=0))


def strings(value):
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def parse_size(text):
    return int(text[:-1]) << {"k": 10, "m": 20, "g": 30}[text[-1]]


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
        done = sandbox.run(cmd, work, limits, seconds, name=work.name)
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


def ensure(folder):
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as graded, Gradebook(f"sqlite:///{ROOT / 'gradebook.db'}") as book:
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


def scores(lab, root=ROOT):
    """Points per student and graded cell, read from the gradebook nbgrader keeps (in the course folder root);
    None for a written answer that waits for the teacher's marks (nbgrader's formgrader, or its manual grading)."""
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{Path(root) / 'gradebook.db'}") as book:
        out = {}
        for submission in book.assignment_submissions(lab):
            notebook = next(n for n in submission.notebooks if n.name == lab)  # the lab's one notebook, by its name
            out[submission.student_id] = {grade.name: None if grade.needs_manual_grade else grade.score for grade in notebook.grades}
        return out


def handin(learner, results, notebooks):
    """One zip for a learner to hand in, build/handin/handin-LEARNER.zip (COURSE_HANDIN names the folder): their lab
    notebooks (from `notebooks`) at its top, every results file their labs saved (checked) under results/, and the
    id they gave in learner.txt; nothing else about their machine than the results already say. A file that is not
    a lab's results stops it with a one-line error, and no zip is left behind."""
    if not STUDENT_ID.fullmatch(learner):
        sys.exit(f"classroom: learner id {learner!r}: use letters, digits, . _ - (at most 64, a letter or digit first), "
                 "for example: make handin ID=jane-doe")
    files = sorted(f for f in Path(results).glob("*.json") if not f.name.startswith("."))  # .saving-*: a save under way
    if not files:
        sys.exit(f"classroom: no results in {results} (run a lab first; each saves its results there)")
    for f in files:
        try:
            f.name.encode("utf-8")  # a name whose bytes were not UTF-8 holds surrogate escapes, which a zip cannot carry
        except UnicodeEncodeError:
            sys.exit(f"classroom: {str(f)!r}: a results file's name must be UTF-8 text: rename it")
        try:
            doc = json.loads(f.read_bytes())
            ok = isinstance(doc, dict) and set(RESULTS_FIELDS) <= doc.keys()
        except (OSError, ValueError):
            ok = False
        if not ok:
            sys.exit(f"classroom: {f} is not a lab's results (expected the JSON a lab saves: {', '.join(RESULTS_FIELDS)})")
    labs = [Path(notebooks) / p.name for p in lab_paths() if (Path(notebooks) / p.name).is_file()]
    out_dir = Path(os.environ.get("COURSE_HANDIN", HOME / "build/handin"))
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"handin-{learner}.zip"
    partial = out_dir / f".handin-{learner}.partial"
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("learner.txt", learner + "\n")
            for notebook in labs:
                z.write(notebook, notebook.name)
            for f in files:
                z.write(f, f"results/{f.name}")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    print(f"hand in this file: {target} ({len(labs)} notebooks, {len(files)} results)")


# What one learner's part of an LMS download may hold: a few files, none of them links, folders out of it or archives
# inside archives, of a size a lab's notebooks and results need (a lab's results are at most 16 MB, Handins says).
MOST_ENTRIES, MOST_BYTES = 1000, 256 << 20
DOWNLOAD_ENTRIES, DOWNLOAD_BYTES = 100_000, 16 << 30  # the whole download, unpacked
ARCHIVES = (".zip", ".gz", ".tar", ".tgz", ".bz2", ".xz", ".7z", ".rar")  # only a zip may be unpacked, and none inside a hand-in


def collect(lab, download):
    """Sorts an LMS's "download all submissions" of one lab (a zip, or the folder it unpacks to; Moodle's and
    Canvas's layouts, see tools/lms.py) into submitted/<student>/<lab>/<lab>.ipynb with nbgrader's zip_collect, and
    names each learner in the gradebook. Every archive is checked before nbgrader unpacks it: one that is not a zip,
    holds a link, a path out of it, an archive or too much is set aside under downloaded/<lab>/refused/ with a one-line
    reason, and the others are collected. The hand-in zips stay in downloaded/<lab>/archive/ for the class view."""
    import lms
    download = Path(download)
    base = ROOT / "downloaded" / lab
    archive, refused = base / "archive", base / "refused"
    for folder in (archive, refused, base / "extracted"):
        shutil.rmtree(folder, ignore_errors=True)
    archive.mkdir(parents=True)
    if download.is_dir():
        shutil.copytree(download, archive, symlinks=True, dirs_exist_ok=True)
    else:
        problem = archive_problem(download, DOWNLOAD_BYTES, nested_ok=True)
        if problem:
            shutil.rmtree(base)
            sys.exit(f"classroom: {download}: {problem}")
        with zipfile.ZipFile(download) as z:
            z.extractall(archive)
    set_aside = []
    for path in sorted(archive.rglob("*")):
        why = None
        if path.is_symlink():
            why = "a symbolic link"
        elif path.is_file() and path.suffix in ARCHIVES:
            why = archive_problem(path, MOST_BYTES, nested_ok=False) if path.suffix == ".zip" else "not a zip"
        if why:
            relative = path.relative_to(archive)
            (refused / relative).parent.mkdir(parents=True, exist_ok=True)
            path.rename(refused / relative)
            set_aside.append(f"{relative}: {why}")
    for line in set_aside:
        print(f"classroom: left out {line}", file=sys.stderr)
    prepare()
    subprocess.run([NBGRADER, "zip_collect", lab, "--force", "--strict", "--collector=lms.LmsCollector",
                    f"--LmsCollector.extracted={base / 'extracted'}", f"--LmsCollector.lab={lab}"],
                   cwd=ROOT, check=True, env=dict(os.environ, PYTHONPATH=str(HOME / "tools")))
    from nbgrader.api import Gradebook
    names = dict(filter(None, (lms.learner(entry.name) for entry in archive.iterdir())))
    collected = sorted(d.parent.name for d in (ROOT / "submitted").glob(f"*/{lab}") if d.parent.name in names)
    with Gradebook(f"sqlite:///{ROOT / 'gradebook.db'}") as book:
        for student in collected:
            first, _, last = names[student].rpartition(" ")
            book.update_or_create_student(student, first_name=first or None, last_name=last)
    print(f"collected {len(collected)} hand-ins of {lab} into {ROOT / 'submitted'}: {', '.join(collected) or 'none'}")


def archive_problem(path, most_bytes, nested_ok):
    """Why a zip may not be unpacked (not a zip, a link, a path out of it, an archive inside where none may be,
    more entries than it may hold or most_bytes unpacked), or None. Read from its directory: nothing is unpacked."""
    try:
        with zipfile.ZipFile(path) as z:
            entries = z.infolist()
    except (OSError, zipfile.BadZipFile) as e:
        return f"not a zip ({e})"
    most_entries = DOWNLOAD_ENTRIES if nested_ok else MOST_ENTRIES
    if len(entries) > most_entries:
        return f"more than {most_entries:,} files"
    if sum(e.file_size for e in entries) > most_bytes:
        return f"more than {most_bytes >> 20} MiB unpacked"
    for e in entries:
        name = e.filename
        if name.startswith("/") or "\\" in name or ".." in Path(name).parts:
            return f"a path out of it ({name})"
        mode = e.external_attr >> 16  # nbgrader's unpacking gives each file the mode its zip says
        if mode & 0o170000 == 0o120000:
            return f"a symbolic link ({name})"
        if mode & 0o7000:
            return f"a file that would run as its owner (set-user-id or set-group-id: {name})"
        if not nested_ok and Path(name).suffix in ARCHIVES:
            return f"an archive inside ({name})"
    return None


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


def class_results(folder):
    """Runs classroom/class-results.ipynb on the zips in folder and writes build/class-results.html
    (COURSE_CLASS_RESULTS overrides it), charts as static SVG; a failed cell makes the exit status 1."""
    from labs import execute
    from report import to_html, write_page
    os.environ["COURSE_HANDIN"] = str(Path(folder).resolve())  # the kernel inherits it
    executed = execute(HOME / "classroom/class-results.ipynb", os.environ.get("COURSE_PRESET", "quick"), allow_errors=True)
    body, failed = to_html(executed)
    out = Path(os.environ.get("COURSE_CLASS_RESULTS", HOME / "build/class-results.html"))
    write_page(out, "Class results", body)
    print(f"class results: wrote {out}")
    if failed:
        sys.exit("classroom: class results failed: " + "; ".join(failed))


class OneLineParser(argparse.ArgumentParser):
    """argparse that says what was wrong in one line, naming the value (its usage is one --help away)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message.removeprefix('argument LAB: ')}\n")


def lab_ids(text):
    """The labs one argument names: make passes LAB="02-buffering 03-operation-size" as one argument, so it splits at
    spaces; each must be a lab of the course."""
    known = sorted(p.stem for p in lab_paths())
    names = text.split()
    for name in names:
        if name not in known:
            raise argparse.ArgumentTypeError(f"no lab {name} (labs: {', '.join(known)})")
    return names


def one_lab(text):
    labs = lab_ids(text)
    if len(labs) != 1:
        raise argparse.ArgumentTypeError(f"{text!r}: name one lab (02-buffering)")
    return labs[0]


def parser():
    commands = OneLineParser(prog="classroom", description=__doc__.splitlines()[0], epilog=__doc__.split("\n\n", 1)[1])
    each = commands.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser)

    def labs(command, what):
        sub = each.add_parser(command, help=what, description=what)
        sub.add_argument("labs", nargs="*", type=lab_ids, metavar="LAB",
                         help="a lab's id (02-buffering); several, or one argument holding several at spaces; none: every lab")

    each.add_parser("prepare", help="the classroom folder and its nbgrader_config.py (make teach)")
    labs("release", "the student versions: release/<lab>/<lab>.ipynb")
    labs("autograde", "grade submitted/*/<lab>/, each hand-in in a sandbox of its own")
    labs("scores", "{student: {grade cell: points}} from the gradebook")
    labs("feedback", "feedback/<student>/<lab>/<lab>.html for every graded hand-in")
    each.add_parser("grades", help="the class's marks as one CSV table, grades.csv")
    collecting = each.add_parser("collect", help="an LMS's download of one lab into submitted/<student>/<lab>/")
    collecting.add_argument("lab", type=one_lab, metavar="LAB", help="the one lab the download holds")
    collecting.add_argument("download", type=Path, metavar="FROM", help="the LMS's download: its zip, or the folder it unpacks to")
    handing = each.add_parser("handin", help="a learner's notebooks and results in one zip to hand in")
    handing.add_argument("learner", metavar="ID", help="the learner's id, as the teacher asked")
    handing.add_argument("results", nargs="?", metavar="RESULTS", help="the folder of results (COURSE_RESULTS, else data/results)")
    viewing = each.add_parser("class-results", help="the teacher's view of the hand-in zips in FOLDER")
    viewing.add_argument("folder", nargs="?", metavar="FOLDER", help="the zips' folder (COURSE_HANDIN, else build/handin)")
    viewing.add_argument("--lab", type=one_lab, help="the zips make collect took in for this lab (instead of FOLDER)")
    return commands


def main(argv):
    args = parser().parse_args(argv)
    every = [p.stem for p in lab_paths()]
    if "labs" in args:
        args.labs = [lab for named in args.labs for lab in named]  # each argument may name several
    if args.command == "prepare":
        prepare()
    elif args.command == "release":
        release(args.labs or every)
    elif args.command == "autograde":
        autograde(args.labs or every)
    elif args.command == "scores":
        if not (ROOT / "gradebook.db").exists():
            sys.exit(f"classroom: no gradebook in {ROOT} yet: make autograde grades the hand-ins first")
        for lab in args.labs or every:
            print(lab, scores(lab))
    elif args.command == "feedback":
        for lab in args.labs or every:
            feedback(lab)
    elif args.command == "grades":
        grades()
    elif args.command == "collect":
        if not args.download.exists():
            sys.exit(f"classroom: FROM={args.download}: no such file or folder (the LMS's download: its zip, or the folder it unpacks to)")
        collect(args.lab, args.download)
    elif args.command == "handin":
        if not args.learner:  # make handin without ID= passes it empty
            sys.exit("classroom: say who you are: make handin ID=<your learner id, as your teacher asked>")
        handin(args.learner, args.results or os.environ.get("COURSE_RESULTS") or HOME / "data/results",
               os.environ.get("COURSE_NOTEBOOKS") or os.environ.get("COURSE_MY_LABS") or HOME / "my-labs")
    elif args.command == "class-results":
        collected = ROOT / "downloaded" / (args.lab or "") / "archive"
        if args.lab and not args.folder and not collected.is_dir():
            sys.exit(f"classroom: no hand-ins of {args.lab} collected in {collected.parent} yet: make collect LAB={args.lab} FROM=<the LMS's download> first")
        class_results(args.folder or (args.lab and collected) or os.environ.get("COURSE_HANDIN") or HOME / "build/handin")


if __name__ == "__main__":
    main(sys.argv[1:])
