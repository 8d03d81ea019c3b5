"""Static checks of what is committed: notebooks without outputs, set-up files (the published figures' format is the kit's:
course.judge.Published refuses a malformed row, PublishedTest)."""
import json
import re
import shlex
import subprocess

from conftest import HOME


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


def commands(path):
    """The commands a shell script runs, each as its words: its lines less comments and blank lines (a string the
    script only mentions, in a comment or an echo, is no command of it)."""
    found = []
    for line in (HOME / path).read_text().replace("\\\n", " ").splitlines():  # a line continued with a backslash is one
        words = shlex.split(line, comments=True)
        if words:
            found.append(words)
    return found


def test_postbuild_runs_the_shared_setup():
    assert ["bash", "setup/setup.sh", "--precompile"] in commands("binder/postBuild")
    assert (HOME / "binder/postBuild").stat().st_mode & 0o111


def test_ci_runs_the_readme_s_test_command():
    """The README's test command (its Start section's block, the line that says what CI runs) is a command of .ci/run."""
    readme = (HOME / "README.md").read_text()
    line = next(line for line in readme.splitlines() if "what CI runs" in line)
    assert shlex.split(line, comments=True) in commands(".ci/run")


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
