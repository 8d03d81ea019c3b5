"""Folders root makes, enters or changes where learners may write (the hub's exchange, whose root is open to all):
never through a link, and each checked where it lies (a real folder, root's) before root reads or changes it. Each
function works on open folders (file descriptors), so nothing a learner swaps in between the check and the use counts;
each refuses in one line (Refused) naming the path and what stands there."""
import os
import pwd
import stat

# a folder, opened without following a link at its last step, and without blocking on a pipe put in its place
FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
# a file, the same way (what it is, checked open: fstat)
FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
# what may stand at a name, in words (stat's file types)
KINDS = {stat.S_IFLNK: "a symbolic link", stat.S_IFIFO: "a pipe", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a device",
         stat.S_IFBLK: "a device", stat.S_IFDIR: "a folder", stat.S_IFREG: "a file"}


class Refused(Exception):
    """What stands where root wanted a folder of its own, in one line."""


def owner_name(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def what_stands(parent, name):
    """What is at name in the open folder parent, in words (for a refusal)."""
    kind = stat.S_IFMT(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    return "something other than a folder" if kind == stat.S_IFDIR else KINDS.get(kind, "something other than a folder")


def entered(parent, name, shown):
    """The folder name in the open folder parent, open, when it is a real folder of root's; else Refused. shown is its
    path, for the message."""
    try:
        fd = os.open(name, FOLDER, dir_fd=parent)
    except FileNotFoundError:
        raise Refused(f"{shown} is missing") from None
    except OSError:  # ELOOP (a link), ENOTDIR (a file, a pipe, ...)
        raise Refused(f"{shown} is {what_stands(parent, name)}, not a folder the hub made: remove it (rm {shown}) "
                      "and run make hub again") from None
    made_by = os.fstat(fd).st_uid
    if made_by != 0:
        os.close(fd)
        raise Refused(f"{shown} was made by {owner_name(made_by)}, not by the hub: remove it (rm -r '{shown}') and run "
                      "make hub again")
    return fd


def made(parent, name, mode, gid, shown):
    """The folder name in the open folder parent, made if missing, entered as entered() checks it, then given root as
    owner, gid as group and mode; open."""
    try:
        os.mkdir(name, 0o700, dir_fd=parent)
    except FileExistsError:
        pass
    fd = entered(parent, name, shown)
    os.fchown(fd, 0, gid)
    os.fchmod(fd, mode)
    return fd


def opened(path):
    """A folder of root's named by its absolute path, open (a link at its last step refused; the steps before it are
    root's to have chosen)."""
    parent = os.open(os.path.dirname(path) or "/", FOLDER)
    try:
        return entered(parent, os.path.basename(path), path)
    finally:
        os.close(parent)


def walked(top, parts, shown):
    """The folder top/parts[0]/parts[1]/..., each step entered (root's, no link), open; the steps on the way closed."""
    fd = top
    for i, part in enumerate(parts):
        inner = entered(fd, part, os.path.join(shown, *parts[:i + 1]))
        if fd != top:
            os.close(fd)
        fd = inner
    return fd
