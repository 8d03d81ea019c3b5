"""The teacher's steps on the hub, as root: a lab released into a course's exchange, and its hand-ins collected (each
checked first: hub/handins.py), graded in the sandbox, fed back each to its learner alone, and tabled."""
import grp
import os
import pwd
import subprocess
import sys
import time
from pathlib import Path

from classroom_folder import gradebook
from labs import HOME

from hub import root_folders
from hub.answers import close_answers
from hub.install import own
from hub.settings import ENVIRONMENT, PYTHON, TEACHER, exchange_environment, grader, groups, teacher_token


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
        from hub import ngshare_roster
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
    """Each learner's newest hand-in of lab that hub/handins.py accepts, into the course's classroom through
    nbgrader's collect (from root's checked copies, with the exchange folder); the refused ones, one line each."""
    nbgrader = str(ENVIRONMENT / "bin/nbgrader")
    if settings.exchange == "ngshare":  # ngshare hands each file over as content, checked by its own service
        teacher_step(settings, course, nbgrader, "collect", lab, "--update")
        return []
    import tempfile
    from hub import handins
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
            refused = handins.stage(inbound, lab, groups(course)["learners"], settings.handin_size, copies, time.time())
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
