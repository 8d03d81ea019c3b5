"""The Java snippet and its C twin write byte-identical files and read the same checksums."""
import pytest

from conftest import rows, run_snippet, sha256

CASES = [  # (file size, op size): odd sizes and sizes that are not a multiple of the op size
    ("1", "1"), ("4097", "1"), ("10001", "7"), ("64k", "4k"), ("100000", "4k"), ("1m", "64k"),
]


@pytest.mark.parametrize("pattern", ["seq", "rand"])
@pytest.mark.parametrize("file_size,op_size", CASES)
def test_raw_io_twins_agree(commands, tmp_path, pattern, file_size, op_size):
    files, sums = {}, {}
    for language in ("java", "c"):
        target = tmp_path / f"{language}.dat"
        write = run_snippet(commands("raw_io", language), ["--op", "write", "--pattern", pattern, "--file-size", file_size,
                            "--op-size", op_size, "--repeat", "1", "--warmup", "0", "--file", str(target), "--keep"])
        assert write.returncode == 0, write.stderr
        files[language] = sha256(target)
        read = run_snippet(commands("raw_io", language), ["--op", "read", "--pattern", pattern, "--file-size", file_size,
                           "--op-size", op_size, "--repeat", "2", "--warmup", "1", "--file", str(tmp_path / f"{language}-r.dat")])
        assert read.returncode == 0, read.stderr
        runs = rows(read.stdout)
        assert [r["run"] for r in runs] == [0, 1]
        assert len({r["checksum"] for r in runs}) == 1
        sums[language] = (rows(write.stdout)[0]["checksum"], runs[0]["checksum"])
        assert not (tmp_path / f"{language}-r.dat").exists(), "a read run must remove the file it prepared"
    assert files["java"] == files["c"]
    assert sums["java"] == sums["c"]


def test_output_fields_match(commands, tmp_path):
    """Both languages print the same JSON fields in the same order."""
    keys = {}
    for language in ("java", "c"):
        out = run_snippet(commands("raw_io", language), ["--file-size", "4k", "--repeat", "1", "--warmup", "0",
                          "--file", str(tmp_path / f"{language}.dat")])
        assert out.returncode == 0, out.stderr
        keys[language] = [k for k in rows(out.stdout)[0] if k != "language"]
        assert rows(out.stdout)[0]["language"] == language
    assert keys["java"] == keys["c"]


@pytest.mark.parametrize("language", ["java", "c"])
def test_cold_cache_runs(commands, evict_helper, tmp_path, language):
    out = run_snippet(commands("raw_io", language), ["--cache", "cold", "--file-size", "256k", "--op-size", "4k",
                      "--repeat", "2", "--warmup", "0", "--file", str(tmp_path / "cold.dat")],
                      env_extra={"COURSE_EVICT": evict_helper})
    assert out.returncode == 0, out.stderr
    assert [r["cache"] for r in rows(out.stdout)] == ["cold", "cold"]
    assert list(tmp_path.iterdir()) == []
