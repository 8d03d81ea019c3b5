"""A class on the course hub, simulated and timed: `make hub-demo LEARNERS=30` (as root, on a server where make hub runs).

Unix users it makes (LEARNERS learners and an instructor) log in to a course hub of its own (python -m hub, in a
folder of build/, on free loopback ports), all at once as a class starting: each starts their server, fetches lab 00,
runs every code cell of it in the smoke preset in their own course kernel (over the kernel's WebSocket, as JupyterLab
does), and submits. Then the teacher grades (make hub-grade: each hand-in in the sandbox) and each learner fetches the
feedback. It prints how long each step took and what the learners' processes held at most (PSS), the figures behind
the README's sizing table, and removes everything it made (users, groups, the hub's folder, processes)."""
import argparse
import grp
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from labs import HOME
from sandbox import held_by

from hub.answers import unreachable
from hub.client import COURSE, LAB, HubUser
from hub.service import answering, free_ports, stop_hub
from hub.settings import LEARNER_FOLDER, PYTHON, Settings, grader, groups


def platform_cpu():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"




class Sampler(threading.Thread):
    """The most the demo's users' processes held together (PSS), sampled every two seconds."""

    def __init__(self, uids):
        super().__init__(daemon=True)
        self.uids, self.peak, self.stopping = set(uids), 0, threading.Event()

    def run(self):
        while not self.stopping.wait(2):
            self.peak = max(self.peak, held_by(self.uids))


def learner_round(url, user, password):
    """One learner's part until the hand-in: {step: seconds}, and the cells that ended in an error."""
    times, began = {}, time.time()
    person = HubUser(url, user, password)
    person.start_server()
    times["log in, server started"] = time.time() - began
    person.assignments("fetch")
    [path] = [n["path"] for n in person.assignments()[LAB]["notebooks"]]
    began = time.time()
    errors = person.run_notebook(path)
    times[f"{LAB} run in its kernel"] = time.time() - began
    person.assignments("submit")
    return person, times, errors


