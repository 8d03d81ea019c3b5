"""A real browser: the learner's JupyterLab (make lab's configuration) from the course's own set-up on 127.0.0.1
with a token, Debian Chromium driven by playwright-core (tests/browser/run_lab.mjs), the learner's copy of lab 00 (the
one a learner opens first), its exercise answered, run cell by cell in the smoke preset. Its Vega-Lite charts must draw
marks, no cell may show an error, no nbgrader menu or panel may show and the launcher offers the course's kernel alone. The test owns the JupyterLab process
and stops it by its own process id, always. Skipped, with the reason, where Chromium, Node or
playwright-core is missing."""
import json
import subprocess
import time
import urllib.request
import zipfile

import nbformat
import pytest

from conftest import BUILD, ENV, HOME, browser_missing
from jupyterlab_server import jupyterlab, lab_env

SCREENSHOT = BUILD / "browser-00-start-here.png"


def answer(copy, source):
    """Writes the source's solution into each exercise cell of the learner's copy (nbgrader's ids match them)."""
    solutions = {c.metadata.nbgrader.grade_id: c.source for c in nbformat.read(source, as_version=4).cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    notebook = nbformat.read(copy, as_version=4)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id in solutions:
            cell.source = solutions[grade_id]
    nbformat.write(notebook, copy)


@pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")
def test_lab_00_runs_in_a_real_browser(tmp_path):
    root, scratch = tmp_path / "notebooks", tmp_path / "scratch"
    root.mkdir()
    scratch.mkdir()
    # the learner's copy, as make lab makes it, with the exercise answered as a learner would
    subprocess.run([str(HOME / ".venv/bin/python"), str(HOME / "tools/learner.py"), str(root)], env=ENV, check=True)
    for other in root.glob("*.ipynb"):
        if other.name != "00-start-here.ipynb":
            other.unlink()
    answer(root / "00-start-here.ipynb", HOME / "labs/00-start-here.ipynb")
    env = lab_env(tmp_path, COURSE_PRESET="smoke", COURSE_HOME=str(HOME), COURSE_SCRATCH=str(scratch))
    token = env["JUPYTER_TOKEN"]
    with jupyterlab(root, tmp_path, env) as base:
        started = time.time()
        run = subprocess.run(["node", str(HOME / "tests/browser/run_lab.mjs"), base, "00-start-here.ipynb", str(SCREENSHOT), "300"],
                             env=env, capture_output=True, text=True, timeout=900)
        print(f"browser run of lab 00 (smoke): {time.time() - started:.0f} s; screenshot {SCREENSHOT}")
        assert run.returncode == 0, run.stderr[-3000:] + (tmp_path / "jupyterlab.log").read_text()[-3000:]
        report = json.loads(run.stdout.strip().splitlines()[-1])
        print(f"what the page showed: {report}")
        assert report["codeCells"] > 5 and report["notRun"] == 0, f"every code cell must run: {report}"
        assert report["charts"] > 0 and report["chartsWithMarks"] == report["charts"], f"every chart must draw marks: {report}"
        assert report["stderr"] == [], f"cells showed errors: {report['stderr']}"
        assert "Nbgrader" not in report["menus"] and report["nbgraderElements"] == 0, f"a teacher tool shows: {report}"
        assert len(report["launcherNotebooks"]) == 1 and "(course)" in report["launcherNotebooks"][0], f"only the course's kernel: {report}"
        saved = nbformat.read(root / "00-start-here.ipynb", as_version=4)
        errors = [o for c in saved.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
        assert errors == [], [f"{e.ename}: {e.evalue}" for e in errors]
        assert all(c.execution_count for c in saved.cells if c.cell_type == "code"), "the browser saved every cell run"
        assert SCREENSHOT.stat().st_size > 10_000
        assert any("/files/my-work.zip" in href for href in report["downloads"]), report["downloads"]
        with zipfile.ZipFile(root / "my-work.zip") as kept:
            assert "00-start-here.ipynb" in kept.namelist(), "lab.keep() packed the learner's notebook"
        served = urllib.request.urlopen(f"{base}/files/my-work.zip?token={token}", timeout=10)
        assert served.status == 200 and served.read(2) == b"PK", "JupyterLab serves the zip for download"
