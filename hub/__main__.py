"""The course hub: JupyterHub on one server, its learners and instructors the server's Unix users (the shape of The
Littlest JupyterHub, started without systemd). `make hub` runs install, then start.

    install              as root: the hub's folder, each course's groups and grader account, the learners' labs
    start                as root: JupyterHub and its proxy in the foreground, on the saved settings
    learner              the spawner's command, as a learner: their own copies, then their JupyterLab
    release LAB [COURSE] the teacher: a lab's student version into a course's exchange (its folder, or ngshare)
    grade LAB [COURSE]   the teacher: collect, grade each hand-in in the sandbox, feedback, grades.csv
    backup [--homes]     as root: the term in one dated archive, while the hub runs (hub/backup.py says what it holds)
    restore ARCHIVE      as root, the hub stopped: an archive's parts put back in place
    people ROSTER [COURSE] as root: a course's people as the LMS's CSV export lists them (hub/people.py)
    service [FOLDER]     as root: the hub's systemd unit, checked, into FOLDER (/etc/systemd/system) and enabled there
    image-tree FOLDER    the course as learners may see it, for a hub's image (repo2docker builds it from binder/):
                         no tests, no history, each lab its student version (hub/k8s/values.yaml serves it)
(each `python -m hub COMMAND`)

Settings come from the environment at install (Settings.VARIABLES names them; Settings says what each is) and are kept
in HUB_HOME/state/settings.json; an install that names none keeps those saved."""
import os
import sys
from pathlib import Path

from hub.settings import Settings


def main(argv):
    """Each command imports what it needs alone: a learner's server and the hub's start go without nbgrader."""
    command, *rest = argv or ["--help"]
    if command in ("-h", "--help"):
        print(__doc__)
        return
    if command == "install":
        home = os.environ.get("HUB_HOME") or Settings.home
        saved = Settings.load() if Settings.state_file(home).exists() else None
        from hub.install import install
        install(Settings.given(os.environ, saved))
    elif command == "start":
        from hub.service import start
        start(Settings.load())
    elif command == "learner":
        from hub.learner_server import learner_server
        learner_server()
    elif command == "image-tree":
        if len(rest) != 1:
            sys.exit("hub: image-tree: name one folder to make, IMAGE_TREE=<folder>")
        from hub.image import image_tree
        image_tree(Path(rest[0]).absolute())
    elif command == "backup":
        if rest not in ([], ["--homes"]):
            sys.exit(f"hub: backup: {' '.join(rest)}: HOMES=yes backs up each learner's java-io-course too; else leave it unset")
        from hub.backup import backup
        print(f"hub: backed up in {backup(Settings.load(), homes=rest == ['--homes'])}")
    elif command == "restore":
        if len(rest) != 1:
            sys.exit("hub: restore: name one archive, ARCHIVE=<a make hub-backup archive>")
        from hub.backup import restore
        restore(Settings.load(), Path(rest[0]).absolute())
    elif command == "service":
        if len(rest) > 1:
            sys.exit("hub: service: name at most one folder for the unit, UNIT_DIR=<folder> (else systemd's own)")
        from hub.service import SYSTEM_UNITS, install_unit
        install_unit(Settings.load(), Path(rest[0]).absolute() if rest else SYSTEM_UNITS)
    elif command == "people":
        roster, course = (rest + ["", ""])[:2]
        if not roster or len(rest) > 2:
            sys.exit("hub: people: name the LMS's CSV export of the class, ROSTER=<file> (and COURSE=<course> on a hub of several)")
        settings = Settings.load()
        from hub.people import people
        people(settings, course_named("people", settings, course), Path(roster).absolute())
    elif command in ("release", "grade"):
        from labs import lab_paths
        from hub.teacher import grade, release
        labs = [p.stem for p in lab_paths()]
        lab, course = (rest + ["", ""])[:2]
        if lab not in labs or len(rest) > 2:
            sys.exit(f"hub: {command}: name one lab: LAB={lab or '(none)'} is not one of {', '.join(labs)}")
        settings = Settings.load()
        (release if command == "release" else grade)(settings, lab, course_named(command, settings, course))
    else:
        sys.exit(f"hub: no command {command} (commands: install, start, learner, release, grade, backup, restore, people, service, image-tree)")


def course_named(command, settings, course):
    """COURSE as given, one of the hub's; or the hub's one course where none is named."""
    courses = settings.course_ids()
    if course and course not in courses:
        sys.exit(f"hub: {command}: COURSE={course} is not a course of this hub ({', '.join(courses)})")
    if not course and len(courses) > 1:
        sys.exit(f"hub: {command}: this hub serves {', '.join(courses)}: name one, COURSE=<course>")
    return course or courses[0]


if __name__ == "__main__":
    main(sys.argv[1:])
