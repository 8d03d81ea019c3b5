package course.show;

import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.dflib.jjava.jupyter.kernel.BaseKernel;
import org.dflib.jjava.kernel.JavaKernel;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The notebook's stop button: a press stops the cell that ran when it was pressed, and no other.
 *
 * <p>The course's kernelspec interrupts by signal: Jupyter sends SIGINT to the kernel's process group, so the
 * snippets a cell started get it too, and this handler (installed by kit/startup.jsh) asks JJava to cancel the cell.
 * Handing each signal straight to JJava failed two ways:
 * <ul>
 * <li>A learner who presses stop five times in a row sends five, and the later ones can arrive after the stopped
 * cell has ended and the next queued cell has begun, stopping it too (in JJava's message mode 7 bursts in 16 did).
 * So presses less than {@link #BURST_NANOS} apart are one press, aimed at the cell that ran at the first.</li>
 * <li>JJava can cancel a cell only while its code executes, not while JShell still compiles it; on a busy machine
 * that takes long enough for a press to land in it, and the press was lost (the suite's burst test, 1 run in 5
 * beside a full test run). So a press waits, looking every {@link #POLL_MILLIS} ms, until its cell's code
 * executes, and is dropped when that cell ends first (the kernel's count of cells moves on). A press while no cell
 * runs stops nothing and waits for nothing.</li>
 * </ul>
 */
public final class StopButton {
    /** Presses closer together than this are one press (a burst of clicks spans tens of milliseconds). */
    static final long BURST_NANOS = 500_000_000L;
    /** How often a waiting press looks whether its cell's code executes yet. */
    static final long POLL_MILLIS = 5;

    private static long lastPress;
    private static boolean pressed;

    private StopButton() {
    }

    /** Takes over SIGINT in a running kernel (outside one, nothing: a plain JVM keeps its own handling). */
    public static void install() {
        JavaKernel kernel = Notebook.kernel();
        if (kernel == null) return;
        Cells cells = Cells.of(kernel);
        SignalHandler before = Signal.handle(new Signal("INT"), signal -> {
            if (counts(System.nanoTime())) stop(kernel, cells);
        });
        if (before == SignalHandler.SIG_IGN) {
            // the JVM leaves a signal it was started ignoring ignored, handler or not (setup.sh's kernelspec restores it)
            System.err.println("course: this kernel was started with SIGINT ignored, so the stop button cannot stop a "
                    + "cell: start JupyterLab from a shell that does not ignore it (not a script's background job)");
        }
    }

    /** Whether a press at this time is a new one: not if another came less than BURST_NANOS before it. */
    static synchronized boolean counts(long now) {
        boolean counts = !pressed || now - lastPress >= BURST_NANOS;
        pressed = true;
        lastPress = now;
        return counts;
    }

    /** Cancels the cell under way now, once its code executes; gives up when the kernel moves to another cell. */
    private static void stop(JavaKernel kernel, Cells cells) {
        if (cells == null) {  // a JJava whose insides differ: hand the press over as it comes
            kernel.interrupt();
            return;
        }
        int cell = cells.current();
        if (!cells.underWay(kernel)) return;  // the kernel is idle: the press stops nothing, and waits for no later cell
        Thread waiting = new Thread(() -> {
            try {
                while (cells.current() == cell) {
                    if (cells.executing()) {
                        kernel.interrupt();
                        return;
                    }
                    Thread.sleep(POLL_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "course-stop-button");
        waiting.setDaemon(true);
        waiting.start();
    }

    /**
     * What JJava knows of the cell under way, read from fields it keeps private (JJava 1.0a8): the count of cells
     * begun ({@code BaseKernel.executionCount}, moved on as a cell's request is taken) and the evaluations JJava
     * could cancel now ({@code JJavaExecutionControl.running}, through {@code CodeEvaluator.execControl}).
     */
    record Cells(AtomicInteger count, Map<?, ?> running) {
        static final String[][] FIELDS = {
            {"org.dflib.jjava.jupyter.kernel.BaseKernel", "executionCount"},
            {"org.dflib.jjava.kernel.execution.CodeEvaluator", "execControl"},
            {"org.dflib.jjava.kernel.execution.JJavaExecutionControl", "running"}};

        /** This kernel's cells, or null (said on stderr) when JJava no longer keeps these fields. */
        static Cells of(JavaKernel kernel) {
            try {
                AtomicInteger count = (AtomicInteger) field(0).get(kernel);
                Object control = field(1).get(kernel.getEvaluator());
                return new Cells(count, (Map<?, ?>) field(2).get(control));
            } catch (ReflectiveOperationException | RuntimeException e) {
                System.err.println("course: the stop button cannot see JJava's cells (" + e + "): a press stops only "
                        + "code that already runs");
                return null;
            }
        }

        static Field field(int i) throws ReflectiveOperationException {
            Field f = Class.forName(FIELDS[i][0], false, BaseKernel.class.getClassLoader()).getDeclaredField(FIELDS[i][1]);
            f.setAccessible(true);
            return f;
        }

        int current() {
            return count.get();
        }

        /** Whether a cell is under way: JJava takes each cell's request in a method synchronized on the kernel. */
        boolean underWay(Object kernel) {
            int id = System.identityHashCode(kernel);
            for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, false)) {
                for (MonitorInfo held : thread.getLockedMonitors()) {
                    if (held.getIdentityHashCode() == id && held.getClassName().equals(kernel.getClass().getName())) return true;
                }
            }
            return false;
        }

        boolean executing() {
            return !running.isEmpty();
        }
    }
}
