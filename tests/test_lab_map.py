"""Every lab has each of its parts where tools/lab_map.py says a newcomer finds them (the map `make lab-map` prints)."""
import json
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
