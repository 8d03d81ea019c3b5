"""What root takes from a course's exchange folder on the hub, before nbgrader collects it: each hand-in checked where
it lies and copied without following anything into a folder of root's, from which nbgrader's own collect takes it.

A hand-in is taken when its folder is a real folder (no link), made by the learner its name gives, who is in the
class; its time (in its name) is no later than now; and nothing in it changed after that time. Inside it: regular
files and folders of that learner only (no link, device, pipe or socket; no file reached by a second name, a hard
link), at most ENTRIES of them, DEEPEST deep, and no more bytes than the teacher allows (HUB_HANDIN_SIZE). Each
learner's newest hand-in that passes is taken; each refused one is one line to the teacher. The time nbgrader grades
by (timestamp.txt) is written from the name root checked, not copied from the learner's file, which they own.

Why before nbgrader rather than through its options: nbgrader's collect takes the learner and the time from the folder's
name (it only logs "cheating attempt?" where the owner differs), copies with shutil.copytree, which follows links, and
stops the whole collect at a name it cannot read; no option changes any of that. So root checks and copies here, and
nbgrader collects from the copies (each its learner's, so its own owner check holds)."""
import datetime
import grp
import os
import pwd
import shutil
import stat

from classroom_folder import STUDENT_ID
from hub.root_folders import FILE, FOLDER, KINDS, Refused, owner_name

ENTRIES = 1000  # files and folders in one hand-in (a lab's notebooks and results are a few dozen)
DEEPEST = 8  # folders inside folders
# nbgrader's submit names a hand-in by the time it starts, then copies it and closes it (hub/exchange.py): a change
# later than this after the named time is the learner's, after they handed it in
SETTLED_SECONDS = 600
NOW_SLACK = 60  # seconds a name's time may lie ahead of root's clock (the learner's server reads the same clock)


def class_members(group):
    """The Unix users in a group, by its member list or as their primary group."""
    found = grp.getgrnam(group)
    return set(found.gr_mem) | {user.pw_name for user in pwd.getpwall() if user.pw_gid == found.gr_gid}


def shown(name):
    """A name as one printable line."""
    return name if name.isprintable() else ascii(name)


def named_time(text):
    """Seconds since the epoch of a hand-in name's time (nbgrader writes UTC), or Refused."""
    from nbgrader.utils import parse_utc
    try:
        when = parse_utc(text)
    except (ValueError, OverflowError, TypeError):
        raise Refused(f"its time ({shown(text)}) is not a time nbgrader writes") from None
    return when.replace(tzinfo=datetime.timezone.utc).timestamp()


def stage(inbound, lab, learners_group, most_bytes, staging, now):
    """Copies the newest acceptable hand-in of lab of each learner in learners_group from the open folder inbound (an
    fd) into the folder staging (root's), each as nbgrader's exchange holds it; returns one line per refused entry."""
    members = class_members(learners_group)
    refused, claims = [], {}
    for name in sorted(os.listdir(inbound)):
        parts = name.split("+")
        if len(parts) < 3 or parts[1] != lab:
            continue  # another lab's
        try:
            learner = parts[0]
            if not STUDENT_ID.fullmatch(learner) or len(parts) > 4:
                raise Refused("its name is not <learner>+<lab>+<time>+<random>, as nbgrader names a hand-in")
            if learner not in members:
                raise Refused(f"{learner} is not in the class ({learners_group})")
            when = named_time(parts[2])
            if when > now + NOW_SLACK:
                raise Refused(f"its time ({shown(parts[2])}) is later than now")
            claims.setdefault(learner, []).append((when, name))
        except Refused as why:
            refused.append(f"{shown(name)}: {why}")
    for learner, handed in sorted(claims.items()):
        account = pwd.getpwnam(learner)
        taken = False
        for when, name in sorted(handed, reverse=True):  # the older ones checked too: the teacher hears of each try
            try:
                copy_hand_in(inbound, name, None if taken else staging, account, when, most_bytes)
                taken = True
            except Refused as why:
                refused.append(f"{shown(name)}: {why}")
    return refused


