"""make hub's first step, as root: each course's groups and grader account, its classroom and exchange folders, ngshare's
account, the learners' labs, the settings saved."""
import grp
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

from labs import HOME

from hub import root_folders
from hub.answers import close_answers, unreachable
from hub.settings import NGSHARE, NGSHARE_ACCOUNT, TEACHER, grader, groups, teacher_token


def run(*argv, **kwargs):
    subprocess.run(argv, check=True, **kwargs)


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
