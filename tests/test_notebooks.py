"""Labs executed headlessly in the real Java kernel (smoke preset): no error output, every chart a
Vega-Lite v5 spec that renders offline, results saved; the kernel is always shut down. Each executed
notebook is kept (EXECUTED) for the report's test below."""
import copy
import html
import json
import re
import threading
import time
from pathlib import Path

import pytest
import vl_convert
from jupyter_client.manager import start_new_kernel

from conftest import ENV, HOME, RESULTS, SAVED_RESULTS, cmdline, needs_mpi, survivors
from labs import VEGA_LITE, execute, kernel_environment, lab_paths

# Each lab runs once per session: the smoke test keeps each notebook it executed (by name, e.g. "03-operation-size")
# and the report's test renders those instead of running the labs again.
EXECUTED = {}

# lab 08 starts MPI jobs: without Open MPI it is skipped with the install line (CI installs it, so there it runs)
LABS = [pytest.param(p.name, marks=needs_mpi) if "mpi" in p.name else p.name for p in lab_paths()]


def kernel_env(scratch):
    env = dict(ENV)
    env.update(COURSE_PRESET="smoke", COURSE_HOME=str(HOME), COURSE_SCRATCH=str(scratch))
    return env


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


INTERRUPTED = [
    pytest.param("01-raw-io", 'lab.sweep("raw_io").languages("c").ops("write").fileSize(Course.parseSize("256m")).repeat(5).run();',
                 "raw_io", ["build/c/raw_io"], id="one process"),
    pytest.param("08-mpi-processes", 'lab.sweep("mpi_file").languages("java").strategies("streams").ops("write").procs(4)'
                 '.fileSize(Course.parseSize("256m")).opSize(Course.parseSize("1m")).repeat(20).run();',
                 "mpi_file", ["mpirun", "MpiFile"], id="an MPI job", marks=needs_mpi),
]


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


@pytest.mark.parametrize("lab,long_run,snippet,markers", INTERRUPTED)
def test_interrupt_kills_children_and_removes_files(tmp_path, lab, long_run, snippet, markers):
    """The stop button during a long sweep: the child process dies (for an MPI job: mpirun and every
    process it started) and its scratch folder is removed."""
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
    try:
        reply = kc.execute_interactive(f'import course.*;\nvar lab = Lab.open("{lab}");', timeout=120)
        assert reply["content"]["status"] == "ok"
        outcome = {}
        worker = threading.Thread(target=lambda: outcome.update(reply=kc.execute_interactive(long_run, timeout=300)))
        worker.start()
        deadline = time.time() + 60
        while not list(tmp_path.glob(f"run-*/{snippet}.dat")) and time.time() < deadline:
            time.sleep(0.1)
        assert list(tmp_path.glob(f"run-*/{snippet}.dat")), "the sweep never started"
        km.interrupt_kernel()
        worker.join(timeout=60)
        assert not worker.is_alive(), "the cell did not return after the interrupt"
        assert outcome["reply"]["content"]["status"] == "error"

        # JJava returns from the cell at once and stops its evaluation behind it: give the kit's clean-up
        # (SIGTERM, then SIGKILL after 3 s) its few seconds
        deadline = time.time() + 15
        assert survivors(lambda line: any(m in line for m in markers) and str(tmp_path) in line) == [], \
            "a child process outlived the interrupt"
        while list(tmp_path.iterdir()) and time.time() < deadline:
            time.sleep(0.2)
        assert list(tmp_path.iterdir()) == [], "the interrupted run left files behind"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def started(kc, code):
    """Sends a cell and returns its message id once the kernel runs it."""
    sent = kc.execute(code)
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") == sent and m["msg_type"] == "execute_input":
            time.sleep(0.2)
            return sent


def run_and_collect(km, kc, first, second, presses):
    """Sends cell `first`, presses stop `presses` times 5 ms apart once it runs, sends `second` at once, and returns
    both replies' statuses and what `second` printed before the kernel said it was idle."""
    import queue
    a = started(kc, first)
    for _ in range(presses):
        km.interrupt_kernel()
        time.sleep(0.005)
    b = kc.execute(second)
    status, printed, idle = {}, "", False
    deadline = time.time() + 60
    while time.time() < deadline and not (a in status and b in status and idle):
        try:
            m = kc.get_shell_msg(timeout=0.05)
            status[m["parent_header"]["msg_id"]] = m["content"].get("status")
        except queue.Empty:
            pass
        try:
            while True:  # until the queue is empty (queue.Empty)
                m = kc.get_iopub_msg(timeout=0.01)
                if m["parent_header"].get("msg_id") == b:
                    printed += m["content"].get("text", "") if m["msg_type"] == "stream" else ""
                    idle |= m["msg_type"] == "status" and m["content"]["execution_state"] == "idle"
        except queue.Empty:
            pass
    return status.get(a), status.get(b), printed


