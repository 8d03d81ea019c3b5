"""make class-results: the teacher's view of the class's hand-in zips (classroom/class-results.ipynb run headless)."""
import os
import sys
from pathlib import Path

from labs import HOME


def class_results(folder):
    """Runs classroom/class-results.ipynb on the zips in folder and writes build/class-results.html
    (COURSE_CLASS_RESULTS overrides it), charts as static SVG; a failed cell makes the exit status 1."""
    from labs import execute
    from report import to_html, write_page
    os.environ["COURSE_HANDIN"] = str(Path(folder).resolve())  # the kernel inherits it
    executed = execute(HOME / "classroom/class-results.ipynb", os.environ.get("COURSE_PRESET", "quick"), allow_errors=True)
    body, failed = to_html(executed)
    out = Path(os.environ.get("COURSE_CLASS_RESULTS", HOME / "build/class-results.html"))
    write_page(out, "Class results", body)
    print(f"class results: wrote {out}")
    if failed:
        sys.exit("classroom: class results failed: " + "; ".join(failed))
