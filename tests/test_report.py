"""The report tool (tools/report.py) refuses a lab that does not exist before anything runs. Its page of two labs is
checked in test_notebooks (from the notebooks that file executes, so each lab runs once); report.py's own loop,
executing the labs it is given, runs in the Binder rehearsal (test_binder)."""
import subprocess
import sys

from conftest import ENV, HOME
from labs import lab_paths


def test_report_refuses_a_lab_that_does_not_exist(tmp_path):
    report = tmp_path / "report.html"
    env = dict(ENV, COURSE_PRESET="smoke", COURSE_REPORT=str(report))
    bad = subprocess.run([sys.executable, str(HOME / "tools/report.py"), "03-operation-size", "3"], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and bad.stderr.strip() == f"report: no lab 3 (labs: {', '.join(p.stem for p in lab_paths())})"
    assert not report.exists(), "nothing is run or written for a list with a bad name"
