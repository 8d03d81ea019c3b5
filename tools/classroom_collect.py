"""make collect: an LMS's "download all submissions" of one lab, every archive checked, sorted by nbgrader's zip_collect
into the classroom's submitted/ (tools/lms.py reads Moodle's and Canvas's layouts)."""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from classroom_folder import NBGRADER, ROOT, gradebook, prepare
from labs import HOME

# What one learner's part of an LMS download may hold: a few files, none of them links, folders out of it or archives
# inside archives, of a size a lab's notebooks and results need (a lab's results are at most 16 MB, Handins says).
MOST_ENTRIES, MOST_BYTES = 1000, 256 << 20
DOWNLOAD_ENTRIES, DOWNLOAD_BYTES = 100_000, 16 << 30  # the whole download, unpacked
ARCHIVES = (".zip", ".gz", ".tar", ".tgz", ".bz2", ".xz", ".7z", ".rar")  # only a zip may be unpacked, and none inside a hand-in


def collect(lab, download):
    """Sorts an LMS's "download all submissions" of one lab (a zip, or the folder it unpacks to; Moodle's and
    Canvas's layouts, see tools/lms.py) into submitted/<student>/<lab>/<lab>.ipynb with nbgrader's zip_collect, and
    names each learner in the gradebook. Every archive is checked before nbgrader unpacks it: one that is not a zip,
    holds a link, a path out of it, an archive or too much is set aside under downloaded/<lab>/refused/ with a one-line
    reason, and the others are collected. The hand-in zips stay in downloaded/<lab>/archive/ for the class view."""
    import lms
    download = Path(download)
    base = ROOT / "downloaded" / lab
    archive, refused = base / "archive", base / "refused"
    for folder in (archive, refused, base / "extracted"):
        shutil.rmtree(folder, ignore_errors=True)
    archive.mkdir(parents=True)
    if download.is_dir():
        shutil.copytree(download, archive, symlinks=True, dirs_exist_ok=True)
    else:
        problem = archive_problem(download, DOWNLOAD_BYTES, nested_ok=True)
        if problem:
            shutil.rmtree(base)
            sys.exit(f"classroom: {download}: {problem}")
        with zipfile.ZipFile(download) as z:
            z.extractall(archive)
    set_aside = []
    for path in sorted(archive.rglob("*")):
        why = None
        if path.is_symlink():
            why = "a symbolic link"
        elif path.is_file() and path.suffix in ARCHIVES:
            why = archive_problem(path, MOST_BYTES, nested_ok=False) if path.suffix == ".zip" else "not a zip"
        if why:
            relative = path.relative_to(archive)
            (refused / relative).parent.mkdir(parents=True, exist_ok=True)
            path.rename(refused / relative)
            set_aside.append(f"{relative}: {why}")
    for line in set_aside:
        print(f"classroom: left out {line}", file=sys.stderr)
    prepare()
    subprocess.run([NBGRADER, "zip_collect", lab, "--force", "--strict", "--collector=lms.LmsCollector",
                    f"--LmsCollector.extracted={base / 'extracted'}", f"--LmsCollector.lab={lab}"],
                   cwd=ROOT, check=True, env=dict(os.environ, PYTHONPATH=str(HOME / "tools")))
    names = dict(filter(None, (lms.learner(entry.name) for entry in archive.iterdir())))
    collected = sorted(d.parent.name for d in (ROOT / "submitted").glob(f"*/{lab}") if d.parent.name in names)
    with gradebook(ROOT) as book:
        for student in collected:
            first, _, last = names[student].rpartition(" ")
            book.update_or_create_student(student, first_name=first or None, last_name=last)
    print(f"collected {len(collected)} hand-ins of {lab} into {ROOT / 'submitted'}: {', '.join(collected) or 'none'}")


def archive_problem(path, most_bytes, nested_ok):
    """Why a zip may not be unpacked (not a zip, a link, a path out of it, an archive inside where none may be,
    more entries than it may hold or most_bytes unpacked), or None. Read from its directory: nothing is unpacked."""
    try:
        with zipfile.ZipFile(path) as z:
            entries = z.infolist()
    except (OSError, zipfile.BadZipFile) as e:
        return f"not a zip ({e})"
    most_entries = DOWNLOAD_ENTRIES if nested_ok else MOST_ENTRIES
    if len(entries) > most_entries:
        return f"more than {most_entries:,} files"
    if sum(e.file_size for e in entries) > most_bytes:
        return f"more than {most_bytes >> 20} MiB unpacked"
    for e in entries:
        name = e.filename
        if name.startswith("/") or "\\" in name or ".." in Path(name).parts:
            return f"a path out of it ({name})"
        mode = e.external_attr >> 16  # nbgrader's unpacking gives each file the mode its zip says
        if mode & 0o170000 == 0o120000:
            return f"a symbolic link ({name})"
        if mode & 0o7000:
            return f"a file that would run as its owner (set-user-id or set-group-id: {name})"
        if not nested_ok and Path(name).suffix in ARCHIVES:
            return f"an archive inside ({name})"
    return None
