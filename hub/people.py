"""make hub-people ROSTER=<the LMS's CSV export> [COURSE=…], as root: a course's people as the LMS lists them. Each row
is a person: their login (the LMS's username or SIS login id, which becomes their Unix name here) and their role (no
role column: every row a learner, as in a gradebook's export); a learner joins the course's learners group, an instructor its instructors group (JupyterHub then makes them an admin of
their own class: jupyterhub_config.py's class-admin roles). Someone the server has no account for gets one, with a
first-use password written only to a file of root's (HUB_HOME/state/first-passwords-COURSE-DATE-PID.csv, 0600) for the
teacher to hand out, never to a command line or a log. (A hub whose people log in from the LMS, HUB_LOGIN=lti, takes
no roster: their launches name and group them.)
Whoever the course's groups hold and the roster does not is taken out: off its groups, their hub login ended and their
server stopped at once (JupyterHub's API deletes the hub's record of them; their files stay), and, with ngshare, off
its lists then. Instructors change only where the roster names one (a gradebook export lists learners alone).

The whole roster is read and checked first: one bad row refuses it in one line, and nothing changes."""
import asyncio
import csv
import grp
import io
import os
import pwd
import re
import secrets
import subprocess
import sys
import time
from pathlib import Path

import requests

from hub.install import account_exists
from hub.settings import NGSHARE_ACCOUNT, TEACHER, grader, groups, teacher_token

LOGIN_COLUMNS = ("login", "username", "sis login id", "login id", "user name", "user")  # Moodle, Canvas, Blackboard's names
ROLE_COLUMNS = ("role", "roles")
ROLES = {"learners": ("student", "learner"),
         "instructors": ("teacher", "instructor", "editingteacher", "teaching assistant", "ta", "non-editing teacher")}
UNIX_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")  # what useradd takes on every distribution (NAME_REGEX's default)
FIRST_OWN_UID = 1000  # below it, the system's own accounts (login.defs' UID_MIN): never a roster's to change


class Refused(Exception):
    pass


