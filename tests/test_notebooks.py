"""Labs executed headlessly in the real Java kernel (smoke preset): no error output, every chart a
Vega-Lite v5 spec that renders offline, results saved; the kernel is always shut down. Each executed
notebook is kept (EXECUTED) for the report's tests below and for the accessibility check in a real browser."""
import copy
import html
import json
import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest
import vl_convert
from nbformat.sign import NotebookNotary

from conftest import ENV, HOME, MPI, RESULTS, SAVED_RESULTS, browser_missing, course_kernel, kernel_env, needs_mpi
from jupyterlab_server import jupyterlab, lab_env
from labs import VEGA_LITE, execute, kernel_environment, lab_paths

# Each lab runs once per session: the smoke test keeps each notebook it executed (by name, e.g. "03-operation-size")
# and the report's test renders those instead of running the labs again.
EXECUTED = {}

# lab 08 starts MPI jobs: without Open MPI it is skipped with the install line (CI installs it, so there it runs)
LABS = [pytest.param(p.name, marks=needs_mpi) if "mpi" in p.name else p.name for p in lab_paths()]


def text_boxes(svg, role):
    """The texts of one role in a rendered chart, each with its box: (text, left, top, right, bottom), estimated
    from its anchor point, font size and length (an average glyph is about 0.58 of the font size wide)."""
    boxes = []
    for group in re.finditer(rf'<g class="mark-text role-{role}[^"]*"[^>]*>(.*?)</g>', svg, re.S):
        for t in re.finditer(r"<text([^>]*)>([^<]*)</text>", group.group(1)):
            attributes, text = t.group(1), html.unescape(t.group(2))
            x, y = (float(v) for v in re.search(r"translate\(([-\d.e]+),([-\d.e]+)\)", attributes).groups())
            size = float(re.search(r'font-size="([\d.]+)px"', attributes).group(1))
            anchor = re.search(r'text-anchor="(\w+)"', attributes).group(1)
            width = 0.58 * size * len(text)
            left = {"start": x, "end": x - width}.get(anchor, x - width / 2)
            boxes.append((text, left, y - 0.8 * size, left + width, y + 0.2 * size))
    return boxes


def assert_readable(lab, spec, svg):
    """What a reader sees at a glance: axis and legend titles in words (no field names like y_low or
    mb_per_s), no band JupyterLab would draw across the series, and no two labels drawn over each other
    (reference lines, citations, shaded ranges)."""
    for role in ("axis-title", "legend-title"):
        for text, *_ in text_boxes(svg, role):
            assert "_" not in text, f"{lab}: chart '{spec.get('title')}' shows a field name as a title: {text!r}"
            assert len(text) <= 45, f"{lab}: chart '{spec.get('title')}': the title {text!r} is too long for its axis"
    for layer in spec.get("layer", []):  # a fault only JupyterLab's older Vega-Lite (5.6) shows, so vl-convert cannot
        mark = layer.get("mark", {})
        encoding = layer.get("encoding", {})
        if (mark.get("type") if isinstance(mark, dict) else mark) in ("errorband", "area") \
                and encoding.get("y", {}).get("scale", {}).get("type") == "log":
            assert encoding.get("x", {}).get("scale", {}).get("type") == "log", \
                f"{lab}: chart '{spec.get('title')}': a band over a log y needs a log x (JupyterLab draws it across the series)"
    labels = text_boxes(svg, "mark")
    for i, (a, al, at, ar, ab) in enumerate(labels):
        for b, bl, bt, br, bb in labels[i + 1:]:
            overlap = min(ar, br) - max(al, bl) > 1 and min(ab, bb) - max(at, bt) > 1
            assert not overlap, f"{lab}: chart '{spec.get('title')}': labels {a!r} and {b!r} overlap"


CODE_BOX = re.compile(r"<div style='flex:1 1 (\d+)ch;[^']*'>.*?<pre[^>]*>(.*?)</pre></div>", re.S)


def assert_code_side_by_side_unclipped(lab, shown):
    """lab.code shows a Java method beside its C twin in boxes that wrap onto two rows rather than clip a line:
    each box asks for the width of its longest line."""
    assert "flex-wrap:wrap" in shown, f"{lab}: the code boxes never wrap onto two rows: {shown[:120]!r}"
    boxes = CODE_BOX.findall(shown)
    assert len(boxes) >= 2, f"{lab}: lab.code showed {len(boxes)} code boxes (a cell may add lab.show's): {shown[:120]!r}"
    for width, code in boxes:
        widest = max(len(line) for line in html.unescape(code).splitlines())
        assert int(width) >= widest, f"{lab}: a code box asks for {width} characters, its longest line has {widest}"


