"""The learner's copies (tools/learner.py, run by make lab): nbgrader's student version of every lab, made once and
never written over; a copy made from an older version of its lab is kept, and the learner is told."""
import json
import subprocess
import sys

from conftest import ENV, HOME


def learner(folder):
    return subprocess.run([sys.executable, str(HOME / "tools/learner.py"), str(folder)], env=ENV, capture_output=True,
                          text=True, timeout=300)


def test_copies_are_made_once_and_kept(tmp_path):
    first = learner(tmp_path)
    assert first.returncode == 0, first.stderr
    labs = sorted(p.name for p in (HOME / "labs").glob("[0-9][0-9]-*.ipynb"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(labs + ["glossary.md"]), "one copy per lab, the glossary, nothing else"
    for name in labs:
        copy = json.loads((tmp_path / name).read_text())
        text = json.dumps(copy)
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, name
        grade_ids = {c["metadata"]["nbgrader"]["grade_id"] for c in copy["cells"] if "nbgrader" in c["metadata"]}
        assert grade_ids, f"{name}: its exercises keep their nbgrader ids (a hand-in is graded by them)"
    # an edited copy, and one made from an older version of its lab
    (tmp_path / labs[0]).write_text(json.dumps({"cells": [], "metadata": {"course_source": "0" * 16}, "nbformat": 4, "nbformat_minor": 5}))
    (tmp_path / labs[1]).unlink()
    again = learner(tmp_path)
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / labs[0]).read_text())["cells"] == [], "the edit is kept"
    assert (tmp_path / labs[1]).exists(), "a missing copy is made again"
    lab = labs[0].removesuffix(".ipynb")
    assert f"learner: the course's {lab} has changed since your copy was made; yours is kept as it is." in again.stdout
    assert again.stdout.count("has changed since") == 1, again.stdout