def copy_hand_in(inbound, name, staging, account, when, most_bytes):
    """One hand-in, checked and copied into staging/name (removed again if refused), owned there by its learner;
    checked alone where staging is None."""
    budget = {"entries": ENTRIES, "bytes": most_bytes, "most": most_bytes}
    target = staging and os.path.join(staging, name)
    try:
        copy_folder(inbound, name, target, account, when + SETTLED_SECONDS, budget, DEEPEST, label="it")
        if target:
            with open(os.path.join(target, "timestamp.txt"), "w") as written:
                written.write(name.split("+")[2])
            for folder, folders, files in os.walk(target):
                for path in [folder, *(os.path.join(folder, f) for f in folders + files)]:
                    os.lchown(path, account.pw_uid, -1)
    except BaseException:
        if target:
            shutil.rmtree(target, ignore_errors=True)
        raise


def checked(parent, name, label, account, settled, kind):
    """name in the open folder parent, opened without following it, when it is of kind (a folder or a regular file),
    the learner's, reached by this name alone and unchanged since settled; else Refused, naming it as label."""
    before = os.stat(name, dir_fd=parent, follow_symlinks=False)
    if stat.S_IFMT(before.st_mode) != kind:
        raise Refused(f"{label} is {KINDS[stat.S_IFMT(before.st_mode)]}, not {KINDS[kind]} (a hand-in holds files and folders only)")
    fd = os.open(name, FOLDER if kind == stat.S_IFDIR else FILE, dir_fd=parent)
    found = os.fstat(fd)
    try:
        if (found.st_dev, found.st_ino) != (before.st_dev, before.st_ino):
            raise Refused(f"{label} changed while it was read")
        if found.st_uid != account.pw_uid:
            raise Refused(f"{label} was made by {owner_name(found.st_uid)}, not by {account.pw_name}")
        if kind == stat.S_IFREG and found.st_nlink != 1:
            raise Refused(f"{label} is a second name of another file (a hard link)")
        if found.st_ctime > settled:
            changed = datetime.datetime.fromtimestamp(found.st_ctime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
            raise Refused(f"{label} changed at {changed}, after the time its name gives")
    except Refused:
        os.close(fd)
        raise
    return fd, found


def copy_folder(parent, name, target, account, settled, budget, depth, label=None):
    """A folder of a hand-in and all in it, checked, copied to target (checked alone where target is None)."""
    fd, _ = checked(parent, name, label or shown(name), account, settled, stat.S_IFDIR)
    try:
        if target:
            os.mkdir(target, 0o700)
        for entry in sorted(os.listdir(fd)):
            budget["entries"] -= 1
            if budget["entries"] < 0:
                raise Refused(f"it holds more than {ENTRIES} files and folders")
            kind = stat.S_IFMT(os.stat(entry, dir_fd=fd, follow_symlinks=False).st_mode)
            if kind == stat.S_IFDIR:
                if depth == 0:
                    raise Refused(f"its folders lie more than {DEEPEST} deep")
                copy_folder(fd, entry, target and os.path.join(target, entry), account, settled, budget, depth - 1)
            else:
                copy_file(fd, entry, target and os.path.join(target, entry), account, settled, budget)
    finally:
        os.close(fd)


def copy_file(parent, name, target, account, settled, budget):
    fd, found = checked(parent, name, shown(name), account, settled, stat.S_IFREG)
    try:
        budget["bytes"] -= found.st_size
        if budget["bytes"] < 0:
            raise Refused(f"it holds more than the {budget['most']} bytes the hub takes in one hand-in (HUB_HANDIN_SIZE)")
        if target is None:
            return
        with os.fdopen(fd, "rb", closefd=False) as source, open(target, "xb") as copy:
            left = found.st_size  # what root checked, however the file grows meanwhile
            while left:
                chunk = source.read(min(left, 1 << 20))
                if not chunk:
                    break
                copy.write(chunk)
                left -= len(chunk)
    finally:
        os.close(fd)
