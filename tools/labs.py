"""Running the labs headlessly in the real Java kernel: shared by `make report` and the tests."""
import os
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HOME = Path(__file__).resolve().parent.parent
VEGA_LITE = "application/vnd.vegalite.v5+json"


def lab_paths():
    return sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb"))


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
    nb = nbformat.read(path, as_version=4)
    # execute() starts the kernel and shuts it down (immediately) in its own finally, also on errors
    client = NotebookClient(nb, kernel_name="java-course", timeout=1800, shutdown_kernel="immediate",
                            allow_errors=allow_errors, resources={"metadata": {"path": str(HOME / "labs")}})
    extra = {"COURSE_PRESET": preset, "COURSE_HOME": str(HOME)}
    if scratch is not None:
        extra["COURSE_SCRATCH"] = str(scratch)
    with kernel_environment(extra):
        client.execute()
    return nb
