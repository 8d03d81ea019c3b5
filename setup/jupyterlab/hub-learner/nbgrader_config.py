"""A learner's nbgrader on the course hub (hub/learner_server.py starts their server with this folder in JUPYTER_CONFIG_PATH):
the course's configuration, with the hub's exchange (hub/exchange.py). The Assignments tab offers the courses the hub
says the learner is in (their groups, or ngshare's lists), and only those."""
import os

c = get_config()  # noqa: F821 (nbgrader provides it)
load_subconfig(os.path.join(os.environ["COURSE_HOME"], "classroom/nbgrader_config.py"))  # noqa: F821
c.CourseDirectory.course_id = ""  # not one course: every course of the hub this learner is in
if not os.environ.get("COURSE_NGSHARE"):  # ngshare's own lists say it there (on Kubernetes, the hub may keep no groups)
    c.Authenticator.plugin_class = "nbgrader.auth.JupyterHubAuthPlugin"