def read_roster(path, settings):
    """{login: "learners" or "instructors"} from an LMS's CSV export; Refused, naming the row, at the first bad one."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # Excel and Canvas write a byte-order mark first
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"ROSTER={path}: cannot read it as UTF-8 text ({error})") from error
    rows = csv.DictReader(io.StringIO(text))
    header = {(name or "").strip().lower(): name for name in rows.fieldnames or []}
    login = next((header[c] for c in LOGIN_COLUMNS if c in header), None)
    role = next((header[c] for c in ROLE_COLUMNS if c in header), None)
    if login is None:
        raise Refused(f"ROSTER={path}: its first line must name a login column ({', '.join(LOGIN_COLUMNS)}), and may name "
                      f"a role column ({', '.join(ROLE_COLUMNS)}); it names {', '.join(rows.fieldnames or []) or 'nothing'}")
    ours = {TEACHER, NGSHARE_ACCOUNT, *(grader(course) for course in settings.course_ids())}
    people = {}
    for number, row in enumerate(rows, start=2):
        name, said = (row.get(login) or "").strip(), (row.get(role) or "").strip().lower() if role else "student"  # no role column: a gradebook's learners
        where = f"ROSTER={path}, line {number}"
        if not UNIX_NAME.fullmatch(name):
            raise Refused(f"{where}: login {name!r} is not a name this server can give an account (lower-case letters, digits, "
                          "_ and -, at most 32, not starting with a digit or -)")
        kind = next((kind for kind, said_so in ROLES.items() if said in said_so), None)
        if kind is None:
            raise Refused(f"{where}: role {said!r} of {name} is none of {', '.join(r for said_so in ROLES.values() for r in said_so)}")
        if name in ours or (account_exists(name) and pwd.getpwnam(name).pw_uid < FIRST_OWN_UID):
            raise Refused(f"{where}: {name} is an account of this server's own (the system's or the hub's), not a person of the class")
        if name in people:
            raise Refused(f"{where}: {name} is listed twice")
        people[name] = kind
    if not people:
        raise Refused(f"ROSTER={path}: it lists nobody")
    return people


def homes_base():
    """Where this server puts a new user's home, as useradd would (useradd -D's HOME, /home by default)."""
    defaults = subprocess.run(["useradd", "-D"], capture_output=True, text=True, check=True).stdout
    return next((line.split("=", 1)[1] for line in defaults.splitlines() if line.startswith("HOME=")), "/home")


def members(group):
    return set(grp.getgrnam(group).gr_mem)


def place(settings, course, people):
    """Makes the course's groups hold the roster's people (the accounts too, where new); returns what changed. The new
    accounts are made in one pass (newusers, their passwords on its standard input), and each group's members set in one
    write (gpasswd --members): a class of 200 rewrites /etc/group a few times, not hundreds (a grading sandbox binds it)."""
    named = groups(course)
    kinds = ("learners", "instructors") if "instructors" in people.values() else ("learners",)
    new = [name for name in people if not account_exists(name)]
    passwords = {name: secrets.token_urlsafe(12) for name in new}
    kept = None
    if passwords:  # the file first: a password set is one the teacher can hand out
        kept = settings.folder("state") / f"first-passwords-{course}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.csv"
        with open(kept, "x", opener=lambda path, flags: os.open(path, flags, 0o600)) as out:
            out.write("login,password\n" + "".join(f"{name},{word}\n" for name, word in passwords.items()))
        # name:password:uid:gid:comment:home:shell, uid and gid left to newusers (a group of the user's name, as useradd's)
        base = homes_base()
        subprocess.run(["newusers"], input="".join(f"{name}:{word}::::{base}/{name}:/bin/bash\n" for name, word in passwords.items()),
                       text=True, check=True, capture_output=True)
    changed = {"made": new, "joined": [], "out": [], "passwords": str(kept) if kept else None}
    for kind in kinds:
        group, now = named[kind], members(named[kind])
        keep = {name for name, theirs in people.items() if theirs == kind}
        joined, out = sorted(keep - now), sorted(now - keep - {grader(course)})
        if joined or out:
            subprocess.run(["gpasswd", "--members", ",".join(sorted((now - set(out)) | keep)), group], check=True, capture_output=True)
        changed["joined"] += joined
        changed["out"] += out
    changed["out"] = sorted(set(changed["out"]) - set(people))  # moved between the groups: still in the class
    return changed


def end_sessions(settings, names):
    """Each person's hub login ended and server stopped, at once (JupyterHub deletes its record of them: its cookie then
    names nobody); False where the hub does not answer (stopped: nobody logs in past their groups at its next start)."""
    api = f"http://127.0.0.1:{settings.ports()['hub']}/hub/api"
    headers = {"Authorization": f"token {teacher_token(settings)}"}
    try:
        requests.get(api, timeout=5)
    except requests.ConnectionError:
        return False
    for name in names:
        answer = requests.delete(f"{api}/users/{name}", headers=headers, timeout=600)  # waits for the server to stop
        if answer.status_code not in (204, 404):  # 404: never logged in
            raise RuntimeError(f"the hub refused to end {name}'s login: {answer.status_code} {answer.text[:200]}")
    return True


def people(settings, course, roster):
    """The command: roster read and checked, then placed; what changed said in a few lines."""
    if settings.login == "lti":
        sys.exit("hub: people: this hub logs people in from the LMS (HUB_LOGIN=lti), whose launches name and group them "
                 "(lti-<the LMS's id>): a roster's logins are not their names here")
    try:
        listed = read_roster(roster, settings)
    except Refused as refused:
        sys.exit(f"hub: people: {refused}")
    changed = place(settings, course, listed)
    ended = end_sessions(settings, changed["out"])
    if settings.exchange == "ngshare" and ended:
        from hub import ngshare_roster
        for name in sorted({*changed["joined"], *changed["out"]}):
            theirs = [group for group in groups(course).values() if name in members(group)]
            asyncio.run(ngshare_roster.enrol(settings, name, theirs))
    print(f"hub: people of {course}: {len(listed)} on the roster; {len(changed['made'])} accounts made, "
          f"{len(changed['joined'])} joined, {len(changed['out'])} taken out"
          + ("" if ended or not changed["out"] else " (the hub is not running: their logins end with its stop)"))
    if changed["passwords"]:
        print(f"hub: the new accounts' first-use passwords are in {changed['passwords']} (root's alone): hand each person "
              "theirs; `passwd` in their server's terminal changes it")
