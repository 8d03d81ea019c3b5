"""Running the labs headlessly in the real Java kernel: shared by `make report` and the tests."""
import os
import re
from contextlib import contextmanager
from pathlib import Path

HOME = Path(__file__).resolve().parent.parent
VEGA_LITE = "application/vnd.vegalite.v5+json"


def lab_paths():
    return sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb"))


def preset_names():
    """The presets a lab runs in (labs/presets.json: every lab has each; lab 00's list them)."""
    import json
    return list(json.loads((HOME / "labs/presets.json").read_text())["00-start-here"])


@contextmanager
def kernel_environment(extra):
    """A kernel started inside this block inherits these variables; the old environment comes back after."""
    saved = dict(os.environ)
    os.environ.update(extra)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def execute(path, preset, scratch=None, allow_errors=False):
    """Executes a lab in the course kernel with COURSE_PRESET=preset; the kernel is always shut down."""
    import nbformat  # here, not at the top: make lab's copies of the labs need none of it, and it takes seconds to load
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    nb = nbformat.read(path, as_version=4)
    # execute() starts the kernel and shuts it down (immediately) in its own finally, also on errors
    client = NotebookClient(nb, kernel_name="java-course", timeout=1800, shutdown_kernel="immediate",
                            allow_errors=allow_errors, resources={"metadata": {"path": str(HOME / "labs")}})
    extra = {"COURSE_PRESET": preset, "COURSE_HOME": str(HOME)}
    if scratch is not None:
        extra["COURSE_SCRATCH"] = str(scratch)
    with kernel_environment(extra):
        try:
            client.execute()
        except CellExecutionError as failed:
            # JJava's reply carries only its own frames: the exception and its frames are in the cell's error output
            raise CellExecutionError(f"{failed}\nThe cell's error output:\n{error_outputs(nb)}", failed.ename, failed.evalue) from None
    return nb


def failures(nb):
    """The error outputs of an executed notebook's cells, in order."""
    return [out for cell in nb.cells for out in cell.get("outputs", []) if out.get("output_type") == "error"]


def error_outputs(nb):
    """The error outputs of a notebook's cells as plain text (no terminal colours)."""
    lines = [line for out in failures(nb) for line in [f"{out.ename}: {out.evalue}", *out.traceback]]
    return "\n".join(re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines)
