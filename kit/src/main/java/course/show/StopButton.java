package course.show;

import org.dflib.jjava.kernel.JavaKernel;

/**
 * The notebook's stop button, counted once per burst.
 *
 * <p>The course's kernelspec interrupts by signal: Jupyter sends SIGINT to the kernel's process group, so the
 * snippets a cell started get it too, and this handler (installed by kit/startup.jsh) hands it to JJava, which
 * cancels the cell that runs. A learner who presses stop five times in a row sends five: the first stops the cell,
 * and any that came after the next queued cell had started would stop that one as well (in JJava's message mode
 * 7 bursts in 16 did). So a press counts only if none came in the BURST_NANOS before it; the presses of a burst,
 * each within that time of the last, count once.
 */
public final class StopButton {
    /** Presses closer together than this are one press (a burst of clicks spans tens of milliseconds). */
    static final long BURST_NANOS = 500_000_000L;

    private static long lastPress;
    private static boolean pressed;

    private StopButton() {
    }

    /** Takes over SIGINT in a running kernel (outside one, nothing: a plain JVM keeps its own handling). */
    public static void install() {
        JavaKernel kernel = Notebook.kernel();
        if (kernel == null) return;
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> {
            if (counts(System.nanoTime())) kernel.interrupt();
        });
    }

    /** Whether a press at this time stops the running cell: not if another came less than BURST_NANOS before it. */
    static synchronized boolean counts(long now) {
        boolean counts = !pressed || now - lastPress >= BURST_NANOS;
        pressed = true;
        lastPress = now;
        return counts;
    }
}
