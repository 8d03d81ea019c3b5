"""The kit's and the Java harness's JUnit 5 tests, through Maven Surefire: every test method in the
sources must have run (a test class Surefire does not pick up would otherwise pass unseen)."""
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

from conftest import ENV, HOME

TEST_SOURCES = HOME / "kit/src/test"
REPORTS = HOME / "kit/target/surefire-reports"
TEST_METHOD = re.compile(r"@(?:[\w.]*\.)?(?:Test|ParameterizedTest)\b.*?\bvoid\s+(\w+)\s*\(", re.S)


def declared_tests():
    """(top-level class, method) of every test method in the test sources."""
    found = set()
    for source in TEST_SOURCES.rglob("*.java"):
        found |= {(source.stem, method) for method in TEST_METHOD.findall(source.read_text(encoding="utf-8"))}
    return found


def reported_runs():
    """(top-level class, method, outcome) of every test run in Surefire's reports; outcome is None when it passed."""
    runs = []
    for report in REPORTS.glob("TEST-*.xml"):
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            top_class = case.get("classname").rsplit(".", 1)[-1].split("$")[0]
            method = re.split(r"[(\[]", case.get("name"), maxsplit=1)[0]
            outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), None)
            runs.append((top_class, method, outcome))
    return runs


def test_junit_suite_passes_and_runs_every_test_method():
    shutil.rmtree(REPORTS, ignore_errors=True)  # reports of a renamed or removed test must not count
    result = subprocess.run(["mvn", "-B", "-Dstyle.color=never", "-f", str(HOME / "kit/pom.xml"), "test"],
                            env=ENV, capture_output=True, text=True, timeout=900)
    print("\n".join(line for line in result.stdout.splitlines() if "Tests run" in line or "ERROR" in line))
    assert result.returncode == 0, result.stdout[-4000:]
    runs = reported_runs()
    totals = re.findall(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$", result.stdout, re.M)
    assert int(totals[-1][0]) == len(runs), "Maven's total and Surefire's reports disagree"
    assert [run for run in runs if run[2] is not None] == [], "failed, erred or skipped"
    declared = declared_tests()
    assert len(declared) > 100, "the test sources were not found"
    ran = {run[:2] for run in runs}
    assert declared - ran == set(), "test methods that never ran"
    assert ran - declared == set(), "runs of methods the sources do not declare as tests (is TEST_METHOD out of date?)"
