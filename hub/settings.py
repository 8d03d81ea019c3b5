"""The course hub's settings: what each is, where install saves them (HUB_HOME/state/settings.json), each parsed from the
environment with one line naming a bad value; and the names the hub gives its parts (groups, accounts, services)."""
import dataclasses
import ipaddress
import json
import os
import pwd
import re
import sys
from pathlib import Path

from labs import HOME, preset_names

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
    limits: str = "cgroup"  # HUB_LIMITS: cgroup (each server its own: the hub refuses to start where none can be made) or
    # rlimits (accepts on purpose a machine with none: each server held by its process count alone, its memory not at all)
    disk_reserve: int = 2 << 30  # HUB_DISK_RESERVE: free space kept where the hub and learners' homes lie: below it no
    # server starts (1g, 512m)
    keep_servers: str = "yes"  # HUB_KEEP_SERVERS: yes keeps learners' servers running, in their limits, while the hub restarts;
    # no stops them with the hub (a change of settings then reaches every server at its next start)
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
                 "memory": "HUB_MEMORY", "handin_size": "HUB_HANDIN_SIZE", "tasks": "HUB_TASKS", "idle_minutes": "HUB_IDLE_MINUTES",
                 "keep_servers": "HUB_KEEP_SERVERS", "limits": "HUB_LIMITS", "disk_reserve": "HUB_DISK_RESERVE", "answers": "HUB_ANSWERS",
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
        return Settings.ports_for(self.port, self.course_ids())

    @staticmethod
    def ports_for(port, courses):
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
        taken = len(Settings.ports_for(values["port"], values["courses"] or (1,))) - 1
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
    if field == "limits":
        return text if text in ("cgroup", "rlimits") else bad("cgroup (each learner's server in a cgroup of its own) or rlimits (none can be made here: accepted on purpose)")
    if field in ("memory", "handin_size", "disk_reserve"):
        found = SIZE.fullmatch(text.lower())
        if not found or int(found.group(1)) == 0:
            bad("a size in megabytes or gigabytes (1536m, 4g)")
        size = int(found.group(1)) << (20 if found.group(2) == "m" else 30)
        if field in ("handin_size", "disk_reserve"):
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
    if field == "keep_servers":
        return text if text in ("yes", "no") else bad("yes (learners' servers outlive a restart of the hub) or no (they stop with it)")
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


def teacher_token(settings):
    """The token of the hub service TEACHER (made once)."""
    path = settings.folder("state") / "teacher-token"
    if not path.exists():
        import secrets
        path.touch(0o600)
        path.write_text(secrets.token_hex(32))
    return path.read_text()


def exchange_environment(settings):
    """What tells nbgrader's configuration (classroom/nbgrader_config.py) where the hub's exchange is."""
    where = {"COURSE_NGSHARE": settings.ngshare_url()} if settings.exchange == "ngshare" else {"COURSE_EXCHANGE": str(settings.folder("exchange"))}
    return {"COURSE_HOME": str(HOME), **where}
