"""`make teach` and `make formgrade`: nbgrader's Formgrader and Validate, on the course's classroom folder
(COURSE_CLASSROOM, else build/classroom) with the course's nbgrader configuration. (The course hub's Formgrader reads
it too, after hub/formgrader.)

Formgrader's Autograde button would run each learner's code with the rights of whoever runs Formgrader (the teacher's
files, or on the hub the grader account's gradebook and every hand-in). The course grades each hand-in in its sandbox
instead (make autograde; make hub-grade on the hub), so here the button stops before nbgrader touches anything (it
would first remove the sandbox's graded copy) and says where grading is done. nbgrader offers no setting for that, so
its autograde app's start is replaced, in this server alone."""
import os

from nbgrader.converters import Autograde

c = get_config()  # noqa: F821 (nbgrader provides it)
load_subconfig(os.path.join(os.environ["COURSE_HOME"], "classroom/nbgrader_config.py"))  # noqa: F821
c.CourseDirectory.root = os.environ.get("COURSE_CLASSROOM") or os.path.join(os.environ["COURSE_HOME"], "build/classroom")


def graded_in_the_sandbox(self):
    raise RuntimeError("each hand-in is graded in the course's sandbox: make autograde LAB=<lab> (on the course hub, as root: "
                       "make hub-grade LAB=<lab>); Formgrader's Autograde would run learners' code with your rights")


Autograde.start = graded_in_the_sandbox