def main(argv):
    parser = argparse.ArgumentParser(prog="hub-demo", description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default="30")
    args = parser.parse_args(argv)
    if not (args.learners.isdigit() and 1 <= int(args.learners) <= 200):
        sys.exit(f"hub-demo: LEARNERS={args.learners}: a whole number from 1 to 200")
    args.learners = int(args.learners)
    if os.geteuid() != 0:
        sys.exit("hub-demo: it makes Unix users and starts a hub: run it as root (sudo make hub-demo)")
    unreachable()
    tag = f"{os.getpid() % 10000:04d}"
    learners = [f"demo{tag}l{i:03d}" for i in range(1, args.learners + 1)]
    teacher = f"demo{tag}t"
    passwords = {user: secrets.token_hex(12) for user in [teacher, *learners]}
    users_before = {p.pw_name for p in pwd.getpwall()}
    groups_before = {g.gr_name for g in grp.getgrall()}
    folder = Path(tempfile.mkdtemp(prefix="hub-demo-", dir=HOME / "build"))
    folder.chmod(0o755)
    homes = folder / "home"
    homes.mkdir(mode=0o755)
    port = free_ports(len(Settings.ports_for(0, (COURSE,))))  # the hub's ports for one course
    env = dict(os.environ, HUB_HOME=str(folder / "hub"), HUB_IP="127.0.0.1", HUB_PORT=str(port), HUB_PRESET="smoke",
               INSTRUCTORS=teacher, LEARNERS=" ".join(learners), HUB_COURSES=COURSE)
    url, hub, log = f"http://127.0.0.1:{port}", None, HOME / "build/hub-demo.log"  # kept afterwards, for what went wrong
    # a SIGTERM (Ctrl-C's sibling, a timeout's) still reaches the clean-up below: users, groups, processes, folders
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("hub-demo: stopped; removing what it made"))
    step = lambda what, seconds: print(f"hub-demo: {what}: {seconds:.0f} s", flush=True)  # noqa: E731
    try:
        for user in [teacher, *learners]:
            subprocess.run(["useradd", "--create-home", "--base-dir", str(homes), "--shell", "/bin/bash", user], check=True)
        subprocess.run(["chpasswd"], input="".join(f"{u}:{p}\n" for u, p in passwords.items()), text=True, check=True)
        tool = [PYTHON, "-m", "hub"]
        subprocess.run([*tool, "install"], env=env, check=True, stdout=subprocess.DEVNULL)
        hub = subprocess.Popen([*tool, "start"], env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
        if not answering(url, hub, 120):
            sys.exit(f"hub-demo: the hub did not start (its log: {log})")
        subprocess.run([*tool, "release", LAB], env=env, check=True, capture_output=True)
        sampler = Sampler(pwd.getpwnam(u).pw_uid for u in learners)
        sampler.start()
        began = time.time()
        with ThreadPoolExecutor(max_workers=len(learners)) as pool:
            futures = {user: pool.submit(learner_round, url, user, passwords[user]) for user in learners}
        failed = {user: future.exception() for user, future in futures.items() if future.exception()}
        if len(failed) == len(learners):
            sys.exit(f"hub-demo: no learner could finish ({next(iter(failed.values()))!r}; the hub's log: {log})")
        for user, error in failed.items():  # said, and the class goes on without them, as a teacher's would
            print(f"hub-demo: {user} could not finish: {error!r}"[:400])
        rounds = [futures[user].result() for user in learners if user not in failed]
        step(f"{len(learners)} learners at once: log in, start, fetch, run {LAB} in smoke, submit "
             f"({len(rounds)} finished)", time.time() - began)
        for what in rounds[0][1]:
            spent = sorted(r[1][what] for r in rounds)
            print(f"hub-demo:   {what}: median {spent[len(spent) // 2]:.0f} s, slowest {spent[-1]:.0f} s")
        print(f"hub-demo:   cells that ended in an error (unanswered exercises): {sorted({r[2] for r in rounds})} per learner")
        sampler.stopping.set()
        print(f"hub-demo:   the learners' processes held at most {sampler.peak / 2**30:.1f} GiB together "
              f"({sampler.peak / len(learners) / 2**20:.0f} MiB a learner)")
        print(f"hub-demo:   CPU: {os.cpu_count()} cores, {platform_cpu()}")
        began = time.time()
        graded = subprocess.run([*tool, "grade", LAB], env=env, capture_output=True, text=True)
        if graded.returncode != 0:
            sys.exit(f"hub-demo: grading failed: {graded.stderr[-2000:]}")
        step(f"the teacher's make hub-grade of {len(learners)} hand-ins (collect, sandboxed autograde, feedback, grades.csv)",
             time.time() - began)
        began = time.time()
        with ThreadPoolExecutor(max_workers=len(learners)) as pool:
            list(pool.map(lambda r: r[0].assignments("fetch_feedback"), rounds))
        missing = [u for u in learners if u not in failed and not list((homes / u / LEARNER_FOLDER / LAB / "feedback").glob(f"*/{LAB}.html"))]
        step("every learner fetches their feedback", time.time() - began)
        if missing:
            sys.exit(f"hub-demo: no feedback reached {', '.join(missing)}")
        rows = (folder / "hub/classrooms" / COURSE / "grades.csv").read_text().splitlines()
        print(f"hub-demo: grades.csv holds {len(rows) - 1} rows; every learner who handed in fetched their feedback")
        if failed:
            sys.exit(f"hub-demo: {len(failed)} of {len(learners)} learners could not finish (the hub's log: {log})")
    finally:
        stop_hub(hub, folder / "hub")
        made = [u for u in [teacher, *learners, grader(COURSE)] if u not in users_before]
        for user in made:
            subprocess.run(["pkill", "-KILL", "-u", user], check=False)
        for user in made:
            subprocess.run(["userdel", "--remove", user], check=False, capture_output=True)
        for group in groups(COURSE).values():
            if group not in groups_before:
                subprocess.run(["groupdel", group], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
