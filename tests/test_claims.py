"""Every statement of the studies is accounted for: judged in exactly one lab's verdict table, shown
in one lab's then-and-here table, or listed in data/not-judged.csv with its lab and the reason."""
import csv
import json
import re
from collections import defaultdict

from conftest import HOME

CLAIM = re.compile(r'lab\.claim\("([^"]+)"\)')


def published():
    rows = {}
    for path in sorted((HOME / "data" / "published").glob("*.csv")):
        for row in csv.DictReader(path.open(encoding="utf-8")):
            rows[row["id"]] = row
    return rows


def used_by_labs():
    """Which claim ids each lab's verdict and then-and-here calls name: in its judging class (kit course.claims, LabNN),
    and in any verdict or then-and-here call left in its notebook's code."""
    judged, context = defaultdict(list), defaultdict(list)
    sources = [(path.name[:2], "".join(cell["source"])) for path in sorted((HOME / "labs").glob("*.ipynb"))
               for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]]
    sources += [(path.stem[3:], path.read_text(encoding="utf-8")) for path in sorted((HOME / "kit/src/main/java/course/claims").glob("Lab*.java"))]
    for lab, source in sources:
        # each call's (or judging method's) claims run from its name to the next one's (a cell may hold both); another
        # method of a judging class (a chart that ticks the study's figures, say) ends the region and counts for neither
        calls = sorted((m.start(), m.group(1) or m.group(2) or "other") for m in
                       re.finditer(r"lab\.(verdicts|thenAndHere)\(|static List<\w+> (verdicts|thenAndHere)\(|static void \w+\(", source))
        for i, (start, call) in enumerate(calls):
            end = calls[i + 1][0] if i + 1 < len(calls) else len(source)
            if call == "other":
                continue
            for claim in set(CLAIM.findall(source[start:end])):  # a claim named in both arms of a condition counts once
                (judged if call == "verdicts" else context)[claim].append(lab)
    return judged, context


def not_judged():
    with (HOME / "data" / "not-judged.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_every_statement_is_judged_shown_or_left_out_with_a_reason():
    claims = published()
    judged, context = used_by_labs()
    left = not_judged()
    places = defaultdict(list)
    for claim, labs in judged.items():
        places[claim] += [f"judged in lab {lab}" for lab in labs]
    for claim, labs in context.items():
        places[claim] += [f"then and here in lab {lab}" for lab in labs]
    for row in left:
        places[row["id"]].append(f"not judged, lab {row['lab']}")
    unknown = sorted(set(places) - set(claims))
    assert not unknown, f"claims named by labs or data/not-judged.csv but not in data/published: {unknown}"
    statements = [c for c, row in claims.items() if row["kind"] != "setup"]
    unaccounted = [c for c in statements if not places[c]]
    assert not unaccounted, f"{len(unaccounted)} statements neither judged, shown nor listed in data/not-judged.csv: {unaccounted}"
    twice = {c: places[c] for c in statements if len(places[c]) > 1}
    assert not twice, f"statements accounted for more than once (one lab, one rule): {twice}"
    setups = sorted(c for c in places if claims[c]["kind"] == "setup" and any(p.startswith("judged") for p in places[c]))
    assert not setups, f"setup rows describe a study's machine or method and cannot be judged: {setups}"


def test_each_reason_names_a_lab_and_says_why():
    labs = {p.name[:2] for p in (HOME / "labs").glob("*.ipynb")}
    for row in not_judged():
        assert row["lab"] in labs, f"{row['id']}: lab {row['lab']!r} is not one of {sorted(labs)}"
        assert len(row["reason"].split()) >= 4, f"{row['id']}: a reason in a few words at least, not {row['reason']!r}"


def test_no_lab_judges_a_figure_it_made_by_hand():
    """A judged figure comes from the runs with its interval (Estimate.of and its kin, over the rounds): one made by hand,
    through Estimate.exact or Estimate's constructor, has none, in a notebook's code or a judging class alike. (A check
    on the judged figures themselves cannot tell one apart: a count the same in every round has an interval of no width.)"""
    by_hand = re.compile(r"Estimate\.exact\(|new\s+(?:course\.judge\.)?Estimate\(")
    notebooks = [(path.name, "".join("".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
                                      if cell["cell_type"] == "code")) for path in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb"))]
    judging = [(path.name, path.read_text(encoding="utf-8")) for path in sorted((HOME / "kit/src/main/java/course/claims").glob("*.java"))]
    assert len(notebooks) >= 11 and len(judging) >= 10
    assert [name for name, source in notebooks + judging if by_hand.search(source)] == []
