package course.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the kit starts, and how one fails: a short command run to its end (a build step, a version
 * probe, fio, the eviction helper) or a snippet's child (Runner). Each is tracked while it lives, so that an
 * interrupt stops it and all it started, and a kernel that shuts down takes them all with it.
 */
public final class Exec {
    private Exec() {
    }

    /** A process failed; its one-line error is the message. */
    public static final class RunFailed extends RuntimeException {
        private final boolean unsupported;

        public RunFailed(String message) {
            this(message, false);
        }

        /** unsupported: this machine cannot run it at all (a snippet's exit status 3, a library not installed), not a fault. */
        public RunFailed(String message, boolean unsupported) {
            super(message);
            this.unsupported = unsupported;
        }

        public boolean unsupported() {
            return unsupported;
        }
    }

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final List<Runnable> AFTER_STOPPING = new java.util.concurrent.CopyOnWriteArrayList<>();

    static {  // a kernel that is shut down or restarted takes what it started with it, grandchildren too (mpirun's ranks)
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LIVE.forEach(p -> {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            });
            AFTER_STOPPING.forEach(Runnable::run);
        }));
    }

    /** Work for a kernel's shutdown once every process is stopped (removing the folders they worked in). */
    public static void atShutdown(Runnable cleanup) {
        AFTER_STOPPING.add(cleanup);
    }

    /** Starts a process and tracks it until stop. */
    public static Process start(ProcessBuilder pb) throws IOException {
        Process p = pb.start();
        LIVE.add(p);
        return p;
    }

    /** Runs a short command to completion and returns its output (stdout and stderr); a failure carries it. */
    public static String run(List<String> cmd, String what) {
        return run(cmd, what, Map.of());
    }

    /** The same, with more environment. An interrupt stops the command and all it started, and says so. */
    public static String run(List<String> cmd, String what, Map<String, String> env) {
        Process p = null;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().putAll(env);
            p = start(pb);
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) throw new RunFailed(what + " failed:\n" + output);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailed("interrupted while " + what);
        } finally {
            if (p != null) stop(p);
        }
    }

    /**
     * SIGTERM first, so a harness removes its own file (mpirun passes it on to every process); SIGKILL
     * after 3 s. Then kills any of the process's own children still alive (the processes an mpirun
     * started) and waits until all are gone, even when the cell was interrupted (again) meanwhile.
     */
    public static void stop(Process child) {
        boolean interrupted = Thread.interrupted();  // an interrupted thread could not wait below
        List<ProcessHandle> family = new ArrayList<>(child.descendants().toList());
        boolean stopping = child.isAlive();  // else it ended by itself, and an mpirun removed its own session folder
        try {
            if (child.isAlive()) {
                child.destroy();
                if (!child.waitFor(3, TimeUnit.SECONDS)) child.destroyForcibly();
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            interrupted = true;
        } finally {
            family.add(child.toHandle());
            family.forEach(ProcessHandle::destroyForcibly);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (family.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                interrupted |= Thread.interrupted();
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            LIVE.remove(child);
            if (stopping) Scratch.forgetOpenMpiSession(child.pid());
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
