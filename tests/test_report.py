"""The report (tools/report.py) of two labs in the smoke preset, from the notebooks test_notebooks executed
(each lab runs once per test session; run alone, this test executes them): both present in order, every
chart a static image, the verdict table filled, no failed cell, no script and nothing fetched from the
network; a lab that does not exist is refused before anything runs. report.py's own loop, executing
the labs it is given, runs in the Binder rehearsal (test_binder)."""
import re
import subprocess
import sys

from conftest import ENV, EXECUTED, HOME
from labs import execute, lab_paths

import report as course_report

LABS = ["00-start-here", "03-operation-size"]


def test_report_of_chosen_labs(tmp_path):
    out = tmp_path / "report.html"
    (tmp_path / "scratch").mkdir()
    executed = [(name, EXECUTED.get(name) or execute(HOME / "labs" / f"{name}.ipynb", "smoke", tmp_path / "scratch"))
                for name in LABS]
    assert course_report.write_report(out, "smoke", executed) == []
    page = out.read_text()
    assert "<script" not in page and "vnd.vegalite" not in page and "http://" not in re.sub(r'xmlns(:\w+)?="[^"]*"', "", page)
    sections = re.findall(r'<section class="lab" id="([^"]+)">(.*?)</section>', page, re.S)
    assert [name for name, _ in sections] == LABS
    # what a cell printed wraps as JupyterLab wraps it (a sentence is not clipped at the page's edge); code does not
    assert re.search(r"\.output_text pre\{white-space:pre-wrap\}", page) and '<div class="output_subarea output_stream output_stdout output_text">' in page
    for name, body in sections:
        assert body.count('src="data:image/svg+xml') >= 2, f"{name}: charts must be images (SVG, inline)"
        alts = re.findall(r'<img alt="([^"]*)" src="data:image/svg', body)
        assert len(alts) >= 2 and all(len(a) > 20 and "No description" not in a for a in alts), f"{name}: each chart says in words what it shows"
        if "lab.verdicts(" in (HOME / "labs" / f"{name}.ipynb").read_text():
            table = re.search(r"<th>verdict</th>.*?</table>", body, re.S)
            assert table, f"{name}: no verdict table"
            assert re.search(r">(holds|changed|reversed|too close to call|not measured|judged in paper)<", table.group(0)), f"{name}: an empty verdict table"
    assert list((tmp_path / "scratch").iterdir()) == []


def test_report_refuses_a_lab_that_does_not_exist(tmp_path):
    report = tmp_path / "report.html"
    env = dict(ENV, COURSE_PRESET="smoke", COURSE_REPORT=str(report))
    bad = subprocess.run([sys.executable, str(HOME / "tools/report.py"), "03-operation-size", "3"], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and bad.stderr.strip() == f"report: no lab 3 (labs: {', '.join(p.stem for p in lab_paths())})"
    assert not report.exists(), "nothing is run or written for a list with a bad name"
