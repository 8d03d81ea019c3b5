"""The course hub: JupyterHub on one server, its learners and instructors the server's Unix users (the shape of The
Littlest JupyterHub, started without systemd). `make hub` runs install, then start.

    install              as root: the hub's folder, each course's groups and grader account, the learners' labs
    start                as root: JupyterHub and its proxy in the foreground, on the saved settings
    learner              the spawner's command, as a learner: their own copies, then their JupyterLab
    release LAB [COURSE] the teacher: a lab's student version into a course's exchange (its folder, or ngshare)
    grade LAB [COURSE]   the teacher: collect, grade each hand-in in the sandbox, feedback, grades.csv
    image-tree FOLDER    the course as learners may see it, for a hub's image (repo2docker builds it from binder/):
                         no tests, no history, each lab its student version (hub/k8s/values.yaml serves it)
(each `python tools/course_hub.py COMMAND`)

Settings come from the environment at install (Settings.VARIABLES names them; Settings says what each is) and are kept
in HUB_HOME/state/settings.json; an install that names none keeps those saved."""
import dataclasses
import grp
import ipaddress
import json
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import root_folders
from classroom_folder import gradebook
from labs import HOME, lab_paths, preset_names
from learner import MADE_FROM

ENVIRONMENT = Path(sys.prefix)  # the course's Python environment, which is also every learner's server's
PYTHON = str(ENVIRONMENT / "bin/python")
LANDING = "/lab/tree/00-start-here.ipynb"  # where a learner's server opens
LEARNER_FOLDER = "java-io-course"  # in each learner's home: their copies of the labs, what they fetch, their results
SIZE = re.compile(r"(\d+)([mg])")
# With HUB_EXCHANGE=ngshare: the exchange is the hub service ngshare, run as its own account (its database and files are
# that account's alone); ngshare lets a course's students and instructors in by its own lists, which the hub keeps at
# each login (hub/ngshare_roster.py) with the token of the hub service TEACHER, ngshare's one admin, whose token the
# teacher's commands use too.
NGSHARE = "ngshare"
NGSHARE_ACCOUNT = "course-ngshare"
TEACHER = "course-hub"


def course_id():
    """The course's own nbgrader id, from its nbgrader configuration (its one place), whatever COURSE_ID says."""
    from traitlets.config.loader import PyFileConfigLoader
    named = os.environ.pop("COURSE_ID", None)
    try:
        return PyFileConfigLoader("nbgrader_config.py", path=str(HOME / "classroom")).load_config().CourseDirectory.course_id
    finally:
        if named is not None:
            os.environ["COURSE_ID"] = named


