"""A term's hub in one dated archive, and back (make hub-backup, make hub-restore), as root.

The archive (HUB_HOME/backups/hub-YYYYMMDD-HHMMSS.tar.gz, root's alone) holds what a term needs and install cannot
make again: the hub's state (its database, cookie secret, the teacher's token, the LMS courses, the settings), each
course's classroom (its gradebook, hand-ins, graded notebooks, feedback, grades.csv), the exchange folder, ngshare's
database and files, and on request (HOMES=yes) each learner's ~/java-io-course. The databases are copied with SQLite's
online backup, so the hub may run meanwhile. The learners' labs are left out: install makes them from the course.

What learners wrote is read as root, so nothing is followed: each folder and file is opened without following a link
and checked open (a folder, or a regular file with one link); links, pipes, devices and hard-linked files are left out
and counted. Restore takes only folders and regular files under the parts above, owned by accounts this server has
(make hub and the class's people first), puts each part in place whole (what stood there is kept aside, never merged
into), and never writes through anything a learner made."""
import grp
import os
import pwd
import re
import shutil
import sqlite3
import stat
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from hub import root_folders
from hub.handins import class_members
from hub.install import account_exists
from hub.settings import LEARNER_FOLDER, grader, groups

PARTS = ("state", "classrooms", "exchange", "ngshare")  # in HUB_HOME; "homes/<user>/java-io-course" beside them
RUNNING = ("jupyterhub.pid", "proxy.pid")  # the running hub's, not the term's
DATABASE = re.compile(r"state/jupyterhub\.sqlite|classrooms/[^/]+/gradebook\.db|ngshare/ngshare\.db")
# every entry is checked first (checked_members): its modes (the exchange's sticky folders) and owners kept, where a
# Python that filters extraction would clear them
TRUSTED = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}


def info(arcname, st):
    """A folder's or a regular file's entry, from what fstat said of it open."""
    entry = tarfile.TarInfo(arcname)
    entry.type = tarfile.DIRTYPE if stat.S_ISDIR(st.st_mode) else tarfile.REGTYPE
    entry.mode, entry.uid, entry.gid, entry.mtime = stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, int(st.st_mtime)
    entry.size = st.st_size if entry.type == tarfile.REGTYPE else 0
    entry.uname, entry.gname = root_folders.owner_name(st.st_uid), group_name(st.st_gid)
    return entry


def group_name(gid):
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return ""


class Archive:
    """An archive being written: each folder and regular file added from an open folder, never through a link."""

    def __init__(self, tar, copies):
        self.tar, self.copies, self.left_out = tar, copies, []

    def folder(self, parent, name, arcname):
        """The folder name in the open folder parent and all in it, as arcname."""
        try:
            fd = os.open(name, root_folders.FOLDER, dir_fd=parent)
        except OSError:
            self.left_out.append(arcname)  # a link, or something other than a folder
            return
        try:
            self.tar.addfile(info(arcname, os.fstat(fd)))
            for entry in sorted(os.listdir(fd)):
                inner = f"{arcname}/{entry}"
                if inner.startswith("state/") and entry in RUNNING or re.search(r"\.(db|sqlite)-(journal|wal|shm)$", entry) \
                        or inner.endswith("/.local/share/jupyter/runtime"):
                    continue  # the running hub's or Formgrader's, or a database's own files (its online copy holds them)
                kind = stat.S_IFMT(os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode)
                if kind == stat.S_IFDIR:
                    self.folder(fd, entry, inner)
                elif kind == stat.S_IFREG:
                    self.file(fd, entry, inner)
                else:
                    self.left_out.append(inner)
        finally:
            os.close(fd)

    def file(self, parent, name, arcname):
        """A regular file with one link, from the open folder parent; a database by SQLite's online backup."""
        try:
            fd = os.open(name, root_folders.FILE, dir_fd=parent)
        except OSError:
            self.left_out.append(arcname)
            return
        with os.fdopen(fd, "rb") as held:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
                self.left_out.append(arcname)
                return
            entry = info(arcname, st)
            if not DATABASE.fullmatch(arcname):
                self.tar.addfile(entry, held)
                return
            copy = Path(self.copies) / str(len(os.listdir(self.copies)))
            # the database where this folder holds it (learners write in none of the parts databases lie in)
            with sqlite3.connect(f"file:/proc/self/fd/{parent}/{name}?mode=ro", uri=True) as live, sqlite3.connect(copy) as kept:
                live.backup(kept)
            live.close()
            kept.close()
            entry.size = copy.stat().st_size
            with open(copy, "rb") as content:
                self.tar.addfile(entry, content)


