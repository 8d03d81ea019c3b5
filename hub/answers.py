"""What learners on the hub may not read (the labs' sources, the tests, the history, the teacher's classroom), closed
to them at every start and teacher's step; and what they must reach (the course, its Python), checked before install."""
import grp
import os
import stat
import sys
from pathlib import Path

from labs import HOME

from hub.settings import PYTHON, groups


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
