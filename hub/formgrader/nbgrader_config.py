"""Formgrader as the course hub's service (hub/jupyterhub_config.py puts this folder first in its JUPYTER_CONFIG_PATH,
the teacher's setup/jupyterlab/teacher after it).

Formgrader runs as the grader account, and its Autograde button would run each learner's code with that account's
rights (the gradebook, every hand-in). On the hub, hand-ins are graded in the course's sandbox instead (make hub-grade),
so here the button stops before nbgrader touches anything (it would first remove the sandbox's graded copy) and says
where grading is done. nbgrader offers no setting for that, so its autograde app's start is replaced, in this server
alone."""
from nbgrader.converters import Autograde

c = get_config()  # noqa: F821 (nbgrader provides it)


def graded_in_the_sandbox(self):
    raise RuntimeError("on the course hub each hand-in is graded in the course's sandbox: as root, make hub-grade "
                       "LAB=<lab> (Formgrader's Autograde would run learners' code with the grader account's rights)")


Autograde.start = graded_in_the_sandbox
