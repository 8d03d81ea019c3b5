"""Prints the address of the JupyterLab the Makefile starts (make lab, teach, formgrade), with its token, once it
answers: a learner who follows it at once meets the page, not a refused connection. The Makefile starts this just
before it hands its shell to JupyterLab, so JupyterLab is this process's parent; when it ends, so does this.

    python tools/answering.py PORT PAGE     # the token comes in JUPYTER_TOKEN, as JupyterLab's does
"""
import os
import sys
import time
import urllib.error
import urllib.request

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy that http_proxy names


def answers(port, token):
    """Whether the JupyterLab on this port answers with our token (another server on it would not)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/status", headers={"Authorization": f"token {token}"})
    try:
        with DIRECT.open(request, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def main(port, page):
    token = os.environ["JUPYTER_TOKEN"]
    jupyter_lab = os.getppid()
    while os.getppid() == jupyter_lab:  # once it ends this is handed to another parent: nothing to announce
        if answers(port, token):
            print(f"\n    Open it at: http://127.0.0.1:{port}/{page}?token={token}\n", flush=True)
            return
        time.sleep(0.1)


if __name__ == "__main__":
    main(*sys.argv[1:])
