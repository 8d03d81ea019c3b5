//SOURCES Workers.java Job.java Flags.java Space.java Output.java Data.java
// The experiment protocol every Java snippet speaks, and its first room: the run and its clock, and what a read
// brings in. A snippet names this file alone (//SOURCES harness/java); the line above brings the other
// rooms, each a class of its own: Workers (threads and processes), Job (where an MPI job ran), Flags, Space
// (memory and scratch space), Output (the run record and the one-line errors) and Data (the bytes, text and
// random offsets both languages compute). Its twin is c-snippets/harness/: the same rooms, file for file (harness.c
// here), the same functions in the same order in each, and a C name is the Java one in snake_case after its
// class's prefix (harness_, workers_, job_, flags_, space_, output_, data_, text_, prng_); tests/test_mirror.py
// holds the two to it. A snippet supplies only its table of ways (the I/O it measures, strategy by strategy);
// everything around it lives in these rooms.
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

final class Harness {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * The I/O a snippet measures, and nothing else: the clock runs from its first line to its last.
     * A read hands what each operation brought in to use(...) and returns the sum of what use returned
     * (a byte read alone is added as it is); a write returns 0, since the harness checks its file.
     */
    interface Strategy {
        long run(Options o) throws IOException;
    }

    /**
     * The one call the clock times. Its name marks the strategy's own samples in a CPU profile
     * (course.CpuProfile), however deep the strategy's frames; the untimed check run calls the strategy directly.
     */
    static long timedRun(Strategy strategy, Options o) throws IOException {
        return strategy.run(o);
    }

    /** What the program holds before it starts (its array, say): made once, before any run, never timed. */
    interface Prepare {
        void prepare(Options o) throws IOException;
    }

    /** A snippet's own rule on its flags (which strategy allows which pattern, say), checked before any I/O. */
    interface Check {
        void check(Options o) throws UsageError;
    }

    /**
     * Operations in the current run that the program's own buffer could not serve, each costing a
     * system call; a strategy that keeps its own buffer counts them, the rest leave -1 (not counted).
     */
    static long misses = -1;

    /** Operations in the current run, when the strategy counts them itself (lines of text, say); -1: file ÷ op size. */
    static long operationsDone = -1;

    /** The monotonic clock read just before and just after the strategy (a test replaces it to see what it encloses). */
    static java.util.function.LongSupplier clock = System::nanoTime;

    /** The parsed command line; the same fields, in the same order, as `struct options` in C. */
    record Options(String snippet, String strategy, String op, String pattern, long fileSize, int opSize,
                   int bufferSize, int repeat, int warmup, int threads, int depth, int procs, String cache, String text, String type,
                   String lock, Path file, long seed, boolean keep) {
        /** Sequential runs cover the file (the last operation may be short); random runs pick whole slots. */
        long operations() {
            return pattern.equals("seq") ? (fileSize + opSize - 1) / opSize : fileSize / opSize;
        }

        long bytes() {
            return pattern.equals("seq") ? fileSize : operations() * opSize;
        }

        /** Threads or processes (procs is 0 for snippets without --procs) that share the file out between them. */
        int workers() {
            return Math.max(1, threads) * Math.max(1, procs);  // 0: the snippet takes no such flag
        }
    }

    /** A bad flag or value: the message names it and what is allowed. */
    static final class UsageError extends Exception {
        UsageError(String message) {
            super(message);
        }
    }

    /** The exit status of a run this machine refuses (Unsupported); 1 is an I/O error, 2 a bad flag. */
    static final int UNSUPPORTED = 3;

    /**
     * This machine or file system cannot run the strategy at all (a file system that refuses direct I/O, a
     * kernel that refuses io_uring): not a fault. The run says why in one line and ends with status UNSUPPORTED,
     * and the kit's sweeps skip that part of a lab, saying so.
     */
    static final class Unsupported extends IOException {
        Unsupported(String why) {
            super(why);
        }
    }

    /**
     * One way a snippet does its work, a row of the table each snippet declares (as fio declares its engines): the
     * strategy's name, the operation and the pattern it serves (ANY: either), and its function. The harness runs the
     * one row that serves the flags given, and lab.code finds a strategy's code by the same rule. The function is the
     * whole timed work (a Strategy), or what the snippet's Frame calls (one thread's share of the file, say).
     */
    record Way<F>(String strategy, String op, String pattern, F fn) {
        boolean serves(String strategy, String op, String pattern) {
            return this.strategy.equals(strategy) && (this.op == ANY || this.op.equals(op)) && (this.pattern == ANY || this.pattern.equals(pattern));
        }

