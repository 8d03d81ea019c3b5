"""`make report` in the smoke preset on two labs (test_notebooks already runs every lab and renders
each chart): both present in order, every chart a static image, the verdict table filled, no failed
cell, no script and nothing fetched from the network; a lab that does not exist is refused."""
import re
import subprocess
import sys

from conftest import ENV, HOME
from labs import lab_paths


LABS = ["00-start-here", "03-operation-size"]


def test_report_of_chosen_labs(tmp_path):
    report = tmp_path / "report.html"
    (tmp_path / "scratch").mkdir()
    env = dict(ENV, COURSE_PRESET="smoke", COURSE_REPORT=str(report), COURSE_SCRATCH=str(tmp_path / "scratch"))
    out = subprocess.run([sys.executable, str(HOME / "tools/report.py"), *LABS], env=env, capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, out.stderr[-3000:]
    page = report.read_text()
    assert "<script" not in page and "vnd.vegalite" not in page and "http://" not in re.sub(r'xmlns(:\w+)?="[^"]*"', "", page)
    sections = re.findall(r'<section class="lab" id="([^"]+)">(.*?)</section>', page, re.S)
    assert [name for name, _ in sections] == LABS
    for name, body in sections:
        assert body.count('src="data:image/svg+xml') >= 2, f"{name}: charts must be images (SVG, inline)"
        if "lab.verdicts(" in (HOME / "labs" / f"{name}.ipynb").read_text():
            table = re.search(r"<th>verdict</th>.*?</table>", body, re.S)
            assert table, f"{name}: no verdict table"
            assert re.search(r">(holds|changed|reversed|too close to call|not measured|judged in paper)<", table.group(0)), f"{name}: an empty verdict table"
    assert list((tmp_path / "scratch").iterdir()) == []
    report.unlink()
    bad = subprocess.run([sys.executable, str(HOME / "tools/report.py"), "03-operation-size", "3"], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and bad.stderr.strip() == f"report: no lab 3 (labs: {', '.join(p.stem for p in lab_paths())})"
    assert not report.exists(), "nothing is run or written for a list with a bad name"
