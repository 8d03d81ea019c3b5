"""Measures what the planner (course.run.Plan) reads from labs/presets.json on the machine it runs on: the probe's
figures (a 1-byte read, a JVM start: "_plan"'s reference) and, per lab, its quick seconds split into what no size drives
("fixed") and what the sizes under "scale" drive ("work"), and what its round counts at their "fewest" save ("rounds").
Each lab runs headless whole (COURSE_PLAN=off), at a quarter of its listed sizes (COURSE_PLAN=1/4: whole = fixed + work,
quarter = fixed + work / 4) and, where it lists round counts, at their fewest (COURSE_PLAN=fewest). Run it on the
reference machine, idle, after a lab's work changed; it prints the figures to copy into labs/presets.json.

    python tools/plan_model.py [LAB ...]      (make plan-model LABS="08-mpi-processes")
"""
import json
import subprocess
import sys
import time

from labs import HOME, execute, failures, kernel_environment, lab_paths

QUARTER = 4


def probe():
    """The probe's median over five runs, in a JVM held to its first JIT tier as the course kernel is."""
    java = subprocess.run(["bash", "-c", f". {HOME}/build/env.sh && command -v java"], capture_output=True, text=True, check=True).stdout.strip()
    runs = [json.loads(subprocess.run([java, "-XX:TieredStopAtLevel=1", "-cp", str(HOME / "kit/target/course-kit.jar"), "course.run.Plan"],
                                      capture_output=True, text=True, check=True).stdout) for _ in range(5)]
    return {key: sorted(r[key] for r in runs)[2] for key in runs[0]}


def seconds(path, plan):
    """One headless quick run of a lab with COURSE_PLAN=plan: its seconds; a failed cell stops the tool, naming it."""
    started = time.time()
    with kernel_environment({"COURSE_PLAN": plan}):
        nb = execute(path, "quick", allow_errors=True)
    if failures(nb):
        sys.exit(f"plan_model: {path.stem} failed with COURSE_PLAN={plan}: {failures(nb)[0].get('evalue')}")
    return time.time() - started


def main(names):
    known = {p.stem: p for p in lab_paths()}
    for name in names:
        if name not in known:
            sys.exit(f"plan_model: no lab {name} (labs: {', '.join(known)})")
    print(f'"reference": {json.dumps(probe())}', flush=True)
    for path in [known[n] for n in names] if names else known.values():
        quick = json.loads((HOME / "labs/presets.json").read_text())[path.stem]["quick"]
        whole = seconds(path, "off")
        quarter = seconds(path, f"1/{QUARTER}") if quick.get("scale") else whole  # nothing listed: nothing shrinks
        model = {"fixed": 0, "work": max(0.0, (whole - quarter) * QUARTER / (QUARTER - 1))}
        model["fixed"] = whole - model["work"]
        said = f"whole {whole:.0f} s, a quarter {quarter:.0f} s"
        if quick.get("fewest"):
            fewest = seconds(path, "fewest")
            model["rounds"] = max(0.0, whole - fewest)
            said += f", fewest rounds {fewest:.0f} s"
        print(f'{path.stem}: {said}: "seconds": {json.dumps({k: round(v) for k, v in model.items()})}', flush=True)

if __name__ == "__main__":
    main(sys.argv[1:])
