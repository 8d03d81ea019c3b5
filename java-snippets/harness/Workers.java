// The harness's threads and processes: a threaded strategy's workers started together and watched while they run
// (their times, their CPU time, the most tasks the kernel ran for the process), an MPI job's team, and each
// worker's share of the file. Twin: c-snippets/harness/workers.c. See Harness.java for the rooms.
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

final class Workers {
    /** One thread's part of a threaded strategy (see inThreads): thread is its index, 0 … threads − 1. */
    interface Part {
        void run(int thread) throws IOException;
    }

    /**
     * Each worker's own time in the current run of a strategy with threads or processes (ns), and the
     * span from the first start to the last end.
     */
    static long[] ownNs = null;
    static long spanNs = -1;

    /** The most platform threads the process had at once in the current run of a strategy with threads (-1: none ran). */
    static long platformThreads = -1;

    /**
     * The most tasks the kernel ran for the process at once in the current run of a strategy with threads, as the
     * process's folder of tasks (/proc/self/task) listed them while its workers ran, and the most of those that were
     * io_uring's io-wq workers (named iou-wrk-TID, Linux 5.12 and later): -1 where none ran or there is no /proc.
     * Besides the platform threads the JDK counts, the tasks take in the JVM's own threads (GC, JIT compilers), which
     * come and go, and the kernel's io-wq workers; C counts the same way. See sampleTasks.
     */
    static long tasks = -1;
    static long ioWorkers = -1;

    /** The tasks of the current run whose kind is known, by id, and whether each is an io-wq worker (see ioWorker). */
    static final Map<String, Boolean> knownTasks = new HashMap<>();

    /** CPU time the other threads or processes of the current run used, added to the measuring thread's own. */
    static final AtomicLong userNs = new AtomicLong();
    static final AtomicLong sysNs = new AtomicLong();

    /** A new run: nothing of its workers known yet (what stays so is left out of its record). */
    static void reset() {
        ownNs = null;
        spanNs = -1;
        platformThreads = -1;
        tasks = ioWorkers = -1;
        knownTasks.clear();  // names are read anew (an id may come back)
        userNs.set(0);
        sysNs.set(0);
    }

    /**
     * The processes of an MPI job (Mpi.java), or a team of one for every other snippet. Process 0 makes
     * and removes the file and prints the results; the others only do their share of the I/O.
     */
    interface Team {
        int rank();
        int size();
        void barrier();
        long sum(long value);    // over all processes, known to all
        long min(long value);
        long[] gather(long value);  // every process's value at process 0; null elsewhere
        String host();
        void end();
    }

    static final Team ALONE = new Team() {
        public int rank() { return 0; }
        public int size() { return 1; }
        public void barrier() { }
        public long sum(long value) { return value; }
        public long min(long value) { return value; }
        public long[] gather(long value) { return new long[] {value}; }
        public String host() { return "localhost"; }
        public void end() { }
    };

    static Team team = ALONE;


    /**
     * Whether the task id in the folder dir (/proc/self/task) is one of io_uring's io-wq workers, which the kernel
     * names iou-wrk-TID, TID the id of the thread whose requests it serves. At the gate (atGate) no worker has made a
     * request yet, and an io-wq worker serves one thread's requests and ends before that thread does: the tasks there
     * are known as none, their names unread. A task that comes later has its name read at each look until it is an
     * io-wq worker's, then known: an io-wq worker names itself only when it first runs, and until then bears the name
     * of the thread that made it, for milliseconds on a busy machine. Such later tasks are few (C makes none; the JVM
     * adds compiler and GC threads and carriers). A task gone since the folder was listed counts as no io-wq worker.
     */
    static boolean ioWorker(java.io.File dir, String id, boolean atGate) {
        Boolean known = knownTasks.get(id);
        if (known != null) return known;
        boolean io = false;
        if (!atGate) {
            try (var comm = new java.io.FileInputStream(new java.io.File(dir, id + "/comm"))) {
                io = new String(comm.readNBytes(16), java.nio.charset.StandardCharsets.ISO_8859_1).startsWith("iou-wrk");
            } catch (IOException gone) {
                io = false;
            }
        }
        if (atGate || io) knownTasks.put(id, io);
        return io;
    }

