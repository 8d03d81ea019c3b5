"""Formgrader as the course hub's service (hub/jupyterhub_config.py puts this folder first in its JUPYTER_CONFIG_PATH,
the teacher's setup/jupyterlab/teacher after it, whose Autograde button refuses: each hand-in is graded in the sandbox).

With the exchange folder (HUB_EXCHANGE=files), Release, Collect and Release Feedback stop too and name the teacher's
command: that folder is root's (its own nbgrader leaves feedback readable by anyone with its name, and make hub-grade
closes each page to its learner). With ngshare they work: the class's Formgrader is one of its instructors there."""
import os

from nbgrader.exchange import ExchangeError
from nbgrader.exchange.default import ExchangeCollect, ExchangeReleaseAssignment, ExchangeReleaseFeedback

c = get_config()  # noqa: F821 (nbgrader provides it)


def done_by_root(exchange, command):
    """The exchange step `exchange`, refused with the teacher's command that does it."""
    def start(self):
        raise ExchangeError(f"on the course hub the exchange folder is root's: as root, {command}")
    return type(f"ByRoot{exchange.__name__}", (exchange,), {"start": start})


if not os.environ.get("COURSE_NGSHARE"):
    c.ExchangeFactory.release_assignment = done_by_root(ExchangeReleaseAssignment, "make hub-release LAB=<lab>")
    c.ExchangeFactory.collect = done_by_root(ExchangeCollect, "make hub-grade LAB=<lab> (it collects, then grades)")
    c.ExchangeFactory.release_feedback = done_by_root(
        ExchangeReleaseFeedback, "make hub-grade LAB=<lab> (it releases the feedback, each page its learner's alone)")
