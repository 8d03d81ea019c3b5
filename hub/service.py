"""The hub as a running service: started in the foreground on the saved settings (its ports checked free first),
answering, stopped with its proxy; and free ports for a hub of a demo's or a test's own."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from labs import HOME

from hub.answers import close_answers
from hub.settings import ENVIRONMENT


def start(settings):
    if os.geteuid() != 0:
        sys.exit("hub: the hub starts each learner's server as that learner: start it as root")
    door = settings.open_door()  # settings saved by an older course let the hub listen anywhere in plain HTTP
    if door:
        sys.exit(f"hub: {door} (make hub with the setting saves it)")
    close_answers(settings)
    taken = taken_port(settings)
    if taken:
        sys.exit(f"hub: {taken}")
    state = settings.folder("state")
    os.chdir(state)
    os.environ["HUB_HOME"] = settings.home
    os.execv(str(ENVIRONMENT / "bin/jupyterhub"), ["jupyterhub", "-f", str(HOME / "hub/jupyterhub_config.py")])


def taken_port(settings):
    """Which of the hub's ports another program holds, in words, or None: on a shared server a learner's program could
    take one first (the hub's own API, say) and answer in the hub's place."""
    for part, port in settings.ports().items():
        address = settings.ip if part == "public" else "127.0.0.1"
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a port the hub itself left a moment ago is free
            try:
                probe.bind((address, port))
            except OSError:
                return (f"port {port} ({part}) is taken by another program (ss -ltnp 'sport = :{port}' names it): stop it, "
                        "or give the hub other ports (HUB_PORT)")
    return None


def answering(url, process, seconds, verify=True):
    """Whether the hub started as `process` answers at url within `seconds` (False as soon as it has exited); verify
    names the certificate to trust, where the hub speaks TLS with its own."""
    import requests
    deadline = time.time() + seconds
    while process.poll() is None and time.time() < deadline:
        try:
            if requests.get(f"{url}/hub/api", timeout=5, verify=verify).ok:
                return True
        except requests.ConnectionError:
            pass
        time.sleep(0.5)
    return False


def stop_hub(process, home):
    """Stops a hub started as `process` (SIGTERM: JupyterHub stops every server, its services and its proxy), and its
    proxy if the hub could not (configurable-http-proxy's pid is in the hub's state folder)."""
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    try:
        os.kill(int((Path(home) / "state/proxy.pid").read_text()), signal.SIGKILL)
    except (OSError, ValueError):
        pass  # gone with the hub, as it should be


def free_ports(count):
    """count free ports in a row on the loopback, below the kernel's ephemeral range: a port in it may be taken between
    the hub's restarts by any program's outgoing connection or by an MPI job's listener (the culler test lost ngshare's so)."""
    first_ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    low, high = 20000, first_ephemeral if first_ephemeral > 21000 else 65000  # an odd range: anywhere from 20000
    start = low + os.getpid() % (high - low - count)  # two test runs at once start apart
    for base in [*range(start, high - count, 11), *range(low, start, 11)]:
        try:
            sockets = [socket.create_server(("127.0.0.1", base + i)) for i in range(count)]
        except OSError:
            continue
        for s in sockets:
            s.close()
        return base
    sys.exit("hub: no free ports on the loopback")
