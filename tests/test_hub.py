"""The course hub, played on this machine as a teacher's server runs it: `python -m hub install` and `start`
(what make hub runs) with local Unix users the test makes (an instructor and four learners), JupyterHub behind
configurable-http-proxy on the loopback, two classes, learners' servers started as them. The round trip goes through
the hub's and nbgrader's own HTTP APIs as the Assignments tab and Formgrader call them, and through Chromium for one
learner and the instructor: release, fetch, submit, collect and grade (each hand-in in the course's sandbox), feedback
fetched by each learner, grades.csv. Learners try to reach another's hand-in and feedback, another class and the
answers, and fail. Then the same hub logs people in from an LMS the test plays (LTI 1.3), runs a class's round trip
over ngshare (HUB_EXCHANGE=ngshare), and stops an idle server (HUB_IDLE_MINUTES=0.25). Needs root (users, a hub
that starts servers as them); elsewhere it skips, saying why; CI runs it. Everything it made (users, groups,
processes, ports, folders, the answers' permissions) is gone afterwards."""
import csv
import grp
import json
import os
import pwd
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import BROWSER_DRIVER, BUILD, ENV, HOME, browser_missing, cmdline, missing_as_root, survivors
from hub.answers import answer_paths, closed_ancestor
from hub.service import answering, free_ports, stop_hub
from hub.settings import NGSHARE_ACCOUNT, Settings
from hub.client import HubUser
from sandbox import held_by
import leftovers
from leftovers import MADE_NGSHARE, MODES, ROLES, SUITE, put_back, remove_people

IN_CI = os.environ.get("CI") == "true"
COURSE = f"{SUITE}-io-a"
OTHER_COURSE = f"{SUITE}-io-b"  # a second class on the same hub: it must stay apart
LATER_COURSE = f"{SUITE}-io-c"  # a class the teacher adds later, whose exchange folder a learner made first
LAB = "03-operation-size"
# what a hostile hand-in carries for the teacher's browser: each would set the page's title
SCRIPTS = "<script>document.title='ran'</script><img src=x onerror=\"document.title='ran'\">"
PYTHON = str(HOME / ".venv/bin/python")


def missing():
    """Why this machine cannot play a course hub (empty: it can)."""
    why = missing_as_root("local users, and a hub that starts servers as them",
                          ("passwd", "util-linux", "bubblewrap", "systemd-analyze"))
    if not why and not (HOME / ".venv/bin/jupyterhub").exists():
        why = "JupyterHub is not installed: setup/setup.sh --for-hub"
    if not why and not (HOME / "build/tools/hub/node_modules/.bin/configurable-http-proxy").exists():
        why = "configurable-http-proxy is not installed: setup/setup.sh --for-hub (with npm: sudo apt-get install npm)"
    return why


pytestmark = pytest.mark.skipif(bool(missing()) and not IN_CI, reason=f"a course hub: {missing()}")


def opened_path(closed, needed, stage):
    """A shell script that, in a mount namespace of its own, opens each of `needed` (folders under the folders `closed`,
    which other users may not enter, such as /root or a 0700 folder from mktemp -d) to other users: a memory folder over
    each closed one, open to all, and the needed folders mounted back at their places (closed folders between a closed
    one and a needed one are folders of the memory folder then, open too). A server keeps its course and its Python
    where every user may reach them; a test machine may keep either in a private place, so the test opens the way to
    its hub alone, leaving the machine as it is."""
    lines = [f'mkdir -p "{stage}/{i}" && mount --bind "{path}" "{stage}/{i}"' for i, path in enumerate(needed)]
    lines += [f'mount -t tmpfs -o mode=0755 course-hub "{folder}"' for folder in sorted(closed)]
    lines += [f'mkdir -p "{path}" && mount --move "{stage}/{i}" "{path}"' for i, path in enumerate(needed)]
    return " && ".join(lines) + ' && exec "$@"'


def whole_run(cmd, **kw):
    """subprocess.run(cmd, check=True), but a test stopped while it runs takes all it started with it: run() kills only
    its child (here unshare), and the install behind it would go on and close the answers after down() opened them."""
    child = subprocess.Popen(cmd, start_new_session=True, **kw)
    try:
        status = child.wait()
    except BaseException:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        raise
    if status != 0:
        raise subprocess.CalledProcessError(status, cmd)


