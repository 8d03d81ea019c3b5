"""make bench's JMH project builds, and JMH found the course's benchmark in it (no timing: ratios go in notes)."""
import subprocess
import zipfile

from conftest import ENV, HOME


def test_bench_builds_with_the_one_byte_read_benchmark():
    result = subprocess.run(["mvn", "-B", "-q", "-Dstyle.color=never", "-f", str(HOME / "bench/pom.xml"), "package"],
                            env=ENV, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    with zipfile.ZipFile(HOME / "bench/target/benchmarks.jar") as jar:
        listed = jar.read("META-INF/BenchmarkList").decode()
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
    assert "course.bench.jmh_generated.OneByteRead_openReadClose_jmhTest" in listed and "AverageTime" in listed, listed
    assert "Main-Class: course.bench.CrossCheck" in manifest, manifest
