package course.run;

import course.base.Course;
import course.record.Results;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A set of runs of one snippet: every combination of the languages, operations, patterns, file sizes,
 * operation sizes, buffer sizes and strategies given, each one child process with warm-up and repeats.
 * Built by Lab.sweep. Strategies and buffer sizes are passed only when set (a buffer size of 0 means
 * the library's default: the flag is left out).
 *
 * <p>The repeats run in rounds (the preset's "rounds"): every case once per round, in the same order
 * (A B C, A B C, …), each round a new process with its own warm-up, so a slow minute of the machine is
 * shared by all cases instead of landing on one. Each run records its round and the place of its process
 * in the sweep ("order"). A round costs a process start and a warm-up per case; see Sweep.schedule.
 *
 * <p>Short cases get more runs after the first round: a case whose runs took a fraction of a millisecond
 * is mostly timer and scheduler noise run by run, and its median's interval stays wide however few
 * cases it is set against. With the preset's "round_ms" set, each later round of a case runs until
 * it would take about that long (by the first round's median run), at most STRETCH times the runs
 * planned: repeats spent where they are cheap, none added where one run already takes that long.
 */
public final class Sweep {
    private final String snippet;
    private final java.util.function.Function<Sweep, Results> runner;
    private List<String> languages = List.of("java", "c");
    private List<String> ops = List.of("write", "read");
    private List<String> patterns = List.of("seq");
    private List<Long> fileSizes = List.of(1L << 20);
    private List<Long> opSizes = List.of(1L);
    private List<Long> bufferSizes = null;
    private List<String> strategies = null;
    private List<String> texts = null;
    private List<String> types = null;
    private List<Integer> threads = null;
    private List<Integer> depths = null;
    private List<Integer> procs = null;
    private List<String> locks = null;
    private long operations = 0, maxFileSize = 0;
    private List<String> jdks = java.util.Collections.singletonList(null);
    private String cache = "warm";
    private int repeat;
    private int warmup;
    private int rounds;
    private int roundMs;
    /** The most a short case's later round may multiply its planned runs by. */
    static final int STRETCH = 10;

    /** A plan for snippet with the preset's repeats, warm-up and rounds; run() hands it to runner (the lab, which records it). */
    public Sweep(String snippet, Preset preset, java.util.function.Function<Sweep, Results> runner) {
        this.snippet = snippet;
        this.runner = runner;
        this.repeat = preset.count("repeat");
        this.warmup = preset.count("warmup");
        this.rounds = preset.count("rounds");
        this.roundMs = preset.values().has("round_ms") ? preset.count("round_ms") : 0;
    }

    public String snippet() { return snippet; }
    /** Later rounds of a short case run for about this long (0: as planned). */
    int roundMs() { return roundMs; }
    /** What the plan names as its ways of doing it, for a one-line "not available here" (the snippet and its strategies). */
    String name() { return snippet + (strategies == null ? "" : " " + String.join(", ", strategies)); }

    public Sweep languages(String... values) { languages = List.of(values); return this; }
    public Sweep ops(String... values) { ops = List.of(values); return this; }
    public Sweep patterns(String... values) { patterns = List.of(values); return this; }
    public Sweep fileSizes(List<Long> values) { fileSizes = List.copyOf(values); return this; }
    public Sweep fileSize(long value) { fileSizes = List.of(value); return this; }

    /**
     * Sizes each run's file by its operation size instead: about `count` operations per run, so a
     * 1-byte run and a 1 MB run take similar time (file size = op size × count, at most maxFileSize).
     * With count = maxFileSize every run uses that one file size, as the studies did.
     */
    public Sweep operations(long count, long maxFileSize) {
        operations = count;
        this.maxFileSize = maxFileSize;
        return this;
    }

    public Sweep opSizes(List<Long> values) { opSizes = List.copyOf(values); return this; }
    public Sweep opSize(long value) { opSizes = List.of(value); return this; }
    public Sweep bufferSizes(List<Long> values) { bufferSizes = List.copyOf(values); return this; }
    public Sweep bufferSize(long value) { bufferSizes = List.of(value); return this; }
    public Sweep strategies(String... values) { strategies = List.of(values); return this; }
    /** Kinds of text file for snippets that read text (--text: lf, crlf, cr, mixed, utf8). */
    public Sweep texts(String... values) { texts = List.of(values); return this; }
    /** Element types for snippets that move typed arrays (--type: int, double). */
    public Sweep types(String... values) { types = List.of(values); return this; }

    /** Thread counts for snippets that run threads (--threads). */
    public Sweep threads(List<Integer> values) { threads = List.copyOf(values); return this; }
    public Sweep threads(int value) { threads = List.of(value); return this; }
    /** Reads each worker keeps in flight (--depth: small_reads' io-uring). */
    public Sweep depths(List<Integer> values) { depths = List.copyOf(values); return this; }
    /** Process counts for snippets that run as an MPI job (--procs: the kit starts them with mpirun -np N). */
    public Sweep procs(List<Integer> values) {
        values.forEach(n -> MpiRun.checkProcs(String.valueOf(n)));
        procs = List.copyOf(values);
        return this;
    }
    public Sweep procs(int value) { return procs(List.of(value)); }
    /** Locking for snippets that run threads or processes (--lock: none, region). */
    public Sweep locks(String... values) { locks = List.of(values); return this; }

    /**
     * Runs the Java cases on each of these JDKs (their home folders; see Lab.otherJdks) besides the course's own, all
     * alike: only the course's JDK has class caches (SharedClasses), so where there are others it is named by its home
     * too, and none of them maps one.
     */
    public Sweep alsoOn(List<String> javaHomes) {
        List<String> all = new ArrayList<>(java.util.Collections.singletonList(javaHomes.isEmpty() ? null : Build.javaHome().toString()));
        all.addAll(javaHomes);
        jdks = all;
        return this;
    }
    public Sweep cache(String value) { cache = value; return this; }
    public Sweep repeat(int value) { repeat = value; return this; }
    public Sweep warmup(int value) { warmup = value; return this; }
    /** Later rounds of a short case run for about this long (0: every round runs as planned). */
    public Sweep roundMs(int value) { roundMs = value; return this; }
    /** Spreads the repeats over this many rounds (1: every run of a case in one process, one case after another). */
    public Sweep rounds(int value) {
        if (value < 1) throw new IllegalArgumentException("rounds must be 1 or more, not " + value);
        rounds = value;
        return this;
    }

    /** One child process per case, each doing every repeat (so a learner can rerun a case by hand; strace and profiles use these). */
    public List<Runner.Invocation> invocations() {
        return cases(repeat);
    }

    /**
     * The child processes run() starts, in order: round after round, every case once per round, the
     * repeats shared out (3 repeats in 2 rounds: 2 runs, then 1). Never more rounds than repeats. A plan
     * with no process (a list given empty) is refused, naming the list.
     */
    public List<Round> schedule() {
        int count = Math.min(rounds, repeat);
        List<Round> out = new ArrayList<>();
        for (int round = 1; round <= count; round++) {
            for (Runner.Invocation inv : cases(runsInRound(repeat, round, count))) out.add(new Round(round, count, inv));
        }
        if (out.isEmpty()) throw plansNoRun();
        return out;
    }

    /** Why a sweep with no case cannot run, naming the list given empty where one was. */
    private IllegalArgumentException plansNoRun() {
        List<String> empty = emptyLists();
        return new IllegalArgumentException("this sweep of " + snippet + " plans no run: " + (empty.isEmpty()
                ? "its languages, strategies and operations match no case of " + snippet
                : String.join(", ", empty) + " given empty; give each at least one value"));
    }

    /** The runs round (from 1) does when count rounds share repeat: the first rounds take one more where they do not divide. */
    public static int runsInRound(int repeat, int round, int count) {
        return repeat / count + (round <= repeat % count ? 1 : 0);
    }

    /** One process of a sweep's schedule: its round (from 1) of how many, and what it runs. */
    public record Round(int round, int of, Runner.Invocation invocation) {}

    /**
     * One thing a sweep varies: a flag (or the language, or the JDK) and its values given the choices made before it
     * (null: the flag left out). Every combination is a case, the first axis slowest.
     */
    private record Axis(String name, String list, List<?> given, java.util.function.Function<Map<String, String>, List<String>> values) {
        /** An axis no builder method sets. */
        Axis(String name, java.util.function.Function<Map<String, String>, List<String>> values) {
            this(name, null, null, values);
        }
    }

    private static List<String> orAbsent(List<?> values) {
        return values == null ? java.util.Collections.singletonList(null) : values.stream().map(String::valueOf).toList();
    }

    private static List<String> sizes(List<Long> values) {
        return values.stream().map(Course::formatSize).toList();
    }

    private List<Axis> axes() {
        return List.of(
                new Axis("--pattern", "patterns", patterns, chosen -> patterns),
                new Axis("--op-size", "opSizes", opSizes, chosen -> sizes(opSizes)),
                new Axis("--file-size", "fileSizes", fileSizes, chosen -> {
                    if (operations == 0) return sizes(fileSizes);
                    long opSize = Course.parseSize(chosen.get("--op-size"));
                    return sizes(List.of(Math.max(opSize, Math.min(maxFileSize, opSize * operations))));
                }),
                new Axis("--text", "texts", texts, chosen -> orAbsent(texts)),
                new Axis("--type", "types", types, chosen -> orAbsent(types)),
                // a buffer size of 0 is the library's default: the flag is left out
                new Axis("--buffer-size", "bufferSizes", bufferSizes, chosen -> bufferSizes == null ? orAbsent(null)
                        : bufferSizes.stream().map(b -> b > 0 ? Course.formatSize(b) : null).toList()),
                new Axis("--threads", "threads", threads, chosen -> orAbsent(threads)),
                new Axis("--depth", "depths", depths, chosen -> orAbsent(depths)),
                new Axis("--procs", "procs", procs, chosen -> orAbsent(procs)),
                new Axis("--lock", "locks", locks, chosen -> orAbsent(locks)),
                new Axis("--strategy", "strategies", strategies, chosen -> orAbsent(strategies)),
                new Axis("--op", "ops", ops, chosen -> ops),
                new Axis("language", "languages", languages, chosen -> languages),
                new Axis("jdk", chosen -> chosen.get("language").equals("java") ? jdks : orAbsent(null)));
    }

    /** The flags a case passes, in the order of its fields in data/results.schema.json (the way first, the sizes last; then the run counts). */
    private static final List<String> FLAG_ORDER = Results.CASE.stream().map(Runner::flagOf).toList();

    private List<Runner.Invocation> cases(int runs) {
        List<Map<String, String>> combinations = new ArrayList<>(List.of(new java.util.HashMap<>()));
        for (Axis axis : axes()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> chosen : combinations) {
                for (String value : axis.values().apply(chosen)) {
                    Map<String, String> more = new java.util.HashMap<>(chosen);
                    more.put(axis.name(), value);
                    next.add(more);
                }
            }
            combinations = next;
        }
        List<Runner.Invocation> out = new ArrayList<>();
        for (Map<String, String> chosen : combinations) {
            List<String> flags = new ArrayList<>();
            chosen.put("--cache", cache);
            for (String flag : FLAG_ORDER) if (chosen.get(flag) != null) flags.addAll(List.of(flag, chosen.get(flag)));
            flags.addAll(List.of("--repeat", String.valueOf(runs), "--warmup", String.valueOf(warmup)));
            out.add(new Runner.Invocation(snippet, chosen.get("language"), List.copyOf(flags), chosen.get("jdk")));
        }
        return out;
    }

    /**
     * Runs the schedule with live progress, shows the results table, records and saves them (see Lab.sweep). Where
     * this machine cannot run the sweep at all (a file system that refuses direct I/O, a kernel that refuses io_uring,
     * a library not installed), it says so in one line and hands back no results, so the rest of the lab goes on.
     */
    public Results run() {
        return runner.apply(this);
    }

    /** The builder lists this sweep was given empty (each multiplies the cases, so one empty list leaves none). */
    private List<String> emptyLists() {
        return axes().stream().filter(a -> a.given() != null && a.given().isEmpty()).map(Axis::list).toList();
    }

    /**
     * This sweep's first case run as two identical cases, A and B, in at least two rounds (A B, A B, …): how far
     * apart their medians land is the noise floor (SweepRun.noiseFloor runs it).
     */
    List<Round> noisePlan() {
        List<Round> plan = new ArrayList<>();
        int count = Math.min(Math.max(rounds, 2), repeat);
        for (int round = 1; round <= count; round++) {
            List<Runner.Invocation> cases = cases(runsInRound(repeat, round, count));
            if (cases.isEmpty()) throw plansNoRun();
            Runner.Invocation inv = cases.get(0);
            plan.add(new Round(round, count, inv));
            plan.add(new Round(round, count, inv));
        }
        return plan;
    }

    /** Runs for a round: enough runs of medianMs to fill roundMs, never fewer than planned nor more than STRETCH times it. */
    static int runsFor(int planned, double medianMs, int roundMs) {
        if (medianMs <= 0) return planned * STRETCH;
        return (int) Math.max(planned, Math.min((long) planned * STRETCH, (long) Math.ceil(roundMs / medianMs)));
    }
}
