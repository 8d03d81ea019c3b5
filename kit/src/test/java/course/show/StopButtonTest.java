package course.show;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StopButtonTest {
    @Test
    void theJJavaTheKitBuildsAgainstKeepsTheFieldsTheButtonReads() throws ReflectiveOperationException {
        assertEquals(AtomicInteger.class, StopButton.Cells.field(0).getType());
        assertTrue(StopButton.Cells.field(1).getType().getName().endsWith("JJavaExecutionControl"));
        assertEquals(Map.class, StopButton.Cells.field(2).getType());
        // and takes each cell's request holding the kernel's monitor, which underWay looks for
        assertTrue(java.util.Arrays.stream(org.dflib.jjava.jupyter.kernel.BaseKernel.class.getDeclaredMethods())
                .anyMatch(m -> m.getName().equals("handleExecuteRequest") && java.lang.reflect.Modifier.isSynchronized(m.getModifiers())));
    }

    @Test
    void aBurstOfPressesCountsOnceAndAPressAfterAPauseCountsAgain() {
        long t = 1_000_000_000_000L;
        assertTrue(StopButton.counts(t));
        assertFalse(StopButton.counts(t + 5_000_000));
        assertFalse(StopButton.counts(t + 400_000_000));  // each within the burst of the one before
        assertFalse(StopButton.counts(t + 800_000_000));
        assertTrue(StopButton.counts(t + 800_000_000 + StopButton.BURST_NANOS));
    }

    @Test
    void aCellIsUnderWayWhileAThreadHoldsTheKernelsMonitor() throws InterruptedException {
        Object kernel = new Object();
        var cells = new StopButton.Cells(new AtomicInteger(), Map.of());
        assertFalse(cells.underWay(kernel));
        var taken = new java.util.concurrent.CountDownLatch(1);
        var done = new java.util.concurrent.CountDownLatch(1);
        Thread cell = new Thread(() -> {
            synchronized (kernel) {  // as JJava's handleExecuteRequest holds it for a cell's whole run
                taken.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        cell.start();
        taken.await();
        assertTrue(cells.underWay(kernel));
        done.countDown();
        cell.join();
        assertFalse(cells.underWay(kernel));
    }

    @Test
    void aCellIsExecutingWhileJJavaHoldsAnEvaluationItCouldCancel() {
        var running = new java.util.HashMap<String, Object>();
        var cells = new StopButton.Cells(new AtomicInteger(7), running);
        assertFalse(cells.executing());
        running.put("x", new Object());
        assertTrue(cells.executing());
        assertEquals(7, cells.current());
    }
}