    /**
     * One look at the process's tasks (dir: /proc/self/task, a folder per task named by its id): raises the run's most
     * tasks at once and most io-wq workers at once. The look is one listing of the folder (File.list, a readdir loop
     * in one native call: 15–40 µs for 20 tasks where a DirectoryStream, interpreted as a run's few looks are, took
     * 70 µs to 1.4 ms; names are read only for tasks not yet known, see ioWorker). Returns what the look took (ns).
     */
    static long sampleTasks(Path dir, boolean atGate) {
        long start = System.nanoTime(), io = 0;
        java.io.File folder = dir.toFile();
        String[] ids = folder.list();
        if (ids == null) return System.nanoTime() - start;  // no /proc: nothing counted, and the record says nothing
        for (String id : ids) {
            if (ioWorker(folder, id, atGate)) io++;
        }
        tasks = Math.max(tasks, ids.length);
        ioWorkers = Math.max(ioWorkers, io);
        return System.nanoTime() - start;
    }

    /**
     * The gap between two looks at the tasks: a millisecond, or 20 times what the cheaper of the last two looks took
     * (with hundreds of tasks), so that looking takes at most 5% of the measuring thread, which would otherwise only
     * wait; one slow look (the thread preempted, or a look not yet compiled) does not put off the next.
     */
    static long sampleGap(long took, long before) {
        return Math.max(1_000_000, Math.min(took, before) * 20);
    }

    /**
     * Opens the gate once every worker is at it, and waits for them all to end, looking at the process's tasks
     * (sampleTasks) while they run: once while every worker is alive at the gate (so even a run shorter than a look
     * counts them all), then about every millisecond until the last has ended. The measuring thread looks, in the time
     * it would only wait: no thread is added to count (none to subtract, here or from the JDK's peak count), none is
     * started or stopped, and it is a task of the process's and counted. Its looks are in its CPU time (user_ns,
     * sys_ns), a few percent of its time at most, and so in the whole process's where a worker's own is unknown.
     */
    static void watchWorkers(List<Thread> workers, java.util.concurrent.CountDownLatch arrived, CyclicBarrier gate,
                             AtomicReference<Throwable> failure) {
        Path dir = Path.of("/proc/self/task");
        while (arrived.getCount() > 0) {
            try {
                arrived.await();
            } catch (InterruptedException e) {
                failure.compareAndSet(null, e);
            }
        }
        long took = sampleTasks(dir, true), before = took, next = System.nanoTime() + sampleGap(took, before);
        try {
            gate.await();
        } catch (InterruptedException | BrokenBarrierException e) {  // the workers find the gate broken, and end
            failure.compareAndSet(null, e);
        }
        for (Thread w : workers) {
            while (w.isAlive()) {
                long left = next - System.nanoTime();
                if (left <= 0) {
                    before = took;
                    took = sampleTasks(dir, false);
                    next = System.nanoTime() + sampleGap(took, before);
                    continue;
                }
                try {
                    w.join((left + 999_999) / 1_000_000);  // whole milliseconds (Thread.join rounds finer waits up to one)
                } catch (InterruptedException e) {
                    failure.compareAndSet(null, e);
                }
            }
        }
    }

    /**
     * Runs part(0) … part(threads − 1), each in a thread of its own; they start together (a barrier,
     * so no thread has the disk to itself while the others are still being created). Records each
     * thread's time and CPU time, and the span from the first start to the last end. The first error
     * in any thread ends the run once every thread has stopped.
     */
    static void inThreads(Harness.Options o, Part part) throws IOException {
        inThreads(o, Thread::new, part, false);
    }

    /**
     * The same in threads of a kind the snippet chooses (small_reads: virtual threads, which only a snippet
     * compiled for Java 21 can make). The JDK cannot tell a virtual thread's CPU time: where a worker's is
     * unknown, the run counts the whole process's over the threads' time instead (the JVM's own threads
     * included), which costs two readings more inside the clock.
     */
    static void inThreads(Harness.Options o, java.util.concurrent.ThreadFactory kind, Part part) throws IOException {
        inThreads(o, kind, part, true);
    }

