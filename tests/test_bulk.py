"""BulkRandomAccessFile (lab 06): every primitive type, both byte orders, both ways of reaching the
array, sub-ranges and errors, checked against java.nio.ByteBuffer by tests/java/BulkCheck.java. (That the
kit rebuilds the native library when its source changes, and only then, is the kit's NativeTest.)"""
import subprocess

from conftest import ENV, HOME


def test_bulk_random_access_file(tmp_path, native_library):
    classes = tmp_path / "classes"
    javac = f"{ENV['JAVA_HOME']}/bin/javac"
    subprocess.run([javac, "--release", "17", "-d", str(classes), str(HOME / "java-snippets/BulkRandomAccessFile.java"),
                    str(HOME / "tests/java/BulkCheck.java")], check=True, env=ENV)
    library = native_library("bulkraf")
    data = tmp_path / "data"
    data.mkdir()
    out = subprocess.run([f"{ENV['JAVA_HOME']}/bin/java", f"-Djava.library.path={library}", "-cp", str(classes), "BulkCheck",
                          str(data)], env=ENV, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok "), out.stdout
    assert int(out.stdout.split()[1]) > 100
    assert list(data.iterdir()) == []