def people_of(settings):
    """The people of the hub's courses, learners and instructors, by their Unix groups (not the grader accounts)."""
    names = set()
    for course in settings.course_ids():
        for named in groups(course).values():
            if group(named):
                names |= class_members(named)
    return sorted(names - {grader(course) for course in settings.course_ids()})


def backup(settings, homes=False):
    """Writes the archive; its path."""
    if os.geteuid() != 0:
        sys.exit("hub: make hub-backup reads every learner's hand-ins: run it as root")
    home = root_folders.opened(settings.home)
    try:
        kept = root_folders.made(home, "backups", 0o700, 0, str(settings.folder("backups")))
        os.close(kept)
    finally:
        os.close(home)
    target = settings.folder("backups") / f"hub-{time.strftime('%Y%m%d-%H%M%S')}.tar.gz"
    partial = target.with_name(f".{target.name}.partial")
    with tempfile.TemporaryDirectory(prefix="copies-", dir=settings.folder("backups")) as copies:
        with tarfile.open(partial, "w:gz") as tar:
            archive = Archive(tar, copies)
            home = root_folders.opened(settings.home)
            try:
                for part in PARTS:
                    if os.path.lexists(settings.folder(part)):
                        archive.folder(home, part, part)
            finally:
                os.close(home)
            for user in people_of(settings) if homes else []:
                theirs = home_of(user)
                if theirs is None:
                    continue  # no home of their own (an LMS account not logged in yet)
                try:
                    if os.path.lexists(f"/proc/self/fd/{theirs}/{LEARNER_FOLDER}"):  # none yet: nothing to keep
                        archive.folder(theirs, LEARNER_FOLDER, f"homes/{user}/{LEARNER_FOLDER}")
                finally:
                    os.close(theirs)
    partial.chmod(0o600)
    partial.rename(target)
    if archive.left_out:  # each named beside the archive (a name may hold anything but a newline: said as Python writes it)
        listed = target.with_name(f"{target.name}.left-out.txt")
        listed.touch(0o600)
        listed.write_text("".join(f"{name!r}\n" for name in archive.left_out))
        print(f"hub: left out of the backup, not a folder or a file of one link: {len(archive.left_out)}, each named in {listed}",
              file=sys.stderr)
    return target


def checked_members(tar):
    """The archive's entries, each a folder or a regular file under one of the parts (or homes/<user>/java-io-course),
    by a plain relative name; or the one line that says what is not."""
    members = tar.getmembers()
    for member in members:
        parts = member.name.split("/")
        top = parts[0] in PARTS or (parts[0] == "homes" and len(parts) >= 3 and parts[2] == LEARNER_FOLDER)
        if not (member.isdir() or member.isreg()) or not top or "" in parts or "." in parts or ".." in parts:
            sys.exit(f"hub: restore: {member.name!r} is not a folder or a file of a hub's backup: not restored")
    return members


def hub_running(settings):
    """Whether the hub of these settings runs (its pid file names a live process)."""
    try:
        os.kill(int((settings.folder("state") / "jupyterhub.pid").read_text()), 0)
        return True
    except (OSError, ValueError):
        return False


