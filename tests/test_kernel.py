"""The course kernel as a learner drives it: the stop button stops the running cell and its processes and removes
their files, however it is pressed (a burst of presses, a press while the cell still compiles, a kernel started with
SIGINT ignored), and a kernel killed mid-run leaves nothing the next lab does not sweep away."""
import os
import threading
import time
from pathlib import Path

import pytest

from conftest import cmdline, course_kernel, kernel_env, needs_mpi, survivors
from labs import kernel_environment
import leftovers


def mpiruns_of(folder, expected):
    """The pids of the mpiruns whose command line names folder (a test's scratch: the runs it started, no other test's);
    where one is expected, looked for up to 10 s (a loaded machine may show the run's file before /proc shows it whole)."""
    deadline = time.time() + 10
    while True:
        found = set(leftovers.processes(lambda line, environ: Path(line.split(" ", 1)[0]).name == "mpirun" and str(folder) in line))
        if found or not expected or time.time() > deadline:
            return found
        time.sleep(0.2)


def open_mpi_leftovers(mpiruns):
    """The session folders Open MPI keeps for these mpiruns (TMPDIR/ompi.HOST.UID/pid.PID): one that was killed cannot
    remove its own, and the kit removes it. Only these: other tests' mpiruns come and go meanwhile."""
    return {f for f in Path(os.environ.get("TMPDIR") or "/tmp").glob("ompi.*/pid.*") if int(f.name[4:]) in mpiruns}


INTERRUPTED = [
    pytest.param("01-raw-io", 'lab.sweep("raw_io").languages("c").ops("write").fileSize(Course.parseSize("256m")).repeat(5).run();',
                 "raw_io", ["build/c/raw_io"], id="one process"),
    pytest.param("08-mpi-processes", 'lab.sweep("mpi_file").languages("java").strategies("streams").ops("write").procs(4)'
                 '.fileSize(Course.parseSize("256m")).opSize(Course.parseSize("1m")).repeat(20).run();',
                 "mpi_file", ["mpirun", "MpiFile"], id="an MPI job", marks=needs_mpi),
]


@pytest.mark.parametrize("lab,long_run,snippet,markers", INTERRUPTED)
def test_interrupt_kills_children_and_removes_files(tmp_path, lab, long_run, snippet, markers):
    """The stop button during a long sweep: the child process dies (for an MPI job: mpirun and every
    process it started) and its scratch folder is removed, and Open MPI's session folder of the job too."""
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = course_kernel()
    try:
        reply = kc.execute_interactive(f'import course.*;\nvar lab = Lab.open("{lab}");', timeout=120)
        assert reply["content"]["status"] == "ok"
        outcome = {}
        worker = threading.Thread(target=lambda: outcome.update(reply=kc.execute_interactive(long_run, timeout=300)))
        worker.start()
        deadline = time.time() + 60
        while not list(tmp_path.glob(f"run-*/{snippet}-*.dat")) and time.time() < deadline:
            time.sleep(0.1)
        assert list(tmp_path.glob(f"run-*/{snippet}-*.dat")), "the sweep never started"
        mpiruns = mpiruns_of(tmp_path, expected="mpirun" in markers)
        assert mpiruns or "mpirun" not in markers, "the MPI job's mpirun is not running"
        km.interrupt_kernel()
        worker.join(timeout=60)
        assert not worker.is_alive(), "the cell did not return after the interrupt"
        assert outcome["reply"]["content"]["status"] == "error"

        # JJava returns from the cell at once and stops its evaluation behind it: give the kit's clean-up
        # (SIGTERM, then SIGKILL after 3 s) its few seconds
        deadline = time.time() + 15
        assert survivors(lambda line: any(m in line for m in markers) and str(tmp_path) in line) == [], \
            "a child process outlived the interrupt"
        while list(tmp_path.iterdir()) and time.time() < deadline:
            time.sleep(0.2)
        assert list(tmp_path.iterdir()) == [], "the interrupted run left files behind"
        assert open_mpi_leftovers(mpiruns) == set(), "a stopped mpirun's session folder was left in the temporary folder"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def started(kc, code):
    """Sends a cell and returns its message id once the kernel runs it."""
    sent = kc.execute(code)
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") == sent and m["msg_type"] == "execute_input":
            time.sleep(0.2)
            return sent


