"""Where each lab's parts live, for a maintainer who changes a lab: `make lab-map` (every lab) or
`make lab-map LAB=05-text-lines`. A lab is made of:

    notebook     labs/<lab>.ipynb: the source, with its solutions and hidden tests
    presets      labs/presets.json, under the lab's name: smoke, quick and paper; quick's keys its verdicts rest on
                 ("judged_on", which no plan cuts) and what a plan may cut on a slower machine (README: "quick is planned")
    snippets     the Java and C twins its cells run (lab.sweep, lab.code): java-snippets/<Name>.java, c-snippets/<name>.c
    claims       kit/src/main/java/course/claims/LabNN.java: which published statements it judges, and how
    published    the studies' files (data/published/<study>.csv) whose rows those claims cite or look up
    not judged   the rows of data/not-judged.csv that name the lab, each with why it is left out (none where the lab
                 judges every statement it retells)
    saved runs   kit/src/test/resources/runs/<lab>.json.gz: a real run that ClaimsTest judges again

Lab 00 judges nothing (no claims, published rows, not-judged rows or saved runs). tests/test_lab_map.py holds every
other lab to each part but the not-judged rows."""
import csv
import json
import re
import sys

from labs import HOME, lab_paths

PARTS = ("notebook", "presets", "snippets", "claims", "published", "not judged", "saved runs")
OPTIONAL = {"not judged"}
JUDGES_NOTHING = {"00-start-here"}


def published_rows():
    """{(id or source): its file}: each published statement's id, and each study's name as the claims look it up."""
    rows = {}
    for path in sorted((HOME / "data/published").glob("*.csv")):
        for row in csv.DictReader(path.open(newline="")):
            rows[row["id"]] = rows[row["source"]] = path.relative_to(HOME).as_posix()
    return rows


def plan_row(quick):
    """What a plan may do to a lab's quick, as the README's table of cuts says it: what its verdicts rest on (never
    cut), what may be divided and by how much at most, and what may be taken at its fewest."""
    return [", ".join(key.replace("_", " ") for key in quick.get("judged_on", [])) or "nothing (it judges no claim)",
            ", ".join(f"{key.replace('_', ' ')} ÷{most}" for key, most in quick["scale"].items()) or "nothing",
            ", ".join(f"{key.replace('_', ' ')} {least}" for key, least in quick.get("fewest", {}).items()) or "nothing"]


def parts(lab, published, presets):
    """{part: [what of it this lab has, each a path or a path and the rows it holds]} of one lab (its notebook's path),
    given published_rows() and labs/presets.json."""
    number = lab.stem[:2]
    text = lab.read_text()
    found = {"notebook": [lab.relative_to(HOME).as_posix()]}
    found["presets"] = [f"labs/presets.json: {', '.join(presets[lab.stem])}; quick's verdicts rest on %s · a plan may divide %s"
                        " · and take at its fewest %s" % tuple(plan_row(presets[lab.stem]["quick"]))] if presets.get(lab.stem) else []
    snippets = sorted(set(re.findall(r'lab\.(?:sweep|code)\(\\"([a-z_]+)\\"', text)))
    found["snippets"] = [path for name in snippets for path in (
        f"java-snippets/{''.join(word.capitalize() for word in name.split('_'))}.java", f"c-snippets/{name}.c")
        if (HOME / path).exists()]
    claims = HOME / f"kit/src/main/java/course/claims/Lab{number}.java"
    found["claims"] = [claims.relative_to(HOME).as_posix()] if claims.exists() else []
    named = set(re.findall(r'"([^"\n]+)"', claims.read_text())) if claims.exists() else set()  # its ids and studies' names
    found["published"] = sorted({published[name] for name in named & published.keys()})
    unjudged = [row["id"] for row in csv.DictReader((HOME / "data/not-judged.csv").open(newline="")) if row["lab"] == number]
    found["not judged"] = [f"data/not-judged.csv: {len(unjudged)} rows"] if unjudged else []
    runs = HOME / f"kit/src/test/resources/runs/{lab.stem}.json.gz"
    found["saved runs"] = [runs.relative_to(HOME).as_posix()] if runs.exists() else []
    return found


def main(argv):
    labs = lab_paths()
    names = [lab.stem for lab in labs]
    chosen = [lab for lab in labs if not argv or lab.stem in argv]
    if argv and len(chosen) != len(argv):
        sys.exit(f"lab-map: LAB={' '.join(argv)}: name labs of the course ({', '.join(names)})")
    published, presets = published_rows(), json.loads((HOME / "labs/presets.json").read_text())
    for lab in chosen:
        print(lab.stem)
        found = parts(lab, published, presets)
        for part in PARTS:
            told = "; ".join(found[part]) or ("none: it judges nothing" if lab.stem in JUDGES_NOTHING
                                              else "none" if part in OPTIONAL else "MISSING")
            print(f"  {part:<11} {told}")


if __name__ == "__main__":
    main(sys.argv[1:])
