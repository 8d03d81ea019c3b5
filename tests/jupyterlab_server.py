"""A JupyterLab server for the browser tests, owned by the test: the course's own on 127.0.0.1 with a token from the
environment, its settings, workspaces and notebook signatures in the test's folder, stopped by its own process group
whatever happens (a CI timeout's SIGTERM too)."""
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager

from conftest import BROWSER_DRIVER, ENV, HOME


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_server(url, server, deadline):
    while time.time() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"JupyterLab exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError("JupyterLab did not answer within 60 s")


def stop(server):
    """SIGTERM to the server's own process group (it and its kernels), SIGKILL if it lingers."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)


def lab_env(tmp_path, **extra):
    """The environment a test's JupyterLab and its browser run in: the learner's configuration (make lab's), the
    server's own folders under tmp_path, a fresh token."""
    return dict(ENV, JUPYTER_TOKEN=secrets.token_hex(16),
                JUPYTER_CONFIG_PATH=str(HOME / "setup/jupyterlab/learner"),  # the learner's JupyterLab, as make lab's
                JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"), JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
                JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "lab-settings"), JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
                COURSE_BROWSER_TOOLS=str(BROWSER_DRIVER), **extra)


@contextmanager
def jupyterlab(root, tmp_path, env):
    """JupyterLab on the folder root while the block runs; yields its base URL. Its log is tmp_path/jupyterlab.log."""
    port = free_port()
    command = [str(HOME / ".venv/bin/jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True"]  # the token comes from the environment, as in make lab
    if os.getuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root otherwise
    log = open(tmp_path / "jupyterlab.log", "w")
    # a CI timeout's SIGTERM must still reach the finally below, which stops the server
    previous = signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt("SIGTERM")))
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_server(f"{base}/api/status?token={env['JUPYTER_TOKEN']}", server, time.time() + 60)
        yield base
    finally:
        stop(server)
        log.close()
        signal.signal(signal.SIGTERM, previous)
    assert server.poll() is not None, "the JupyterLab process is gone"