        /** The flags it serves, as a learner types them ("--op write --pattern seq", "--op read"); never asked of a row serving any. */
        String describe() {
            if (op == ANY) return "--pattern " + pattern;
            return pattern == ANY ? "--op " + op : "--op " + op + " --pattern " + pattern;
        }
    }

    /** In a Way: serves either operation, or either pattern. */
    static final String ANY = null;

    /** The work around a way's function that every way of a snippet shares (its threads, say): timed whole, as a Strategy. */
    interface Frame<F> {
        long run(Options o, F fn) throws IOException;
    }

    /** The strategies a table names, each once, in its order: what --strategy allows, the first its default. */
    static List<String> wayStrategies(List<? extends Way<?>> ways) {
        List<String> names = new ArrayList<>();  // plain loops: a fresh JVM pays milliseconds to link its first stream
        for (Way<?> w : ways) {
            if (!names.contains(w.strategy())) names.add(w.strategy());
        }
        return names;
    }

    /** The row that serves o's flags; none is a usage error naming what the strategy serves. */
    static <F> Way<F> findWay(List<Way<F>> ways, Options o) throws UsageError {
        List<String> served = new ArrayList<>();
        for (Way<F> w : ways) {
            if (w.serves(o.strategy(), o.op(), o.pattern())) return w;
            if (w.strategy().equals(o.strategy())) served.add(w.describe());
        }
        throw new UsageError("--strategy " + o.strategy() + " --op " + o.op() + " --pattern " + o.pattern() + ": no such way ("
                + o.strategy() + " serves " + String.join("; ", served) + ")");
    }

    /**
     * Parses the flags, prepares, then runs: for a read, one untimed check run first; then warm-up and
     * measured runs, one JSON line per measured run.
     */
    static void run(String snippet, List<Way<Strategy>> ways, String[] args, Check check) {
        run(snippet, ways, args, check, o -> { });
    }

    static void run(String snippet, List<Way<Strategy>> ways, String[] args, Check check, Prepare prepare) {
        run(snippet, ways, args, check, prepare, (o, fn) -> fn.run(o));
    }