@dataclasses.dataclass(frozen=True)
class Settings:
    home: str = "/srv/java-io-course-hub"  # HUB_HOME: the hub's own folder (state, classrooms, exchange, the learners' labs)
    courses: tuple = ()  # HUB_COURSES: the nbgrader courses the hub serves, each its own groups, grader, classroom and
    # Formgrader (several classes of the course, java-io-mon java-io-thu); none named: the course's own id
    ip: str = "127.0.0.1"  # HUB_IP: the address the hub listens on ("" is every address); beyond the loopback only with TLS:
    tls_cert: str = ""  # HUB_TLS_CERT: the hub's certificate (PEM), with HUB_TLS_KEY: the hub speaks HTTPS itself
    tls_key: str = ""  # HUB_TLS_KEY: its private key (PEM)
    tls_proxy: str = "no"  # HUB_TLS_PROXY: yes states that a TLS proxy in front of the hub ends TLS for it
    port: int = 8000  # HUB_PORT: the public port; the hub takes the next ones on 127.0.0.1 for itself (see ports)
    # Who is in a course is its Unix groups' to say: install adds the people named now, and saves no one (a restart must
    # not put back whom gpasswd took out of a class)
    instructors: tuple = ()  # INSTRUCTORS: Unix users who open Formgrader (added to every course's instructors group)
    learners: tuple = ()  # LEARNERS: Unix users who take the course (added to every course's learners group; usermod
    # and gpasswd put a person in one course, or take them out)
    memory: int = 2 << 30  # HUB_MEMORY: a learner's server and all it runs (4g, 1536m); 2g holds a lab's quick run
    handin_size: int = 64 << 20  # HUB_HANDIN_SIZE: the most one hand-in may hold (a lab's notebooks and results are a few MB)
    tasks: int = 512  # HUB_TASKS: a learner's processes and threads together (a JVM starts 20 to 40)
    idle_minutes: float = 60  # HUB_IDLE_MINUTES: a server idle this long is stopped (its files stay); fractions too (0.5)
    answers: str = "off"  # HUB_ANSWERS: on lets lab.answers() show the course's answers; off for an assessed class
    exchange: str = "files"  # HUB_EXCHANGE: files (nbgrader's exchange folder, on this server's disk) or ngshare (the
    # exchange as a hub service: hubs whose users share no disk, such as Kubernetes)
    preset: str = "quick"  # HUB_PRESET: the preset learners' labs run in (labs/presets.json): a shared server shares its cores
    login: str = "pam"  # HUB_LOGIN: pam (the server's users and passwords) or lti (launched from the LMS: hub/lti.py)
    # what the LMS says when the teacher registers the course as an LTI 1.3 tool (HUB_LOGIN=lti needs all five)
    lti_issuer: str = ""  # LTI_ISSUER: the platform's issuer id, a URL
    lti_client_id: str = ""  # LTI_CLIENT_ID: the client id the platform gave the tool
    lti_authorize_url: str = ""  # LTI_AUTHORIZE_URL: the platform's OIDC authorization end-point
    lti_jwks_url: str = ""  # LTI_JWKS_URL: the platform's public keys (JWKS), which sign its launches
    lti_deployment_id: str = ""  # LTI_DEPLOYMENT_ID: the platform's deployment of the tool (launches from no other count)

    VARIABLES = {"home": "HUB_HOME", "courses": "HUB_COURSES", "ip": "HUB_IP", "tls_cert": "HUB_TLS_CERT", "tls_key": "HUB_TLS_KEY",
                 "tls_proxy": "HUB_TLS_PROXY", "port": "HUB_PORT", "instructors": "INSTRUCTORS", "learners": "LEARNERS",
                 "memory": "HUB_MEMORY", "handin_size": "HUB_HANDIN_SIZE", "tasks": "HUB_TASKS", "idle_minutes": "HUB_IDLE_MINUTES", "answers": "HUB_ANSWERS",
                 "exchange": "HUB_EXCHANGE", "preset": "HUB_PRESET", "login": "HUB_LOGIN", "lti_issuer": "LTI_ISSUER", "lti_client_id": "LTI_CLIENT_ID",
                 "lti_authorize_url": "LTI_AUTHORIZE_URL", "lti_jwks_url": "LTI_JWKS_URL", "lti_deployment_id": "LTI_DEPLOYMENT_ID"}
    LTI = ("lti_issuer", "lti_client_id", "lti_authorize_url", "lti_jwks_url", "lti_deployment_id")

    def open_door(self):
        """Why the hub may not listen where these settings say, or None: its login page carries Unix passwords, so
        beyond the loopback it speaks TLS itself or the teacher states a TLS proxy in front of it."""
        if bool(self.tls_cert) != bool(self.tls_key):
            return "HUB_TLS_CERT and HUB_TLS_KEY go together: name both, the certificate and its key"
        if (self.ip and ipaddress.ip_address(self.ip).is_loopback) or self.tls_cert or self.tls_proxy == "yes":
            return None
        return (f"HUB_IP={self.ip or '(empty: every address)'}: the login page carries Unix passwords, so beyond the "
                "loopback the hub speaks TLS: HUB_TLS_CERT and HUB_TLS_KEY (a certificate and its key), or HUB_TLS_PROXY=yes "
                "where a TLS proxy in front of it ends TLS; or HUB_IP=127.0.0.1 behind a TLS proxy on this server")

    def public_url(self):
        """Where the hub listens for its users."""
        host = f"[{self.ip}]" if ":" in self.ip else self.ip
        return f"{'https' if self.tls_cert else 'http'}://{host}:{self.port}"

    def ports(self):
        """{part: port}: the public one, and the next ones, which the hub keeps for itself (ngshare, a Formgrader per course)."""
        return Settings.parts(self.port, self.course_ids())

    @staticmethod
    def parts(port, courses):
        return {"public": port, "hub": port + 1, "proxy api": port + 2, NGSHARE: port + 3,
                **{f"formgrader {course}": port + 4 + i for i, course in enumerate(courses)}}

    def ngshare_url(self):
        """ngshare's API, where the hub starts it (it answers on every address: it checks each caller's hub token)."""
        return f"http://127.0.0.1:{self.ports()[NGSHARE]}/services/{NGSHARE}"  # ngshare-exchange adds "/<call>"

    def course_ids(self):
        return self.courses or (course_id(),)

    def folder(self, part):
        return Path(self.home) / part

    def classroom(self, course):
        """The grader account's nbgrader course folder of a course (its home)."""
        return self.folder("classrooms") / course

    @staticmethod
    def state_file(home):
        return Path(home) / "state/settings.json"

    @staticmethod
    def load():
        """The settings install saved (HUB_HOME names the hub's folder)."""
        home = os.environ.get("HUB_HOME") or Settings.home
        saved = Settings.state_file(home)
        if not saved.exists():
            sys.exit(f"hub: no hub set up in {home} ({saved} is missing): run make hub (as root) first")
        fields = json.loads(saved.read_text())
        return Settings(**{**fields, **{f: tuple(fields[f]) for f in ("courses", "instructors", "learners")}})

    @staticmethod
    def given(environ, saved=None):
        """The settings the environment gives, over those saved (or the defaults); one line naming a bad value."""
        values = dataclasses.asdict(saved or Settings())
        for field, variable in Settings.VARIABLES.items():
            text = environ.get(variable)
            if text is None or (text == "" and field != "ip"):
                continue
            values[field] = parse(field, variable, text)
        taken = len(Settings.parts(values["port"], values["courses"] or (1,))) - 1
        if values["port"] + taken > 65535:
            sys.exit(f"hub: HUB_PORT={values['port']}: the hub takes the next {taken} ports too; name a lower one")
        problem = Settings(**values).open_door()
        if problem:
            sys.exit(f"hub: {problem}")
        missing = [Settings.VARIABLES[f] for f in Settings.LTI if not values[f]]
        if values["login"] == "lti" and missing:
            sys.exit(f"hub: HUB_LOGIN=lti needs what the LMS gave when you registered the course as an LTI 1.3 tool; "
                     f"missing: {', '.join(missing)}")
        return Settings(**values)

    def save(self):
        path = Settings.state_file(self.home)
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(dataclasses.asdict(dataclasses.replace(self, instructors=(), learners=())), indent=1) + "\n")
        partial.replace(path)