    /**
     * Records, besides, the most platform threads the process had at once, the JDK's own service threads included, and
     * the most tasks the kernel ran for it at once, io_uring's io-wq workers among them (watchWorkers).
     */
    private static void inThreads(Harness.Options o, java.util.concurrent.ThreadFactory kind, Part part, boolean anyKind) throws IOException {
        int n = o.threads();
        long[] starts = new long[n], ends = new long[n];
        CyclicBarrier gate = new CyclicBarrier(n + 1);  // the measuring thread opens it (watchWorkers)
        java.util.concurrent.CountDownLatch arrived = new java.util.concurrent.CountDownLatch(n);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean cpuUnknown = new java.util.concurrent.atomic.AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        Harness.THREADS.resetPeakThreadCount();
        long[] processStart = anyKind ? Harness.processCpuTimes() : null;
        for (int t = 0; t < n; t++) {
            int thread = t;
            Thread worker = kind.newThread(() -> {
                try {
                    arrived.countDown();
                    gate.await();
                    long[] cpuStart = Harness.cpuTimes();
                    starts[thread] = System.nanoTime();
                    part.run(thread);
                    ends[thread] = System.nanoTime();
                    if (cpuStart[0] < 0) {
                        cpuUnknown.set(true);
                        return;
                    }
                    long[] cpu = Harness.cpuSplit(cpuStart, Harness.cpuTimes());
                    userNs.addAndGet(cpu[0]);
                    sysNs.addAndGet(cpu[1]);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            worker.setName(o.snippet() + "-" + t);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        watchWorkers(workers, arrived, gate, failure);
        if (cpuUnknown.get() && processStart != null) {
            long[] cpu = Harness.cpuSplit(processStart, Harness.processCpuTimes());
            userNs.set(cpu[0]);
            sysNs.set(cpu[1]);
        }
        platformThreads = Harness.THREADS.getPeakThreadCount();
        Throwable e = failure.get();
        if (e instanceof IOException io) throw io;
        if (e instanceof RuntimeException r) throw r;
        if (e instanceof BrokenBarrierException || e instanceof InterruptedException) throw new IOException("interrupted");
        if (e instanceof Error error) throw error;
        ownNs = new long[n];
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        for (int t = 0; t < n; t++) {
            ownNs[t] = ends[t] - starts[t];
            first = Math.min(first, starts[t]);
            last = Math.max(last, ends[t]);
        }
        spanNs = last - first;
    }

    /**
     * Runs this process's part of an MPI job: every process starts at a barrier (so none has the disk
     * to itself while the others start up) and waits at another when done. Records every process's
     * own time, adds the others' CPU time, and takes as the span the longest any process spent from
     * leaving the first barrier to leaving the second (no clock is shared across nodes).
     */
    static void inProcesses(Harness.Options o, Part part) throws IOException {
        team.barrier();
        long[] cpuStart = Harness.cpuTimes();
        long start = System.nanoTime();
        part.run(team.rank());
        long own = System.nanoTime() - start;
        long[] cpu = Harness.cpuSplit(cpuStart, Harness.cpuTimes());
        team.barrier();
        spanNs = -team.min(start - System.nanoTime());  // the maximum, through MPI_MIN
        ownNs = team.gather(own);
        userNs.addAndGet(team.sum(cpu[0]) - cpu[0]);  // this process's own CPU time is counted already
        sysNs.addAndGet(team.sum(cpu[1]) - cpu[1]);
    }

    /**
     * The bytes [from, to) that thread (or process) i of o.workers() moves: whole --op-size blocks,
     * shared out as evenly as they go, in order, so the shares are disjoint and cover the file.
     */
    static long[] share(Harness.Options o, int i) {
        long blocks = (o.fileSize() + o.opSize() - 1) / o.opSize();
        long from = blocks * i / o.workers() * o.opSize();
        long to = Math.min(o.fileSize(), blocks * (i + 1) / o.workers() * o.opSize());
        return new long[] {from, to};
    }

    /** A lock on the share [from, to) when --lock region asks for one (exclusive to write, shared to read); held until closed. */
    static FileLock lockShare(Harness.Options o, FileChannel channel, long from, long to, boolean write)
            throws IOException {
        return o.lock().equals("region") ? channel.lock(from, to - from, !write) : null;
    }
}