def restore(settings, archive):
    """Puts an archive's parts in place: the hub stopped, its accounts made (make hub, the class's people)."""
    if os.geteuid() != 0:
        sys.exit("hub: make hub-restore puts back files of many accounts: run it as root")
    if hub_running(settings):
        sys.exit("hub: restore: the hub is running (its database is in use): stop it first, then restore, then make hub")
    if not archive.is_file():
        sys.exit(f"hub: restore: ARCHIVE={archive}: not a file (make hub-backup writes them in {settings.folder('backups')})")
    with tarfile.open(archive, "r:gz") as tar:
        members = checked_members(tar)
        unknown = sorted({m.uname for m in members if not account_exists(m.uname)} | {m.gname for m in members if not group(m.gname)})
        if unknown:
            sys.exit(f"hub: restore: no account or group here for {', '.join(unknown[:5])}{' …' if len(unknown) > 5 else ''}: "
                     "make hub (its courses' groups and graders) and add the class's people first, then restore")
        aside = settings.folder(f"replaced-{time.strftime('%Y%m%d-%H%M%S')}")
        staging = Path(tempfile.mkdtemp(prefix=".restoring-", dir=settings.home))  # root's alone: nothing planted in it
        try:
            tar.extractall(staging, members=[m for m in members if m.name.split("/")[0] in PARTS], numeric_owner=False, **TRUSTED)
            for part in PARTS:
                if not (staging / part).exists():
                    continue
                if os.path.lexists(settings.folder(part)):
                    aside.mkdir(mode=0o700, exist_ok=True)
                    os.rename(settings.folder(part), aside / part)  # kept, never merged into (a learner may have made it)
                os.rename(staging / part, settings.folder(part))
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        homes = sorted({m.name.split("/")[1] for m in members if m.name.startswith("homes/")})
        for user in homes:
            put_home_back(tar, [m for m in members if m.name.startswith(f"homes/{user}/")], user)
    print(f"hub: restored from {archive}: {', '.join(p for p in PARTS if settings.folder(p).exists())}"
          + (f", and the folders of {len(homes)} people" if homes else "")
          + (f"; what stood there is in {aside}" if aside.exists() else "") + "; now make hub")


def group(name):
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def home_of(user):
    """A person's home folder, open (never through a link), where it is theirs; None where they have none."""
    person = pwd.getpwnam(user)
    try:
        theirs = os.open(person.pw_dir, root_folders.FOLDER)
    except OSError:
        return None
    if os.fstat(theirs).st_uid != person.pw_uid:
        os.close(theirs)
        return None
    return theirs


def put_home_back(tar, members, user):
    """A person's ~/java-io-course from the archive, where they have none: extracted into a folder of root's made in
    their home (which they cannot enter), through that folder's open descriptor, then moved into place in one rename."""
    theirs = home_of(user)
    if theirs is None:
        print(f"hub: restore: {user} has no home folder of their own here: their {LEARNER_FOLDER} is not put back", file=sys.stderr)
        return
    try:
        try:
            os.stat(LEARNER_FOLDER, dir_fd=theirs, follow_symlinks=False)
            print(f"hub: restore: {user} has a {LEARNER_FOLDER} already: kept as it is", file=sys.stderr)
            return
        except FileNotFoundError:
            pass
        name = f".restoring-{os.getpid()}"
        os.mkdir(name, 0o700, dir_fd=theirs)
        staging = os.open(name, root_folders.FOLDER, dir_fd=theirs)
        try:
            for member in members:
                member.name = member.name.split("/", 2)[2]  # java-io-course/…, inside the staging folder
            tar.extractall(f"/proc/self/fd/{staging}", members=members, numeric_owner=False, **TRUSTED)
            os.rename(LEARNER_FOLDER, LEARNER_FOLDER, src_dir_fd=staging, dst_dir_fd=theirs)
        finally:
            os.close(staging)
            try:
                shutil.rmtree(name, dir_fd=theirs)  # empty once moved; never through a link put in its place
            except OSError:
                pass
    finally:
        os.close(theirs)
