"""make handin: a learner's lab notebooks and saved results in one zip, checked, to hand in (the kit packs it:
course.Learner, which also packs lab.keep()'s my-work.zip the same way)."""
import os
import sys
from pathlib import Path

from classroom_folder import STUDENT_ID, run_kit
from labs import HOME


def handin(learner, results, notebooks):
    """One zip for a learner to hand in, build/handin/handin-LEARNER.zip (COURSE_HANDIN names the folder): their lab
    notebooks (from `notebooks`) at its top, every results file their labs saved (checked) under results/, and the
    id they gave in learner.txt; nothing else about their machine than the results already say. A file that is not
    a lab's results stops it with a one-line error, and no zip is left behind."""
    if not STUDENT_ID.fullmatch(learner):
        sys.exit(f"classroom: learner id {learner!r}: use letters, digits, . _ - (at most 64, a letter or digit first), "
                 "for example: make handin ID=jane-doe")
    for f in Path(results).glob("*.json"):
        if f.name.startswith("."):
            continue  # .saving-*: a save under way, which the kit leaves out too
        try:
            f.name.encode("utf-8")  # a name whose bytes were not UTF-8 holds surrogate escapes, which a zip cannot carry
        except UnicodeEncodeError:
            sys.exit(f"classroom: {str(f)!r}: a results file's name must be UTF-8 text: rename it")
    out = Path(os.environ.get("COURSE_HANDIN", HOME / "build/handin"))
    sys.exit(run_kit("course.Learner", "handin", learner, str(results), str(notebooks), str(out), check=False).returncode)