def parse(field, variable, text):
    """One setting from its text, or the one line that says what is allowed."""
    def bad(allowed):
        sys.exit(f"hub: {variable}={text}: {allowed}")
    if field == "home":
        return str(Path(text).absolute()) if text.startswith("/") else bad("name the hub's folder by its absolute path")
    if field == "ip":
        return text if re.fullmatch(r"[0-9.]*|[0-9a-fA-F:]+", text) else bad("an IP address (127.0.0.1), or empty for every address")
    if field in ("tls_cert", "tls_key"):
        return text if text.startswith("/") and Path(text).is_file() else bad("the absolute path of a PEM file that exists")
    if field == "tls_proxy":
        return text if text in ("yes", "no") else bad("yes (a TLS proxy in front of the hub ends TLS) or no")
    if field == "port":
        return int(text) if text.isdigit() and 1024 <= int(text) <= 65530 else bad("a port from 1024 to 65530 (the hub takes the next few too)")
    if field == "courses":
        names = tuple(text.split())
        for name in names:
            if not re.fullmatch(r"[a-z][a-z0-9-]{0,21}", name):
                bad(f"{name} is not a course id: lower-case letters, digits and dashes, at most 22 (formgrade-<id> is a Unix group)")
        return names if len(set(names)) == len(names) else bad("a course named twice")
    if field in ("instructors", "learners"):
        names = tuple(text.split())
        for name in names:
            try:
                pwd.getpwnam(name)
            except KeyError:
                bad(f"{name} is not a user of this machine (make the Unix users first: adduser {name})")
        return names
    if field in ("memory", "handin_size"):
        found = SIZE.fullmatch(text.lower())
        if not found or int(found.group(1)) == 0:
            bad("a size in megabytes or gigabytes (1536m, 4g)")
        size = int(found.group(1)) << (20 if found.group(2) == "m" else 30)
        if field == "handin_size":
            return size
        return size if size >= 512 << 20 else bad("at least 512m (a JupyterLab and the course kernel need about 400 MB)")
    if field == "tasks":
        return int(text) if text.isdigit() and int(text) >= 128 else bad("a whole number, 128 or more (a JupyterLab and a kernel start about 100)")
    if field == "idle_minutes":
        found = re.fullmatch(r"\d+(\.\d+)?", text)
        minutes = float(text) if found else 0
        return (int(minutes) if minutes.is_integer() else minutes) if minutes >= 0.25 else bad("a number of minutes, 0.25 or more (60, 90, 0.5)")
    if field == "answers":
        return text if text in ("on", "off") else bad("on or off")
    if field == "exchange":
        return text if text in ("files", "ngshare") else bad("files (nbgrader's exchange folder) or ngshare (the exchange as a hub service)")
    if field == "preset":
        names = preset_names()
        return text if text in names else bad(f"a preset of the labs ({', '.join(names)})")
    if field == "login":
        return text if text in ("pam", "lti") else bad("pam (the server's users) or lti (launched from the LMS)")
    if field in ("lti_issuer", "lti_authorize_url", "lti_jwks_url"):
        # http only where nothing crosses a network: an LMS on this server's loopback
        return text if re.fullmatch(r"https://[^\s]+|http://(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(/[^\s]*)?", text) else \
            bad("an https:// URL, as the LMS gives it (its keys sign who logs in: never fetched over plain HTTP)")
    if field in ("lti_client_id", "lti_deployment_id"):
        return text if re.fullmatch(r"[^\s]+", text) else bad("the id, as the LMS gives it")
    raise AssertionError(field)


