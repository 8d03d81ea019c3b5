"""`make lab` serves the learner's own copies of the labs on 127.0.0.1 with its token, and the token is on no process's
command line (where every user of a shared machine could read it with ps); its JupyterLab fetches no news or updates,
offers only the course's kernel and none of nbgrader's teacher tools. `make teach` and `make formgrade` have them."""
import json
import secrets
import subprocess
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from conftest import ENV, HOME
from jupyterlab_server import free_port, stop


def status(url):
    try:
        return urllib.request.urlopen(url, timeout=5).status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return None


def get_json(url):
    return json.load(urllib.request.urlopen(url, timeout=10))


def page(url):
    return urllib.request.urlopen(url, timeout=10).read().decode()


@contextmanager
def served(target, tmp_path, **env):
    """`make TARGET` on a free port with a known token, until it prints its address, which must answer at once (a
    learner follows it as soon as it shows); stopped after the block. Yields the server's address, its token and all
    that make printed up to the address."""
    port, token = free_port(), secrets.token_hex(16)
    env = dict(ENV, COURSE_PORT=str(port), COURSE_TOKEN=token, JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"), **env)
    make = subprocess.Popen(["make", "-s", target], cwd=HOME, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    printed = []
    watchdog = threading.Timer(120, stop, [make])  # a make that never prints its address is stopped, ending the loop
    watchdog.start()
    try:
        for line in make.stdout:  # JupyterLab logs on the same pipe: read on, or it would block writing to it
            printed.append(line)
            if "Open it at: " in line:
                assert status(f"{base}/api/status?token={token}") == 200, f"make {target} printed its address before it answered"
                break
        else:
            raise AssertionError(f"make {target} ended without printing its address: {''.join(printed)[-3000:]}")
        threading.Thread(target=make.stdout.read, daemon=True).start()
        yield base, token, "".join(printed)
    finally:
        watchdog.cancel()
        stop(make)


def test_make_lab_serves_the_learners_copies_without_teacher_tools(tmp_path):
    mine = tmp_path / "my labs"  # a space: the folder is quoted wherever it goes
    mine.mkdir()
    (mine / "00-start-here.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')  # an edited copy
    # a proxy in the learner's environment (one that refuses) must not keep make lab from finding its own JupyterLab
    with served("lab", tmp_path, COURSE_MY_LABS=str(mine), http_proxy="http://127.0.0.1:9") as (base, token, printed):
        assert status(f"{base}/api/status?token=wrong") == 403
        lines = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                lines.append(cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                pass  # a process that ended meanwhile
        assert not [line for line in lines if token in line], "the token is on a command line"
        settings = get_json(f"{base}/lab/api/settings/@jupyterlab/apputils-extension:notification?token={token}")
        defaults = {name: p["default"] for name, p in settings["schema"]["properties"].items()}  # the course's overrides
        assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False, "JupyterLab asks no server for news or updates"
        assert set(get_json(f"{base}/api/kernelspecs?token={token}")["kernelspecs"]) == {"java-course"}
        assert status(f"{base}/formgrader?token={token}") == 404, "no Formgrader for a learner"
        assert '"disabledExtensions": ["@jupyter/nbgrader"]' in page(f"{base}/lab?token={token}"), "nbgrader's menus and panels are not loaded"
        names = {item["name"] for item in get_json(f"{base}/api/contents?token={token}")["content"]}
        assert names >= {"00-start-here.ipynb", "09-jdk-against-jdk.ipynb", "10-past-the-page-cache.ipynb"}
    assert f"token={token}" in printed, "make lab prints the URL with its token"
    assert json.loads((mine / "00-start-here.ipynb").read_text())["cells"] == [], "the learner's edited copy is kept"
    for notebook in mine.glob("*.ipynb"):
        assert "BEGIN SOLUTION" not in notebook.read_text(), f"{notebook.name} holds a solution"


def test_make_teach_serves_the_sources_with_nbgrader(tmp_path):
    classroom = tmp_path / "classroom"
    with served("teach", tmp_path, COURSE_CLASSROOM=str(classroom)) as (base, token, printed):
        assert status(f"{base}/formgrader?token={token}") == 200
        disabled = page(f"{base}/lab?token={token}").split('"disabledExtensions"')[1][:200]
        assert "@jupyter/nbgrader" not in disabled, "nbgrader's teacher tools load"
        source = get_json(f"{base}/api/contents/labs/00-start-here.ipynb?token={token}")
        assert "BEGIN SOLUTION" in json.dumps(source["content"]), "the teacher sees the sources, solutions and all"
    assert (classroom / "nbgrader_config.py").is_file(), "the classroom folder is made, with the course's nbgrader configuration"
    assert f"{base}/lab/tree/labs/00-start-here.ipynb?token={token}" in printed


def test_make_formgrade_refuses_a_folder_that_is_no_classroom(tmp_path):
    """make formgrade on a classroom folder make assignments never made: one line, before JupyterLab starts. (It serving
    Formgrader on a classroom is held by test_classroom's run of the README's round trip.)"""
    classroom = tmp_path / "classroom"
    refused = subprocess.run(["make", "-s", "formgrade"], cwd=HOME, env=dict(ENV, COURSE_CLASSROOM=str(classroom)),
                             capture_output=True, text=True)
    assert refused.returncode != 0 and f"formgrade: no classroom in {classroom} yet: make assignments first" in refused.stderr


def test_make_lab_refuses_a_port_that_is_not_a_number(tmp_path):
    """COURSE_PORT reaches a command line: anything but a port number is refused before JupyterLab starts."""
    for port in ("8888 --ServerApp.ip=0.0.0.0", "80", "$(id)"):
        refused = subprocess.run(["make", "-s", "lab"], cwd=HOME, capture_output=True, text=True, timeout=300,
                                 env=dict(ENV, COURSE_PORT=port, COURSE_MY_LABS=str(tmp_path / "mine")))
        assert refused.returncode != 0 and f"COURSE_PORT={port}: give a port number from 1024 to 65535" in refused.stderr, refused.stderr
