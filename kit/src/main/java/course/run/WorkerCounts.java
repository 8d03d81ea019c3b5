package course.run;

import java.util.ArrayList;
import java.util.List;

/** How many threads or processes a sweep tries: doubling counts, capped by the cores, the file's blocks and the memory allowed. */
public final class WorkerCounts {
    /** The most threads or processes a lab starts, whatever the cores: past it a large machine would start hundreds of JVMs. */
    public static final int MOST = 64;
    /** The memory one MPI process (a JVM of its own, with its buffers) is counted as needing, to cap process counts. */
    public static final long MEMORY_PER_PROCESS = 256L << 20;

    private WorkerCounts() {
    }

    /**
     * Counts to try on a machine with these cores: threadCounts up to perCore × cores, but never more than MOST, than
     * blocks (each worker takes at least one block of the file) or, for processes (one JVM each), than this much memory
     * holds at MEMORY_PER_PROCESS each (0: threads, no memory cap).
     */
    public static List<Integer> counts(int cores, int perCore, long blocks, long memory) {
        long most = Math.min((long) cores * perCore, Math.min(MOST, blocks));
        if (memory > 0) most = Math.min(most, memory / MEMORY_PER_PROCESS);
        return threadCounts((int) Math.max(1, most));
    }

    /** Thread counts to try: 1, 2, 4, … up to and including max (say, twice the cores). */
    public static List<Integer> threadCounts(int max) {
        List<Integer> counts = new ArrayList<>();
        for (int t = 1; t < max; t *= 2) counts.add(t);
        counts.add(max);
        return counts;
    }
}
