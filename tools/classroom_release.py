"""make assignments: each lab copied into the classroom's source/ and its student version generated in release/."""
import json
import shutil
import sys

from classroom_folder import ROOT, generate, grading_java_home, java_feature, prepare
from labs import HOME


def release(labs):
    """Copies each lab into source/<lab>/ and generates its student version in release/<lab>/."""
    prepare()
    feature = java_feature(grading_java_home())
    for lab in labs:
        source = ROOT / "source" / lab
        if source.exists():
            shutil.rmtree(source)
        source.mkdir(parents=True)
        nb = json.loads((HOME / "labs" / f"{lab}.ipynb").read_text())
        for grade_id, needs in leave_out_what_needs_newer_java(nb, feature):
            print(f"classroom: {lab}'s {grade_id} needs Java {needs}; grading here runs Java {feature}, so it is left out of the marks",
                  file=sys.stderr)
        (source / f"{lab}.ipynb").write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    generate(ROOT, labs)
    for lab in labs:
        print(f"released {ROOT / 'release' / lab / (lab + '.ipynb')}")


def leave_out_what_needs_newer_java(nb, feature):
    """Makes each graded cell that needs a newer Java than grading runs (its metadata's course.needs_java; its check
    skips itself there, saying so) an ungraded one, so no learner gains or loses its points; yields (grade id, needs)."""
    for cell in nb["cells"]:
        needs = cell["metadata"].get("course", {}).get("needs_java", 0)
        grading = cell["metadata"].get("nbgrader", {})
        if needs > feature and grading.get("grade"):
            grading["grade"] = False
            grading.pop("points", None)
            yield grading["grade_id"], needs