    static <F> void run(String snippet, List<Way<F>> ways, String[] args, Check check, Prepare prepare, Frame<F> frame) {
        Options o = null;
        String error = null;
        Strategy strategy = null;
        try {
            o = Flags.parse(snippet, wayStrategies(ways), args);
            check.check(o);
            F fn = findWay(ways, o).fn();
            strategy = x -> frame.run(x, fn);
            Space.checkMemory(o);
            Space.checkScratch(o);
        } catch (UsageError e) {
            error = e.getMessage();
        }
        agree(snippet, error);
        boolean first = Workers.team.rank() == 0;  // process 0 owns the file and the output
        Options made = o;
        Thread cleanup = new Thread(() -> Space.removeMade(made));
        if (!o.keep()) Runtime.getRuntime().addShutdownHook(cleanup);  // every process, if it fails or is stopped: a job ends as a whole
        try {
            if (first) Space.createdKey = Space.claim(o.file());  // new, never through a link
            if (first && o.op().equals("read") && o.text() != null) Text.writeFile(o.file(), o.fileSize(), o.text(), o.seed());
            else if (first && o.op().equals("read")) Data.writeFile(o.file(), o.fileSize());
            if (Workers.team.size() > 1) checkShared(o);
            if (o.procs() > 0) Job.fields = Job.gather();
            boolean write = o.op().equals("write");
            if (write) Data.prepareSource(o.opSize());
            prepare.prepare(o);
            long checkedUse = 0, checksum = 0;
            if (!write) {  // the check run: use() sums everything it is handed, off the clock
                checking = true;
                unseen.set(0);
                checkedUse = strategy.run(o);
                checksum = Workers.team.sum(checkedUse + unseen.get());
                checking = false;
            }
            for (int run = -o.warmup(); run < o.repeat(); run++) {
                if (first && write) {
                    // the strategy makes the file anew, as the studies' programs wrote new files: a file left by the harness
                    // would be truncated instead, and on ext4 a file truncated to nothing is flushed to the disk on close
                    // (auto_da_alloc), a cost of the harness's, not the strategy's. The claim at the start proved the name free.
                    Files.deleteIfExists(o.file());
                    Space.createdKey = null;  // the regular file there from now on is the strategy's
                }
                Double resident = first && !write && o.cache().equals("cold") ? Space.evict(o.file()) : null;
                long[] cpuStart = cpuTimes();
                misses = -1;
                operationsDone = -1;
                Workers.reset();
                long start = clock.getAsLong();
                long used = timedRun(strategy, o);
                long elapsed = clock.getAsLong() - start;
                long[] cpu = cpuSplit(cpuStart, cpuTimes());
                // validation, after the clock: a read must have handed over what the check run did; a write's file is summed
                if (!write && used != checkedUse) throw new IOException("run " + run + " read other bytes than the check run");
                if (write && first) {
                    Space.createdKey = Space.fileKey(o.file());  // the run's file is the one the strategy made
                    checksum = Data.sumFile(o.file());
                }
                if (run >= 0 && first) Output.emit(o, run, elapsed, cpu[0] + Workers.userNs.get(), cpu[1] + Workers.sysNs.get(), resident, checksum);
            }
        } catch (Unsupported e) {
            Output.fail(snippet, e.getMessage(), UNSUPPORTED);
        } catch (IOException | UncheckedIOException e) {
            Output.fail(snippet, "I/O error on " + o.file() + ": " + Output.describe(e), 1);
        } catch (InternalError e) {
            // HotSpot's word for a mapped page whose part of the file is gone (C: SIGBUS)
            if (e.getMessage() == null || !e.getMessage().contains("unsafe memory access")) throw e;
            Output.fail(snippet, "I/O error on " + o.file() + ": file ended early", 1);
        } catch (UsageError e) {
            Output.fail(snippet, e.getMessage(), 2);
        }
        if (!o.keep()) {
            if (first) Space.removeMade(o);  // done: process 0 owns the file
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        Workers.team.end();
    }

    /**
     * Every process checked its flags; all stop together when any found a fault (exit status 2), and
     * the lowest such process says why, so the message appears once. Alone, this is a plain usage error.
     */
    static void agree(String snippet, String error) {
        long firstFaulty = Workers.team.min(error == null ? Long.MAX_VALUE : Workers.team.rank());
        if (firstFaulty == Long.MAX_VALUE) return;
        if (firstFaulty == Workers.team.rank()) System.err.println(snippet + ": " + error);
        Workers.team.end();
        System.exit(2);
    }

    /**
     * Process 0 makes the file; every other process must then see it where its own --file says, or the
     * scratch folder is not on a file system they all share (a node's own /tmp, say).
     */
    static void checkShared(Options o) throws IOException {
        if (Workers.team.rank() == 0 && !Files.exists(o.file())) Files.createFile(o.file());
        Workers.team.barrier();
        long expected = o.op().equals("read") ? o.fileSize() : 0;
        boolean seen = Files.exists(o.file()) && Files.size(o.file()) == expected;
        agree(o.snippet(), seen ? null : "--file " + o.file() + ": process " + Workers.team.rank() + " (on " + Workers.team.host()
                + ") cannot see the file process 0 made; the scratch folder must be on a file system every process shares (COURSE_SCRATCH)");
    }

    /**
     * CPU time of the measuring thread, to be split into user and kernel (system-call) time as C's
     * getrusage(RUSAGE_THREAD) splits it (cpuSplit). Returns {total ns so far, user time so far, system time so
     * far}: the exact total, and the kernel's own split of the thread's time as /proc/thread-self/stat gives it
     * (the split getrusage gives C, cut to whole 10 ms units).
     */
    static long[] cpuTimes() {
        return withTicks(THREADS.getCurrentThreadCpuTime(), "/proc/thread-self/stat", THREADS::getCurrentThreadUserTime);
    }

    /**
     * The same for the whole process (every thread, the JVM's own included), for workers whose own CPU time
     * the JDK cannot tell (virtual threads). C needs none: it has no virtual threads.
     */
    static long[] processCpuTimes() {
        long total = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        return withTicks(total, "/proc/self/stat", () -> total);
    }

    /** {total, user ticks, system ticks} from a /proc stat file; where there is none, {total, user, total − user}. */
    private static long[] withTicks(long total, String stat, java.util.function.LongSupplier user) {
        try {
            String text = Files.readString(Path.of(stat));
            String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return new long[] {total, Long.parseLong(fields[11]), Long.parseLong(fields[12])};  // utime, stime
        } catch (IOException | RuntimeException notLinux) {
            long userNs = user.getAsLong();
            return new long[] {total, userNs, Math.max(0, total - userNs)};
        }
    }

    /**
     * {user ns, system ns} between two cpuTimes() (or processCpuTimes()) readings, near what C's getrusage gives:
     * each reading's exact total is shared out in the ratio of the kernel's split so far, and a run's part is the
     * difference. So a run shorter than 10 ms keeps its exact CPU time, split as the thread's time was so far. Until
     * each part holds some tens of ms, the 10 ms units make the split coarser than C's (a thread's first 10 ms
     * count as user time).
     */
    static long[] cpuSplit(long[] start, long[] end) {
        long total = end[0] - start[0];
        // each part kept within the run's total (the kernel keeps them from going back by remembering past readings)
        long user = Math.max(0, Math.min(total, userSoFar(end) - userSoFar(start)));
        return new long[] {user, total - user};
    }

    /** A reading's total, user part: its share of the split so far (none yet: all of it, as the kernel counts a thread with no tick). */
    private static long userSoFar(long[] reading) {
        long ticks = reading[1] + reading[2];
        return ticks == 0 ? reading[0] : (long) (reading[0] * (double) reading[1] / ticks);
    }


    /**
     * True during a read's check run, when use() sums all it is handed (into unseen) besides what it returns;
     * several threads may hand over at once (small_reads' workers), all started after it was set.
     */
    static boolean checking;
    static final AtomicLong unseen = new AtomicLong();

    /**
     * Hands over what one read operation brought in, and returns the little a program must touch so
     * the read cannot be optimised away: its last byte. Only in the untimed check run does it also
     * sum all the others, so a timed run never pays for a checksum loop.
     */
    static long use(byte[] buf, int off, int len) {
        if (len <= 0) return 0;
        long last = buf[off + len - 1] & 0xFF;
        if (checking) unseen.addAndGet(Data.sum(buf, off, len) - last);
        return last;
    }

    /** The same for ints (as unsigned numbers) ... */
    static long use(int[] values, int off, int len) {
        if (len <= 0) return 0;
        long last = values[off + len - 1] & 0xFFFFFFFFL;
        if (checking) {
            long sum = 0;
            for (int i = off; i < off + len - 1; i++) sum += values[i] & 0xFFFFFFFFL;
            unseen.addAndGet(sum);
        }
        return last;
    }

    /** ... for doubles (their bit patterns) ... */
    static long use(double[] values, int off, int len) {
        if (len <= 0) return 0;
        long last = Double.doubleToRawLongBits(values[off + len - 1]);
        if (checking) {
            long sum = 0;
            for (int i = off; i < off + len - 1; i++) sum += Double.doubleToRawLongBits(values[i]);
            unseen.addAndGet(sum);
        }
        return last;
    }

    /** ... for bytes in a ByteBuffer, from its start (direct I/O's aligned buffer) ... */
    static long use(java.nio.ByteBuffer buf, int len) {
        if (len <= 0) return 0;
        long last = buf.get(len - 1) & 0xFF;
        if (checking) {
            long sum = 0;
            for (int i = 0; i < len - 1; i++) sum += buf.get(i) & 0xFF;
            unseen.addAndGet(sum);
        }
        return last;
    }

    /** ... and for a line of text (its UTF-16 characters). */
    static long use(CharSequence line) {
        int len = line.length();
        if (len == 0) return 0;
        long last = line.charAt(len - 1);
        if (checking) {
            long sum = 0;
            for (int i = 0; i < len - 1; i++) sum += line.charAt(i);
            unseen.addAndGet(sum);
        }
        return last;
    }

    /** Reads until len bytes have arrived or the file ends; returns how many arrived. */
    static int readFully(RandomAccessFile file, byte[] buf, int len) throws IOException {
        int done = 0;
        for (int got; done < len && (got = file.read(buf, done, len - done)) > 0; ) done += got;
        return done;
    }
}