def test_the_readability_check_sees_overlaps_and_field_names():
    """assert_readable fails on the faults it is there for: two labels on one spot, a field name as a title, a band
    over a log y on a linear x."""
    line = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "data": {"values": [{"a": 1, "y_low": 2}, {"a": 2, "y_low": 3}]},
            "mark": "line", "encoding": {"x": {"field": "a", "type": "quantitative"}, "y": {"field": "y_low", "type": "quantitative"}}}
    with pytest.raises(AssertionError, match="field name"):
        assert_readable("test", line, vl_convert.vegalite_to_svg(line))
    labels = {"$schema": line["$schema"], "data": {"values": [{"y": 100, "t": "a long reference label"}, {"y": 101, "t": "another long label"}]},
              "mark": {"type": "text", "align": "left", "x": 4}, "encoding": {"y": {"field": "y", "type": "quantitative", "title": "MB/s"},
                                                                             "text": {"field": "t"}}}
    with pytest.raises(AssertionError, match="overlap"):
        assert_readable("test", labels, vl_convert.vegalite_to_svg(labels))
    band = {"$schema": line["$schema"], "data": {"values": [{"a": 1, "lo": 2, "hi": 3}, {"a": 2, "lo": 3, "hi": 5}]},
            "mark": "line", "layer": [{"mark": {"type": "errorband"}, "encoding": {"x": {"field": "a", "type": "quantitative", "title": "threads"},
                                      "y": {"field": "lo", "type": "quantitative", "scale": {"type": "log"}, "title": "MB/s"}, "y2": {"field": "hi"}}}]}
    band.pop("mark")
    with pytest.raises(AssertionError, match="log x"):
        assert_readable("test", band, vl_convert.vegalite_to_svg(band))