def groups(course):
    """The course's Unix groups, which the hub's groups mirror (nbgrader reads them by these names)."""
    return {"learners": f"nbgrader-{course}", "instructors": f"formgrade-{course}"}


def grader(course):
    return f"grader-{course}"


def run(*argv, **kwargs):
    subprocess.run(argv, check=True, **kwargs)


def closed_ancestor(path):
    """The first folder from / down to path that other users may not enter, or None."""
    for folder in [*reversed(path.parents), path]:
        if not folder.stat().st_mode & stat.S_IXOTH:
            return folder
    return None


def unreachable():
    """Stops, in one line, where learners could not reach the course or run its Python (a folder on the way closed)."""
    closed = closed_ancestor(HOME)
    if closed:
        sys.exit(f"hub: learners cannot reach the course at {HOME}: {closed} is closed to other users "
                 f"(mode {stat.S_IMODE(closed.stat().st_mode):o}); clone the course where every user may read it, "
                 "as root: git clone <the course> /opt/java-io-course")
    python = Path(os.path.realpath(PYTHON))
    closed = closed_ancestor(python)
    if closed:
        sys.exit(f"hub: learners cannot run the course's Python ({python}, which .venv was made from): {closed} is closed "
                 f"to other users (mode {stat.S_IMODE(closed.stat().st_mode):o}); make .venv from a Python every user may "
                 "run: rm -rf .venv && PATH=/usr/bin:$PATH make hub")


# What learners on the hub may not read: the labs' sources (their solutions and hidden tests), the tests and the
# repository's history (which hold them too), and what the teacher's own classroom and hand-ins hold.
HIDDEN = [".git", "tests", "build/classroom", "build/handin"]


def answer_paths():
    """Every file and folder of the course that holds answers (HIDDEN, and the labs' sources), links left out."""
    for top in [HOME / part for part in HIDDEN if (HOME / part).exists()] + sorted((HOME / "labs").glob("*.ipynb")):
        if not top.is_symlink():
            yield top
        if top.is_dir() and not top.is_symlink():
            for folder, folders, files in os.walk(top):  # never into a link
                yield from (path for path in (Path(folder) / name for name in folders + files) if not path.is_symlink())


def close_answers(settings):
    """The course's sources with answers the first course's instructors' group's and closed to everyone else, as
    every start and every teacher's step leaves them (a git pull writes the labs anew, open to all); stops, in one
    line, where any stays open to learners (a file system that keeps no modes), or a classroom does."""
    gid = grp.getgrnam(groups(settings.course_ids()[0])["instructors"]).gr_gid
    for path in answer_paths():
        os.chown(path, -1, gid, follow_symlinks=False)
        os.chmod(path, stat.S_IMODE(path.lstat().st_mode) & ~0o007)
    still = [path for path in [*answer_paths(), *map(settings.classroom, settings.course_ids())]
             if path.exists() and path.lstat().st_mode & 0o007]
    if still:
        sys.exit(f"hub: {len(still)} places with answers or hand-ins stay open to learners ({still[0]}, mode "
                 f"{stat.S_IMODE(still[0].lstat().st_mode):o}) after the hub closed them: keep the course and HUB_HOME on "
                 "a file system that keeps Unix modes; the hub does not serve until they are closed")


