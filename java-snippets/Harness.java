// The experiment protocol every Java snippet speaks. Its twin is c-snippets/harness.c: the same
// flags, checks, data, random offsets, timing and JSON output, in the same order of functions; a C
// name is the Java one in snake_case after its class's prefix (harness_, data_, text_, prng_).
// tests/test_mirror.py holds the two to it. A snippet supplies only its table of ways (the I/O it
// measures, strategy by strategy); everything around it lives here.
// One file in sections (the run and its clock first; then what a read brings in, threads, flags, memory
// and scratch space, output), kept whole on purpose: a snippet names one file (//SOURCES Harness.java), so
// a reader who follows it lands on the run loop, and the sections line up with harness.c's one by one.
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

final class Harness {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final long MAX_FILE_SIZE = 64L << 30;
    static final long MAX_OP_SIZE = 64L << 20;
    static final long MAX_BUFFER_SIZE = 1L << 30;
    static final long DEFAULT_MARGIN = 256L << 20;
    static final long MAX_MARGIN = 1L << 50;
    static final int MAX_THREADS = 256;
    static final int MAX_DEPTH = 256;
    static final int MAX_PROCS = 256;

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

    /** One thread's part of a threaded strategy (see inThreads): thread is its index, 0 … threads − 1. */
    interface Part {
        void run(int thread) throws IOException;
    }

    /**
     * Each worker's own time in the current run of a strategy with threads or processes (ns), and the
     * span from the first start to the last end.
     */
    static long[] workerNs = null;
    static long spanNs = -1;

    /**
     * Where an MPI job's processes ran, as the run record's fields (at process 0; "" for every other run): "hosts":[…]
     * each once, in rank order, "host_procs":[…] and "host_cores":[…] (the CPUs its processes there may run on) in the same
     * order, and, for a job on more than one host, "transport":[…], the links its processes held to other nodes (see nodeLinks).
     */
    static String job = "";

    /** The kinds of link to another node, as the record names them; bit k of nodeLinks is LINK_KINDS.get(k). */
    static final List<String> LINK_KINDS = List.of("tcp", "verbs", "psm2", "cxi");

    /** The most platform threads the process had at once in the current run of a strategy with threads (-1: none ran). */
    static long platformThreads = -1;

    /**
     * The most tasks the kernel ran for the process at once in the current run of a strategy with threads, as the
     * process's folder of tasks (/proc/self/task) listed them while its workers ran, and the most of those that were
     * io_uring's io-wq workers (named iou-wrk-TID, Linux 5.12 and later): -1 where none ran or there is no /proc.
     * Besides the platform threads the JDK counts, the tasks take in the JVM's own threads (GC, JIT compilers), which
     * come and go, and the kernel's io-wq workers; C counts the same way. See sampleTasks.
     */
    static long tasks = -1, ioWorkers = -1;

    /** The tasks of the current run whose kind is known, by id, and whether each is an io-wq worker (see ioWorker). */
    static final Map<String, Boolean> knownTasks = new HashMap<>();

