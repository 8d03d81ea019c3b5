"""Static checks of what is committed: notebooks without outputs, published figures, set-up files."""
import csv
import json
import re
import subprocess

import pytest

from conftest import HOME

UNITS = {"MB/s", "GB/s", "KB/s", "ms", "s", "us", "ns", "%", "x", "ops/s", "B", "KB", "MB", "GB", "MHz", "count"}
KINDS = {"table", "text", "ratio", "percent", "at-least", "at-most", "claim", "setup"}  # at-least, at-most: the study gave a bound ("more than tripled")
COLUMNS = ["id", "source", "where", "experiment", "series", "x", "x_unit", "value", "unit", "kind", "statement"]
PUBLISHED = sorted((HOME / "data/published").glob("*.csv"))


def test_notebooks_have_no_outputs():
    for path in (HOME / "labs").glob("*.ipynb"):
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, f"{path.name} has outputs"


def test_notebooks_start_with_a_short_setup_cell():
    for path in (HOME / "labs").glob("[0-9][0-9]-*.ipynb"):
        nb = json.loads(path.read_text())
        first = next(c for c in nb["cells"] if c["cell_type"] == "code")
        assert len("".join(first["source"]).strip().splitlines()) <= 4
        assert nb["metadata"]["kernelspec"]["name"] == "java-course"


@pytest.mark.parametrize("path", PUBLISHED, ids=lambda p: p.name)
def test_published_figures_are_well_formed(path):
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == COLUMNS
        rows = list(reader)
    assert rows
    for row in rows:
        where = f"{path.name} {row['id']}"
        assert re.fullmatch(r"(xu-guo|bonachea|lord-reddy|awan|openjdk)\.[a-z0-9.-]+", row["id"]), where
        assert row["source"] and row["where"] and row["statement"], f"{where}: every row cites where and says what"
        assert row["kind"] in KINDS, where
        if row["kind"] == "claim":
            assert row["value"] == "", where
        elif row["value"]:
            float(row["value"])
            assert row["unit"] in UNITS, f"{where}: unit {row['unit']!r}"
        else:
            assert row["kind"] == "setup", f"{where}: only claims and setup facts may lack a value"


def test_published_ids_are_unique_and_cover_every_study():
    ids = [r["id"] for p in PUBLISHED for r in csv.DictReader(p.open(newline=""))]
    assert len(ids) == len(set(ids))
    for study in ("xu-guo", "bonachea", "lord-reddy", "awan"):
        assert sum(i.startswith(study + ".") for i in ids) >= 20, study


def test_claims_used_by_labs_exist():
    ids = {r["id"] for p in PUBLISHED for r in csv.DictReader(p.open(newline=""))}
    for path in (HOME / "labs").glob("*.ipynb"):
        used = set(re.findall(r'lab\.claim\(\\?"([a-z0-9.-]+)\\?"\)', path.read_text()))
        assert used <= ids, f"{path.name} cites unknown claims {used - ids}"


def test_presets_have_all_three_for_every_lab():
    presets = json.loads((HOME / "labs/presets.json").read_text())
    for path in (HOME / "labs").glob("[0-9][0-9]-*.ipynb"):
        assert {"smoke", "quick", "paper"} <= set(presets[path.stem]), path.stem


def _dependencies(path):
    text = (HOME / path).read_text()
    return sorted(re.findall(r"^\s*-\s*([A-Za-z0-9_.\-]+[<>=!]*[^\s#]*)", text, re.M))


def test_binder_environment_matches_top_level():
    assert (HOME / "binder/environment.yml").read_text() == (HOME / "environment.yml").read_text()


