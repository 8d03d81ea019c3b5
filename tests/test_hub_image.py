"""The course hub beyond one server: the image tree (the course as learners may see it, which a hub's image is built
from) holds no answers, and hub/k8s/values.yaml, which no Kubernetes here can run, parses and names the image and the
settings the one-server hub uses (hub/settings.py's, each from its one place)."""
import json
import subprocess

import yaml

from conftest import ENV, HOME
from hub.answers import HIDDEN
from hub.settings import LANDING, NGSHARE, Settings
from learner import MADE_FROM

VALUES = HOME / "hub/k8s/values.yaml"
PYTHON = str(HOME / ".venv/bin/python")


def test_the_image_tree_holds_no_answers(tmp_path):
    """Made as a teacher makes it, by make from any folder (make -f): the Makefile finds its own course."""
    tree = tmp_path / "tree"
    made = subprocess.run(["make", "-s", "-f", str(HOME / "Makefile"), "hub-image-tree", f"IMAGE_TREE={tree}"], cwd=tmp_path,
                          env=ENV, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr
    assert not any((tree / part).exists() for part in HIDDEN), "no tests, no history"
    assert (tree / "binder/postBuild").exists() and (tree / "setup/setup.sh").exists() and (tree / "kit/pom.xml").exists()
    labs = sorted((tree / "labs").glob("[0-9][0-9]-*.ipynb"))
    assert [lab.name for lab in labs] == [lab.name for lab in sorted((HOME / "labs").glob("[0-9][0-9]-*.ipynb"))]
    for notebook in tree.rglob("*.ipynb"):
        text = notebook.read_text()
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, f"answers in {notebook}"
    assert all(MADE_FROM in json.loads(lab.read_text())["metadata"] for lab in labs), "each lab its student version"
    again = subprocess.run([PYTHON, "-m", "hub", "image-tree", str(tree)], env=ENV,
                           capture_output=True, text=True, timeout=60)
    assert (again.returncode, again.stderr) == (1, f"hub: image-tree: {tree} exists; name a new folder\n")


def test_a_learner_s_server_is_refused_on_the_sources(tmp_path):
    """Outside a hub (no HUB_HOME) the learner's server starts only where the labs are student versions."""
    out = subprocess.run([PYTHON, "-m", "hub", "learner"], env=dict(ENV, HOME=str(tmp_path)),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stderr.startswith(f"hub: the labs in {HOME / 'labs'} are the sources"), out.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_kubernetes_values_name_the_one_server_hub_s_settings():
    values = yaml.safe_load(VALUES.read_text())
    defaults = Settings()
    server = values["singleuser"]
    assert server["cmd"] == ["python", "-m", "hub", "learner"]
    assert "--target-repo-dir /srv/java-io-course" in VALUES.read_text(), "the image puts the course where cmd runs it"
    assert server["defaultUrl"] == LANDING
    assert server["extraEnv"]["COURSE_ANSWERS"] == defaults.answers
    assert server["extraEnv"]["COURSE_PRESET"] == defaults.preset
    assert server["extraEnv"]["COURSE_NGSHARE"].endswith(f"/services/{NGSHARE}")
    amount, unit = int(server["memory"]["limit"][:-1]), server["memory"]["limit"][-1]
    assert amount << {"M": 20, "G": 30}[unit] == defaults.memory, "KubeSpawner reads 2G as 2 GiB"
    assert values["cull"] == {"enabled": True, "timeout": defaults.idle_minutes * 60}
    assert f'"name": "{NGSHARE}"' in values["hub"]["extraConfig"]["ngshare.py"]
    compile(values["hub"]["extraConfig"]["ngshare.py"], "ngshare.py", "exec")
    assert server["image"]["name"].endswith("/java-io-course")