def install(settings):
    """Everything the hub needs beside the course, made or mended; the settings saved."""
    if os.geteuid() != 0:
        sys.exit("hub: make hub sets up users, groups and a service: run it as root (sudo make hub)")
    unreachable()
    if settings.exchange == "ngshare" and account_exists(TEACHER):
        sys.exit(f"hub: a Unix user is named {TEACHER}, the name of the hub's service that is ngshare's admin: ngshare "
                 "tells users and services apart by name alone, so rename that user first (usermod -l)")
    courses = settings.course_ids()
    for course in courses:
        named = groups(course)
        for group in named.values():
            run("groupadd", "-f", group)
        account = grader(course)
        if not account_exists(account):
            run("useradd", "--system", "--no-create-home", "--home-dir", str(settings.classroom(course)), "--shell",
                "/usr/sbin/nologin", "--gid", named["instructors"], account)
        for user in (*settings.instructors, account):
            run("usermod", "-a", "-G", named["instructors"], user)
        for user in settings.learners:
            run("usermod", "-a", "-G", named["learners"], user)
    close_answers(settings)

    Path(settings.home).mkdir(parents=True, exist_ok=True)
    try:
        home = root_folders.opened(settings.home)  # a folder of root's, not a link a learner left where it would be
        try:
            os.fchmod(home, 0o755)  # learners reach the exchange and their labs through it, whatever root's umask
            if settings.exchange == "files":
                for course in courses:
                    make_exchange(home, settings.folder("exchange"), course, groups(course)["instructors"])
        finally:
            os.close(home)
    except root_folders.Refused as refused:
        sys.exit(f"hub: {refused}")
    state = settings.folder("state")
    state.mkdir(exist_ok=True)
    state.chmod(0o700)  # the hub's database and cookie secret: root's alone
    import learner  # here: it loads nbgrader, which start and learner do without
    labs = settings.folder("labs")
    learner.prepare(labs)
    for path in [labs, *labs.iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    settings.folder("classrooms").mkdir(exist_ok=True)
    settings.folder("classrooms").chmod(0o755)
    for course in courses:
        make_classroom(settings.classroom(course), grader(course), groups(course)["instructors"])
    if settings.exchange == "ngshare":
        make_ngshare(settings)
    settings.save()
    print(f"hub: set up in {settings.home} for {', '.join(courses)}: instructors are the members of "
          f"{', '.join(groups(c)['instructors'] for c in courses)}, learners of {', '.join(groups(c)['learners'] for c in courses)}")


def account_exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def make_ngshare(settings):
    """ngshare's account and folder (its database and the files handed in: that account's alone), and the token of the
    hub service that is ngshare's admin (root's alone, in the state folder)."""
    folder = settings.folder(NGSHARE)
    if not account_exists(NGSHARE_ACCOUNT):
        run("useradd", "--system", "--no-create-home", "--home-dir", str(folder), "--shell", "/usr/sbin/nologin", NGSHARE_ACCOUNT)
    folder.mkdir(exist_ok=True)
    (folder / "files").mkdir(exist_ok=True)
    account = pwd.getpwnam(NGSHARE_ACCOUNT)
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, account.pw_uid, account.pw_gid)
    folder.chmod(0o700)
    teacher_token(settings)


def teacher_token(settings):
    """The token of the hub service TEACHER (made once)."""
    path = settings.folder("state") / "teacher-token"
    if not path.exists():
        import secrets
        path.touch(0o600)
        path.write_text(secrets.token_hex(32))
    return path.read_text()


def make_classroom(classroom, account, instructors):
    """The grader account's nbgrader course folder (Formgrader's): the instructors' group may work in it, no one else."""
    classroom.mkdir(parents=True, exist_ok=True)
    config = classroom / "nbgrader_config.py"
    if not config.exists():
        shutil.copy(HOME / "classroom/nbgrader_config.py", config)
    own(classroom, account, instructors)


def own(folder, account, group):
    """folder and all in it the grader account's and the instructors' group's (setgid: what is made there stays so)."""
    uid, gid = pwd.getpwnam(account).pw_uid, grp.getgrnam(group).gr_gid
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, uid, gid)
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o2770)


def make_exchange(home, exchange, course, instructors):
    """nbgrader's exchange folder of a course, in the hub's folder (open as home), closed where nbgrader's default
    leaves it open, and made without following anything a learner put in its way (its root is open to all, so a learner
    may have made the course's folder, or a link inside it, before the teacher added the course: root_folders refuses):
    - its root 1777 (sticky, like /tmp): nbgrader wants anyone to write there, and without the sticky bit a learner could
      rename the course's folder and put one of their own in its place (nbgrader keeps a 1777 root as it is);
    - inbound 3773 in the instructors' group: learners put hand-ins in and cannot list them, every hand-in takes the
      group, hub/exchange.py closes each to its learner and the group (nbgrader issue 978), and no learner may
      rename or remove another's (sticky)."""
    gid = grp.getgrnam(instructors).gr_gid
    opened = [root_folders.made(home, exchange.name, 0o1777, 0, str(exchange))]
    try:
        opened.append(root_folders.made(opened[0], course, 0o755, gid, str(exchange / course)))
        for part, mode in (("outbound", 0o755), ("inbound", 0o3773), ("feedback", 0o711)):
            opened.append(root_folders.made(opened[1], part, mode, gid, str(exchange / course / part)))
    finally:
        for fd in opened:
            os.close(fd)


