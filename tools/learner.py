"""The learner's own copies of the labs, for `make lab` and Binder: nbgrader's student version of each lab (the same
`make assignments` releases: no solution, no hidden test, answer cells empty), made once and then the learner's.
A copy is never written over; when the course's lab has changed since a copy was made, this says so.

    python tools/learner.py [FOLDER]    # FOLDER: COURSE_MY_LABS, else my-labs/ in the course
"""
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from labs import HOME, lab_paths

MADE_FROM = "course_source"  # a copy's notebook metadata: the hash of the lab it was made from


def source_hash(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def student_versions(labs):
    """{lab: notebook JSON} of nbgrader's student version of each lab, generated in a course folder of its own."""
    import classroom_folder  # here: nbgrader takes seconds to load, and a make lab whose copies are there needs none of it
    scratch = Path(tempfile.mkdtemp(prefix=".learner-", dir=classroom_folder.ensure(HOME / "build")))
    try:
        shutil.copy(HOME / "classroom/nbgrader_config.py", scratch / "nbgrader_config.py")
        for lab in labs:
            (scratch / "source" / lab.stem).mkdir(parents=True)
            shutil.copy(lab, scratch / "source" / lab.stem / lab.name)
        classroom_folder.generate(scratch, [lab.stem for lab in labs])
        return {lab: json.loads((scratch / "release" / lab.stem / lab.name).read_text()) for lab in labs}
    finally:
        shutil.rmtree(scratch)


def made_versions(labs):
    """{lab: notebook JSON} of each lab's student version, marked with the hash of the lab it was made from."""
    made = student_versions(labs)
    for lab, notebook in made.items():
        notebook["metadata"][MADE_FROM] = source_hash(lab)
    return made


def write_new(path, notebook):
    """Writes a notebook whole under a name that does not exist yet; nothing if it came meanwhile."""
    partial = path.parent / f".{path.name}.partial"
    try:
        partial.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        os.link(partial, path)
    except FileExistsError:
        pass
    finally:
        partial.unlink(missing_ok=True)


def prepare(folder):
    """Every lab's student version in folder, made now: the course hub's, from which each learner's copies come (its
    learners may not read the sources)."""
    folder.mkdir(parents=True, exist_ok=True)
    for lab, notebook in made_versions(lab_paths()).items():
        (folder / lab.name).unlink(missing_ok=True)
        write_new(folder / lab.name, notebook)


GLOSSARY = HOME / "labs/glossary.md"  # the course's, beside the copies so their links reach it; refreshed each time


def copies(folder, made=None):
    """Makes the copies the folder lacks; says which kept copies were made from an older version of their lab. made: a
    folder where prepare put the student versions (on the hub), else they are made here from the sources."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(GLOSSARY, folder / GLOSSARY.name)
    labs = sorted(made.glob("[0-9][0-9]-*.ipynb")) if made else lab_paths()
    missing = [lab for lab in labs if not (folder / lab.name).exists()]
    if missing:
        print(f"learner: making your copies of {len(missing)} lab(s) in {folder} (no answers in them; yours to edit)")
        versions = {lab: json.loads(lab.read_text()) for lab in missing} if made else made_versions(missing)
        for lab, notebook in versions.items():
            write_new(folder / lab.name, notebook)  # never over a copy made meanwhile (a second make lab)
    for lab in labs:
        if lab in missing:
            continue
        try:
            made_from = json.loads((folder / lab.name).read_text()).get("metadata", {}).get(MADE_FROM)
            current = json.loads(lab.read_text())["metadata"][MADE_FROM] if made else source_hash(lab)
        except (OSError, ValueError, KeyError):
            continue  # a copy the learner broke is theirs to mend; JupyterLab says what is wrong with it
        if made_from and made_from != current:
            print(f"learner: the course's {lab.stem} has changed since your copy was made; yours is kept as it is. For the new "
                  f"version, rename yours (for example to {lab.stem}-mine.ipynb) and run make lab again.")


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("COURSE_MY_LABS") or HOME / "my-labs"
    copies(Path(target).absolute())