    /** CPU time the other threads or processes of the current run used, added to the measuring thread's own. */
    static final AtomicLong workerUserNs = new AtomicLong(), workerSysNs = new AtomicLong();

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
            o = parse(snippet, wayStrategies(ways), args);
            check.check(o);
            F fn = findWay(ways, o).fn();
            strategy = x -> frame.run(x, fn);
            checkMemory(o);
            checkScratch(o);
        } catch (UsageError e) {
            error = e.getMessage();
        }
        agree(snippet, error);
        boolean first = team.rank() == 0;  // process 0 owns the file and the output
        Options made = o;
        Thread cleanup = new Thread(() -> removeMade(made));
        if (!o.keep()) Runtime.getRuntime().addShutdownHook(cleanup);  // every process, if it fails or is stopped: a job ends as a whole
        try {
            if (first) createdKey = claim(o.file());  // new, never through a link
            if (first && o.op().equals("read") && o.text() != null) Text.writeFile(o.file(), o.fileSize(), o.text(), o.seed());
            else if (first && o.op().equals("read")) Data.writeFile(o.file(), o.fileSize());
            if (team.size() > 1) checkShared(o);
            if (o.procs() > 0) job = job();
            boolean write = o.op().equals("write");
            if (write) Data.prepareSource(o.opSize());
            prepare.prepare(o);
            long checkedUse = 0, checksum = 0;
            if (!write) {  // the check run: use() sums everything it is handed, off the clock
                checking = true;
                unseen.set(0);
                checkedUse = strategy.run(o);
                checksum = team.sum(checkedUse + unseen.get());
                checking = false;
            }
            for (int run = -o.warmup(); run < o.repeat(); run++) {
                if (first && write) {
                    // the strategy makes the file anew, as the studies' programs wrote new files: a file left by the harness
                    // would be truncated instead, and on ext4 a file truncated to nothing is flushed to the disk on close
                    // (auto_da_alloc), a cost of the harness's, not the strategy's. The claim at the start proved the name free.
                    Files.deleteIfExists(o.file());
                    createdKey = null;  // the regular file there from now on is the strategy's
                }
                Double resident = first && !write && o.cache().equals("cold") ? evict(o.file()) : null;
                long[] cpuStart = cpuTimes();
                misses = -1;
                operationsDone = -1;
                workerNs = null;
                spanNs = -1;
                platformThreads = -1;
                tasks = ioWorkers = -1;
                knownTasks.clear();  // a new run: names are read anew (an id may come back)
                workerUserNs.set(0);
                workerSysNs.set(0);
                long start = clock.getAsLong();
                long used = timedRun(strategy, o);
                long elapsed = clock.getAsLong() - start;
                long[] cpu = cpuSplit(cpuStart, cpuTimes());
                // validation, after the clock: a read must have handed over what the check run did; a write's file is summed
                if (!write && used != checkedUse) throw new IOException("run " + run + " read other bytes than the check run");
                if (write && first) {
                    createdKey = fileKey(o.file());  // the run's file is the one the strategy made
                    checksum = Data.sumFile(o.file());
                }
                if (run >= 0 && first) emit(o, run, elapsed, cpu[0] + workerUserNs.get(), cpu[1] + workerSysNs.get(), resident, checksum);
            }
        } catch (Unsupported e) {
            fail(snippet, e.getMessage(), UNSUPPORTED);
        } catch (IOException | UncheckedIOException e) {
            fail(snippet, "I/O error on " + o.file() + ": " + describe(e), 1);
        } catch (InternalError e) {
            // HotSpot's word for a mapped page whose part of the file is gone (C: SIGBUS)
            if (e.getMessage() == null || !e.getMessage().contains("unsafe memory access")) throw e;
            fail(snippet, "I/O error on " + o.file() + ": file ended early", 1);
        } catch (UsageError e) {
            fail(snippet, e.getMessage(), 2);
        }
        if (!o.keep()) {
            if (first) removeMade(o);  // done: process 0 owns the file
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        team.end();
    }

    /**
     * Every process checked its flags; all stop together when any found a fault (exit status 2), and
     * the lowest such process says why, so the message appears once. Alone, this is a plain usage error.
     */
    static void agree(String snippet, String error) {
        long firstFaulty = team.min(error == null ? Long.MAX_VALUE : team.rank());
        if (firstFaulty == Long.MAX_VALUE) return;
        if (firstFaulty == team.rank()) System.err.println(snippet + ": " + error);
        team.end();
        System.exit(2);
    }

    /**
     * Process 0 makes the file; every other process must then see it where its own --file says, or the
     * scratch folder is not on a file system they all share (a node's own /tmp, say).
     */
    static void checkShared(Options o) throws IOException {
        if (team.rank() == 0 && !Files.exists(o.file())) Files.createFile(o.file());
        team.barrier();
        long expected = o.op().equals("read") ? o.fileSize() : 0;
        boolean seen = Files.exists(o.file()) && Files.size(o.file()) == expected;
        agree(o.snippet(), seen ? null : "--file " + o.file() + ": process " + team.rank() + " (on " + team.host()
                + ") cannot see the file process 0 made; the scratch folder must be on a file system every process shares (COURSE_SCRATCH)");
    }

    /**
     * The CPUs this process may run on (Cpus_allowed_list in /proc/self/status: "0-3,8"), as CPU_WORDS 64-bit words: its
     * affinity, which a Slurm step's binding, an allocation's cpuset or a container's narrows. All of them where it cannot
     * say. Plain loops, no streams or regular expressions: a JVM just started pays tens of milliseconds to link those.
     */
    static long[] allowedCpus() {
        long[] mask = new long[CPU_WORDS];
        boolean any = false;
        try (var in = Files.newBufferedReader(Path.of("/proc/self/status"))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.startsWith("Cpus_allowed_list:")) continue;
                for (String range : line.substring(18).strip().split(",")) {  // a one-character split takes no regular expression
                    int dash = range.indexOf('-');
                    long first = Long.parseLong(dash < 0 ? range : range.substring(0, dash)), last = dash < 0 ? first : Long.parseLong(range.substring(dash + 1));
                    for (long c = first; c <= last && c < CPU_WORDS * 64; c++) {
                        mask[(int) (c / 64)] |= 1L << (c % 64);
                        any = true;
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            any = false;  // cannot say: all of them, below
        }
        if (!any) java.util.Arrays.fill(mask, -1L);
        return mask;
    }

    static final int CPU_WORDS = 16;  // 1024 CPUs

    /** A loopback address as /proc/net/tcp{,6} writes it (32-bit words in the host's order): 127.x.x.x, ::1 or ::ffff:127.x.x.x. */
    static boolean loopback(String hex) {
        if (hex.length() == 8) return hex.endsWith("7F");
        return hex.length() == 32 && (hex.equals("00000000000000000000000001000000") || hex.startsWith("FFFF0000", 16) && hex.endsWith("7F"));
    }

    /**
     * The links this process holds to other nodes, from its open files (asked outside every clock): a TCP connection
     * between two addresses, neither of them loopback (one to a daemon of this node has one address at both ends), or
     * a network adapter's device: InfiniBand or RoCE verbs, Omni-Path (hfi1), Slingshot (cxi). Bits of LINK_KINDS.
     */
    static long nodeLinks() {
        java.util.Set<String> sockets = new java.util.HashSet<>();
        long links = 0;
        String[] fds = new java.io.File("/proc/self/fd").list();
        if (fds == null) return 0;
        for (String fd : fds) {
            String target;
            try {
                target = Files.readSymbolicLink(Path.of("/proc/self/fd", fd)).toString();
            } catch (IOException e) {
                continue;  // closed since it was listed
            }
            if (target.startsWith("socket:[")) sockets.add(target.substring(8, target.length() - 1));
            if (target.startsWith("/dev/infiniband/uverbs")) links |= 2;
            if (target.startsWith("/dev/hfi1")) links |= 4;
            if (target.startsWith("/dev/cxi")) links |= 8;
        }
        for (String table : new String[] {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
            try (var in = Files.newBufferedReader(Path.of(table))) {
                in.readLine();  // sl local:port remote:port st tx:rx tr:when retrnsmt uid timeout inode
                for (String line; (line = in.readLine()) != null; ) {
                    java.util.StringTokenizer f = new java.util.StringTokenizer(line);
                    String[] field = new String[10];
                    for (int i = 0; i < field.length && f.hasMoreTokens(); i++) field[i] = f.nextToken();
                    if (field[9] == null || field[1].indexOf(':') < 0 || field[2].indexOf(':') < 0) continue;
                    String local = field[1].substring(0, field[1].indexOf(':')), remote = field[2].substring(0, field[2].indexOf(':'));
                    if (field[3].equals("01") && !local.equals(remote) && !loopback(remote) && sockets.contains(field[9])) links |= 1;  // 01: established
                }
            } catch (IOException e) {
                // no such table (no IPv6): nothing to read there
            }
        }
        return links;
    }

    /**
     * Where the job's processes ran (at process 0; "" elsewhere; see job): each process's host name, the CPUs it may run
     * on and its links travel through gather, the one collective every team has in both languages (a name as HOST_WORDS
     * 8-byte words, the CPUs as CPU_WORDS); a host's cores are the CPUs any of its processes may run on.
     */
    static String job() {
        byte[] name = java.util.Arrays.copyOf(team.host().getBytes(StandardCharsets.UTF_8), HOST_WORDS * 8);  // zero-padded
        long[][] words = new long[HOST_WORDS][], cpus = new long[CPU_WORDS][];
        for (int w = 0; w < HOST_WORDS; w++) words[w] = team.gather(ByteBuffer.wrap(name, w * 8, 8).getLong());
        long[] mine = allowedCpus();
        int used = CPU_WORDS;  // the words any process needs (one on a machine of up to 64 CPUs): each collective costs
        while (used > 1 && mine[used - 1] == 0) used--;
        used = (int) -team.min(-used);
        for (int w = 0; w < used; w++) cpus[w] = team.gather(mine[w]);
        long[] links = team.gather(nodeLinks());  // after the gathers above, whose messages made the job's connections
        if (words[0] == null) return "";
        List<String> hosts = new ArrayList<>();
        List<long[]> each = new ArrayList<>();  // per host: {processes, CPU words…}
        long linked = 0;
        for (int rank = 0; rank < words[0].length; rank++) {
            ByteBuffer back = ByteBuffer.allocate(HOST_WORDS * 8);
            for (long[] word : words) back.putLong(word[rank]);
            String host = new String(back.array(), StandardCharsets.UTF_8).replace("\0", "");
            if (!hosts.contains(host)) {
                hosts.add(host);
                each.add(new long[1 + CPU_WORDS]);
            }
            long[] mineThere = each.get(hosts.indexOf(host));
            mineThere[0]++;
            for (int w = 0; w < used; w++) mineThere[1 + w] |= cpus[w][rank];
            linked |= links[rank];
        }
        StringBuilder names = new StringBuilder(), procs = new StringBuilder(), cores = new StringBuilder();
        for (int h = 0; h < hosts.size(); h++) {
            String comma = h == 0 ? "" : ",";
            names.append(comma).append('"').append(hosts.get(h)).append('"');
            procs.append(comma).append(each.get(h)[0]);
            int count = 0;
            for (int w = 0; w < CPU_WORDS; w++) count += Long.bitCount(each.get(h)[1 + w]);
            cores.append(comma).append(count);
        }
        String fields = "\"hosts\":[" + names + "],\"host_procs\":[" + procs + "],\"host_cores\":[" + cores + "],";
        if (hosts.size() < 2) return fields;
        StringBuilder kinds = new StringBuilder();
        for (int k = 0; k < LINK_KINDS.size(); k++) if ((linked >> k & 1) != 0) kinds.append(kinds.length() == 0 ? "" : ",").append('"').append(LINK_KINDS.get(k)).append('"');
        return fields + "\"transport\":[" + kinds + "],";
    }

    static final int HOST_WORDS = 8;  // 64 bytes: the longest host name Linux keeps (HOST_NAME_MAX)

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

    // ---- what a read brings in ---------------------------------------------------------------

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

    // ---- threads ----------------------------------------------------------------------------

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
    static void inThreads(Options o, Part part) throws IOException {
        inThreads(o, Thread::new, part, false);
    }

    /**
     * The same in threads of a kind the snippet chooses (small_reads: virtual threads, which only a snippet
     * compiled for Java 21 can make). The JDK cannot tell a virtual thread's CPU time: where a worker's is
     * unknown, the run counts the whole process's over the threads' time instead (the JVM's own threads
     * included), which costs two readings more inside the clock.
     */
    static void inThreads(Options o, java.util.concurrent.ThreadFactory kind, Part part) throws IOException {
        inThreads(o, kind, part, true);
    }

    /**
     * Records, besides, the most platform threads the process had at once, the JDK's own service threads included, and
     * the most tasks the kernel ran for it at once, io_uring's io-wq workers among them (watchWorkers).
     */
    private static void inThreads(Options o, java.util.concurrent.ThreadFactory kind, Part part, boolean anyKind) throws IOException {
        int n = o.threads();
        long[] starts = new long[n], ends = new long[n];
        CyclicBarrier gate = new CyclicBarrier(n + 1);  // the measuring thread opens it (watchWorkers)
        java.util.concurrent.CountDownLatch arrived = new java.util.concurrent.CountDownLatch(n);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean cpuUnknown = new java.util.concurrent.atomic.AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        THREADS.resetPeakThreadCount();
        long[] processStart = anyKind ? processCpuTimes() : null;
        for (int t = 0; t < n; t++) {
            int thread = t;
            Thread worker = kind.newThread(() -> {
                try {
                    arrived.countDown();
                    gate.await();
                    long[] cpuStart = cpuTimes();
                    starts[thread] = System.nanoTime();
                    part.run(thread);
                    ends[thread] = System.nanoTime();
                    if (cpuStart[0] < 0) {
                        cpuUnknown.set(true);
                        return;
                    }
                    long[] cpu = cpuSplit(cpuStart, cpuTimes());
                    workerUserNs.addAndGet(cpu[0]);
                    workerSysNs.addAndGet(cpu[1]);
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
            long[] cpu = cpuSplit(processStart, processCpuTimes());
            workerUserNs.set(cpu[0]);
            workerSysNs.set(cpu[1]);
        }
        platformThreads = THREADS.getPeakThreadCount();
        Throwable e = failure.get();
        if (e instanceof IOException io) throw io;
        if (e instanceof RuntimeException r) throw r;
        if (e instanceof BrokenBarrierException || e instanceof InterruptedException) throw new IOException("interrupted");
        if (e instanceof Error error) throw error;
        workerNs = new long[n];
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
        for (int t = 0; t < n; t++) {
            workerNs[t] = ends[t] - starts[t];
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
    static void inProcesses(Options o, Part part) throws IOException {
        team.barrier();
        long[] cpuStart = cpuTimes();
        long start = System.nanoTime();
        part.run(team.rank());
        long own = System.nanoTime() - start;
        long[] cpu = cpuSplit(cpuStart, cpuTimes());
        team.barrier();
        spanNs = -team.min(start - System.nanoTime());  // the maximum, through MPI_MIN
        workerNs = team.gather(own);
        workerUserNs.addAndGet(team.sum(cpu[0]) - cpu[0]);  // this process's own CPU time is counted already
        workerSysNs.addAndGet(team.sum(cpu[1]) - cpu[1]);
    }

    /**
     * The bytes [from, to) that thread (or process) i of o.workers() moves: whole --op-size blocks,
     * shared out as evenly as they go, in order, so the shares are disjoint and cover the file.
     */
    static long[] share(Options o, int i) {
        long blocks = (o.fileSize() + o.opSize() - 1) / o.opSize();
        long from = blocks * i / o.workers() * o.opSize();
        long to = Math.min(o.fileSize(), blocks * (i + 1) / o.workers() * o.opSize());
        return new long[] {from, to};
    }

    // ---- flags ------------------------------------------------------------------------------

    enum Kind { CHOICE, SIZE, COUNT, PATH, SWITCH }

    /**
     * A flag of the protocol: its kind, its default as one would type it (null: none), the range of a size
     * or a count, the values a choice allows (null for --strategy: the snippet's own), and the snippets that
     * take it (null: every snippet; any other refuses it by name). FLAGS is the same table as flags[] in
     * harness.c, row for row (tests/test_mirror.py).
     */
    record Flag(String name, Kind kind, String fallback, long min, long max, List<String> allowed, List<String> usedBy) {
        boolean takenBy(String snippet) {
            return usedBy == null || usedBy.contains(snippet);
        }
    }

    static final List<Flag> FLAGS = List.of(
            new Flag("--strategy", Kind.CHOICE, null, 0, 0, null, null),
            new Flag("--op", Kind.CHOICE, "read", 0, 0, List.of("read", "write"), null),
            new Flag("--pattern", Kind.CHOICE, "seq", 0, 0, List.of("seq", "rand"), null),
            new Flag("--cache", Kind.CHOICE, "warm", 0, 0, List.of("warm", "cold"), null),
            new Flag("--file-size", Kind.SIZE, "1m", 1, MAX_FILE_SIZE, null, null),
            new Flag("--op-size", Kind.SIZE, "1", 1, MAX_OP_SIZE, null, null),
            new Flag("--repeat", Kind.COUNT, "3", 1, 1000, null, null),
            new Flag("--warmup", Kind.COUNT, "1", 0, 100, null, null),
            new Flag("--seed", Kind.COUNT, "42", 0, Long.MAX_VALUE, null, null),
            new Flag("--file", Kind.PATH, null, 0, 0, null, null),
            new Flag("--keep", Kind.SWITCH, null, 0, 0, null, null),
            new Flag("--buffer-size", Kind.SIZE, null, 1, MAX_BUFFER_SIZE, null, List.of("buffering", "jni_ops", "text_lines", "typed_arrays")),
            new Flag("--text", Kind.CHOICE, "lf", 0, 0, List.of("lf", "crlf", "cr", "mixed", "utf8"), List.of("text_lines")),
            new Flag("--type", Kind.CHOICE, "int", 0, 0, List.of("int", "double"), List.of("typed_arrays", "typed_ffm")),
            new Flag("--threads", Kind.COUNT, "1", 1, MAX_THREADS, null, List.of("shared_file", "small_reads")),
            new Flag("--depth", Kind.COUNT, "1", 1, MAX_DEPTH, null, List.of("small_reads")),
            new Flag("--procs", Kind.COUNT, "1", 1, MAX_PROCS, null, List.of("mpi_file")),
            new Flag("--lock", Kind.CHOICE, "none", 0, 0, List.of("none", "region"), List.of("shared_file", "mpi_file")));

    /** A flag's value as its kind reads it (C's take also puts it where it goes). */
    static Object take(Flag f, String value, List<String> strategies) throws UsageError {
        return switch (f.kind()) {
            case CHOICE -> oneOf(f.name(), value, f.allowed() != null ? f.allowed() : strategies);
            case SIZE -> parseSize(f.name(), value, f.min(), f.max());
            case COUNT -> count(f.name(), value, f.min(), f.max());
            case PATH -> value;
            case SWITCH -> true;
        };
    }

    static Options parse(String snippet, List<String> strategies, String[] args) throws UsageError {
        Map<String, Object> given = new HashMap<>();  // a flag the snippet does not take stays 0 or null
        given.put("--strategy", strategies.get(0));
        for (Flag f : FLAGS) {
            if (f.takenBy(snippet) && f.fallback() != null) given.put(f.name(), take(f, f.fallback(), strategies));
        }
        for (int i = 0; i < args.length; i++) {
            String flag = args[i], value = null;
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {  // --flag=value, as well as --flag value
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            }
            if (!flag.startsWith("--")) throw new UsageError("unexpected argument '" + flag + "' (flags start with --)");
            String name = flag;
            Flag f = FLAGS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() -> new UsageError("unknown flag " + name
                    + " (allowed: " + String.join(" ", FLAGS.stream().filter(x -> x.takenBy(snippet)).map(Flag::name).toList()) + ")"));
            if (!f.takenBy(snippet)) throw new UsageError(flag + " is not used by " + snippet);
            if (f.kind() == Kind.SWITCH && value != null) throw new UsageError(flag + " takes no value");
            if (f.kind() != Kind.SWITCH && value == null && i + 1 >= args.length) throw new UsageError(flag + " needs a value");
            if (f.kind() != Kind.SWITCH && value == null) value = args[++i];
            given.put(flag, take(f, value, strategies));
        }
        String file = (String) given.get("--file");
        // one name for the whole team: process 0's id, known to all (each process's own would give each its own file)
        if (file == null) file = defaultScratch() + "/" + snippet + "-" + team.sum(team.rank() == 0 ? ProcessHandle.current().pid() : 0) + ".dat";
        Options o = new Options(snippet, (String) given.get("--strategy"), (String) given.get("--op"), (String) given.get("--pattern"),
                number(given, "--file-size"), (int) number(given, "--op-size"), (int) number(given, "--buffer-size"),
                (int) number(given, "--repeat"), (int) number(given, "--warmup"), (int) number(given, "--threads"), (int) number(given, "--depth"),
                (int) number(given, "--procs"), (String) given.get("--cache"), (String) given.get("--text"), (String) given.get("--type"),
                (String) given.get("--lock"), Path.of(file), number(given, "--seed"), given.containsKey("--keep"));
        if (o.opSize() > o.fileSize()) {
            throw new UsageError("--op-size " + o.opSize() + " is larger than --file-size " + o.fileSize()
                    + " (an operation must fit in the file)");
        }
        long blocks = (o.fileSize() + o.opSize() - 1) / o.opSize();
        if (o.workers() > blocks) {  // a snippet runs threads or processes, never both
            String flag = o.procs() > 0 ? "--procs" : "--threads", worker = o.procs() > 0 ? "process" : "thread";
            throw new UsageError(flag + " " + o.workers() + " is more than the file's " + blocks + " blocks of --op-size "
                    + human(o.opSize()) + " (each " + worker + " needs at least one block of its own)");
        }
        if (o.procs() > 0 && o.procs() != team.size()) {
            throw new UsageError("--procs " + o.procs() + ", but mpirun started " + team.size() + " process"
                    + (team.size() == 1 ? "" : "es") + " (start it with mpirun -np " + o.procs() + ")");
        }
        int pathBytes = file.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;  // the kernel's limit counts bytes, as C's strlen does
        if (pathBytes >= MAX_PATH) {  // refused whole, as in C, where a path cut short could name another file
            throw new UsageError("--file: a path of " + pathBytes + " bytes is too long (at most " + (MAX_PATH - 1) + ")");
        }
        if (file.indexOf('\uFFFD') >= 0) {  // the JVM decoded a byte that is not UTF-8: no such name can be opened
            throw new UsageError("--file " + file + " is not valid UTF-8 (both languages take UTF-8 file names: Java can open no other)");
        }
        return o;
    }

    /** A size or count parse() holds, 0 when the snippet does not take its flag. */
    private static long number(Map<String, Object> given, String flag) {
        return (Long) given.getOrDefault(flag, 0L);
    }

    /** For snippets whose operations are served from their own buffer: each must fit, and never straddle two fills. */
    static void checkOperationFitsBuffer(Options o) throws UsageError {
        if (o.bufferSize() > 0 && o.opSize() > o.bufferSize()) {
            throw new UsageError("--op-size " + o.opSize() + " is larger than --buffer-size " + o.bufferSize()
                    + " (an operation must fit in the buffer)");
        }
        if (o.bufferSize() > 0 && o.bufferSize() % o.opSize() != 0) {
            throw new UsageError("--buffer-size " + o.bufferSize() + " is not a multiple of --op-size " + o.opSize()
                    + " (an operation must never straddle two buffer fills)");
        }
    }

    /**
     * For snippets whose threads or processes each move their share of one int array: whole ints,
     * shares moved in order, a file that fits in memory when the strategy maps it (maps), and an array
     * (for a process, its largest share) within memoryLimit().
     */
    static void checkIntShares(Options o, boolean maps) throws UsageError {
        boolean processes = o.procs() > 0;
        if (o.opSize() % 4 != 0 || o.fileSize() % 4 != 0) {
            throw new UsageError("--op-size " + o.opSize() + " and --file-size " + o.fileSize() + " must be multiples of 4 (whole ints)");
        }
        if (o.pattern().equals("rand")) {
            throw new UsageError("--pattern rand: each " + (processes ? "process" : "thread") + " moves its share in order (allowed: seq)");
        }
        long mappable = availableMemory() / 2;
        if (maps && o.fileSize() > mappable) {
            throw new UsageError("--file-size " + o.fileSize() + ": too large to map here (at most "
                    + (mappable >> 20) + "m, half of the memory free now; use a smaller file or a strategy that does not map)");
        }
        long blocks = (o.fileSize() + o.opSize() - 1) / o.opSize();
        long held = processes ? (blocks + o.procs() - 1) / o.procs() * o.opSize() : o.fileSize();
        if (held > memoryLimit()) {
            throw new UsageError("--file-size " + o.fileSize() + ": " + (processes ? "a process's share of the array" : "the shared array")
                    + " would not fit (at most " + (memoryLimit() >> 20) + "m, half of the JVM's heap limit; raise it with -Xmx)");
        }
    }

    /** A lock on the share [from, to) when --lock region asks for one (exclusive to write, shared to read); held until closed. */
    static FileLock lockShare(Options o, FileChannel channel, long from, long to, boolean write)
            throws IOException {
        return o.lock().equals("region") ? channel.lock(from, to - from, !write) : null;
    }

    static String oneOf(String flag, String value, List<String> allowed) throws UsageError {
        if (!allowed.contains(value)) throw new UsageError(flag + " " + value + ": must be one of " + String.join(", ", allowed));
        return value;
    }

    /** A size in bytes: digits with an optional k, m or g suffix (powers of 1024). */
    static long parseSize(String flag, String value, long min, long max) throws UsageError {
        String digits = value.toLowerCase(Locale.ROOT);
        int shift = switch (digits.isEmpty() ? ' ' : digits.charAt(digits.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        if (shift > 0) digits = digits.substring(0, digits.length() - 1);
        if (!digits.matches("[0-9]{1,12}")) {
            throw new UsageError(flag + " " + value + ": not a size (use a whole number with an optional k, m or g suffix, e.g. 4k, 16m, 1g)");
        }
        long number = Long.parseLong(digits);
        long bytes = number > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : number << shift;
        if (bytes < min || bytes > max) {
            throw new UsageError(flag + " " + value + ": must be between " + human(min) + " and " + human(max));
        }
        return bytes;
    }

    static long count(String flag, String value, long min, long max) throws UsageError {
        boolean digits = value.matches("[0-9]{1,19}") && (value.length() < 19 || value.compareTo("9223372036854775807") <= 0);
        if (!digits || Long.parseLong(value) < min || Long.parseLong(value) > max) {
            throw new UsageError(flag + " " + value + ": must be a whole number between " + min + " and " + max);
        }
        return Long.parseLong(value);
    }

    static String human(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + "g";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + "m";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + "k";
        return Long.toString(bytes);
    }

    // ---- memory and scratch space ----------------------------------------------------------------------

    static String defaultScratch() {
        String dir = System.getenv("COURSE_SCRATCH");
        return dir == null || dir.isEmpty() ? "." : dir;
    }

    /** The most a snippet may hold in memory: half of the heap this JVM may grow to (C: half of a quarter of RAM, the JVM's default). */
    static long memoryLimit() {
        return Runtime.getRuntime().maxMemory() / 2;
    }

    /**
     * Memory the system could give now without swapping (MemAvailable in /proc/meminfo), and no more than
     * this process's container has left (its cgroup's limit less its use); unknown: Long.MAX_VALUE.
     */
    static long availableMemory() {
        long available = Long.MAX_VALUE;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) available = Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
            }
        } catch (IOException | RuntimeException notLinux) {
            // no such file outside Linux: no bound
        }
        long[] container = containerMemory();
        return container == null ? available : Math.min(available, Math.max(0, container[0] - container[1]));
    }

    /**
     * {limit, in use} of this process's cgroup (v2 memory.max and memory.current, else v1's
     * memory.limit_in_bytes and memory.usage_in_bytes); null where no limit is set (C: container_memory).
     */
    static long[] containerMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                String[] f = line.split(":", 3);
                boolean v2 = f.length == 3 && f[1].isEmpty(), v1 = f.length == 3 && List.of(f[1].split(",")).contains("memory");
                if (!v2 && !v1) continue;
                Path dir = Path.of(v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", f[2]);
                Path limit = dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"), used = dir.resolve(v2 ? "memory.current" : "memory.usage_in_bytes");
                if (!Files.isReadable(limit) || !Files.isReadable(used)) continue;
                String text = Files.readString(limit).strip();
                if (text.equals("max") || Long.parseLong(text) >= 1L << 62) continue;  // v1 writes "none" as a huge number
                return new long[] {Long.parseLong(text), Long.parseLong(Files.readString(used).strip())};
            }
        } catch (IOException | RuntimeException notLinux) {
            // no cgroups: no container bound
        }
        return null;
    }

    /** A buffer, and an operation's array, may each take at most memoryLimit() (past it Java would end in an OutOfMemoryError). */
    static void checkMemory(Options o) throws UsageError {
        long limit = memoryLimit();
        for (var buffer : List.of(Map.entry("--buffer-size", (long) o.bufferSize()), Map.entry("--op-size", (long) o.opSize()))) {
            if (buffer.getValue() > limit) {
                throw new UsageError(buffer.getKey() + " " + human(buffer.getValue()) + ": larger than memory allows here (at most "
                        + (limit >> 20) + "m, half of the JVM's heap limit; raise it with -Xmx)");
            }
        }
    }

    /** The file must be new (the harness removes what it creates; a link, even to nowhere, counts as there) and its folder must have room. */
    static void checkScratch(Options o) throws UsageError {
        Path dir = o.file().toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) throw new UsageError("scratch folder " + dir + " does not exist");
        if (!Files.isWritable(dir)) throw new UsageError("scratch folder " + dir + " is not writable");
        if (Files.exists(o.file(), LinkOption.NOFOLLOW_LINKS)) {
            throw new UsageError("--file " + o.file() + " already exists (the harness only writes files it creates)");
        }
        String marginText = System.getenv("COURSE_SCRATCH_MARGIN");
        // set but empty counts as unset, as a shell's `COURSE_SCRATCH_MARGIN= make lab` means
        long margin = marginText == null || marginText.isEmpty() ? DEFAULT_MARGIN : parseSize("COURSE_SCRATCH_MARGIN", marginText, 0, MAX_MARGIN);
        long free;
        try {
            free = Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw new UsageError("cannot read the free space of " + dir + ": " + describe(e));
        }
        if (o.fileSize() + margin > free) {
            throw new UsageError("not enough free space in " + dir + ": the run needs " + human(o.fileSize())
                    + " plus a margin of " + human(margin) + ", but only " + free + " bytes are free");
        }
    }

    /**
     * Drops the file from the page cache (fsync, then posix_fadvise DONTNEED) through the C helper, and
     * returns the percentage of its pages still resident afterwards (mincore), as the helper measured it.
     */
    static double evict(Path file) throws IOException, UsageError {
        String helper = System.getenv("COURSE_EVICT");
        if (helper == null || helper.isEmpty()) {
            throw new UsageError("--cache cold needs the eviction helper: set COURSE_EVICT to c-snippets' evict binary");
        }
        Process p = new ProcessBuilder(helper, file.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String resident = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() != 0) throw new IOException("eviction helper " + helper + " failed");
            return Double.parseDouble(resident);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while evicting " + file);
        } catch (NumberFormatException e) {
            throw new IOException("eviction helper " + helper + " did not say how much stayed resident");
        }
    }

    /** Linux's PATH_MAX, as the C twin's: a longer --file is refused rather than cut short. */
    static final int MAX_PATH = 4096;
    /**
     * The identities (device and inode) of the files this process made: the run's file and a copy's source,
     * so a file someone else put at either path since is never removed.
     */
    static volatile Object createdKey, sourceKey;

    /** The file a copy reads (file_copy, lab 10): --file's name plus ".source", made by writeSource. */
    static Path source(Options o) {
        return Path.of(o.file() + ".source");
    }

    /** Makes the copy's source where none was (not through a link either) and fills it with the course's data; it goes with the run's file. */
    static void writeSource(Options o) throws IOException {
        sourceKey = claim(source(o));
        Data.writeFile(source(o), o.fileSize());
    }

    /** Makes the file, empty, where none was (CREATE_NEW: not through a link either), and returns which it is (fileKey). */
    static Object claim(Path file) throws IOException {
        Files.createFile(file);
        return fileKey(file);
    }

    static Object fileKey(Path file) throws IOException {
        return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    }

    /** Removes what the run made: its file and, where it made one, a copy's source. */
    static void removeMade(Options o) {
        removeQuietly(o.file(), createdKey);
        if (sourceKey != null) removeQuietly(source(o), sourceKey);
    }

    /** Removes a file: a regular one, and the very one this process made (key) when it made one. */
    static void removeQuietly(Path file, Object key) {
        try {
            var now = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!now.isRegularFile() || (key != null && !key.equals(now.fileKey()))) return;
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // gone already, or best effort on the way out; the kit also removes its whole scratch folder
        }
    }

    // ---- output -----------------------------------------------------------------------------

    /**
     * One run record, the line data/results.schema.json defines (the kit checks every line against it).
     * resident: percent of the file in the page cache when a cold run's clock started; null for warm runs and writes.
     */
    static void emit(Options o, int run, long elapsedNs, long userNs, long sysNs, Double resident, long checksum) {
        System.out.printf(Locale.ROOT, "{\"snippet\":\"%s\",\"language\":\"java\",\"runtime\":\"java %s\",\"strategy\":\"%s\",\"op\":\"%s\","
                        + "\"pattern\":\"%s\",\"cache\":\"%s\",\"resident_pct\":%s,%s\"file_size\":%d,\"op_size\":%d,\"buffer_size\":%d,"
                        + "\"run\":%d,\"bytes\":%d,\"ops\":%d,\"misses\":%s,\"elapsed_ns\":%d,\"user_ns\":%d,\"sys_ns\":%d,%s"
                        + "\"checksum\":%s,\"seed\":%d}%n",
                o.snippet(), System.getProperty("java.version"), o.strategy(), o.op(), o.pattern(), o.cache(),
                resident == null ? "null" : String.format(Locale.ROOT, "%.1f", resident),
                (o.text() == null ? "" : "\"text\":\"" + o.text() + "\",") + (o.type() == null ? "" : "\"type\":\"" + o.type() + "\",")
                        + (o.procs() > 0 ? "\"procs\":" + o.procs() + "," + job : "")
                        + (o.threads() > 0 ? "\"threads\":" + o.threads() + "," : "") + (o.depth() > 0 ? "\"depth\":" + o.depth() + "," : "") + (o.lock() == null ? "" : "\"lock\":\"" + o.lock() + "\","),
                o.fileSize(), o.opSize(), o.bufferSize(),
                run, o.bytes(), operationsDone >= 0 ? operationsDone : o.operations(), misses < 0 ? "null" : String.valueOf(misses), elapsedNs, userNs, sysNs,
                workerNs == null ? "" : (o.procs() > 0 ? "\"proc_ns\":" : "\"thread_ns\":")
                        + java.util.Arrays.toString(workerNs).replace(" ", "") + ",\"span_ns\":" + spanNs + ","
                        + (platformThreads < 0 ? "" : "\"platform_threads\":" + platformThreads + ",")
                        + (tasks < 0 ? "" : "\"tasks\":" + tasks + ",\"io_workers\":" + ioWorkers + ","),
                Long.toUnsignedString(checksum), o.seed());  // unsigned, as C prints it
        System.out.flush();
    }

    /** What went wrong in the words C's strerror gives for the same failure, so both languages say one line alike. */
    static String describe(Exception e) {
        if (e instanceof UncheckedIOException u) return describe(u.getCause());
        if (e instanceof NoSuchFileException) return "No such file or directory";
        if (e instanceof AccessDeniedException) return "Permission denied";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();  // the JDK puts strerror there
        if (e instanceof java.io.EOFException) return "file ended early";  // as C says it (harness_io_fail_because)
        if (e instanceof FileNotFoundException && e.getMessage() != null && e.getMessage().contains("(")) {
            String m = e.getMessage();
            return m.substring(m.lastIndexOf('(') + 1, m.length() - 1);
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    static void fail(String snippet, String message, int status) {
        System.err.println(snippet + ": " + message);
        System.exit(status);
    }

    /** Reads until len bytes have arrived or the file ends; returns how many arrived. */
    static int readFully(RandomAccessFile file, byte[] buf, int len) throws IOException {
        int done = 0;
        for (int got; done < len && (got = file.read(buf, done, len - done)) > 0; ) done += got;
        return done;
    }
}

/** The deterministic data: byte i of every file is a fixed function of i, identical in C (data_at). */
final class Data {
    static final int PERIOD = 1 << 16;
    private static final byte[] TABLE = new byte[PERIOD];

    static {
        for (int j = 0; j < PERIOD; j++) TABLE[j] = (byte) ((j * 0x9E3779B97F4A7C15L) >>> 56);
    }

    static int at(long pos) {
        return TABLE[(int) (pos & (PERIOD - 1))] & 0xFF;
    }

    /**
     * What a write takes its bytes from, made before the clock starts: the pattern laid out far enough
     * that the len bytes that belong at file offset pos are source[offset(pos), offset(pos) + len) for any
     * len up to the longest operation. Writing needs no copy into a buffer of the program's own.
     */
    static byte[] source;

    static void prepareSource(int longest) {
        source = new byte[PERIOD + longest];
        fill(source, source.length, 0);
    }

    static int offset(long pos) {
        return (int) (pos & (PERIOD - 1));
    }

    /** Fills buf[0, len) with the bytes that belong at file offset pos. */
    static void fill(byte[] buf, int len, long pos) {
        for (int done = 0; done < len; ) {
            int from = (int) ((pos + done) & (PERIOD - 1));
            int n = Math.min(len - done, PERIOD - from);
            System.arraycopy(TABLE, from, buf, done, n);
            done += n;
        }
    }

    /** The checksum both languages compute: the sum of the bytes moved, as unsigned values. */
    static long sum(byte[] buf, int off, int len) {
        long s = 0;
        for (int i = off; i < off + len; i++) s += buf[i] & 0xFF;
        return s;
    }

    /** Int i of the course's int arrays (typed_arrays, shared_file, mpi_file): a fixed function of i, identical in C (data_int_at). */
    static int intAt(long i) {
        return (int) ((i * 0x9E3779B97F4A7C15L) >>> 32);
    }

    /** The ints at the file's bytes [from, to) of such an array (C: data_ints). */
    static int[] ints(long from, long to) {
        int[] ints = new int[(int) ((to - from) / 4)];
        for (int i = 0; i < ints.length; i++) ints[i] = intAt(from / 4 + i);
        return ints;
    }

    /** The sum of a file's bytes: a write run's checksum, taken after its clock stopped. */
    static long sumFile(Path file) throws IOException {
        byte[] block = new byte[1 << 20];
        long sum = 0;
        try (var in = Files.newInputStream(file)) {
            for (int n; (n = in.read(block)) > 0; ) sum += sum(block, 0, n);
        }
        return sum;
    }

    /** Writes a whole file of the pattern in large blocks; preparation for read runs, never timed. */
    static void writeFile(Path file, long size) throws IOException {
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long pos = 0; pos < size; pos += block.length) {
                int n = (int) Math.min(block.length, size - pos);
                fill(block, n, pos);
                out.write(block, 0, n);
            }
        }
    }
}

