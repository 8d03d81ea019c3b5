"""The kit's and the Java harness's JUnit 5 tests, through Maven Surefire."""
import re
import subprocess

from conftest import ENV, HOME


def test_junit_suite_passes():
    result = subprocess.run(["mvn", "-B", "-Dstyle.color=never", "-f", str(HOME / "kit/pom.xml"), "test"],
                            env=ENV, capture_output=True, text=True, timeout=900)
    totals = re.findall(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$", result.stdout, re.M)
    print("\n".join(line for line in result.stdout.splitlines() if "Tests run" in line or "ERROR" in line))
    assert result.returncode == 0, result.stdout[-4000:]
    run, failures, errors, _ = map(int, totals[-1])
    assert run >= 20 and failures == 0 and errors == 0
