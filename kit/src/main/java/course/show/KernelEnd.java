package course.show;

/**
 * A kernel that is told to shut down ends at once. JJava (1.0a8) answers Jupyter's shutdown request and its main thread
 * returns, but the JVM stays: the threads JJava runs cells on are a cached pool of non-daemon threads that live 60 s
 * after their last cell. Jupyter waits for the process (jupyter_client's graceful shutdown: about 2.6 s here), then
 * sends SIGTERM; every restart, every autograded hand-in and every hub server's stop paid that wait. Here a daemon
 * thread waits for JJava's main thread and exits the JVM as SIGTERM would, running its shutdown hooks (the kit's
 * {@code Exec} stops the snippets still running), with status 0.
 */
public final class KernelEnd {
    private KernelEnd() {
    }

    /** Started by kit/startup.jsh, whose code runs on a cell thread while JJava's main thread is still running; outside a kernel, nothing. */
    public static void install() {
        if (Notebook.kernel() == null) return;
        Thread main = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("main")).findFirst().orElse(null);
        if (main == null) return;  // a JJava that runs otherwise: Jupyter's own wait and SIGTERM still end it
        Thread watch = new Thread(() -> {
            try {
                main.join();
                System.exit(0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "course-kernel-end");
        watch.setDaemon(true);
        watch.start();
    }
}
