"""The C harness's unit tests, built with -Wall -Wextra (-Werror on the gcc the course is kept warning-free on) and
again with ASan/UBSan: every test function in the source is called, and both builds make the same checks."""
import re
import subprocess

from conftest import HOME


def test_c_unit_tests_pass_plain_and_sanitized():
    result = subprocess.run(["bash", str(HOME / "tests/c/run_c_tests.sh")], capture_output=True, text=True, timeout=600)
    print(result.stdout)
    summaries = re.findall(r"^(\d+) passed, (\d+) failed$", result.stdout, re.M)
    assert len(summaries) == 2, result.stdout + result.stderr
    assert all(failed == "0" for _, failed in summaries), result.stdout
    assert summaries[0][0] == summaries[1][0], "the plain and sanitized builds made different checks"
    assert int(summaries[0][0]) > 0
    assert result.returncode == 0, result.stderr


def test_every_c_test_function_is_called():
    source = (HOME / "tests/c/test_harness.c").read_text(encoding="utf-8")
    defined = set(re.findall(r"^static void (test_\w+)\(void\)", source, re.M))
    main = source[source.index("int main(void)"):]
    called = set(re.findall(r"^\s+(test_\w+)\(\);", main, re.M))
    assert len(defined) > 10 and defined == called, f"defined, never called: {defined - called}; called, not defined: {called - defined}"
