"""Measures what the planner (course.run.Plan) reads from labs/presets.json on the machine it runs on: the probe's
figures (a 1-byte read, a JVM start: "_plan"'s reference) and, per lab, its quick seconds split into what the sizes
under "scale" drive ("work"), what the sizes its verdicts rest on drive ("judged": the size keys of "judged_on"), what
no size drives ("fixed", the rest), and what its counts at their "fewest" save ("rounds"). Each lab runs headless whole
(COURSE_PLAN=off), at a quarter of its listed sizes (COURSE_PLAN=1/4: whole = fixed + judged + work, quarter = fixed +
judged + work / 4), with its judged sizes at a quarter (labs/presets.json rewritten for that run alone and put back
byte for byte afterwards, stopped or not: no plan may cut them) and, where it has "fewest", at its fewest
(COURSE_PLAN=fewest); each setting runs RUNS times and its median is taken, since one run can be a slow minute's.
Run it on the reference machine, idle, after a lab's work changed; it prints the figures to copy into labs/presets.json.

    python tools/plan_model.py [LAB ...]      (make plan-model LABS="08-mpi-processes")
"""
import contextlib
import json
import signal
import subprocess
import sys
import time

from labs import HOME, execute, failures, kernel_environment, lab_paths

QUARTER = 4
RUNS = 3
PRESETS = HOME / "labs/presets.json"


def probe():
    """The probe's median over five runs, in a JVM held to its first JIT tier as the course kernel is."""
    java = subprocess.run(["bash", "-c", f". {HOME}/build/env.sh && command -v java"], capture_output=True, text=True, check=True).stdout.strip()
    runs = [json.loads(subprocess.run([java, "-XX:TieredStopAtLevel=1", "-cp", str(HOME / "kit/target/course-kit.jar"), "course.run.Plan"],
                                      capture_output=True, text=True, check=True).stdout) for _ in range(5)]
    return {key: sorted(r[key] for r in runs)[2] for key in runs[0]}


def seconds(path, plan):
    """The median seconds of RUNS headless quick runs of a lab with COURSE_PLAN=plan; a failed cell stops the tool, naming it."""
    times = []
    for _ in range(RUNS):
        started = time.time()
        with kernel_environment({"COURSE_PLAN": plan}):
            nb = execute(path, "quick", allow_errors=True)
        if failures(nb):
            sys.exit(f"plan_model: {path.stem} failed with COURSE_PLAN={plan}: {failures(nb)[0].get('evalue')}")
        times.append(time.time() - started)
    return sorted(times)[len(times) // 2]


@contextlib.contextmanager
def judged_sizes_quartered(lab):
    """labs/presets.json with this lab's judged sizes (text values of judged_on: "16m", ["1k", "4k"]) at a quarter, put back afterwards."""
    written = PRESETS.read_bytes()
    table = json.loads(written)
    quick = table[lab]["quick"]
    quarter = lambda size: str(max(1, parse(size) // QUARTER))
    for key in quick.get("judged_on", []):
        value = quick[key]
        if isinstance(value, str):
            quick[key] = quarter(value)
        elif isinstance(value, list) and value and isinstance(value[0], str):
            quick[key] = [quarter(v) for v in value]
    try:
        PRESETS.write_text(json.dumps(table, ensure_ascii=False))
        yield
    finally:
        PRESETS.write_bytes(written)


def parse(size):
    """A preset's size in bytes ("64k": 65536), as course.base.Course.parseSize reads it."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    return int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)


def main(names):
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stopped, it still puts labs/presets.json back (finally)
    known = {p.stem: p for p in lab_paths()}
    for name in names:
        if name not in known:
            sys.exit(f"plan_model: no lab {name} (labs: {', '.join(known)})")
    print(f'"reference": {json.dumps(probe())}', flush=True)
    for path in [known[n] for n in names] if names else known.values():
        quick = json.loads(PRESETS.read_text())[path.stem]["quick"]
        whole = seconds(path, "off")
        quarter = seconds(path, f"1/{QUARTER}") if quick["scale"] else whole  # nothing listed: nothing shrinks
        with judged_sizes_quartered(path.stem):
            judged_quarter = seconds(path, "off") if quick.get("judged_on") else whole
        shrinks = QUARTER / (QUARTER - 1)  # what a quarter saves is three quarters of the whole
        model = {"judged": max(0.0, (whole - judged_quarter) * shrinks), "work": max(0.0, (whole - quarter) * shrinks)}
        model = {"fixed": max(0.0, whole - model["judged"] - model["work"]), **model}
        said = f"whole {whole:.0f} s, its listed sizes at a quarter {quarter:.0f} s, its judged sizes at a quarter {judged_quarter:.0f} s"
        if quick.get("fewest"):
            fewest = seconds(path, "fewest")
            model["rounds"] = max(0.0, whole - fewest)
            said += f", at its fewest {fewest:.0f} s"
        print(f'{path.stem}: {said}: "seconds": {json.dumps({k: round(v) for k, v in model.items()})}', flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
