"""`make clean` removes what the set-up made and spares what people made, in the course folder only."""
import shutil
import subprocess

from conftest import HOME


def test_clean_spares_grades_and_handins_and_other_folders(tmp_path):
    course, elsewhere = tmp_path / "course", tmp_path / "elsewhere"
    made = ["build/tools/jbang/jbang", "build/raw_io", "scratch/run-1/raw_io.dat", "kit/target/course-kit.jar", "bench/target/benchmarks.jar"]
    kept = ["build/classroom/gradebook.db", "build/classroom/submitted/ada/01-raw-io/01-raw-io.ipynb", "build/handin/handin-ada.zip",
            "data/results/01-raw-io-quick-1.json", "labs/01-raw-io.ipynb"]
    for path in made + kept:
        (course / path).parent.mkdir(parents=True, exist_ok=True)
        (course / path).write_text("x")
    (elsewhere / "build").mkdir(parents=True)
    (elsewhere / "build/mine.txt").write_text("not the course's")
    shutil.copy(HOME / "Makefile", course / "Makefile")
    subprocess.run(["make", "-s", "-f", str(course / "Makefile"), "clean"], cwd=elsewhere, check=True, timeout=60)
    assert [p for p in made if (course / p).exists()] == [], "clean removes build outputs and scratch files"
    assert [p for p in kept if not (course / p).exists()] == [], "clean spares grades, submissions, hand-ins and results"
    assert (elsewhere / "build/mine.txt").exists(), "make -f from another folder leaves that folder alone"
