"""The hub as a running service: started in the foreground on the saved settings (its ports checked free first),
answering, stopped with its proxy; its systemd unit (make hub-service); and free ports for a hub of a demo's or a test's
own."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from labs import HOME

from hub.answers import close_answers
from hub.limits import cannot_hold
from hub.settings import ENVIRONMENT, PYTHON


def start(settings):
    if os.geteuid() != 0:
        sys.exit("hub: the hub starts each learner's server as that learner: start it as root")
    door = settings.open_door()  # settings saved by an older course let the hub listen anywhere in plain HTTP
    if door:
        sys.exit(f"hub: {door} (make hub with the setting saves it)")
    close_answers(settings)
    held = cannot_hold(settings)
    if held:
        sys.exit(f"hub: {held}")
    taken = taken_port(settings)
    if taken:
        sys.exit(f"hub: {taken}")
    state = settings.folder("state")
    os.chdir(state)
    os.environ["HUB_HOME"] = settings.home
    os.execv(str(ENVIRONMENT / "bin/jupyterhub"), ["jupyterhub", "-f", str(HOME / "hub/jupyterhub_config.py")])


UNIT = "java-io-course-hub.service"
SYSTEM_UNITS = Path("/etc/systemd/system")


def unit_text(settings):
    """The hub's systemd unit: `python -m hub start` on the saved settings, in the course's environment (build/env.sh, as
    make runs it). KillMode=process stops the hub alone, so learners' servers run on through a restart (the hub finds
    them again: HUB_KEEP_SERVERS), and Delegate=yes lets it make their cgroups below its own."""
    return f"""[Unit]
Description=The Java file I/O course's hub (JupyterHub, its proxy and services; {HOME})
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
Environment="HUB_HOME={settings.home}"
WorkingDirectory={settings.folder("state")}
ExecStart=/bin/bash -c 'source "{HOME}/build/env.sh" && exec "{PYTHON}" -m hub start'
KillMode=process
Delegate=yes
Restart=on-failure
RestartSec=5

[Install]
WantedBy=multi-user.target
"""


def install_unit(settings, folder):
    """Writes the unit into folder, checked by systemd-analyze; in systemd's own folder, enabled and started where systemd
    runs this machine; elsewhere (a test, a unit to look at first) only written, and said how to link it."""
    if os.geteuid() != 0:
        sys.exit("hub: service: the hub's unit is root's to install: run it as root (sudo make hub-service)")
    for path in (str(HOME), settings.home):  # systemd reads % and $ in a unit, the unit's bash quotes and backslashes
        if any(ch in path for ch in "'\"\\%$\n"):
            sys.exit(f"hub: service: {path} holds a quote, a backslash, % or $, which a unit's line cannot carry: "
                     "move the course or HUB_HOME to a path without them")
    if not shutil.which("systemd-analyze"):
        sys.exit("hub: service: systemd-analyze checks the unit before it is installed: sudo apt-get install systemd")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    unit = folder / UNIT
    staging = Path(tempfile.mkdtemp(prefix=".hub-unit-", dir=folder))  # systemd-analyze takes a unit by its own name alone
    try:
        partial = staging / UNIT
        partial.write_text(unit_text(settings))
        partial.chmod(0o644)
        checked = subprocess.run(["systemd-analyze", "verify", str(partial)], capture_output=True, text=True)
        if checked.returncode != 0 or checked.stderr.strip():
            sys.exit(f"hub: service: systemd-analyze verify refused the unit: {' '.join(checked.stderr.split())}")
        partial.replace(unit)
    finally:
        shutil.rmtree(staging)
    if folder != SYSTEM_UNITS:
        print(f"hub: the unit is {unit}, checked; systemctl link {unit} && systemctl enable --now {UNIT} puts it to work")
    elif Path("/run/systemd/system").is_dir():  # systemd is PID 1 here
        subprocess.run(["systemctl", "daemon-reload"], check=True)
        subprocess.run(["systemctl", "enable", "--now", UNIT], check=True)
        print(f"hub: {UNIT} enabled and started (systemctl status {UNIT}; journalctl -u {UNIT})")
    else:
        print(f"hub: the unit is {unit}; systemd does not run this machine, so nothing enabled it: under another "
              "supervisor run `make hub` (learners' servers outlive its restarts there too)")


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
