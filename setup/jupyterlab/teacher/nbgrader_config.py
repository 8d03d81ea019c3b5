"""`make teach` and `make formgrade`: nbgrader's Formgrader and Validate, on the course's classroom folder
(COURSE_CLASSROOM, else build/classroom) with the course's nbgrader configuration."""
import os

c = get_config()  # noqa: F821 (nbgrader provides it)
load_subconfig(os.path.join(os.environ["COURSE_HOME"], "classroom/nbgrader_config.py"))  # noqa: F821
c.CourseDirectory.root = os.environ.get("COURSE_CLASSROOM") or os.path.join(os.environ["COURSE_HOME"], "build/classroom")
