"""What a learning management system's "download all submissions" looks like, and nbgrader's collector for it.

Moodle puts each learner's files in a folder of its own, `Jane Doe_123456_assignsubmission_file_/handin-jane.zip`;
Canvas names each file after the learner, `doejane_12345_67890_handin-jane.zip` (`doejane_LATE_12345_…` when late).
Only the first folder or file name below the download says who a learner is (the LMS wrote it); a name inside a
learner's own zip never does, so no learner can hand in as another. A student id is the LMS's name made plain and
its number: jane-doe-123456, doejane-12345."""
import os
import re
import unicodedata

from traitlets import Unicode

from nbgrader.plugins import FileNameCollectorPlugin

LAYOUTS = {
    "moodle": re.compile(r"(?P<name>.+)_(?P<number>\d+)_assign_?submission_[a-z]+_?"),
    "canvas": re.compile(r"(?P<name>[^_]+?)(?:_LATE)?_(?P<number>\d+)_\d+_(?P<file>.+)"),
}


def learner(entry):
    """(student id, full name) of a top-level entry of a download, or None when no LMS named it."""
    for layout in LAYOUTS.values():
        m = layout.fullmatch(entry)
        if m:
            # nbgrader's grade table quotes nothing: a comma or quote would shift its columns, a leading = + - @ be
            # taken for a formula by a spreadsheet
            name = " ".join(re.sub(r'[,"]', " ", m["name"]).split()).lstrip("=+-@")
            plain = re.sub(r"[^a-z0-9]+", "-", unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower())
            return f"{plain.strip('-')[:40] or 'learner'}-{m['number']}", name
    return None


class LmsCollector(FileNameCollectorPlugin):
    """nbgrader zip_collect's collector: a lab's notebook anywhere in a learner's part of the download."""
    extracted = Unicode(help="the folder nbgrader extracted the download into").tag(config=True)
    lab = Unicode(help="the lab being collected: its notebook is LAB.ipynb").tag(config=True)

    def collect(self, submitted_file):
        parts = os.path.relpath(submitted_file, self.extracted).split(os.sep)
        who = learner(parts[0])
        # Canvas renames a learner's second upload NAME-1.ipynb; a notebook straight in the download keeps its prefix
        own_name = LAYOUTS["canvas"].fullmatch(parts[0])["file"] if len(parts) == 1 and who else parts[-1]
        if who is None or not re.fullmatch(re.escape(self.lab) + r"(-\d+)?\.ipynb", own_name):
            return None
        return {"student_id": who[0], "file_id": f"{self.lab}.ipynb"}