def run_and_collect(km, kc, first, second, presses):
    """Sends cell `first`, presses stop `presses` times 5 ms apart once it runs, sends `second` at once, and returns
    both replies' statuses and what `second` printed before the kernel said it was idle."""
    import queue
    a = started(kc, first)
    for _ in range(presses):
        km.interrupt_kernel()
        time.sleep(0.005)
    b = kc.execute(second)
    status, printed, idle = {}, "", False
    deadline = time.time() + 60
    while time.time() < deadline and not (a in status and b in status and idle):
        try:
            m = kc.get_shell_msg(timeout=0.05)
            status[m["parent_header"]["msg_id"]] = m["content"].get("status")
        except queue.Empty:
            pass
        try:
            while True:  # until the queue is empty (queue.Empty)
                m = kc.get_iopub_msg(timeout=0.01)
                if m["parent_header"].get("msg_id") == b:
                    printed += m["content"].get("text", "") if m["msg_type"] == "stream" else ""
                    idle |= m["msg_type"] == "status" and m["content"]["execution_state"] == "idle"
        except queue.Empty:
            pass
    return status.get(a), status.get(b), printed


@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_a_burst_of_stop_presses_stops_one_cell(tmp_path, sigint):
    """Stop pressed eight times within 50 ms while a cell runs, the next cell sent at once (as Run All queues it), ten
    times over: each burst stops the running cell and no other, and the next cell runs whole, its output delivered. In
    JJava's message mode the leftover presses stopped the next cell (16 bursts in 16 here). A press on its own after a
    pause still stops a cell, and one while no cell runs stops none. Also when JupyterLab was started with SIGINT
    ignored (a shell script's background job, some service managers), which a JVM would keep: the kernelspec
    restores it."""
    import signal
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if sigint == "ignored" else None
    try:
        with kernel_environment(kernel_env(tmp_path)):
            km, kc = course_kernel()
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
    try:
        for burst in range(10 if sigint == "default" else 3):
            first, second, printed = run_and_collect(km, kc, "Thread.sleep(30_000);",
                                                     f'Thread.sleep(300); System.out.println("cell {burst} ran");', 8)
            assert (first, second) == ("error", "ok"), f"burst {burst}: the running cell {first}, the next {second}"
            assert f"cell {burst} ran" in printed, f"burst {burst}: the next cell's output was lost ({printed!r})"
        time.sleep(1)
        started(kc, "Thread.sleep(30_000);")
        km.interrupt_kernel()
        assert kc.get_shell_msg(timeout=10)["content"]["status"] == "error", "a lone press after a pause stopped no cell"
        time.sleep(1)
        km.interrupt_kernel()  # while no cell runs: it stops nothing, now or later
        time.sleep(1)
        assert kc.execute_interactive("Thread.sleep(300);", timeout=60)["content"]["status"] == "ok", "a press while idle stopped the next cell"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_press_while_the_cell_still_compiles_stops_it_once_it_runs(tmp_path):
    """JJava can cancel only code that executes. A press that lands while JShell still compiles the cell (here a
    method of 2,000 statements, a second or more; on a busy machine any cell) waits for the cell's code to run and
    stops it then; the next cell, queued behind, runs whole. Before, such a press was lost and the cell ran on."""
    slow = "long slow() { long x = 1;\n" + "".join(f"x += {i} * x ^ {i};\n" for i in range(2000)) + "return x; }\n"
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = course_kernel()
    try:
        first, second, printed = run_and_collect(km, kc, slow + "Thread.sleep(30_000);", 'System.out.println("next ran");', 8)
        assert (first, second) == ("error", "ok"), f"the compiling cell {first}, the next {second}"
        assert "next ran" in printed
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