def test_environment_pins_what_setup_pins():
    env = (HOME / "environment.yml").read_text()
    for line in (HOME / "setup/requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            assert line in env, f"environment.yml lacks {line} (setup/requirements.txt pins it)"
    for needed in ("openjdk", "maven", "openmpi", "make", "c-compiler"):
        assert needed in env


def test_postbuild_runs_the_shared_setup():
    post = (HOME / "binder/postBuild").read_text()
    assert "setup/setup.sh --precompile" in post
    assert (HOME / "binder/postBuild").stat().st_mode & 0o111


def test_ci_runs_make_test():
    assert "make test" in (HOME / ".ci/run").read_text()


def test_no_registry_host_names_committed():
    tracked = subprocess.run(["git", "ls-files"], cwd=HOME, capture_output=True, text=True).stdout.split()
    hosts = [("pypi", "org"), ("files", "pythonhosted"), ("registry", "npmjs"), ("repo1", "maven"), ("maven", "org"),
             ("deb", "debian"), ("conda", "anaconda")]  # written in pieces so this file does not name them itself
    pattern = re.compile("|".join(re.escape(".".join(h)) for h in hosts))
    for name in tracked:
        path = HOME / name
        if path.is_file() and path.suffix not in {".png"}:
            assert not pattern.search(path.read_text(errors="ignore")), name


# A page to read, not a program to scroll (what a learner's copy shows: model answers are the teacher's)
MOST_MARKDOWN_CHARS, MOST_CODE_LINES, MOST_CHECK_LINES, MOST_WORDS = 2000, 25, 30, 2600
MOST_TEXT_RUN_CHARS, MOST_READINGS_CHARS = 3000, 400  # issue 47: a page that reads before it runs


def test_each_lab_reads_as_a_page():
    """No markdown cell over 2,000 characters, no run of text between two runnable cells over 3,000 (a wall before
    anything runs), no paragraph of readings over 400 (a row's reading belongs on its row, in the verdict table's fold),
    no code cell a learner meets over 25 lines (an exercise's check over 30: the kit's Check does its plumbing; the
    learner's own solution cell is theirs), and each lab within about 2,500 words of prose."""
    too_long = []
    for lab in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb")):
        cells = json.loads(lab.read_text())["cells"]
        words, run, run_from = 0, 0, 0
        for i, cell in enumerate(cells):
            text, grading = "".join(cell["source"]), cell["metadata"].get("nbgrader", {})
            if cell["cell_type"] == "markdown" and not grading.get("solution"):
                words += len(text.split())
                run, run_from = run + len(text), run_from if run else i
                if len(text) > MOST_MARKDOWN_CHARS:
                    too_long.append(f"{lab.stem} cell {i}: {len(text)} characters")
                if run > MOST_TEXT_RUN_CHARS:
                    too_long.append(f"{lab.stem} cells {run_from}-{i}: {run} characters of text in a row")
                too_long += [f"{lab.stem} cell {i}: a {len(p)}-character paragraph of readings" for p in text.split("\n\n")
                             if p.startswith(("**Reading", "**A reading")) and len(p) > MOST_READINGS_CHARS]
                continue
            run = 0
            if cell["cell_type"] == "code" and not grading.get("solution"):
                lines, most = text.count("\n") + 1, MOST_CHECK_LINES if grading else MOST_CODE_LINES
                if lines > most:
                    too_long.append(f"{lab.stem} cell {i}: {lines} lines")
        if words > MOST_WORDS:
            too_long.append(f"{lab.stem}: {words} words")
    assert too_long == []


def test_glossary_links_reach_a_term():
    """Each link a lab makes into the glossary names one of its terms (JupyterLab's heading ids: spaces become -)."""
    glossary = (HOME / "labs/glossary.md").read_text()
    terms = {line[4:].strip().replace(" ", "-") for line in glossary.splitlines() if line.startswith("### ")}
    links = set()
    for lab in (HOME / "labs").glob("[0-9][0-9]-*.ipynb"):
        for cell in json.loads(lab.read_text())["cells"]:
            links |= set(re.findall(r"\(glossary\.md#([^)]+)\)", "".join(cell["source"])))
    assert links and links <= terms, sorted(links - terms)


def test_a_graded_cell_that_needs_a_newer_java_says_so_where_it_runs():
    """A graded cell marked as needing a newer Java (metadata course.needs_java, which the classroom reads to leave it
    out of the marks where grading runs an older JDK) checks that same release in its code (lab.javaAtLeast), so a
    learner on an older JDK meets one line, not an error; and a graded cell that checks a release is so marked. (An
    answer cell may carry the mark too: the course's own answer in that API cannot compile on an older JDK.)"""
    mismatched = []
    for lab in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb")):
        for i, cell in enumerate(json.loads(lab.read_text())["cells"]):
            if not cell["metadata"].get("nbgrader", {}).get("grade") or cell["cell_type"] != "code":
                continue
            needs = cell["metadata"].get("course", {}).get("needs_java")
            checked = re.findall(r"javaAtLeast\((\d+)", "".join(cell["source"]))
            if [str(needs)] * bool(needs) != checked:
                mismatched.append(f"{lab.stem} cell {i}: needs_java {needs}, checks {checked}")
    assert mismatched == []
