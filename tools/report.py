"""`make report`: runs every lab headlessly (quick preset unless COURSE_PRESET says otherwise; `make report
LABS="03-operation-size 05-text-lines"` or `python tools/report.py LAB ...` runs only those) and writes
one self-contained HTML file, build/report.html (COURSE_REPORT overrides it): each lab's narrative,
tables, verdicts, and its charts as static SVG rendered offline by vl-convert. A cell that fails is kept
in the report, and the run ends with a non-zero status naming it."""
import base64
import html
import json
import os
import re
import sys
import time
from pathlib import Path

import vl_convert
from nbconvert import HTMLExporter

from labs import HOME, VEGA_LITE, execute, failures, lab_paths

STYLE = """body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%}
pre{background:#f6f8fa;padding:.5em;overflow-x:auto}.output_text pre{white-space:pre-wrap}nav a{margin-right:1em}.lab{border-top:3px solid #333;margin-top:3em}
summary{padding:3px 0;cursor:pointer}:focus-visible{outline:2px solid #0b5cad;outline-offset:2px}"""


def static_charts(nb):
    """Replaces every Vega-Lite output by its SVG as an image whose alt text is the chart's one-line description (the
    text the kit gives every chart), so the report needs no script and no network, and a screen reader reads each chart."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            spec = out.get("data", {}).pop(VEGA_LITE, None)
            if spec is not None:
                svg = base64.b64encode(vl_convert.vegalite_to_svg(spec, allowed_base_urls=[]).encode()).decode()
                alt = html.escape(spec.get("description") or out["data"].get("text/plain", ""), quote=True)
                out["data"]["text/html"] = f'<img alt="{alt}" src="data:image/svg+xml;base64,{svg}">'


def to_html(nb):
    """An executed notebook's HTML body, charts as static SVG, and its failed cells as "ename: evalue" lines."""
    failed = [f"{out.get('ename')}: {out.get('evalue')}" for out in failures(nb)]
    static_charts(nb)
    body, _ = HTMLExporter(template_name="basic", exclude_input_prompt=True, exclude_output_prompt=True).from_notebook_node(nb)
    # a box of code scrolls sideways where a line is wider than the page: the keyboard must reach it to scroll it
    return re.sub(r"<pre(?![^>]*tabindex)", '<pre tabindex="0"', body), failed


def write_page(out, title, body):
    """Writes one self-contained page atomically (never half a file)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                   f"<style>{STYLE}</style></head><body>{body}</body></html>")
    tmp.replace(out)


def write_report(out, preset, executed):
    """The report of executed labs ((name, notebook) pairs, in order) at out; returns the failed cells, each
    "lab: ename: evalue"."""
    sections, nav, failed = [], [], []
    for name, nb in executed:
        body, lab_failed = to_html(nb)
        failed += [f"{name}: {f}" for f in lab_failed]
        nav.append(f'<a href="#{name}">{html.escape(name)}</a>')
        sections.append(f'<section class="lab" id="{name}">{body}</section>')
    write_page(out, "Java file I/O course: report",
               f"<header><h1>Java file I/O course: report ({preset} preset)</h1><nav aria-label='labs'>{''.join(nav)}</nav></header>"
               f"<main>{''.join(sections)}</main>")
    return failed


def where_the_time_went(lab, since):
    """ "216 processes, 7.6 s of them in timed runs": from the results the lab saved after since (none saved: "")."""
    folder = Path(os.environ.get("COURSE_RESULTS") or HOME / "data/results")
    saved = [p for p in folder.glob(f"{lab}-*.json") if p.stat().st_mtime >= since]
    if not saved:
        return ""
    doc = json.loads(max(saved, key=lambda p: p.stat().st_mtime).read_text())
    runs, at, processes = doc["runs"], 0, 0
    for count in doc.get("sweeps", []):
        processes += max((r.get("order", 0) for r in runs[at:at + count]), default=0)  # order: a run's process in its sweep
        at += count
    timed = sum(r["elapsed_ns"] for r in runs) / 1e9
    divisor = doc.get("plan", {}).get("divisor", 1)
    return f": {processes} processes, {timed:.1f} s of it in timed runs" + (f", quick's sizes at 1/{divisor}" if divisor > 1 else "")


def main(names):
    preset = os.environ.get("COURSE_PRESET", "quick")
    known = {p.stem: p for p in lab_paths()}
    for name in names:
        if name not in known:
            sys.exit(f"report: no lab {name} (labs: {', '.join(known)})")
    executed = []
    for path in [known[name] for name in names] if names else known.values():
        started = time.time()
        print(f"report: running {path.name} ({preset})", flush=True)
        executed.append((path.stem, execute(path, preset, allow_errors=True)))  # failed cells are kept
        print(f"report: {path.name} took {time.time() - started:.0f} s{where_the_time_went(path.stem, started)}", flush=True)
    out = Path(os.environ.get("COURSE_REPORT", HOME / "build/report.html"))
    failed = write_report(out, preset, executed)
    print(f"report: wrote {out}")
    if failed:
        print("report: cells failed:\n  " + "\n  ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
