"""Writes the course kernel's kernel.json: the chosen JDK's java run directly on jjava.jar (JJava's stock launcher
starts a second JVM from PATH and ignores JAVA_HOME). setup/setup.sh calls it; a test that needs the course kernel
on another JDK calls it too, so there is one writer of the spec.

usage: kernelspec.py KERNEL_DIR JDK COURSE_HOME FEATURE [PREFIX...]   (PREFIX: a command the java line starts under)"""
import json
import os
import sys

FOREIGN_SINCE = 22  # java.lang.foreign is final from this release (JEP 454); earlier JDKs have no such package


def spec(kernel_dir, jdk, home, feature, prefix):
    startup = [f"{home}/kit/startup.jsh"]
    if feature >= FOREIGN_SINCE:  # where the JDK has it: on an older one the import itself would fail the start
        startup.append(f"{home}/kit/startup-foreign.jsh")
    return {
        # -XX:TieredStopAtLevel=1: the kernel JVM compiles cells and draws charts, short work that the optimising JIT's
        # threads only slow down (a lab's smoke run here: a third less CPU, 9.0 s to 7.5 s), and on two cores they would
        # compete with the measured programs, which run in JVMs of their own with the JDK's default flags.
        # -XX:-UsePerfData: no perf-data file in /tmp/hsperfdata_<user>, which a killed kernel leaves behind (on a hub,
        # one per learner's kernel) and which a JVM of the same pid in a grading sandbox's PID namespace can find locked
        "argv": [*prefix, f"{jdk}/bin/java", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "--add-opens", "jdk.jshell/jdk.jshell=ALL-UNNAMED",
                 "-jar", f"{kernel_dir}/jjava.jar", "{connection_file}"],
        "display_name": f"Java {feature} (course)",
        "language": "java",
        # SIGINT to the kernel's process group (its snippets too), handled by the kit (course.show.StopButton): a burst
        # of presses stops one cell, where JJava's message mode cancelled whatever ran as each queued message was read
        "interrupt_mode": "signal",
        # the kit is on every notebook's classpath, wherever the notebook sits (labs/, an nbgrader release folder), and its
        # packages are imported before the first cell (kit/startup.jsh; JJava reads a path list)
        "env": {"JAVA_HOME": jdk, "COURSE_HOME": home, "JJAVA_CLASSPATH": f"{home}/kit/target/course-kit.jar",
                "JJAVA_STARTUP_SCRIPTS_PATH": os.pathsep.join(startup), "PATH": f"{jdk}/bin:{os.environ['PATH']}"},
        "metadata": {"debugger": False},
    }


if __name__ == "__main__":
    kernel_dir, jdk, home, feature, *prefix = sys.argv[1:]
    with open(os.path.join(kernel_dir, "kernel.json"), "w") as f:
        json.dump(spec(kernel_dir, jdk, home, int(feature), prefix), f, indent=2)