@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_a_burst_of_stop_presses_stops_one_cell(tmp_path, sigint):
    """Stop pressed eight times within 50 ms while a cell runs, the next cell sent at once (as Run All queues it), ten
    times over: each burst stops the running cell and no other, and the next cell runs whole, its output delivered. In
    JJava's message mode the leftover presses stopped the next cell (16 bursts in 16 here). A press on its own after a
    pause still stops a cell. Also when JupyterLab was started with SIGINT ignored (a shell script's background job,
    some service managers), which a JVM would keep: the kernelspec restores it."""
    import signal
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if sigint == "ignored" else None
    try:
        with kernel_environment(kernel_env(tmp_path)):
            km, kc = start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
    try:
        for burst in range(10 if sigint == "default" else 3):
            first, second, printed = run_and_collect(km, kc, "Thread.sleep(30_000);",
                                                     f'Thread.sleep(300); System.out.println("cell {burst} ran");', 8)
            assert (first, second) == ("error", "ok"), f"burst {burst}: the running cell {first}, the next {second}"
            assert f"cell {burst} ran" in printed, f"burst {burst}: the next cell's output was lost ({printed!r})"
        time.sleep(1)
        started(kc, "Thread.sleep(30_000);")
        km.interrupt_kernel()
        assert kc.get_shell_msg(timeout=10)["content"]["status"] == "error", "a lone press after a pause stopped no cell"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_press_while_the_cell_still_compiles_stops_it_once_it_runs(tmp_path):
    """JJava can cancel only code that executes. A press that lands while JShell still compiles the cell (here a
    method of 2,000 statements, a second or more; on a busy machine any cell) waits for the cell's code to run and
    stops it then; the next cell, queued behind, runs whole. Before, such a press was lost and the cell ran on."""
    slow = "long slow() { long x = 1;\n" + "".join(f"x += {i} * x ^ {i};\n" for i in range(2000)) + "return x; }\n"
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
    try:
        first, second, printed = run_and_collect(km, kc, slow + "Thread.sleep(30_000);", 'System.out.println("next ran");', 8)
        assert (first, second) == ("error", "ok"), f"the compiling cell {first}, the next {second}"
        assert "next ran" in printed
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


LONG_RUNS = [  # a sweep that writes for a minute: a C process, a JVM, or an MPI job (mpirun and its ranks)
    pytest.param("raw_io", 'lab.sweep("raw_io").languages("c").ops("write").fileSize(Course.parseSize("256m")).repeat(50).run();', id="c"),
    pytest.param("raw_io", 'lab.sweep("raw_io").languages("java").ops("write").fileSize(Course.parseSize("256m")).repeat(50).run();', id="java"),
    pytest.param("mpi_file", 'lab.sweep("mpi_file").languages("c").strategies("independent").ops("write").procs(List.of(2))'
                 '.fileSize(Course.parseSize("256m")).opSize(Course.parseSize("1m")).repeat(50).run();', id="mpi", marks=needs_mpi),
]


@pytest.mark.parametrize("snippet,long_run", LONG_RUNS)
def test_a_killed_kernels_runs_are_swept_by_the_next_lab(tmp_path, snippet, long_run):
    """A kernel killed mid-run (SIGKILL: no clean-up of its own) leaves its children and run folder; the
    next lab to open stops those orphans, removes the folder and says so, and leaves a live kernel's runs alone."""
    import os
    import signal
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
        km2, kc2 = start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
    try:
        assert kc.execute_interactive('import course.*;\nvar lab = Lab.open("01-raw-io");', timeout=120)["content"]["status"] == "ok"
        threading.Thread(target=lambda: kc.execute_interactive(long_run, timeout=300), daemon=True).start()
        deadline = time.time() + 60
        while not list(tmp_path.glob(f"run-*/{snippet}.dat")) and time.time() < deadline:
            time.sleep(0.1)
        [folder] = [p.parent for p in tmp_path.glob(f"run-*/{snippet}.dat")]
        os.kill(km.provisioner.process.pid, signal.SIGKILL)
        km.provisioner.process.wait(timeout=10)
        orphans = [p for p in Path("/proc").glob("[0-9]*") if str(folder) in cmdline(p)]
        assert orphans and folder.exists(), "the killed kernel's child and folder outlive it"
        live = tmp_path / f"run-{km2.provisioner.process.pid}-0-live"  # a live kernel's run (start time unknown: 0)
        live.mkdir()
        reply = []
        kc2.execute_interactive('import course.*;\nvar lab = Lab.open("01-raw-io");', timeout=120, output_hook=reply.append)
        said = "".join(m["content"].get("text", "") for m in reply if m["msg_type"] == "stream")
        assert f"removed 1 run folder(s) a stopped kernel left in {tmp_path}" in said
        assert not folder.exists() and live.exists()
        assert survivors(lambda line: str(folder) in line) == [], "the orphan was stopped"
    finally:
        for manager, client in ((km, kc), (km2, kc2)):
            client.stop_channels()
            manager.shutdown_kernel(now=True)


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
        km, kc = start_new_kernel(kernel_name="java-course", cwd=str(HOME / "labs"))
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
    assert again.endswith(f"--file {tmp_path}/raw_io.dat"), said
    assert child == "raw_io: --op-size 0: must be between 1 and 64m", said
