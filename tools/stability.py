"""How steady the verdicts are from one pass of the course to the next (issue 14's acceptance measure).

    python tools/stability.py [FOLDER] [--preset quick] [--last 3]

reads the results the labs saved (data/results/ unless FOLDER says otherwise), takes each lab's last
--last saves of --preset, and prints, over the claims judged in every one of them: how many kept one
verdict, how many rows were "too close to call", and every claim that went between holds and
changed/reversed without being too close to call in any pass (a hard flip: its intervals were too narrow),
and how many pairs of passes gave one claim intervals that do not overlap (saves that carry the judged
figure, kit of 2026-11 on): two such passes cannot both hold one value, so something moved between them
that neither interval holds. Were the intervals honest about pass-to-pass differences, under 1 pair in 100
would (two independent 95% intervals of equal width miss each other 0.6% of the time).
Run the passes first, e.g. three times `make report` (each runs every lab in quick and saves its results).
"""
import argparse
import json
import sys
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from labs import HOME

JUDGED = {"holds", "changed", "reversed", "too close to call"}


def passes(folder, preset, last):
    """{lab: [verdicts of one save, oldest first]}, the last `last` saves of each lab in this preset."""
    saves = defaultdict(list)
    for path in sorted(folder.glob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("preset") == preset and isinstance(doc.get("verdicts"), list):
            saves[doc["lab"]].append((str(doc.get("started")), doc["verdicts"]))
    return {lab: [v for _, v in sorted(runs)[-last:]] for lab, runs in saves.items() if len(runs) >= last}


def report(by_lab):
    kept = total = too_close = rows = pairs = 0
    flips, changing, always_close, apart = [], [], [], []
    for lab, runs in sorted(by_lab.items()):
        outcomes = defaultdict(list)
        for verdicts in runs:
            for v in verdicts:
                if v.get("verdict") in JUDGED:
                    outcomes[v["claim"]].append((v["verdict"], v.get("measured", "")))
        for claim, figures in sorted(intervals(runs).items()):
            for a, b in combinations(figures, 2):
                pairs += 1
                if a["high"] < b["low"] or b["high"] < a["low"]:
                    apart.append(f"{lab} {claim}: " + " | ".join(f"{f['value']:.3g} [{f['low']:.3g}–{f['high']:.3g}]" for f in figures))
        for claim, seen in sorted(outcomes.items()):
            if len(seen) != len(runs):
                continue  # judged in some passes only ("not measured" or "judged in paper" in others)
            total += 1
            names = [o for o, _ in seen]
            rows += len(names)
            too_close += names.count("too close to call")
            if len(set(names)) == 1:
                kept += 1
                if names[0] == "too close to call":
                    always_close.append(f"{lab} {claim}: " + " | ".join(m for _, m in seen))
                continue
            changing.append(f"{lab} {claim}: " + " | ".join(f"{o} ({m})" for o, m in seen))
            if "holds" in names and {"changed", "reversed"} & set(names) and "too close to call" not in names:
                flips.append(changing[-1])
    print(f"{len(by_lab)} labs, {len(next(iter(by_lab.values()), []))} passes each; {total} claims judged in every pass")
    if total:
        print(f"kept one verdict: {kept} of {total} ({100 * kept / total:.0f}%)")
        print(f"too close to call: {too_close} of {rows} rows ({100 * too_close / rows:.1f}%)")
    print(f"hard flips (holds and changed/reversed, never too close): {len(flips)}")
    for line in flips:
        print("  " + line)
    print("verdicts that moved:")
    for line in changing:
        print("  " + line)
    print("too close to call in every pass:")
    for line in always_close:
        print("  " + line)
    if pairs:
        print(f"pairs of passes whose intervals for one claim do not overlap: {len(apart)} of {pairs} ({100 * len(apart) / pairs:.1f}%;"
              " honest intervals and nothing moving between passes: under 1%)")
        for line in dict.fromkeys(apart):
            print("  " + line)


def intervals(runs):
    """{claim: [its judged figure in each pass]}, for claims whose every pass saved a figure with an interval."""
    figures = defaultdict(list)
    for verdicts in runs:
        for v in verdicts:
            judged = v.get("judged")
            if isinstance(judged, dict) and {"value", "low", "high"} <= judged.keys():
                figures[v["claim"]].append(judged)
    return {claim: seen for claim, seen in figures.items() if len(seen) == len(runs)}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(HOME / "data/results"))
    parser.add_argument("--preset", default="quick")
    parser.add_argument("--last", type=int, default=3)
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not folder.is_dir():
        sys.exit(f"stability: {folder} is not a folder of saved results")
    if args.last < 2:
        sys.exit(f"stability: --last {args.last}: needs at least 2 passes to compare")
    by_lab = passes(folder, args.preset, args.last)
    if not by_lab:
        sys.exit(f"stability: no lab in {folder} has {args.last} saves of the {args.preset} preset")
    report(by_lab)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