def start(settings):
    if os.geteuid() != 0:
        sys.exit("hub: the hub starts each learner's server as that learner: start it as root")
    door = settings.open_door()  # settings saved by an older course let the hub listen anywhere in plain HTTP
    if door:
        sys.exit(f"hub: {door} (make hub with the setting saves it)")
    close_answers(settings)
    taken = taken_port(settings)
    if taken:
        sys.exit(f"hub: {taken}")
    state = settings.folder("state")
    os.chdir(state)
    os.environ["HUB_HOME"] = settings.home
    os.execv(str(ENVIRONMENT / "bin/jupyterhub"), ["jupyterhub", "-f", str(HOME / "hub/jupyterhub_config.py")])


def taken_port(settings):
    """Which of the hub's ports another program holds, in words, or None: on a shared server a learner's program could
    take one first (the hub's own API, say) and answer in the hub's place."""
    import socket
    for part, port in settings.ports().items():
        address = settings.ip if part == "public" else "127.0.0.1"
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a port the hub itself left a moment ago is free
            try:
                probe.bind((address, port))
            except OSError:
                return (f"port {port} ({part}) is taken by another program (ss -ltnp 'sport = :{port}' names it): stop it, "
                        "or give the hub other ports (HUB_PORT)")
    return None


def answering(url, process, seconds, verify=True):
    """Whether the hub started as `process` answers at url within `seconds` (False as soon as it has exited); verify
    names the certificate to trust, where the hub speaks TLS with its own."""
    import requests
    deadline = time.time() + seconds
    while process.poll() is None and time.time() < deadline:
        try:
            if requests.get(f"{url}/hub/api", timeout=5, verify=verify).ok:
                return True
        except requests.ConnectionError:
            pass
        time.sleep(0.5)
    return False


def stop_hub(process, home):
    """Stops a hub started as `process` (SIGTERM: JupyterHub stops every server, its services and its proxy), and its
    proxy if the hub could not (configurable-http-proxy's pid is in the hub's state folder)."""
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    try:
        os.kill(int((Path(home) / "state/proxy.pid").read_text()), signal.SIGKILL)
    except (OSError, ValueError):
        pass  # gone with the hub, as it should be


def learner_server():
    """A learner's server, as the learner: private folders (their home may be open to others), their own copies of the
    labs made once, then JupyterLab through JupyterHub with the learner's settings. The copies come from the student
    versions the hub's install made (HUB_HOME/labs), or, in an image made from an image tree (a pod on Kubernetes),
    from the course's labs, which are student versions there."""
    os.umask(0o077)
    if os.environ.get("HUB_HOME"):
        made = Settings(home=os.environ["HUB_HOME"]).folder("labs")  # its saved settings are root's: the folders alone
    else:
        made = HOME / "labs"
        if not all(MADE_FROM in json.loads(lab.read_text())["metadata"] for lab in lab_paths()):
            sys.exit(f"hub: the labs in {made} are the sources, answers and all: a learner's server runs on a course hub "
                     "(HUB_HOME) or in an image made from tools/course_hub.py image-tree")
    folder = Path.home() / LEARNER_FOLDER
    folder.mkdir(exist_ok=True)
    folder.chmod(0o700)
    private = Path.home() / ".java-io-course-tmp"  # TMPDIR: the learner's own, not the /tmp others may plant in (Open MPI's sessions)
    private.mkdir(exist_ok=True)
    private.chmod(0o700)
    import learner
    learner.copies(folder, made=made)
    os.environ.update({
        "COURSE_HOME": str(HOME),
        "COURSE_RESULTS": str(folder / "results"),
        "COURSE_SCRATCH": str(Path.home() / ".java-io-course-scratch"),  # the files runs write: the learner's disk, out of sight
        "TMPDIR": str(private),
        "JUPYTER_CONFIG_PATH": str(HOME / "setup/jupyterlab/hub-learner"),
    })
    os.chdir(folder)  # nbgrader fetches into the server's working folder
    os.execv(str(ENVIRONMENT / "bin/jupyterhub-singleuser"), ["jupyterhub-singleuser", f"--ServerApp.root_dir={folder}"])