class Hub:
    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="course-hub-", dir=leftovers.HUBS))
        self.folder.chmod(0o755)
        (self.folder / "owner.pid").write_text(str(os.getpid()))  # whose hub this is, while that process lives
        tag = os.getpid() % 100000
        self.instructor, *self.learners = (f"{SUITE}{role}{tag}" for role in ROLES)
        self.users = [self.instructor, *self.learners]
        self.port = free_ports(len(Settings.ports_for(0, (COURSE, OTHER_COURSE, LATER_COURSE))))  # every port of its largest set of courses
        self.url = f"http://127.0.0.1:{self.port}"
        self.home = self.folder / "hub"
        self.env = dict(ENV, HUB_HOME=str(self.home), HUB_IP="127.0.0.1", HUB_PORT=str(self.port), HUB_MEMORY="2g", HUB_TASKS="512", HUB_IDLE_MINUTES="60",
                        HUB_COURSES=f"{COURSE} {OTHER_COURSE}", HUB_KEEP_SERVERS="no", HUB_DISK_RESERVE="2g")  # each restart a clean start, but where a test says
        self.groups_before = {g.gr_name for g in grp.getgrall()}
        self.users_before = {p.pw_name for p in pwd.getpwall()}
        self.modes = {}
        self.process = None
        self.log = self.folder / "hub.log"

    def prefix(self):
        """What the hub runs under: nothing where learners may reach the course and its Python, else a mount namespace
        that opens the way (see opened_path)."""
        python = Path(os.path.realpath(HOME / ".venv/bin/python")).parents[1]
        needed = [p for p in (HOME, python) if closed_ancestor(p)]
        if not needed:
            return []
        # the first closed folder from / on each way: two ways' first ones never lie one inside the other
        closed = {str(closed_ancestor(p)) for p in needed}
        stage = self.folder / "stage"
        return ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                opened_path(closed, [str(p) for p in needed], stage), "sh"]

    def up(self):
        (self.folder / "home").mkdir(mode=0o755)
        for user in self.users:
            role = user.removeprefix(SUITE).rstrip("0123456789")
            subprocess.run(["useradd", "--create-home", "--base-dir", str(self.folder / "home"), "--shell", "/bin/bash",
                            "--comment", f"{role.title()} Learner", user], check=True)
            subprocess.run(["chpasswd"], input=f"{user}:{self.password(user)}\n", text=True, check=True)
        # install changes the answers' group and mode: noted here (and on disk, for a run stopped before down()), put back in down()
        for path in answer_paths():
            st = path.lstat()
            self.modes[path] = (st.st_gid, stat.S_IMODE(st.st_mode))
        MODES.write_text(json.dumps({str(path): held for path, held in self.modes.items()}))
        if NGSHARE_ACCOUNT not in self.users_before:  # install makes it: the test's to remove, also after a stop
            MADE_NGSHARE.touch()
        self.start(INSTRUCTORS=self.instructor, LEARNERS=" ".join(self.learners))  # named once: the groups keep them

    def start(self, install=True, **settings):
        """install (with these settings over the saved ones; unless told not to), then start; returns once the hub answers."""
        env = dict(self.env, **settings)
        if install:
            whole_run([*self.prefix(), PYTHON, "-m", "hub", "install"], env=env)
        self.process = subprocess.Popen([*self.prefix(), PYTHON, "-m", "hub", "start"], env=env,
                                        stdout=open(self.log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
        certificate = settings.get("HUB_TLS_CERT")
        self.url = f"{'https' if certificate else 'http'}://127.0.0.1:{self.port}"
        assert answering(self.url, self.process, 90, verify=certificate or True), \
            f"the hub did not answer:\n{self.log.read_text()[-3000:]}"

    @staticmethod
    def memory_of(user):
        """What a user's processes hold together (PSS: shared pages counted once)."""
        return held_by({pwd.getpwnam(user).pw_uid})

    @staticmethod
    def kernel_name():
        return json.loads((HOME / ".venv/share/jupyter/kernels/java-course/kernel.json").read_text())["display_name"]

    @staticmethod
    def password(user):
        return f"pw-{user}-{os.getpid()}"

    def stop(self):
        stop_hub(self.process, self.home)

    def down(self):
        self.stop()
        made = (*self.users, *(f"grader-{course}" for course in (COURSE, OTHER_COURSE, LATER_COURSE)), NGSHARE_ACCOUNT)
        ours = lambda name: name in made or name.startswith(("lti-", "ltix-")) or leftovers.SUITE_USER.fullmatch(name)  # noqa: E731 (LMS launches made lti-*, rosters cthp…)
        made_users = [u.pw_name for u in pwd.getpwall() if u.pw_name not in self.users_before and ours(u.pw_name)]
        made_groups = [group for group in (*(f"{kind}-{course}" for kind in ("nbgrader", "formgrade")
                                             for course in (COURSE, OTHER_COURSE, LATER_COURSE)), *self.users,
                                  NGSHARE_ACCOUNT)
                       if group not in self.groups_before]
        remove_people(made_users, made_groups)
        MADE_NGSHARE.unlink(missing_ok=True)
        put_back(self.modes)
        shutil.rmtree(self.folder, ignore_errors=True)

    def teacher(self, *args):
        """A make hub-release or hub-grade step, as root."""
        return subprocess.run([PYTHON, "-m", "hub", *args], env=self.env, capture_output=True, text=True, timeout=900)

    def as_user(self, user, *argv, input=None):
        """A command run as a user of the server (what the user could do from their server's terminal), where the hub
        runs (seeing the course and its Python as the hub's users do: see prefix)."""
        return subprocess.run([*self.prefix(), "runuser", "-u", user, "--", *argv], capture_output=True, text=True, timeout=60,
                              input=input)


class Session(HubUser):
    """A user of the hub the test plays: logged in by the login form (hub/client.py's HubUser, which the demo's
    class uses too)."""

    def __init__(self, hub, user, course=COURSE):
        super().__init__(hub.url, user, hub.password(user))
        self.course = course

    def assignments(self, action=None, course=None, lab=LAB):  # the test's lab and course, not the demo's
        return super().assignments(action, course or self.course, lab)


@pytest.fixture(scope="module")
def hub():
    if missing():
        pytest.fail(f"CI must play the course hub: {missing()}")
    try:
        print(leftovers.said(leftovers.hub(os.getpid()), "a stopped run of the hub tests"))
    except leftovers.Busy as busy:
        pytest.fail(str(busy))
    playing = Hub()
    try:
        playing.up()
        yield playing
    finally:
        playing.down()
    ours = [str(playing.folder), f"127.0.0.1:{playing.port + 1}", f"127.0.0.1:{playing.port + 2}"]  # the culler names the hub's
    assert not survivors(lambda line: any(mark in line for mark in ours)), "the hub's processes outlived it"
    for user in playing.users:
        with pytest.raises(KeyError):
            pwd.getpwnam(user)


def right_answer():
    """The course's own answer to lab 03's system-calls exercise (the source holds it), as a learner would write it."""
    nb = json.loads((HOME / "labs" / f"{LAB}.ipynb").read_text())
    source = next("".join(c["source"]) for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "lab03-system-calls")
    return "\n".join(line for line in source.splitlines() if "SOLUTION" not in line)


def answered(notebook, grade_id, answer):
    for cell in notebook["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("grade_id") == grade_id:
            cell["source"] = answer
    return notebook


def in_browser(hub, role, user, *args, submission=""):
    """tests/browser/hub_round.mjs as this user (see there); its report, or None where no browser test can run here."""
    if browser_missing():
        assert not IN_CI, f"CI must look at the hub in a browser: {browser_missing()}"
        print(f"not looked at in a browser: {browser_missing()}")
        return None
    run = subprocess.run(["node", str(HOME / "tests/browser/hub_round.mjs"), role, hub.url, user, LAB, *args, str(BUILD)],
                         env=dict(ENV, HUB_PASSWORD=hub.password(user), HUB_SUBMISSION=submission, COURSE_BROWSER_TOOLS=str(BROWSER_DRIVER)),
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{run.stderr[-3000:]}\n{hub.log.read_text()[-3000:]}"
    report = json.loads(run.stdout.strip().splitlines()[-1])
    print(f"what the {role}'s pages showed (screenshots: {BUILD}/hub-{role}-*.png): {report}")
    return report


def nbgrader_time(seconds=0):
    """A time as nbgrader names a hand-in by it (UTC), seconds from now."""
    from datetime import datetime, timedelta, timezone
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def plant_a_hostile_class(hub, notebook):
    """What learners try in the exchange folder with plain shell commands before the teacher grades: dan hands in in
    ben's name (at a time in 2099, and at now), hands in the course's own source notebook through a link, a hard link,
    a pipe, a hand-in dated before he made it, and a name whose time is none; cleo hands in a link to the hub's state
    beside her notebook, and, a moment before, a notebook that is not one (it fails grading). Each is newer than their
    genuine hand-in. Returns {entry: the refusal the teacher must read}, and cleo's broken entry (collected, not graded)."""
    inbound = hub.home / "exchange" / COURSE / "inbound"
    ben, cleo, dan = hub.learners[:3]
    mine = Path(pwd.getpwnam(dan).pw_dir) / "mine.ipynb"
    made = {}

    def hand_in(user, name, *shell):
        folder = inbound / name
        done = hub.as_user(user, "sh", "-c", f'umask 077 && mkdir "$1" && cd "$1" && {" && ".join(shell)}', "sh", str(folder))
        assert done.returncode == 0, done.stderr

    assert hub.as_user(dan, "sh", "-c", f"cat > {mine}", input=json.dumps(notebook)).returncode == 0
    now = nbgrader_time()
    for name, shell, refusal in (
            (f"{ben}+{LAB}+2099-12-31 23:59:59.000000 UTC+x", [f"cp {mine} {LAB}.ipynb"], "is later than now"),
            (f"{ben}+{LAB}+{now}+forged", [f"cp {mine} {LAB}.ipynb"], f"it was made by {dan}, not by {ben}"),
            (f"{dan}+{LAB}+{now}+link", [f"ln -s {HOME / 'labs' / (LAB + '.ipynb')} {LAB}.ipynb"], f"{LAB}.ipynb is a symbolic link"),
            (f"{dan}+{LAB}+{now}+hard", [f"ln {mine} {LAB}.ipynb"], f"{LAB}.ipynb is a second name of another file"),
            (f"{dan}+{LAB}+{now}+pipe", [f"mkfifo {LAB}.ipynb"], f"{LAB}.ipynb is a pipe"),
            (f"{dan}+{LAB}+2020-01-01 00:00:00.000000 UTC+early", [f"cp {mine} {LAB}.ipynb"], "after the time its name gives"),
            (f"{dan}+{LAB}+soon+x", [f"cp {mine} {LAB}.ipynb"], "is not a time nbgrader writes")):
        hand_in(dan, name, *shell)
        made[name] = refusal
    broken = f"{cleo}+{LAB}+{nbgrader_time(-1)}+broken"
    hand_in(cleo, broken, f"echo '{{not a notebook' > {LAB}.ipynb")
    state = f"{cleo}+{LAB}+{nbgrader_time()}+state"
    hand_in(cleo, state, "echo 'my notes' > notes.md", f"ln -s {hub.home / 'state'} state")
    made[state] = "state is a symbolic link"
    return made, broken


def test_a_class_round_trip_on_the_hub(hub):
    """Release, fetch, submit, collect, grade, feedback and grades.csv, each through the hub as its users do it: three
    learners through the APIs the Assignments tab calls, one in a real browser, and the instructor in Formgrader. The
    class is hostile (plant_a_hostile_class): each of its tries is refused in one line to the teacher, a hand-in that
    fails grading leaves the rest graded, fed back and tabled, and every genuine hand-in is graded as itself."""
    released = hub.teacher("release", LAB, COURSE)
    assert released.returncode == 0, released.stderr
    ben, cleo, dan = (Session(hub, user) for user in hub.learners[:3])
    for learner in (ben, cleo, dan):
        learner.start_server()
        assert LAB in learner.assignments(), "the released lab is listed in the Assignments tab"
        assert learner.assignments("fetch")[LAB]["status"] == "fetched"
    assert list(ben.api("GET", f"/user/{ben.user}/api/kernelspecs").json()["kernelspecs"]) == ["java-course"], "the course kernel alone"
    # each learner's own copies of the labs: made at first login, without answers
    mine = Path(pwd.getpwnam(ben.user).pw_dir) / "java-io-course"
    assert sorted(p.name for p in mine.glob("0*.ipynb"))[:1] == ["00-start-here.ipynb"]
    assert "BEGIN SOLUTION" not in (mine / f"{LAB}.ipynb").read_text()
    assert stat.S_IMODE(mine.stat().st_mode) == 0o700, "a learner's folder is theirs alone"

    # ben answers the system-calls exercise in his fetched copy (through his server's contents API, as JupyterLab saves)
    [path] = [notebook["path"] for notebook in ben.assignments()[LAB]["notebooks"]]
    assert path == f"{LAB}/{LAB}.ipynb", ben.assignments()
    fetched = ben.api("GET", f"/user/{ben.user}/api/contents/{path}").json()["content"]
    saved = ben.api("PUT", f"/user/{ben.user}/api/contents/{path}",
                    json={"type": "notebook", "format": "json", "content": answered(fetched, "lab03-system-calls", right_answer())})
    assert saved.ok, saved.text
    fetched = dan.api("GET", f"/user/{dan.user}/api/contents/{path}").json()["content"]
    # dan's answer is wrong, and carries script for the teacher's browser: in an output it makes and in a markdown cell
    wrong = ("long systemCalls(long fileSize, long opSize, String pattern) {\n    return fileSize / opSize;\n}\n"
             f"course.show.Notebook.html({json.dumps(SCRIPTS)}, \"a picture\");")
    fetched = answered(fetched, "lab03-system-calls", wrong)
    fetched["cells"].append({"cell_type": "markdown", "metadata": {}, "source": f"My notes {SCRIPTS} [more](javascript:document.title='ran')"})
    assert dan.api("PUT", f"/user/{dan.user}/api/contents/{path}", json={"type": "notebook", "format": "json", "content": fetched}).ok
    for learner in (ben, cleo, dan):
        submitted = learner.assignments("submit")[LAB]
        assert submitted["status"] == "submitted", submitted
    eve = in_browser(hub, "learner", hub.learners[3], "3")  # logs in, fetches, runs the first three code cells, submits
    if eve:
        assert eve["landed"] == f"/user/{hub.learners[3]}/lab/tree/00-start-here.ipynb", eve
        assert eve["nbgraderItems"] == ["Assignment List"], f"the learner's one nbgrader part: {eve}"
        assert eve["firstRan"] and eve["ran"] >= 3 and eve["errors"] == 0 and eve["submitted"] == 1, eve
        assert eve["kernel"] == hub.kernel_name(), eve
        print(f"sizing: a first login to lab 00 open with its kernel ready took {eve['secondsToLab']:.1f} s; "
              f"eve's server with two kernels started holds {hub.memory_of(hub.learners[3]) / 2**20:.0f} MiB (PSS)")

    # Formgrader is a hub service only instructors may open
    ada = Session(hub, hub.instructor)
    assert ada.api("GET", f"/services/{COURSE}/formgrader/api/submissions/{LAB}").ok
    assert cleo.api("GET", f"/services/{COURSE}/formgrader/api/submissions/{LAB}", allow_redirects=False).status_code in (403, 302)

    planted, broken = plant_a_hostile_class(hub, fetched)
    graded = hub.teacher("grade", LAB, COURSE)
    said = graded.stdout[-2000:] + "\n".join(line for line in graded.stderr.splitlines() if line.startswith(("hub:", "classroom:")))
    assert graded.returncode != 0 and "the rest of the class is graded" in graded.stderr.splitlines()[-1], said
    refusals = [line for line in graded.stderr.splitlines() if line.startswith("hub: not collected: ")]
    for entry, why in planted.items():
        assert any(line.startswith(f"hub: not collected: {entry}: ") and why in line for line in refusals), f"{entry}: {said}"
    assert len(refusals) == len(planted), refusals
    assert f"classroom: not graded (marks left as they were): {cleo.user} ({LAB}): nbgrader failed" in graded.stderr, said
    rows = {row["student_id"]: row for row in csv.DictReader(open(hub.home / "classrooms" / COURSE / "grades.csv"))
            if row["assignment"] == LAB}
    assert float(rows[ben.user]["raw_score"]) == 2.0 and rows[ben.user]["timestamp"].startswith(nbgrader_time()[:4]), rows
    assert float(rows[dan.user]["raw_score"]) == 0.0, rows
    assert rows[cleo.user]["timestamp"] == "", f"cleo's broken hand-in is not graded: {rows[cleo.user]}"
    assert (hub.learners[3] in rows) == bool(eve), rows
    collected = hub.home / "classrooms" / COURSE / "submitted" / cleo.user / LAB
    assert (collected / "timestamp.txt").read_text() == broken.split("+")[2] and not (collected / "state").exists()
    listed = ada.api("GET", f"/services/{COURSE}/formgrader/api/submissions/{LAB}").json()
    assert {s["student"]: s["autograded"] for s in listed if s["submitted"]} == {**{user: True for user in rows}, cleo.user: False}, \
        "Formgrader sees every hand-in graded but cleo's"
    # Formgrader's own Autograde would run ben's code as the grader account: it refuses, and his marks stay
    refused = ada.api("POST", f"/services/{COURSE}/formgrader/api/submission/{LAB}/{ben.user}/autograde").json()
    assert not refused["success"] and "make hub-grade" in refused.get("log", "") + refused["error"], refused
    kept = ada.api("GET", f"/services/{COURSE}/formgrader/api/submission/{LAB}/{ben.user}").json()
    assert kept["autograded"] and kept["score"] == 2.0, kept
    # so do its exchange buttons, whose folder is root's: each names the teacher's command
    for button, command in (("release", "make hub-release"), ("collect", "make hub-grade"), ("release_feedback", "make hub-grade")):
        pressed = ada.api("POST", f"/services/{COURSE}/formgrader/api/assignment/{LAB}/{button}").json()
        assert not pressed["success"] and command in pressed.get("log", "") + pressed.get("error", ""), pressed
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{hub.home / 'classrooms' / COURSE / 'gradebook.db'}") as book:
        hostile = book.find_submission_notebook(LAB, LAB, dan.user).id
    page = ada.api("GET", f"/services/{COURSE}/formgrader/submissions/{hostile}/")
    assert page.ok and "script-src 'self'" in page.headers["Content-Security-Policy"], page.headers
    assert "<script>document.title" not in page.text, "dan's script reaches Formgrader's page only as text"
    instructor = in_browser(hub, "instructor", hub.instructor, COURSE, submission=hostile)
    if instructor:
        assert instructor["handInTitle"] != "ran" and instructor["ownScripts"], f"a hand-in's script ran in Formgrader: {instructor}"
        assert len(instructor["rows"]) == len(rows), instructor
        assert all(("needs autograding" if cleo.user in row else "graded") in row for row in instructor["rows"]), instructor
        assert instructor["rows"][0].startswith("Learner, Ben"), "learners named as their accounts name them"

    for learner in (ben, dan):
        learner.assignments("fetch_feedback")
        [page] = (Path(pwd.getpwnam(learner.user).pw_dir) / "java-io-course" / LAB / "feedback").glob(f"*/{LAB}.html")
        shown = page.read_text()
        assert "lab03-system-calls-check" in shown and "HIDDEN TESTS" not in shown
    held_by_the_class(hub)


RUNTIME = ("/.local/share/jupyter/runtime", "/.npm/_logs")  # a running Formgrader's, in its grader's home (the classroom)


def the_term(hub):
    """Every folder and regular file (of one link) of the term (the classrooms, the exchange, the people's folders),
    {path: (owner, group, mode, content)}, with the gradebooks by their marks (SQLite writes its pages as it likes); and
    what else stands there (the hostile class's links, pipes and hard links), which no backup takes."""
    from nbgrader.api import Gradebook
    held, other = {}, []
    for place in (hub.home / "classrooms", hub.home / "exchange", *(Path(pwd.getpwnam(u).pw_dir) / "java-io-course" for u in hub.users)):
        for where, folders, files in os.walk(place):
            for path in (Path(where) / name for name in folders + files):
                if any(part in str(path) for part in RUNTIME):
                    continue  # what each start of a Formgrader writes anew
                st = path.lstat()
                if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode) and st.st_nlink == 1):
                    other.append(path)
                    continue
                content = path.read_bytes() if stat.S_ISREG(st.st_mode) and path.name != "gradebook.db" else None
                held[str(path)] = (pwd.getpwuid(st.st_uid).pw_name, grp.getgrgid(st.st_gid).gr_name, stat.S_IMODE(st.st_mode), content)
    for course in (COURSE, OTHER_COURSE):
        if not (hub.home / "classrooms" / course / "gradebook.db").exists():
            continue  # a class not graded yet (nbgrader's Gradebook would make one)
        with Gradebook(f"sqlite:///{hub.home / 'classrooms' / course / 'gradebook.db'}") as book:
            held[f"marks of {course}"] = sorted((s.student_id, a.name, s.score, str(s.timestamp))
                                                for a in book.assignments for s in book.assignment_submissions(a.name))
    return held, other


def test_a_term_backed_up_and_put_back_on_a_wiped_hub_keeps_every_mark_hand_in_and_feedback(hub):
    """make hub-backup while the hub runs (HOMES=yes); then the hub stopped and its term wiped (its database, the
    classrooms, the exchange, ben's folder), make hub's install, make hub-restore and make hub again put it back: every
    mark, hand-in and feedback page as it was, each file with its owner, group and mode; the instructor's Formgrader
    lists the same; a restore refuses while the hub runs, and writes nothing through the link dan put where his folder
    was (his folder stays as he left it)."""
    ben = hub.learners[0]
    folder = Path(pwd.getpwnam(ben).pw_dir) / "java-io-course"
    ada = Session(hub, hub.instructor)
    listed = ada.api("GET", f"/services/{COURSE}/formgrader/api/submissions/{LAB}").json()
    before, planted = the_term(hub)
    assert before[f"marks of {COURSE}"] and list((folder / LAB / "feedback").glob(f"*/{LAB}.html")), "a graded term to keep"
    backed = hub.teacher("backup", "--homes")
    assert backed.returncode == 0 and backed.stdout.startswith("hub: backed up in "), backed.stderr
    archive = Path(backed.stdout.split("hub: backed up in ", 1)[1].strip())
    left_out = archive.with_name(f"{archive.name}.left-out.txt")
    assert f"not a folder or a file of one link: {len(planted)}, each named in {left_out}" in backed.stderr, \
        (planted, backed.stderr, left_out.read_text() if left_out.exists() else "")
    held = archive.stat()
    assert (held.st_uid, stat.S_IMODE(held.st_mode)) == (0, 0o600), "the archive is root's alone"
    running = hub.teacher("restore", str(archive))
    assert running.returncode == 1 and "the hub is running" in running.stderr and len(running.stderr.splitlines()) == 1, running.stderr
    hub.stop()
    for part in ("state", "classrooms", "exchange"):
        shutil.rmtree(hub.home / part)
    shutil.rmtree(folder)
    # dan's folder goes too, and where it stood he puts a link to a folder of root's, for restore to write through
    dan, roots = hub.learners[2], hub.folder / "roots-of-restore"
    roots.mkdir(mode=0o755)
    shutil.rmtree(Path(pwd.getpwnam(dan).pw_dir) / "java-io-course")
    assert hub.as_user(dan, "ln", "-s", str(roots), str(Path(pwd.getpwnam(dan).pw_dir) / "java-io-course")).returncode == 0
    whole_run([*hub.prefix(), PYTHON, "-m", "hub", "install"], env=hub.env)  # a fresh server's make hub: its courses' folders
    restored = hub.teacher("restore", str(archive))
    assert restored.returncode == 0, restored.stderr
    assert f"hub: restore: {dan} has a java-io-course already: kept as it is" in restored.stderr, restored.stderr
    assert list(roots.iterdir()) == [], "nothing written through dan's link"
    (Path(pwd.getpwnam(dan).pw_dir) / "java-io-course").unlink()  # his next login makes his copies again
    after, _ = the_term(hub)  # as restore left it (make hub then gives the classrooms' folders its own modes again)
    before = {path: held for path, held in before.items() if not path.startswith(str(Path(pwd.getpwnam(dan).pw_dir)))}
    differ = sorted(set(before) ^ set(after))
    assert differ == [], f"the same folders and files: {differ}"
    changed = {path: (before[path][:3], after[path][:3]) for path in before if before[path] != after[path]}
    assert changed == {}, f"each as it was: owner, group, mode, content, marks: {changed}"
    hub.start()
    assert ada.api("GET", f"/services/{COURSE}/formgrader/api/submissions/{LAB}").json() == listed, "Formgrader lists the same"


def held_by_the_class(hub):
    """No byte of the answers or the hub's secret reached anything the class may read or the grader account's
    hand-ins: learners' homes, the exchange, the classroom's hand-ins, graded notebooks and feedback."""
    secret = (hub.home / "state/jupyterhub_cookie_secret").read_bytes().strip()
    classroom = hub.home / "classrooms" / COURSE
    places = [hub.home / "exchange", classroom / "submitted", classroom / "autograded", classroom / "feedback",
              *(Path(pwd.getpwnam(user).pw_dir) for user in hub.learners)]
    for place in places:
        for folder, _, files in os.walk(place):  # never into a link
            for path in (Path(folder) / name for name in files):
                if not stat.S_ISREG(path.lstat().st_mode):
                    continue
                held = path.read_bytes()
                assert secret not in held, f"the hub's cookie secret is in {path}"
                assert b"BEGIN SOLUTION" not in held, f"the answers are in {path}"


def test_no_learner_reaches_another_s_hand_in_or_the_answers(hub):
    """Knowing the exact paths (read here as root), a learner can neither list, read, change nor move another's
    hand-in or feedback, nor read the labs' sources."""
    inbound = hub.home / "exchange" / COURSE / "inbound"
    ben, dan = hub.learners[0], hub.learners[2]
    [hand_in] = [p for p in inbound.iterdir() if p.name.startswith(f"{ben}+{LAB}+") and p.stat().st_uid == pwd.getpwnam(ben).pw_uid]
    for argv in (["ls", str(inbound)], ["ls", str(hand_in)], ["cat", str(hand_in / f"{LAB}.ipynb")],
                 ["cat", str(hand_in / "submission_secret.txt")], ["touch", str(hand_in / "mine")],
                 ["rm", "-rf", str(hand_in)], ["mv", str(hand_in), str(inbound / "taken")],
                 ["mv", str(hub.home / "exchange" / COURSE), str(hub.home / "exchange/taken")],
                 ["cat", str(HOME / "labs" / f"{LAB}.ipynb")], ["ls", str(HOME / "tests")], ["ls", str(HOME / ".git")],
                 ["ls", str(hub.home / "classrooms" / COURSE)]):
        tried = hub.as_user(dan, *argv)
        assert tried.returncode != 0, f"{dan} could: {' '.join(argv)}"
    assert hand_in.exists() and (hub.home / "exchange" / COURSE).exists()
    feedback = list((hub.home / "exchange" / COURSE / "feedback").glob("*.html"))
    assert len(feedback) >= 2
    readable = [page for page in feedback if hub.as_user(dan, "cat", str(page)).returncode == 0]
    assert len(readable) == 1, "dan reads his own feedback and no other"
    assert hub.as_user(ben, "cat", str(readable[0])).returncode != 0


def test_no_learner_bends_a_folder_root_makes(hub):
    """dan makes the exchange folder of a class the teacher has not added yet, and in it `inbound` as a link to a folder
    of root's; when the teacher adds that class, make hub refuses in one line, and the folder behind the link keeps
    its owner and mode (the hub's settings too: the class is not added)."""
    dan = hub.learners[2]
    target = hub.folder / "roots"
    target.mkdir(mode=0o755)
    planted = hub.as_user(dan, "sh", "-c", 'mkdir "$1" && ln -s "$2" "$1/inbound"', "sh",
                          str(hub.home / "exchange" / LATER_COURSE), str(target))
    assert planted.returncode == 0, planted.stderr
    added = subprocess.run([*hub.prefix(), PYTHON, "-m", "hub", "install"], capture_output=True, text=True,
                           env=dict(hub.env, HUB_COURSES=f"{COURSE} {OTHER_COURSE} {LATER_COURSE}"))
    assert added.returncode != 0 and added.stderr.strip() == (
        f"hub: {hub.home / 'exchange' / LATER_COURSE} was made by {dan}, not by the hub: remove it "
        f"(rm -r '{hub.home / 'exchange' / LATER_COURSE}') and run make hub again"), added.stderr
    held = target.stat()
    assert (held.st_uid, held.st_gid, stat.S_IMODE(held.st_mode)) == (0, 0, 0o755), "root's folder is as it was"
    assert json.loads(Settings.state_file(hub.home).read_text())["courses"] == [COURSE, OTHER_COURSE]
    assert stat.S_IMODE((hub.home / "exchange" / COURSE / "inbound").stat().st_mode) == 0o3773, "inbound is sticky"


def test_the_answers_stay_closed_after_a_pull_and_a_restart(hub):
    """A git pull writes a lab's source anew, open to all (0644); the hub's next start (alone, without install) closes
    it before it serves, and a learner cannot read it."""
    source = HOME / "labs" / f"{LAB}.ipynb"
    pulled = source.with_name(f".{source.name}.pulled")
    shutil.copyfile(source, pulled)  # as git writes a file: a new one, then renamed over the old
    pulled.chmod(0o644)
    os.replace(pulled, source)
    hub.stop()
    hub.start(install=False)
    assert stat.S_IMODE(source.stat().st_mode) & 0o007 == 0, oct(source.stat().st_mode)
    assert hub.as_user(hub.learners[2], "cat", str(source)).returncode != 0


def test_two_classes_on_one_hub_stay_apart(hub):
    """A learner sees, fetches from and hands in to only the classes they are in, and an instructor opens only their
    classes' Formgrader (each class its own groups, exchange folder, grader account and Formgrader)."""
    ben, dan = hub.learners[0], hub.learners[2]
    subprocess.run(["gpasswd", "--delete", ben, f"nbgrader-{OTHER_COURSE}"], check=True, capture_output=True)
    subprocess.run(["gpasswd", "--delete", hub.instructor, f"formgrade-{OTHER_COURSE}"], check=True, capture_output=True)
    released = hub.teacher("release", LAB, OTHER_COURSE)
    assert released.returncode == 0, released.stderr
    one, both = Session(hub, ben), Session(hub, dan)  # a new login: the hub takes each person's groups as they are now
    for learner in (one, both):
        learner.start_server()
    courses = lambda learner: sorted(learner.api("GET", f"/user/{learner.user}/courses").json()["value"])  # noqa: E731
    assert courses(one) == [COURSE] and courses(both) == sorted([COURSE, OTHER_COURSE])
    assert LAB not in one.assignments(course=OTHER_COURSE)
    assert LAB in both.assignments(course=OTHER_COURSE)
    handed = one.api("POST", f"/user/{ben}/assignments/submit", data={"course_id": OTHER_COURSE, "assignment_id": LAB}).json()
    assert not handed["success"], f"{ben} handed in to a class he is not in: {handed}"
    assert not any(p.name.startswith(f"{ben}+") for p in (hub.home / "exchange" / OTHER_COURSE / "inbound").iterdir())
    teacher = Session(hub, hub.instructor)
    assert teacher.api("GET", f"/services/{COURSE}/formgrader/api/assignments").ok
    assert teacher.api("GET", f"/services/{OTHER_COURSE}/formgrader/api/assignments", allow_redirects=False).status_code in (403, 302)


def test_each_server_is_held_to_the_teacher_s_limits(hub):
    """A learner's server runs as the learner inside a cgroup of its own with the teacher's memory and process walls."""
    ben = hub.learners[0]
    uid = pwd.getpwnam(ben).pw_uid
    servers = [p for p in Path("/proc").glob("[0-9]*") if "jupyterhub-singleuser" in cmdline(p) and p.stat().st_uid == uid]
    assert servers, "ben's server runs as ben"
    environ = dict(v.split("=", 1) for v in (servers[0] / "environ").read_text().split("\0") if "=" in v)
    assert environ["COURSE_ANSWERS"] == "off", "lab.answers() says the teacher has turned them off"
    private = Path(environ["TMPDIR"])
    assert private.parent == Path(pwd.getpwnam(ben).pw_dir) and stat.S_IMODE(private.stat().st_mode) == 0o700, "a TMPDIR of his own"
    cgroups = dict(line.split(":", 2)[1:] for line in (servers[0] / "cgroup").read_text().splitlines())
    if not os.access("/sys/fs/cgroup/memory/cgroup.procs", os.W_OK):
        pytest.skip("no cgroup v1 memory controller to hold a server here")
    memory = Path("/sys/fs/cgroup/memory") / cgroups["memory"].lstrip("/")
    assert memory.name.startswith(f"hub-{ben}-")
    assert int((memory / "memory.limit_in_bytes").read_text()) == 2 << 30
    assert int((Path("/sys/fs/cgroup/pids") / cgroups["pids"].lstrip("/") / "pids.max").read_text()) == 512
    cpu = Path("/sys/fs/cgroup/cpu") / cgroups["cpu"].lstrip("/")  # an equal share of the CPUs, however many threads it runs
    assert cpu.name == memory.name and int((cpu / "cpu.shares").read_text()) == 1024


def test_no_server_starts_on_a_nearly_full_disk_and_no_hub_where_no_limit_can_hold(hub):
    """Below HUB_DISK_RESERVE free, a learner's server does not start, and the learner reads why (the class's files and
    marks stay whole); on a machine where no cgroup can be made (here: a mount namespace whose /sys/fs/cgroup is empty),
    the hub refuses to start in one line naming the setting that accepts that on purpose."""
    hub.stop()
    hub.start(HUB_DISK_RESERVE="100000g")
    cleo = Session(hub, hub.learners[1])
    refused = cleo.api("POST", f"/hub/api/users/{cleo.user}/server")
    assert refused.status_code >= 400 and "disk is nearly full" in refused.text, (refused.status_code, refused.text[:500])
    assert cleo.api("GET", f"/hub/api/users/{cleo.user}").json()["servers"] == {}, "no server started"
    hub.stop()
    hidden = subprocess.run([*hub.prefix(), "unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                             'mount -t tmpfs none /sys/fs/cgroup && exec "$@"', "sh", PYTHON, "-m", "hub", "start"],
                            env=hub.env, capture_output=True, text=True, timeout=120)
    assert hidden.returncode == 1 and hidden.stderr.count("\n") == 1, hidden.stderr
    assert hidden.stderr.startswith("hub: no cgroup can hold a learner's server here") and "HUB_LIMITS=rlimits" in hidden.stderr
    hub.start()  # the tests' settings again (HUB_DISK_RESERVE=2g)


class Platform:
    """An LMS, played by the test: a key of its own, its public key served as a JWKS on the loopback, signed LTI 1.3
    launches (the OIDC login the LMS starts, then the id_token it posts back through the browser)."""

    CLIENT = "course-hub-test"

    def __init__(self):
        import http.server
        import threading
        import jwt
        from cryptography.hazmat.primitives.asymmetric import rsa
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        keys = json.dumps({"keys": [dict(public, kid="course-test", alg="RS256", use="sig")]}).encode()

        class Jwks(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(keys)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Jwks)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.issuer = f"http://127.0.0.1:{self.server.server_port}"
        self.settings = {"HUB_LOGIN": "lti", "LTI_ISSUER": self.issuer, "LTI_CLIENT_ID": self.CLIENT,
                         "LTI_AUTHORIZE_URL": f"{self.issuer}/authorize", "LTI_JWKS_URL": f"{self.issuer}/jwks",
                         "LTI_DEPLOYMENT_ID": "1"}

    def launch(self, hub_url, sub, role, key=None, deployment="1", context="lms-course-1"):
        """A person launches the course from the LMS (from its deployment of the tool and its course, unless told
        otherwise): (their browser's session, the hub's answer to the id_token)."""
        import jwt
        import requests
        from urllib.parse import parse_qs, urlparse
        browser = requests.Session()
        started = browser.post(f"{hub_url}/hub/lti13/oauth_login", allow_redirects=False,
                               data={"iss": self.issuer, "login_hint": sub, "target_link_uri": f"{hub_url}/hub/home",
                                     "client_id": self.CLIENT, "lti_deployment_id": "1"})
        assert started.status_code == 302, started.text[:500]
        asked = urlparse(started.headers["Location"])
        assert f"{asked.scheme}://{asked.netloc}{asked.path}" == f"{self.issuer}/authorize"
        query = {k: v[0] for k, v in parse_qs(asked.query).items()}
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": self.CLIENT, "sub": sub, "iat": now, "exp": now + 300, "nonce": query["nonce"],
                  "name": f"Person {sub}",
                  "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
                  "https://purl.imsglobal.org/spec/lti/claim/deployment_id": deployment,
                  "https://purl.imsglobal.org/spec/lti/claim/context": {"id": context, "label": "IO", "title": "Java file I/O"},
                  "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiResourceLinkRequest",
                  "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": f"{hub_url}/hub/home",
                  "https://purl.imsglobal.org/spec/lti/claim/resource_link": {"id": "lab-03"},
                  "https://purl.imsglobal.org/spec/lti/claim/roles": [f"http://purl.imsglobal.org/vocab/lis/v2/membership#{role}"]}
        token = jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": "course-test"})
        return browser, browser.post(query["redirect_uri"], data={"id_token": token, "state": query["state"]}, allow_redirects=False)


def test_a_launch_from_the_lms_logs_a_learner_and_an_instructor_in(hub):
    """The same hub started with HUB_LOGIN=lti: an instructor and a learner launched from the LMS (a platform the test
    plays) are logged in as Unix users named by the LMS's ids, in the course's groups by their LMS roles (the hub's and
    the Unix ones); the instructor's first launch ties the hub course to its LMS course. Refused, making no user: a
    launch signed with another key, one from another deployment of the tool, and one from another LMS course. A
    person's role follows each launch: an instructor the LMS now calls a learner is one here."""
    import requests
    from cryptography.hazmat.primitives.asymmetric import rsa
    platform = Platform()
    hub.stop()
    try:
        hub.start(**platform.settings)
        tag = f"{SUITE}{os.getpid() % 100000}"  # the LMS's ids of the test's people: lti-cth… users, the suite's to remove
        _, early = platform.launch(hub.url, f"{tag}1", "Learner")
        assert early.status_code == 403, "a learner's launch before any instructor's: the course is tied to no LMS course yet"
        for sub, role, group, other in ((f"{tag}2", "Instructor", f"formgrade-{COURSE}", f"nbgrader-{COURSE}"),
                                        (f"{tag}1", "Learner", f"nbgrader-{COURSE}", f"formgrade-{COURSE}"),
                                        (f"{tag}2", "Learner", f"nbgrader-{COURSE}", f"formgrade-{COURSE}")):  # demoted in the LMS
            browser, answer = platform.launch(hub.url, sub, role)
            assert answer.status_code == 302, answer.text[:800]
            name = f"lti-{sub}"
            assert pwd.getpwnam(name), f"{name} became a user of the server"
            made = browser.post(f"{hub.url}/hub/api/users/{name}/tokens", json={"note": "the test"},
                                headers={"X-XSRFToken": browser.cookies["_xsrf"]})
            assert made.ok, made.text
            me = requests.get(f"{hub.url}/hub/api/user", headers={"Authorization": f"token {made.json()['token']}"}).json()
            assert (me["name"], me["groups"]) == (name, [group]), me
            assert name in grp.getgrnam(group).gr_mem, "the Unix group, the class list collect checks, follows the launch"
            assert name not in grp.getgrnam(other).gr_mem, f"{name} keeps no role the LMS no longer gives"
        other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        for sub, kwargs, refused in ((f"{tag}3", {"key": other_key}, (400, 401)), (f"{tag}4", {"deployment": "2"}, (403,)),
                                     (f"{tag}5", {"context": "lms-course-2"}, (403,))):
            _, answer = platform.launch(hub.url, sub, "Instructor", **kwargs)
            assert answer.status_code in refused, f"{kwargs}: {answer.status_code}"
            with pytest.raises(KeyError):
                pwd.getpwnam(f"lti-{sub}")
    finally:
        platform.server.shutdown()


def test_the_round_trip_over_ngshare(hub):
    """The same hub with HUB_EXCHANGE=ngshare (the exchange as a hub service, for hubs whose users share no disk), in
    the second class: release, fetch, submit, grade in the sandbox, feedback and grades.csv through ngshare, whose
    course lists the hub keeps at each login. A learner's calls to ngshare for another's hand-in or feedback, every
    hand-in's list, or a class they are not in are refused; ngshare's files are its account's alone."""
    import requests
    hub.stop()
    hub.start(HUB_LOGIN="pam", HUB_EXCHANGE="ngshare")
    released = hub.teacher("release", LAB, OTHER_COURSE)  # before anyone logs in, as a teacher would: the course is made then
    assert released.returncode == 0, released.stdout[-2000:] + released.stderr[-3000:]
    ben, cleo, dan = (Session(hub, user, OTHER_COURSE) for user in hub.learners[:3])
    for learner in (cleo, dan):
        shutil.rmtree(Path(pwd.getpwnam(learner.user).pw_dir) / "java-io-course" / LAB, ignore_errors=True)  # the first class's copy (nbgrader fetches into one folder)
        learner.start_server()
        assert learner.assignments("fetch")[LAB]["status"] == "fetched"
    [path] = [notebook["path"] for notebook in dan.assignments()[LAB]["notebooks"]]
    for learner, answer in ((cleo, right_answer()), (dan, "long systemCalls(long fileSize, long opSize, String pattern) {\n    return 0;\n}")):
        fetched = learner.api("GET", f"/user/{learner.user}/api/contents/{path}").json()["content"]
        assert learner.api("PUT", f"/user/{learner.user}/api/contents/{path}",
                           json={"type": "notebook", "format": "json", "content": answered(fetched, "lab03-system-calls", answer)}).ok
        assert learner.assignments("submit")[LAB]["status"] == "submitted"
    assert not any((hub.home / "exchange" / OTHER_COURSE / "inbound").iterdir()), "the hand-ins went to ngshare, not the folder"

    ngshare = f"{hub.url}/services/ngshare/"
    asked = lambda learner, path: requests.get(ngshare + path, headers=learner.headers, timeout=60)  # noqa: E731 (what their server could send)
    assert asked(dan, f"assignments/{OTHER_COURSE}").json()["assignments"] == [LAB], "dan is on the class's list"
    for refused in (f"submission/{OTHER_COURSE}/{LAB}/{cleo.user}", f"submissions/{OTHER_COURSE}/{LAB}",
                    f"submissions/{OTHER_COURSE}/{LAB}/{cleo.user}"):
        answer = asked(dan, refused)
        assert answer.status_code == 403, f"{dan.user} could: GET {refused}: {answer.text[:300]}"
    assert asked(ben, "courses").json()["courses"] == [COURSE], "ngshare's lists follow the groups: ben left the second class"
    assert asked(dan, "courses").json()["courses"] == sorted([COURSE, OTHER_COURSE])
    assert asked(ben, f"assignments/{OTHER_COURSE}").status_code == 403
    assert hub.as_user(dan.user, "ls", str(hub.home / "ngshare")).returncode != 0
    # a hand-in whose file names climb out of where the teacher's collect writes them: ngshare refuses it whole
    import base64
    for name in ("../../escaped.txt", "/tmp/escaped.txt", f"{LAB}/../../escaped.txt"):
        files = json.dumps([{"path": f"{LAB}.ipynb", "content": base64.b64encode(b"{}").decode()},
                            {"path": name, "content": base64.b64encode(b"mine").decode()}])
        climbed = requests.post(ngshare + f"submission/{OTHER_COURSE}/{LAB}", data={"files": files}, headers=dan.headers, timeout=60)
        assert climbed.status_code == 400 and "Illegal path" in climbed.text, f"{name}: {climbed.status_code} {climbed.text[:200]}"

    graded = hub.teacher("grade", LAB, OTHER_COURSE)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-3000:]
    rows = {row["student_id"]: row for row in csv.DictReader(open(hub.home / "classrooms" / OTHER_COURSE / "grades.csv"))
            if row["assignment"] == LAB}
    assert float(rows[cleo.user]["raw_score"]) == 2.0 and float(rows[dan.user]["raw_score"]) == 0.0, rows
    for learner in (cleo, dan):
        learner.assignments("fetch_feedback")
        [page] = (Path(pwd.getpwnam(learner.user).pw_dir) / "java-io-course" / LAB / "feedback").glob(f"*/{LAB}.html")
        assert "lab03-system-calls-check" in page.read_text()
    [handed] = asked(cleo, f"submissions/{OTHER_COURSE}/{LAB}/{cleo.user}").json()["submissions"]
    answer = asked(dan, f"feedback/{OTHER_COURSE}/{LAB}/{cleo.user}?timestamp={handed['timestamp']}")
    assert answer.status_code == 403, f"{dan.user} read {cleo.user}'s feedback: {answer.text[:300]}"

    # Formgrader's own Release button reaches ngshare too (the class's Formgrader service is one of its instructors there)
    ada = Session(hub, hub.instructor)
    pressed = ada.api("POST", f"/services/{COURSE}/formgrader/api/assignment/{LAB}/release").json()
    assert pressed["success"], pressed
    ben.start_server()
    assert LAB in ben.assignments(course=COURSE), "released from Formgrader, listed in the learner's Assignments tab"


def test_a_roster_of_200_makes_the_class_and_taking_one_out_ends_their_login_and_server_at_once(hub):
    """make hub-people with an LMS's CSV export (Moodle's columns) of 200 new learners beside the class's people: each
    gets an account, the learners' group and ngshare's list, a first-use password in a file of root's alone; one of them
    logs in with theirs and starts a server. A second roster without them takes them out: off the group, their hub record
    (login, server) gone at once, off ngshare's list. A bad roster changes nothing and says why in one line."""
    import requests
    from hub.settings import groups
    learners, instructors = (groups(COURSE)[kind] for kind in ("learners", "instructors"))
    class_now = sorted(set(grp.getgrnam(learners).gr_mem))
    tag = os.getpid() % 100000
    new = [f"{leftovers.SUITE}p{tag}n{i}" for i in range(200)]
    roster = hub.folder / "roster.csv"

    def listed(people):
        rows = [f"{name.title()},Learner,{name},{name}@example.org,Student" for name in (*class_now, *people)]
        roster.write_text("First name,Surname,Username,Email address,Roles\n" + "\n".join(
            [*rows, f"Ada,Teacher,{hub.instructor},ada@example.org,Teacher"]) + "\n")
        placed = hub.teacher("people", str(roster), COURSE)
        assert placed.returncode == 0, placed.stdout[-2000:] + placed.stderr[-3000:]
        return placed.stdout

    others = set(grp.getgrnam(instructors).gr_mem) - {hub.instructor, f"grader-{COURSE}"}  # an instructor the roster leaves out
    said = listed(new)
    assert f"{len(new) + len(class_now) + 1} on the roster; 200 accounts made, 200 joined, {len(others)} taken out" in said, said
    assert set(new) <= set(grp.getgrnam(learners).gr_mem) and hub.instructor in grp.getgrnam(instructors).gr_mem
    [kept] = (hub.home / "state").glob(f"first-passwords-{COURSE}-*.csv")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and kept.stat().st_uid == 0
    first = dict(row.values() for row in csv.DictReader(kept.open()))
    assert sorted(first) == sorted(new) and not any(word in said for word in first.values()), "the passwords are in the file alone"

    leaver = HubUser(hub.url, new[0], first[new[0]])
    leaver.start_server()
    assert hub.memory_of(new[0]) > 0, "their server runs as them"
    ngshare = f"{hub.url}/services/ngshare/"
    assert requests.get(ngshare + "courses", headers=leaver.headers, timeout=60).json()["courses"] == [COURSE]
    ada = Session(hub, hub.instructor)  # the roster's teacher: an admin of her own class, its learners alone
    assert new[0] in [user["name"] for user in ada.api("GET", "/hub/api/users").json()]
    assert ada.http.get(f"{hub.url}/hub/admin").status_code == 200

    said = listed(new[1:])
    assert "0 accounts made, 0 joined, 1 taken out" in said, said
    assert new[0] not in grp.getgrnam(learners).gr_mem
    assert leaver.api("GET", f"/hub/api/users/{new[0]}").status_code in (401, 403), "their login ended"
    import sqlite3
    with sqlite3.connect(f"file:{hub.home / 'state/jupyterhub.sqlite'}?mode=ro", uri=True) as db:
        assert not db.execute("select name from users where name = ?", (new[0],)).fetchall(), "the hub forgot them"
    admin = {"Authorization": f"token {(hub.home / 'state/teacher-token').read_text()}"}
    assert hub.memory_of(new[0]) == 0, "their server stopped: no process of theirs left"
    students = requests.get(f"{ngshare}students/{COURSE}", headers=admin, timeout=60).json()["students"]
    assert new[0] not in [s["username"] for s in students] and new[1] in [s["username"] for s in students], "ngshare's list follows the roster"

    roster.write_text("Username,Roles\nroot,Student\n")
    refused = hub.teacher("people", str(roster), COURSE)
    assert refused.returncode != 0 and refused.stderr.strip().count("\n") == 0, refused.stderr
    assert "root is an account of this server's own" in refused.stderr and set(new[1:]) <= set(grp.getgrnam(learners).gr_mem)


def test_a_restart_of_the_hub_leaves_a_learner_s_server_running_in_its_limits(hub):
    """With HUB_KEEP_SERVERS=yes (a real hub's default) a learner's server runs on while the hub stops and starts again,
    inside its cgroup and its limits (the cgroup named in the server's saved state); the restarted hub routes the
    learner to it, and stopping it then removes its cgroup."""
    import sqlite3

    def saved_state(user):
        with sqlite3.connect(f"file:{hub.home / 'state/jupyterhub.sqlite'}?mode=ro", uri=True) as db:
            [(state,)] = db.execute("select spawners.state from spawners join users on spawners.user_id = users.id"
                                    " where users.name = ? and spawners.name = ''", (user,)).fetchall()
        return json.loads(state or "{}")

    hub.stop()
    hub.start(HUB_KEEP_SERVERS="yes")
    eve = Session(hub, hub.learners[-1])
    eve.start_server()
    state = saved_state(eve.user)
    pid, memory = state["pid"], Path(state["cgroup"]["memory"])
    hub.stop()
    assert Path(f"/proc/{pid}").exists(), "the server outlived the hub"
    assert str(pid) in (memory / "cgroup.procs").read_text().split(), "in its cgroup still"
    assert int((memory / "memory.limit_in_bytes").read_text()) == 2 << 30, "within its limit still"
    hub.start(HUB_KEEP_SERVERS="yes")
    assert eve.api("GET", f"/user/{eve.user}/api/status").ok, "the restarted hub routes the learner to the same server"
    assert saved_state(eve.user)["pid"] == pid
    assert eve.api("DELETE", f"/hub/api/users/{eve.user}/server").status_code in (202, 204)
    deadline = time.time() + 60
    while (Path(f"/proc/{pid}").exists() or memory.exists()) and time.time() < deadline:
        time.sleep(0.5)
    assert not Path(f"/proc/{pid}").exists() and not memory.exists(), "stopped, and its cgroup removed, by the new hub"
    hub.stop()
    hub.start()  # the tests' settings again

    # the same hub as a systemd service: its unit, checked by systemd-analyze, written to a folder of the test's (only
    # /etc/systemd/system's is enabled, where systemd runs the machine: this one's PID 1 is not systemd)
    units = hub.folder / "units"
    made = hub.teacher("service", str(units))
    assert made.returncode == 0, made.stdout + made.stderr
    unit = (units / "java-io-course-hub.service").read_text()
    assert "KillMode=process" in unit and "-m hub start" in unit and f'"{HOME}/build/env.sh"' in unit, unit
    assert "systemctl link" in made.stdout, "a unit outside systemd's folder is only written, never enabled"
    assert subprocess.run(["systemd-analyze", "verify", str(units / "java-io-course-hub.service")], capture_output=True, text=True).stderr == ""


def test_beyond_the_loopback_the_hub_speaks_tls_and_stops_an_idle_server_keeping_its_files(hub, monkeypatch):
    """With its own certificate (HUB_TLS_CERT, HUB_TLS_KEY) the hub serves its login page over HTTPS alone, and
    nothing answers in plain HTTP on its port. There (one start for both: each start is seconds of CPU), with
    HUB_IDLE_MINUTES=0.25 (15 s), the idle culler stops a server left alone; what the learner made in it stays."""
    import requests
    certificate, key = hub.folder / "hub.crt", hub.folder / "hub.key"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                           "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(certificate)],
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    hub.stop()
    hub.start(HUB_TLS_CERT=str(certificate), HUB_TLS_KEY=str(key), HUB_IDLE_MINUTES="0.25")
    page = requests.get(f"{hub.url}/hub/login", verify=str(certificate), timeout=30)
    assert hub.url.startswith("https://") and page.ok and 'name="password"' in page.text, page.status_code
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{hub.port}/hub/login", timeout=30)

    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(certificate))  # the learner's browser trusts the hub's certificate
    ben = Session(hub, hub.learners[0])
    ben.start_server()
    saved = ben.api("PUT", f"/user/{ben.user}/api/contents/notes.txt", json={"type": "file", "format": "text", "content": "mine"})
    assert saved.ok, saved.text
    started = time.time()
    while ben.api("GET", f"/hub/api/users/{ben.user}").json()["servers"]:
        assert time.time() - started < 120, "the idle server was not stopped"
        time.sleep(1)
    print(f"ben's idle server was stopped {time.time() - started:.0f} s after his last call")
    assert (Path(pwd.getpwnam(ben.user).pw_dir) / "java-io-course/notes.txt").read_text() == "mine"
    assert f"Culling server {ben.user}" in hub.log.read_text(), "stopped by the culler, which says so in the hub's log"
