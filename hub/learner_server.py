"""A learner's server on the hub (the spawner's command, run as the learner): their private folders, their own copies of
the labs made once, then their JupyterLab through JupyterHub."""
import json
import os
import sys
from pathlib import Path

from labs import HOME, lab_paths
from learner import MADE_FROM

from hub.settings import ENVIRONMENT, LEARNER_FOLDER, Settings


def learner_server():
    """A learner's server, as the learner: private folders (their home may be open to others), their own copies of the
    labs made once, then JupyterLab through JupyterHub with the learner's settings. The copies come from the student
    versions the hub's install made (HUB_HOME/labs), or, in an image made from an image tree (a pod on Kubernetes),
    from the course's labs, which are student versions there."""
    os.umask(0o077)
    if os.environ.get("HUB_HOME"):
        made = Settings(home=os.environ["HUB_HOME"]).folder("labs")  # its saved settings are root's: the folders alone
    else:
        made = HOME / "labs"
        if not all(MADE_FROM in json.loads(lab.read_text())["metadata"] for lab in lab_paths()):
            sys.exit(f"hub: the labs in {made} are the sources, answers and all: a learner's server runs on a course hub "
                     "(HUB_HOME) or in an image made from make hub-image-tree")
    folder = Path.home() / LEARNER_FOLDER
    folder.mkdir(exist_ok=True)
    folder.chmod(0o700)
    private = Path.home() / ".java-io-course-tmp"  # TMPDIR: the learner's own, not the /tmp others may plant in (Open MPI's sessions)
    private.mkdir(exist_ok=True)
    private.chmod(0o700)
    import learner
    learner.copies(folder, made=made)
    os.environ.update({
        "COURSE_HOME": str(HOME),
        "COURSE_RESULTS": str(folder / "results"),
        "COURSE_SCRATCH": str(Path.home() / ".java-io-course-scratch"),  # the files runs write: the learner's disk, out of sight
        "TMPDIR": str(private),
        "JUPYTER_CONFIG_PATH": str(HOME / "setup/jupyterlab/hub-learner"),
    })
    os.chdir(folder)  # nbgrader fetches into the server's working folder
    os.execv(str(ENVIRONMENT / "bin/jupyterhub-singleuser"), ["jupyterhub-singleuser", f"--ServerApp.root_dir={folder}"])
