"""The C harness's unit tests, built with -Wall -Wextra -Werror and again with ASan/UBSan."""
import re
import subprocess

from conftest import HOME


def test_c_unit_tests_pass_plain_and_sanitized():
    result = subprocess.run(["bash", str(HOME / "tests/c/run_c_tests.sh")], capture_output=True, text=True, timeout=600)
    print(result.stdout)
    summaries = re.findall(r"^(\d+) passed, (\d+) failed$", result.stdout, re.M)
    assert len(summaries) == 2, result.stdout + result.stderr
    assert all(int(passed) > 0 and failed == "0" for passed, failed in summaries), result.stdout
    assert result.returncode == 0, result.stderr