def exchange_environment(settings):
    """What tells nbgrader's configuration (classroom/nbgrader_config.py) where the hub's exchange is."""
    where = {"COURSE_NGSHARE": settings.ngshare_url()} if settings.exchange == "ngshare" else {"COURSE_EXCHANGE": str(settings.folder("exchange"))}
    return {"COURSE_HOME": str(HOME), **where}


def image_tree(destination):
    """The course's files as learners may see them, in a new folder: what git tracks, but for HIDDEN, with each lab its
    student version (no solutions, no hidden tests)."""
    if destination.exists():
        sys.exit(f"hub: image-tree: {destination} exists; name a new folder")
    import learner
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=HOME, capture_output=True, text=True, check=True).stdout.split("\0")
    partial = destination.with_name(f".{destination.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    labs = set(lab_paths())
    for name in filter(None, tracked):
        source = HOME / name
        if any(name == part or name.startswith(f"{part}/") for part in HIDDEN) or source in labs or not source.exists():
            continue
        (partial / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, partial / name, follow_symlinks=False)
    learner.prepare(partial / "labs")
    partial.rename(destination)
    print(f"hub: the course as learners may see it, in {destination}: build the hub's image from it "
          f"(repo2docker --target-repo-dir /srv/java-io-course {destination})")


def teacher_environment(settings, course, exchange=None):
    environment = dict(os.environ, COURSE_ID=course, COURSE_CLASSROOM=str(settings.classroom(course)), **exchange_environment(settings))
    if exchange:
        environment["COURSE_EXCHANGE"] = str(exchange)
    if settings.exchange == "ngshare":  # the teacher's commands reach ngshare as its admin (the sandbox starts with no environment)
        environment.update(JUPYTERHUB_API_TOKEN=teacher_token(settings), JUPYTERHUB_USER=TEACHER)
    return environment


def teacher_step(settings, course, *argv, exchange=None, also_fine=()):
    """A step of the teacher's in a course's classroom folder, as root (in another exchange folder where named); what it
    made is then the grader account's. Its exit status, which must be 0 or one of also_fine."""
    classroom = settings.classroom(course)
    try:
        status = subprocess.run(argv, cwd=classroom, env=teacher_environment(settings, course, exchange)).returncode
    finally:
        own(classroom, grader(course), groups(course)["instructors"])
    if status and status not in also_fine:
        raise subprocess.CalledProcessError(status, argv)
    return status


def release(settings, lab, course):
    if settings.exchange == "ngshare":
        import asyncio
        sys.path.insert(0, str(HOME / "hub"))
        import ngshare_roster
        asyncio.run(ngshare_roster.open_course(settings, course))
    teacher_step(settings, course, PYTHON, str(HOME / "tools/classroom.py"), "release", lab)
    teacher_step(settings, course, str(ENVIRONMENT / "bin/nbgrader"), "release_assignment", lab, "--force")
    close_answers(settings)
    print(f"hub: {lab} released in {course}: its learners fetch it in the Assignments tab")


def grade(settings, lab, course):
    """Collects, grades, feeds back and tables a lab's hand-ins, the whole class whatever one hand-in does: what was
    refused or could not be graded is said, one line each, and the command then ends non-zero."""
    from classroom_grade import NOT_ALL_GRADED, UNSANDBOXED
    if os.environ.get(UNSANDBOXED):
        sys.exit(f"hub: {UNSANDBOXED}={os.environ[UNSANDBOXED]}: a hub grades learners' code in the sandbox alone "
                 "(outside it, their code would run as root); unset it")
    classroom = settings.classroom(course)
    refused = collect(settings, lab, course)
    name_learners(classroom)
    tool = [PYTHON, str(HOME / "tools/classroom.py")]
    failed = teacher_step(settings, course, *tool, "autograde", lab, also_fine=(NOT_ALL_GRADED,)) == NOT_ALL_GRADED
    teacher_step(settings, course, *tool, "feedback", lab)
    teacher_step(settings, course, str(ENVIRONMENT / "bin/nbgrader"), "release_feedback", lab)
    if settings.exchange == "files":  # ngshare gives each learner their own feedback alone
        feedback_to_its_learner(classroom, settings.folder("exchange") / course / "feedback", lab, groups(course)["instructors"])
    teacher_step(settings, course, *tool, "grades")
    close_answers(settings)
    print(f"hub: {lab} graded in {course}; learners fetch their feedback in the Assignments tab; the marks: {classroom / 'grades.csv'}")
    if refused or failed:
        sys.exit(f"hub: {lab} in {course}: the rest of the class is graded, but not "
                 + " and not ".join(filter(None, [refused and f"the {len(refused)} hand-ins refused at collect ('hub: not collected' above)",
                                                 failed and "those autograde could not grade ('classroom: not graded' above)"])))


def collect(settings, lab, course):
    """Each learner's newest hand-in of lab that tools/hub_collect.py accepts, into the course's classroom through
    nbgrader's collect (from root's checked copies, with the exchange folder); the refused ones, one line each."""
    nbgrader = str(ENVIRONMENT / "bin/nbgrader")
    if settings.exchange == "ngshare":  # ngshare hands each file over as content, checked by its own service
        teacher_step(settings, course, nbgrader, "collect", lab, "--update")
        return []
    import tempfile
    import hub_collect
    with tempfile.TemporaryDirectory(prefix="hub-collect-") as staging:  # root's alone (0700)
        copies = Path(staging) / course / "inbound"
        copies.mkdir(parents=True)
        try:
            home = root_folders.opened(settings.home)
            try:
                inbound = root_folders.walked(home, ["exchange", course, "inbound"], settings.home)
            finally:
                os.close(home)
        except root_folders.Refused as refused:
            sys.exit(f"hub: {refused}")
        try:
            refused = hub_collect.stage(inbound, lab, groups(course)["learners"], settings.handin_size, copies, time.time())
        finally:
            os.close(inbound)
        for line in refused:
            print(f"hub: not collected: {line}", file=sys.stderr)
        teacher_step(settings, course, nbgrader, "collect", lab, "--update", exchange=staging)
    return refused


def name_learners(classroom):
    """Each learner who handed in, named in the gradebook as their Unix account names them (Formgrader lists them so)."""
    with gradebook(classroom) as book:
        for folder in sorted((classroom / "submitted").iterdir()):
            try:
                full = pwd.getpwnam(folder.name).pw_gecos.split(",")[0].strip()
            except KeyError:
                continue  # not a user of this machine (a hand-in collected elsewhere): nbgrader's id alone
            first, _, last = full.rpartition(" ")
            if full:
                book.update_or_create_student(folder.name, first_name=first or last, last_name=last if first else None)


def feedback_to_its_learner(classroom, released, lab, instructors):
    """Each released feedback file its learner's to read and no other learner's: nbgrader names it by a hash of the
    hand-in's secret, and leaves it readable by anyone who has the name."""
    from nbgrader.utils import notebook_hash
    gid = grp.getgrnam(instructors).gr_gid
    for folder in sorted(classroom.glob(f"feedback/*/{lab}")):
        try:
            learner = pwd.getpwnam(folder.parent.name).pw_uid
        except KeyError:
            learner = None
            print(f"hub: {folder.parent.name}'s feedback is withdrawn: no user of this server has that name", file=sys.stderr)
        secret = (folder / "submission_secret.txt").read_text()
        for page in folder.glob("*.html"):
            target = released / f"{notebook_hash(secret=secret, notebook_id=page.stem)}.html"
            if learner is None:
                target.unlink(missing_ok=True)
            elif target.exists():
                os.chown(target, learner, gid, follow_symlinks=False)
                target.chmod(0o640)


def main(argv):
    command, *rest = argv or ["--help"]
    if command in ("-h", "--help"):
        print(__doc__)
        return
    if command == "install":
        home = os.environ.get("HUB_HOME") or Settings.home
        saved = Settings.load() if Settings.state_file(home).exists() else None
        install(Settings.given(os.environ, saved))
    elif command == "start":
        start(Settings.load())
    elif command == "learner":
        learner_server()
    elif command == "image-tree":
        if len(rest) != 1:
            sys.exit("hub: image-tree: name one folder to make, IMAGE_TREE=<folder>")
        image_tree(Path(rest[0]).absolute())
    elif command in ("release", "grade"):
        labs = [p.stem for p in lab_paths()]
        lab, course = (rest + ["", ""])[:2]
        if lab not in labs or len(rest) > 2:
            sys.exit(f"hub: {command}: name one lab: LAB={lab or '(none)'} is not one of {', '.join(labs)}")
        settings = Settings.load()
        courses = settings.course_ids()
        if course and course not in courses:
            sys.exit(f"hub: {command}: COURSE={course} is not a course of this hub ({', '.join(courses)})")
        if not course and len(courses) > 1:
            sys.exit(f"hub: {command}: this hub serves {', '.join(courses)}: name one, COURSE=<course>")
        (release if command == "release" else grade)(settings, lab, course or courses[0])
    else:
        sys.exit(f"hub: no command {command} (commands: install, start, learner, release, grade, image-tree)")


if __name__ == "__main__":
    main(sys.argv[1:])
