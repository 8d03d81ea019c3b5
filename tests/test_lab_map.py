"""Every lab has each of its parts where tools/lab_map.py says a newcomer finds them (the map `make lab-map` prints)."""
import json
import re
import subprocess

import pytest

from conftest import ENV, HOME
import lab_map
from labs import lab_paths


@pytest.mark.parametrize("lab", lab_paths(), ids=lambda lab: lab.stem)
def test_each_lab_has_its_parts(lab):
    found = lab_map.parts(lab, lab_map.published_rows(), json.loads((HOME / "labs/presets.json").read_text()))
    needed = {"notebook", "presets", "snippets"} if lab.stem in lab_map.JUDGES_NOTHING else set(lab_map.PARTS) - lab_map.OPTIONAL
    assert {part for part in needed if not found[part]} == set(), f"{lab.stem}: missing parts"
    for told in (entry for entries in found.values() for entry in entries):
        assert (HOME / told.split(":")[0]).is_file(), told
    assert any(path.startswith("java-snippets/") for path in found["snippets"]), "a Java snippet at least"


def test_the_map_names_every_lab_and_refuses_a_lab_it_does_not_know():
    printed = subprocess.run([str(HOME / ".venv/bin/python"), str(HOME / "tools/lab_map.py")], env=ENV,
                             capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0 and "MISSING" not in printed.stdout, printed.stdout
    assert [line for line in printed.stdout.splitlines() if not line.startswith(" ")] == [lab.stem for lab in lab_paths()]
    refused = subprocess.run([str(HOME / ".venv/bin/python"), str(HOME / "tools/lab_map.py"), "05"], env=ENV,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and refused.stderr.startswith("lab-map: LAB=05: name labs of the course (00-start-here, ")


def keys_the_verdicts_read(lab):
    """The preset keys a lab's judged claims read, found by following its notebook's code back from the judge call
    (LabNN.judge(lab, …)): each name it hands over, the names their assignments (and add/put calls) use, and so on, to
    every lab.preset() key on the way; with the keys the claims class reads itself. A reading of the code, not of a run:
    it may name a key more than the claims need, never fewer while values flow through assignments, as the labs' do."""
    code = "\n".join("".join(c["source"]) for c in json.loads(lab.read_text())["cells"] if c["cell_type"] == "code")
    code = re.sub(r"//[^\n]*", "", code)
    key, name = re.compile(r'preset\(\)\.\w+\("(\w+)"'), re.compile(r"\b[A-Za-z_]\w*\b")
    names = lambda text: set(name.findall(re.sub(r'"[^"]*"', '""', text)))  # no words from strings ("cold")
    uses, handed = {}, set()
    for statement in re.split(r"[;{}]", code):
        judged = re.search(r"Lab\d\d\.judge\((.*)\)", statement, re.S)
        targets = re.findall(r"([A-Za-z_]\w*)\s*=(?!=)", statement) or re.findall(r"^\s*([A-Za-z_]\w*)\.(?:add|addAll|put)\(", statement)
        if judged:
            handed |= names(judged.group(1)) - {"lab"}
        for target in targets:
            uses.setdefault(target, set()).update(names(statement) - {target}, {("key", k) for k in key.findall(statement)})
    seen, todo = set(), list(handed)
    while todo:
        item = todo.pop()
        if item not in seen:
            seen.add(item)
            todo += uses.get(item, ()) if isinstance(item, str) else ()
    claims = HOME / f"kit/src/main/java/course/claims/Lab{lab.stem[:2]}.java"
    return {k for kind, k in (i for i in seen if isinstance(i, tuple))} | (set(key.findall(claims.read_text())) if claims.exists() else set())


@pytest.mark.parametrize("lab", lab_paths(), ids=lambda lab: lab.stem)
def test_no_plan_may_cut_a_key_the_verdicts_read(lab):
    """quick's judged_on names every key the lab's verdicts read (a round count aside: fewer rounds only widen an
    interval), and neither its scale nor its fewest lists one (course.run.Plan refuses such a preset too)."""
    quick = json.loads((HOME / "labs/presets.json").read_text())[lab.stem]["quick"]
    read = {k for k in keys_the_verdicts_read(lab) if not k.endswith("rounds")}
    declared = set(quick.get("judged_on", []))
    assert read - declared == set(), f"{lab.stem}: its verdicts read these keys its quick's judged_on does not name"
    assert declared <= quick.keys(), f"{lab.stem}: judged_on names keys its quick lacks"
    assert (quick["scale"].keys() | quick.get("fewest", {}).keys()) & declared == set(), f"{lab.stem}: a plan may cut what a verdict reads"
    if lab.stem not in lab_map.JUDGES_NOTHING:
        assert read, f"{lab.stem}: the reading found its judge call"


def test_the_readme_says_what_each_lab_may_cut_as_the_presets_declare():
    readme, presets = (HOME / "README.md").read_text(), json.loads((HOME / "labs/presets.json").read_text())
    for lab in lab_paths():
        row = "| " + " | ".join([lab.stem[:2]] + lab_map.plan_row(presets[lab.stem]["quick"])) + " |"
        assert row in readme, f"README's table of what a plan may cut lacks, or differs from, this row: {row}"