@pytest.mark.parametrize("lab", LABS)
def test_lab_runs_clean_in_smoke(lab, tmp_path):
    results = RESULTS
    before = set(results.glob("*.json")) if results.exists() else set()
    nb = execute(HOME / "labs" / lab, "smoke", tmp_path)
    EXECUTED[lab[:-6]] = copy.deepcopy(nb)  # for test_report_of_chosen_labs, whatever the checks below find
    charts = 0
    for cell in nb.cells:
        drawn_before = charts
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"{lab}: {out.get('ename')}: {out.get('evalue')}"
            assert out.get("name") != "stderr" or not out["text"].strip(), f"{lab} wrote to stderr: {out['text']}"
            spec = out.get("data", {}).get(VEGA_LITE)
            if spec is not None:
                charts += 1
                assert "vega-lite/v5" in spec["$schema"]
                assert "url" not in json.dumps(spec.get("data", {}))
                svg = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])
                assert "<svg" in svg and ("<path" in svg or "<rect" in svg)
                # a scale that cannot place its marks (a stacked bar from zero on a log axis) draws at NaN: a blank chart
                assert "NaN" not in svg, f"{lab}: chart '{spec.get('title')}' has marks it cannot place"
                assert_readable(lab, spec, svg)
                assert spec.get("description") and out["data"]["text/plain"] == spec["description"], \
                    f"{lab}: chart '{spec.get('title')}' has no one-line text alternative"
        if cell.cell_type == "code" and "lab.chart(" in cell.source:
            assert charts > drawn_before, f"{lab}: a cell that draws a chart drew none: {cell.source[:80]!r}"
        if cell.cell_type == "code" and "lab.code(" in cell.source:
            assert_code_side_by_side_unclipped(lab, "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs))
    assert charts >= 2, f"{lab} drew {charts} charts"
    saved = set(results.glob(f"{lab[:-6]}-smoke-*.json")) - before
    assert saved, f"{lab} saved no results under {RESULTS} (COURSE_RESULTS)"
    doc = json.loads(max(saved, key=lambda p: p.stat().st_mtime).read_text())
    SAVED_RESULTS.validate(doc)
    assert doc["runs"] and doc["machine"]["cores"]
    assert list(tmp_path.iterdir()) == [], "the lab left files in its scratch folder"


REPORTED = ["00-start-here", "03-operation-size"]


def test_report_of_chosen_labs(tmp_path):
    """The report (tools/report.py) of two labs in the smoke preset, from the notebooks executed above (here, in
    this file, so that each lab runs once however the tests are spread over processes; run alone, this test executes
    them): both present in order, every chart a static image, the verdict table filled, no failed cell, no script
    and nothing fetched from the network."""
    import report as course_report
    out = tmp_path / "report.html"
    (tmp_path / "scratch").mkdir()
    executed = [(name, EXECUTED.get(name) or execute(HOME / "labs" / f"{name}.ipynb", "smoke", tmp_path / "scratch"))
                for name in REPORTED]
    assert course_report.write_report(out, "smoke", executed) == []
    page = out.read_text()
    assert "<script" not in page and "vnd.vegalite" not in page and "http://" not in re.sub(r'xmlns(:\w+)?="[^"]*"', "", page)
    sections = re.findall(r'<section class="lab" id="([^"]+)">(.*?)</section>', page, re.S)
    assert [name for name, _ in sections] == REPORTED
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


def axe(env, *args):
    """tests/browser/axe.mjs's pages: one {page, theme, violations} each."""
    run = subprocess.run(["node", str(HOME / "tests/browser/axe.mjs"), *args], env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


def serious(pages):
    """Each serious or critical violation, one line per element: where, which rule, and the element."""
    return [f"{p['page']} ({p['theme']}): {v['id']}: {v['help']}: {n['target']}: {n['html']}"
            for p in pages for v in p["violations"] if v["impact"] in ("serious", "critical") for n in v["nodes"]]


@pytest.mark.skipif(browser_missing() is not None and os.environ.get("CI") != "true", reason=browser_missing() or "")
def test_what_the_course_shows_meets_wcag_aa_in_a_real_browser(tmp_path):
    """axe-core (WCAG 2.0, 2.1 and 2.2, A and AA) in Chromium finds no serious or critical fault in what the course shows:
    the report of every lab (smoke), and each lab's outputs as JupyterLab draws them (tables, verdicts, charts, code
    boxes, folds), in its light theme and its dark one. The labs are those executed above (a learner's run saved and
    signed, so JupyterLab trusts it as it trusts the learner's own)."""
    names = [p.stem for p in lab_paths() if MPI or "mpi" not in p.stem]
    (tmp_path / "scratch").mkdir()
    executed = [(name, EXECUTED.get(name) or execute(HOME / "labs" / f"{name}.ipynb", "smoke", tmp_path / "scratch")) for name in names]
    env = lab_env(tmp_path)
    root = tmp_path / "labs"
    root.mkdir()
    Path(env["JUPYTER_DATA_DIR"]).mkdir()
    # every cell drawn, not only those near the view (JupyterLab's default draws the others as they come into view)
    tracker = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / "@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}))
    notary = NotebookNotary(data_dir=env["JUPYTER_DATA_DIR"])
    for name, nb in executed:
        signed = copy.deepcopy(nb)
        notary.sign(signed)
        nbformat.write(signed, root / f"{name}.ipynb")
    import report as course_report
    page = tmp_path / "report.html"
    assert course_report.write_report(page, "smoke", [(name, copy.deepcopy(nb)) for name, nb in executed]) == []
    pages = axe(env, "report", str(page))
    with jupyterlab(root, tmp_path, env) as base:
        pages += axe(env, "lab", base, *[f"{name}.ipynb" for name in names])
    assert len(pages) == 1 + 2 * len(names), [(p["page"], p["theme"]) for p in pages]
    print("\n".join(f"{p['page']} ({p['theme']}): {sorted({v['id'] for v in p['violations']})}" for p in pages))
    faults = serious(pages)
    assert faults == [], f"{len(faults)} serious or critical WCAG faults:\n" + "\n".join(faults[:60])
    # axe saw what it judged: it can go blind without a word (JupyterLab's 0 px body once hid every text's contrast from
    # it, and a dialog over the notebook left thousands undecided)
    blind = [f"{p['page']} ({p['theme']}): {p['passed']} checks passed, {p['undecided']} undecided: {p['undecidedWhy'][:2]}" for p in pages
             if p["passed"] < 100 or sum(p["undecided"].values()) > max(3, p["passed"] // 100)]
    assert blind == [], "axe could not judge what it was shown:\n" + "\n".join(blind)
    assert list((tmp_path / "scratch").iterdir()) == []


def test_lab_08_without_mpi_says_how_to_install_it_and_stops(tmp_path):
    """No MPI (COURSE_MPIRUN names one that is not there): the lab's first cell says how to install Open
    MPI and Run All stops there, before anything is measured, saved or written."""
    from nbclient.exceptions import CellExecutionError
    before = set(RESULTS.glob("08-mpi-processes-*.json"))
    with kernel_environment({"COURSE_MPIRUN": str(tmp_path / "no-mpi/bin/mpirun")}):
        with pytest.raises(CellExecutionError) as stopped:
            execute(HOME / "labs/08-mpi-processes.ipynb", "smoke", tmp_path / "scratch")
    assert "lab.requireMpi();" in str(stopped.value), "the lab stops in its first code cell"
    assert "MPI is not installed here" in str(stopped.value), "a failed lab's message holds the exception (JJava's reply does not)"
    message = stopped.value.evalue
    assert f"MPI is not installed here (no {tmp_path}/no-mpi/bin/mpirun and {tmp_path}/no-mpi/bin/mpicc)" in message
    assert "sudo apt-get install openmpi-bin libopenmpi-dev" in message
    assert set(RESULTS.glob("08-mpi-processes-*.json")) == before, "nothing was saved"
    assert not (tmp_path / "scratch").exists() or list((tmp_path / "scratch").iterdir()) == []


def test_class_results_side_by_side(tmp_path):
    """The teacher's notebook (classroom/class-results.ipynb, through `make class-results`) on two learners'
    hand-ins made by `make handin` from the labs run above, beside a broken zip and a stray file: both
    machines in every chart, every claim in the verdict table, the bad files named and left out."""
    import base64
    import re
    import shutil
    import subprocess
    import urllib.parse
    import zipfile
    if not list(RESULTS.glob("00-start-here-smoke-*.json")):
        pytest.skip("needs the lab runs of test_lab_runs_clean_in_smoke (run the whole file)")
    handins = tmp_path / "handins"
    env = dict(ENV, COURSE_HANDIN=str(handins), COURSE_PRESET="smoke", COURSE_CLASS_RESULTS=str(tmp_path / "class.html"))
    made = subprocess.run([str(HOME / ".venv/bin/python"), str(HOME / "tools/classroom.py"), "handin", "first-learner", str(RESULTS)],
                          env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    first = handins / "handin-first-learner.zip"
    second = handins / "Bob Roe_22_assignsubmission_file_/handin-second-learner.zip"  # as an LMS's download holds it
    second.parent.mkdir()
    shutil.copy(first, second)
    with zipfile.ZipFile(second, "a") as z:
        z.writestr("results/notes.json", "[1, 2]")
    (handins / "results-broken.zip").write_text("not a zip")
    run = subprocess.run([str(HOME / ".venv/bin/python"), str(HOME / "tools/classroom.py"), "class-results", str(handins)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    page = (tmp_path / "class.html").read_text()
    charts = [base64.b64decode(c).decode() if enc else urllib.parse.unquote(c)
              for enc, c in re.findall(r'src="data:image/svg\+xml(;base64)?,([^"]+)"', page)]
    assert len(charts) == 2, "the ceilings chart and the Java/C chart, as images"
    learners = ["first-learner", "second-learner"]
    assert all(page.count(name) >= 2 for name in learners), "each machine in the hand-in table and as a verdict column"
    assert all(name in chart for name in learners for chart in charts), "each machine has its bars in both charts"
    assert "results-broken.zip</code>: not a zip" in page
    assert "handin-second-learner.zip:results/notes.json</code>: not a lab&#x27;s results: JSON, but not an object" in page \
        or "handin-second-learner.zip:results/notes.json</code>: not a lab's results: JSON, but not an object" in page
    claims = {v["claim"] for f in RESULTS.glob("*-smoke-*.json") for v in json.loads(f.read_text())["verdicts"]}
    assert claims and all(claim in page for claim in claims), "every judged claim has its row"


def test_a_failed_run_says_how_to_run_it_again(tmp_path):
    """A run whose child fails shows, above the child's own one-line error, the command that runs it again from a
    terminal (its --file in the scratch folder, since the run's own folder is gone)."""
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = course_kernel()
    errors = []
    try:
        kc.execute_interactive('import course.*;\nvar lab = Lab.open("03-operation-size", "smoke");\n'
                               'lab.sweep("raw_io").fileSizes(List.of(4096L)).opSizes(List.of(0L)).run();', timeout=180,
                               output_hook=lambda m: errors.append(m["content"]["evalue"]) if m["msg_type"] == "error" else None)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    [said] = errors
    again, child = said.split("\n")[:2]
    assert "to run it again from a terminal: " in again and " RawIo --op write " in again and "--op-size 0 " in again, said
    assert re.search(f"--file {re.escape(str(tmp_path))}/raw_io-[0-9]+\\.dat$", again), said  # the run's own file name
    assert child == "raw_io: --op-size 0: must be between 1 and 64m", said
