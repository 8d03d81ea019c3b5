"""nbgrader's configuration for the course. The labs are the source notebooks: tools/classroom.py
copies them into an nbgrader course folder (build/classroom by default) and releases them from there,
so there is no second copy of a lab to keep in sync."""
import os

c = get_config()  # noqa: F821 (nbgrader provides it)

# the course's id; the course hub serves it under the ids its teacher names (HUB_COURSES), each run with its COURSE_ID
c.CourseDirectory.course_id = os.environ.get("COURSE_ID") or "java-file-io"
# an unanswered exercise must fail when it runs, not compile to something that passes
c.ClearSolutions.code_stub = {"java": '// YOUR CODE HERE\nthrow new UnsupportedOperationException("not implemented");'}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
# every lab runs its measurements before its exercises: give the smoke preset room on a slow machine
c.ExecutePreprocessor.timeout = 900
c.Execute.timeout = 900
# feedback shows a learner their marks and the tests they can see, never a hidden test
c.GenerateFeedback.preprocessors = ["nbgrader.preprocessors.GetGrades", "nbgrader.preprocessors.ClearHiddenTests",
                                    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor"]
# on the course hub, its exchange (hub/settings.py says where, for its teacher, learners and Formgrader: hub/exchange.py)
if os.environ.get("COURSE_EXCHANGE") or os.environ.get("COURSE_NGSHARE"):
    from hub import exchange

    exchange.configure(c, os.environ)
