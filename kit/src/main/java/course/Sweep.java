package course;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
    private final Lab lab;
    private final String snippet;
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

    Sweep(Lab lab, String snippet) {
        this.lab = lab;
        this.snippet = snippet;
        this.repeat = lab.preset().count("repeat");
        this.warmup = lab.preset().count("warmup");
        this.rounds = lab.preset().count("rounds");
        this.roundMs = lab.preset().values().has("round_ms") ? lab.preset().count("round_ms") : 0;
    }

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

    /** Runs the Java cases on each of these JDKs (their home folders; see Lab.otherJdks) besides the course's own. */
    public Sweep alsoOn(List<String> javaHomes) {
        List<String> all = new ArrayList<>(java.util.Collections.singletonList(null));
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
     * repeats shared out (3 repeats in 2 rounds: 2 runs, then 1). Never more rounds than repeats.
     */
    public List<Round> schedule() {
        int count = Math.min(rounds, repeat);
        List<Round> out = new ArrayList<>();
        for (int round = 1; round <= count; round++) {
            for (Runner.Invocation inv : cases(runsInRound(repeat, round, count))) out.add(new Round(round, count, inv));
        }
        return out;
    }

    /** The runs round (from 1) does when count rounds share repeat: the first rounds take one more where they do not divide. */
    static int runsInRound(int repeat, int round, int count) {
        return repeat / count + (round <= repeat % count ? 1 : 0);
    }

    /** One process of a sweep's schedule: its round (from 1) of how many, and what it runs. */
    public record Round(int round, int of, Runner.Invocation invocation) {}

    private List<Runner.Invocation> cases(int runs) {
        List<Runner.Invocation> out = new ArrayList<>();
        List<String> strategyChoices = strategies == null ? java.util.Collections.singletonList(null) : strategies;
        List<Long> bufferChoices = bufferSizes == null ? List.of(0L) : bufferSizes;
        List<String> textChoices = texts == null ? java.util.Collections.singletonList(null) : texts;
        List<String> typeChoices = types == null ? java.util.Collections.singletonList(null) : types;
        List<Integer> threadChoices = threads == null ? java.util.Collections.singletonList(null) : threads;
        List<Integer> depthChoices = depths == null ? java.util.Collections.singletonList(null) : depths;
        List<Integer> procChoices = procs == null ? java.util.Collections.singletonList(null) : procs;
        List<String> lockChoices = locks == null ? java.util.Collections.singletonList(null) : locks;
        for (String pattern : patterns)
            for (long opSize : opSizes)
                for (long fileSize : operations > 0 ? List.of(Math.max(opSize, Math.min(maxFileSize, opSize * operations))) : fileSizes)
                for (String text : textChoices)
                for (String type : typeChoices)
                    for (long bufferSize : bufferChoices)
                    for (Integer threadCount : threadChoices)
                    for (Integer depth : depthChoices)
                    for (Integer procCount : procChoices)
                    for (String lock : lockChoices)
                        for (String strategy : strategyChoices)
                            for (String op : ops)
                                for (String language : languages)
                                for (String jdk : language.equals("java") ? jdks : java.util.Collections.<String>singletonList(null)) {
                                    List<String> flags = new ArrayList<>();
                                    if (strategy != null) flags.addAll(List.of("--strategy", strategy));
                                    flags.addAll(List.of("--op", op, "--pattern", pattern, "--file-size", Course.formatSize(fileSize),
                                            "--op-size", Course.formatSize(opSize)));
                                    if (bufferSize > 0) flags.addAll(List.of("--buffer-size", Course.formatSize(bufferSize)));
                                    if (text != null) flags.addAll(List.of("--text", text));
                                    if (type != null) flags.addAll(List.of("--type", type));
                                    if (threadCount != null) flags.addAll(List.of("--threads", String.valueOf(threadCount)));
                                    if (depth != null) flags.addAll(List.of("--depth", String.valueOf(depth)));
                                    if (procCount != null) flags.addAll(List.of("--procs", String.valueOf(procCount)));
                                    if (lock != null) flags.addAll(List.of("--lock", lock));
                                    flags.addAll(List.of("--cache", cache, "--repeat", String.valueOf(runs), "--warmup", String.valueOf(warmup)));
                                    out.add(new Runner.Invocation(snippet, language, List.copyOf(flags), jdk));
                                }
        return out;
    }

    /**
     * Runs the schedule with live progress, shows the results table, records and saves them. Where this machine
     * cannot run the sweep at all (a file system that refuses direct I/O, a kernel that refuses io_uring, a
     * library not installed: Runner.RunFailed.unsupported), it says so in one line and hands back no results,
     * so the rest of the lab goes on.
     */
    public Results run() {
        List<Round> plan = schedule();
        if (plan.isEmpty()) {
            List<String> empty = emptyLists();
            throw new IllegalArgumentException("this sweep of " + snippet + " plans no run: " + (empty.isEmpty()
                    ? "its languages, strategies and operations match no case of " + snippet
                    : String.join(", ", empty) + " given empty; give each at least one value"));
        }
        List<JsonObject> rows;
        try {
            rows = execute(plan);
        } catch (Runner.RunFailed e) {
            if (!e.unsupported()) throw e;
            Profile.unavailable(snippet + (strategies == null ? "" : " " + String.join(", ", strategies)), e.getMessage().strip());
            return new Results(List.of());
        }
        Results results = new Results(rows);
        lab.record(this, results);
        Notebook.html(results.html(), results.toString());
        return results;
    }

    /** The names of the lists this sweep was given empty (each multiplies the cases, so one empty list leaves none). */
    private List<String> emptyLists() {
        java.util.Map<String, List<?>> lists = new java.util.LinkedHashMap<>();
        lists.put("languages", languages);
        lists.put("ops", ops);
        lists.put("patterns", patterns);
        lists.put("fileSizes", fileSizes);
        lists.put("opSizes", opSizes);
        lists.put("bufferSizes", bufferSizes);
        lists.put("strategies", strategies);
        lists.put("texts", texts);
        lists.put("types", types);
        lists.put("threads", threads);
        lists.put("depths", depths);
        lists.put("procs", procs);
        lists.put("locks", locks);
        return lists.entrySet().stream().filter(e -> e.getValue() != null && e.getValue().isEmpty()).map(java.util.Map.Entry::getKey).toList();
    }

    /**
     * This sweep's first case run as two identical cases, A and B, in at least two rounds (A B, A B, …):
     * how far apart their medians land is the noise floor. Its runs are not recorded as results.
     */
    NoiseFloor noiseFloor() {
        List<Round> plan = new ArrayList<>();
        int count = Math.min(Math.max(rounds, 2), repeat);
        for (int round = 1; round <= count; round++) {
            Runner.Invocation inv = cases(runsInRound(repeat, round, count)).get(0);
            plan.add(new Round(round, count, inv));
            plan.add(new Round(round, count, inv));
        }
        List<Double> a = new ArrayList<>(), b = new ArrayList<>();
        for (JsonObject json : execute(plan)) {
            Run run = new Run(json);
            (run.order() % 2 == 1 ? a : b).add((double) run.elapsedNs());
        }
        Runner.Invocation first = cases(repeat).get(0);
        String name = String.format(Locale.ROOT, "%s %s, %s file, %s operations", snippet, first.caseName(), first.flag("--file-size"),
                first.flag("--op-size").equals("1") ? "1-byte" : first.flag("--op-size"));
        return new NoiseFloor(name, a.size(), Results.median(a), Results.median(b));
    }

    /** Starts each process of a plan in turn with live progress; every run it prints, marked with its round and order. */
    private List<JsonObject> execute(List<Round> plan) {
        List<JsonObject> rows = new ArrayList<>();
        String progress = "progress-" + System.nanoTime();
        long start = System.nanoTime();
        double total = plan.stream().mapToDouble(r -> weight(r.invocation())).sum(), done = 0;
        java.util.Map<String, List<Double>> firstRound = new java.util.HashMap<>();  // a case's run times (ns) in round 1
        for (int i = 0; i < plan.size(); i++) {
            Round step = stretched(plan.get(i), firstRound);
            int order = i + 1;
            double doneBefore = done;
            showProgress(progress, order, plan.size(), step, 0, start, doneBefore, total);
            for (JsonObject row : lab.runner().run(step.invocation(), lab.scratch(), row ->
                    showProgress(progress, order, plan.size(), step, new Run(row).run() + 1, start, doneBefore, total))) {
                row.addProperty("round", step.round());
                row.addProperty("order", order);
                rows.add(row);
                if (step.round() == 1) firstRound.computeIfAbsent(caseKey(step.invocation()), k -> new ArrayList<>()).add((double) new Run(row).elapsedNs());
            }
            done += weight(step.invocation());
        }
        int of = plan.get(plan.size() - 1).of();
        Notebook.show(Notebook.data(String.format(Locale.ROOT, "<small>done: %d processes of %s in %d round%s, %.1f s</small>",
                plan.size(), snippet, of, of == 1 ? "" : "s", (System.nanoTime() - start) / 1e9), "done"), progress);
        return rows;
    }

    /** A later round of a short case with its runs stretched toward roundMs (see the class doc); any other step as planned. */
    private Round stretched(Round step, java.util.Map<String, List<Double>> firstRound) {
        List<Double> first = firstRound.get(caseKey(step.invocation()));
        if (roundMs <= 0 || step.round() == 1 || first == null) return step;
        int planned = Integer.parseInt(step.invocation().flag("--repeat"));
        int runs = runsFor(planned, Results.median(first) / 1e6, roundMs);
        if (runs == planned) return step;
        List<String> flags = new ArrayList<>(step.invocation().flags());
        flags.set(flags.indexOf("--repeat") + 1, String.valueOf(runs));
        Runner.Invocation inv = step.invocation();
        return new Round(step.round(), step.of(), new Runner.Invocation(inv.snippet(), inv.language(), List.copyOf(flags), inv.javaHome()));
    }

    /** Runs for a round: enough runs of medianMs to fill roundMs, never fewer than planned nor more than STRETCH times it. */
    static int runsFor(int planned, double medianMs, int roundMs) {
        if (medianMs <= 0) return planned * STRETCH;
        return (int) Math.max(planned, Math.min((long) planned * STRETCH, (long) Math.ceil(roundMs / medianMs)));
    }

    /** An invocation without its run count: the same case in every round. */
    private static String caseKey(Runner.Invocation inv) {
        List<String> flags = new ArrayList<>(inv.flags());
        int at = flags.indexOf("--repeat");
        flags.subList(at, at + 2).clear();
        return inv.language() + " " + inv.snippet() + " " + flags + " " + inv.javaHome();
    }

    private static void showProgress(String id, int order, int count, Round step, int runsDone, long start,
                                     double doneWeight, double totalWeight) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        String left = doneWeight > 0 ? String.format(Locale.ROOT, ", about %.0f s left", elapsed * (totalWeight - doneWeight) / doneWeight) : "";
        String round = step.of() > 1 ? String.format(Locale.ROOT, "round %d of %d · ", step.round(), step.of()) : "";
        String text = String.format(Locale.ROOT, "▶ %s%d of %d: %s · run %d of %s · %.0f s elapsed%s", round,
                order, count, step.invocation().label(), runsDone, step.invocation().flag("--repeat"), elapsed, left);
        Notebook.status(text, id);
    }

    /** Work an invocation does, roughly: bytes moved times the number of runs. */
    private static double weight(Runner.Invocation inv) {
        double size = Course.parseSize(inv.flag("--file-size"));
        double runs = Double.parseDouble(inv.flag("--repeat")) + Double.parseDouble(inv.flag("--warmup"));
        return size * runs * (inv.language().equals("java") ? 1.3 : 1);
    }
}
