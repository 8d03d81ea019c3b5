"""A learner's nbgrader on the course hub (tools/course_hub.py starts their server with this folder in JUPYTER_CONFIG_PATH):
the course's configuration, its exchange, and the submit that closes each hand-in to its learner (hub/exchange.py). The
Assignments tab offers the courses the hub says the learner is in (their groups), and only those."""
import os
import sys

c = get_config()  # noqa: F821 (nbgrader provides it)
load_subconfig(os.path.join(os.environ["COURSE_HOME"], "classroom/nbgrader_config.py"))  # noqa: F821
sys.path.insert(0, os.path.join(os.environ["COURSE_HOME"], "hub"))
from exchange import PrivateSubmit  # noqa: E402

c.ExchangeFactory.submit = PrivateSubmit
c.CourseDirectory.course_id = ""  # not one course: every course of the hub this learner is in
c.Authenticator.plugin_class = "nbgrader.auth.JupyterHubAuthPlugin"