LONG_RUNS = [  # a sweep that writes for a minute: a C process, a JVM, or an MPI job (mpirun and its ranks)
    pytest.param("raw_io", 'lab.sweep("raw_io").languages("c").ops("write").fileSize(Course.parseSize("256m")).repeat(50).run();', id="c"),
    pytest.param("raw_io", 'lab.sweep("raw_io").languages("java").ops("write").fileSize(Course.parseSize("256m")).repeat(50).run();', id="java"),
    pytest.param("mpi_file", 'lab.sweep("mpi_file").languages("c").strategies("independent").ops("write").procs(List.of(2))'
                 '.fileSize(Course.parseSize("256m")).opSize(Course.parseSize("1m")).repeat(50).run();', id="mpi", marks=needs_mpi),
]


@pytest.mark.parametrize("snippet,long_run", LONG_RUNS)
def test_a_killed_kernels_runs_are_swept_by_the_next_lab(tmp_path, snippet, long_run):
    """A kernel killed mid-run (SIGKILL: no clean-up of its own) leaves its children and run folder; the
    next lab to open stops those orphans, removes the folder and says so, and leaves a live kernel's runs alone."""
    import signal
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = course_kernel()
        km2, kc2 = course_kernel()
    try:
        assert kc.execute_interactive('import course.*;\nvar lab = Lab.open("01-raw-io");', timeout=120)["content"]["status"] == "ok"
        threading.Thread(target=lambda: kc.execute_interactive(long_run, timeout=300), daemon=True).start()
        deadline = time.time() + 60
        while not list(tmp_path.glob(f"run-*/{snippet}-*.dat")) and time.time() < deadline:
            time.sleep(0.1)
        [folder] = [p.parent for p in tmp_path.glob(f"run-*/{snippet}-*.dat")]
        mpiruns = mpiruns_of(folder, expected=snippet == "mpi_file")
        assert mpiruns or snippet != "mpi_file", "the MPI job's mpirun is not running"
        os.kill(km.provisioner.process.pid, signal.SIGKILL)
        km.provisioner.process.wait(timeout=10)
        orphans = [p for p in Path("/proc").glob("[0-9]*") if str(folder) in cmdline(p)]
        assert orphans and folder.exists(), "the killed kernel's child and folder outlive it"
        live = tmp_path / f"run-{km2.provisioner.process.pid}-0-live"  # a live kernel's run (start time unknown: 0)
        live.mkdir()
        reply = []
        kc2.execute_interactive('import course.*;\nvar lab = Lab.open("01-raw-io");', timeout=120, output_hook=reply.append)
        said = "".join(m["content"].get("text", "") for m in reply if m["msg_type"] == "stream")
        assert f"removed 1 run folder(s) a stopped kernel left in {tmp_path}" in said
        assert not folder.exists() and live.exists()
        assert survivors(lambda line: str(folder) in line) == [], "the orphan was stopped"
        assert open_mpi_leftovers(mpiruns) == set(), "a stopped mpirun's session folder was left in the temporary folder"
    finally:
        for manager, client in ((km, kc), (km2, kc2)):
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def test_a_kernel_told_to_shut_down_ends_by_itself(tmp_path):
    """Jupyter's shutdown (a restart, the end of an autograded hand-in, a hub server's stop) waits for the kernel's
    process and sends SIGTERM when it outstays the wait; JJava's idle cell threads alone would keep it a minute. The
    kit ends it on its own (course.show.KernelEnd): status 0 within a wait longer than Jupyter's, not SIGTERM's 143."""
    with kernel_environment(kernel_env(tmp_path)):
        km, kc = course_kernel()
    process = km.provisioner.process
    try:
        assert kc.execute_interactive('import course.*;\nvar lab = Lab.open("01-raw-io");', timeout=120)["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_wait_time = 30.0  # JJava's idle threads live 60 s: only the kit ends it before this
        km.shutdown_kernel(now=False)
    assert process.wait(timeout=60) == 0, "the kernel outstayed Jupyter's wait and was stopped by its signal"