/**
 * The deterministic text for --text: lines of 0-120 printable ASCII characters, ended by the kind's
 * line ending (mixed: \n, \r\n and \r in turn); utf8 adds é, 中 and 😀 among them. The file stops at
 * exactly its size, usually inside a line (a last line without an ending), never inside a character.
 * Byte for byte the same as text_write_file in C.
 */
final class Text {
    private static final byte[][] WIDE = {{(byte) 0xC3, (byte) 0xA9}, {(byte) 0xE4, (byte) 0xB8, (byte) 0xAD},
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}};
    private static final byte[][] MIXED = {{'\n'}, {'\r', '\n'}, {'\r'}};

    static void writeFile(Path file, long size, String kind, long seed) throws IOException {
        Prng random = new Prng(seed);
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            long written = 0;
            for (long line = 0; written < size; line++) {
                long length = random.below(121);
                for (long j = 0; j < length && written < size; j++) {
                    int v = (int) random.below(1000);
                    byte[] wide = WIDE[v % 3];
                    if (kind.equals("utf8") && v < 100 && wide.length <= size - written) {
                        out.write(wide);
                        written += wide.length;
                    } else {
                        out.write(32 + v % 95);
                        written++;
                    }
                }
                byte[] ending = switch (kind) {
                    case "crlf" -> MIXED[1];
                    case "cr" -> MIXED[2];
                    case "mixed" -> MIXED[(int) (line % 3)];
                    default -> MIXED[0];
                };
                int n = (int) Math.min(ending.length, size - written);
                out.write(ending, 0, n);
                written += n;
            }
        }
    }
}

/** SplitMix64: the random offsets, bit for bit the same as prng_next in C. */
final class Prng {
    private long state;

    Prng(long seed) {
        state = seed;
    }

    long next() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform-enough slot in [0, n): unsigned remainder, as C's `next % n`. */
    long below(long n) {
        return Long.remainderUnsigned(next(), n);
    }
}
