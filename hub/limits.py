"""What holds a learner's server on the hub, beside its own rlimits: a cgroup of its own (its memory, its processes and
threads, an equal share of the CPUs), where one can be made (cgroup v1's controllers, writable by root); the disk's
reserve, below which no server starts (the hub's databases and the class's work stay whole); and, as the hub starts,
whether a cgroup can hold anything here at all."""
import os

import sandbox

CPU_SHARES = 1024  # every server the same weight (cgroup v1's default for one): a learner's 40 threads weigh as one server


def walled(settings, name):
    """A server's cgroup: the teacher's memory and tasks, an equal share of the CPUs; None where none can be made."""
    return sandbox.Cgroup.walled(name, settings.memory, settings.tasks, cpu_shares=CPU_SHARES)


def cannot_hold(settings):
    """Why no learner's memory could be held here (a line), or None; HUB_LIMITS=rlimits accepts that on purpose."""
    if settings.limits == "rlimits":
        return None
    probe = walled(settings, f"hub-probe-{os.getpid()}")
    if probe:
        probe.remove()
        return None
    return ("no cgroup can hold a learner's server here: the hub makes one for each (memory, tasks, a CPU share) with "
            "cgroup v1's memory, pids and cpu controllers, writable by root, and this machine lets it make none (cgroup v2 "
            "and systemd's scopes are not yet a way the hub takes); HUB_LIMITS=rlimits starts it anyway, each server held "
            "by its process count alone, its memory not at all")


def disk_short(settings, home):
    """Why a server may not start for lack of disk (a line for the learner), or None: the hub's folder and the learner's
    home each keep HUB_DISK_RESERVE free."""
    for folder in (settings.home, home):
        found = os.statvfs(folder)
        free = found.f_bavail * found.f_frsize
        if free < settings.disk_reserve:
            return (f"the server's disk is nearly full ({free >> 20} MB free where {folder} lies, below the "
                    f"{settings.disk_reserve >> 20} MB it keeps): your server does not start, so that the class's work "
                    "and marks stay whole; tell your teacher")
    return None
