package course;

import course.base.Course;
import course.base.Html;
import course.base.Scratch;
import course.judge.Context;
import course.judge.Published;
import course.judge.Verdict;
import course.profile.CpuProfile;
import course.profile.Coldness;
import course.profile.Fio;
import course.profile.Profile;
import course.record.Jobs;
import course.record.Machine;
import course.record.NoiseFloor;
import course.record.Results;
import course.run.Build;
import course.run.DataFile;
import course.run.Jdks;
import course.run.MpiRun;
import course.run.Plan;
import course.run.Preset;
import course.run.Runner;
import course.run.Sweep;
import course.run.SweepRun;
import course.run.WorkerCounts;
import course.show.Code;
import course.show.Notebook;
import course.show.RunsTable;
import course.show.VerdictTable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A lab session: the notebook's one handle on the kit. It knows the preset, the scratch folder and
 * the machine, starts sweeps, shows code, charts and verdicts, and saves every result it records.
 *
 * <pre>
 * var lab = Lab.open("01-raw-io");
 * Results seq = lab.sweep("raw_io").fileSizes(lab.preset().sizes("seq_sizes")).run();
 * </pre>
 */
public final class Lab {
    private final String id;
    private final Preset preset;
    private final Runner runner = new Runner();
    private final Published published = Published.load();
    private final List<Results> recorded = new ArrayList<>();
    private final List<Verdict> verdicts = new ArrayList<>();
    private final List<Context> contexts = new ArrayList<>();
    /** javap's bytecode of JDK methods this lab asked for ("java 17.0.15 java.io.DataInputStream.readInt"), saved with it. */
    private final Map<String, List<String>> bytecode = new java.util.TreeMap<>();
    private final String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    private Path scratch;
    private Map<String, String> machine;
    /** Made from saved results (replay): its machine is the saved one. */
    private boolean replayed;
    private NoiseFloor noiseFloor;
    private String coldReading;
    /** Where this lab's results are saved: claimed on its first save (ResultsFile.claim). */
    private Path file;
    /** The last sweep that ran to its end (lab.again() repeats it). */
    private Sweep lastSweep;
    /** A lab opened on saved runs (COURSE_LOAD): their sweeps, handed to its cells; null otherwise. */
    private SavedSweeps loaded;

    private Lab(String id, Preset preset) {
        this.id = id;
        this.preset = preset;
        this.scratch = Course.scratch();
    }

    /** Opens a lab in the preset COURSE_PRESET names (quick by default) and says what it will do. */
    public static Lab open(String id) {
        return open(id, Preset.chosenName());
    }

    public static Lab open(String id, String presetName) {
        String load = System.getenv("COURSE_LOAD");
        if (load != null && !load.isBlank()) {
            Lab lab = loaded(id, Path.of(load).toAbsolutePath());
            if (lab != null) return lab;
        }
        int swept = Scratch.sweepStale(Course.scratch());  // before the probe: a stopped kernel's runs still going would slow it
        Lab lab = new Lab(id, Preset.of(id, presetName).plannedHere(Course.scratch()));
        String line = lab.preset.openingLine(Machine.oneLine(lab.machine()));
        Notebook.html("<small>" + Html.escape(line).replace("\n", "<br>") + "</small>", line);
        if (swept > 0) System.out.println("removed " + swept + " run folder(s) a stopped kernel left in " + lab.scratch);
        return lab;
    }

    /**
     * A lab opened on the runs a results file saved (COURSE_LOAD names it: a batch job's, another machine's): each sweep
     * a cell starts hands over the file's sweep of the same cases instead of running (SavedSweeps), so its tables, charts
     * and verdicts are those runs', judged on the preset and machine they ran with. Nothing runs, and nothing is saved. Null, said in a line,
     * when the file holds another lab's runs: this one runs its own.
     */
    static Lab loaded(String id, Path file) {
        Lab lab;
        try {
            lab = replay(file);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("COURSE_LOAD=" + file + ": not a lab's saved results (" + e.getMessage() + ")");
        }
        if (!lab.id.equals(id)) {
            System.out.println("COURSE_LOAD=" + file + " holds the runs of " + lab.id + ", so " + id + " runs its own.");
            return null;
        }
        lab.loaded = new SavedSweeps(file, lab.recorded);
        String line = String.format(Locale.ROOT, "Lab %s · loaded from %s: the runs of its preset %s on %s. Nothing runs here: each cell takes the sweep saved of its cases.",
                id, file, lab.preset.name(), Machine.oneLine(lab.machine, lab.machine.get("jdk")));
        Notebook.html("<small>" + Html.escape(line) + "</small>", line);
        return lab;
    }

    public String id() { return id; }
    public Preset preset() { return preset; }
    public Published published() { return published; }
    public Published.Claim claim(String claimId) { return published.get(claimId); }
    Runner runner() { return runner; }

    /**
     * For labs that start MPI jobs: names the MPI found, or stops the lab right here (before anything
     * is written) with one line saying how to install it.
     */
    public void requireMpi() {
        if (loaded == null) MpiRun.require();  // a loaded lab runs nothing
    }

    /** The command line of the last run, to rerun it outside the notebook (with a --file of your own). */
    public String lastCommand() { return loaded != null ? "nothing ran here: these runs were loaded from " + loaded.file() : runner.lastCommand(); }

    public Path scratch() { return scratch; }

    /** Puts this lab's files somewhere else (another disk, say); the folder is created if needed. */
    public Lab scratch(String folder) {
        scratch = Path.of(folder).toAbsolutePath();
        machine = null;
        return this;
    }

    public Map<String, String> machine() {
        if (machine == null) machine = Machine.describe(scratch);
        return machine;
    }

    public void showMachine() {
        Notebook.html(Machine.html(machine()), machine().toString());
    }

    /**
     * Thread or process counts to try on this machine (WorkerCounts.counts): up to perCore × its cores, never more than blocks
     * or, for processes (one JVM each), than the memory allowed holds.
     */
    public List<Integer> workerCounts(int perCore, long blocks, boolean processes) {
        return WorkerCounts.counts(cores(), perCore, blocks, processes ? Machine.memoryAllowed() : 0);
    }

    /** The most of these counts (of processes or threads) that each get a core of this machine: none share one. */
    public int mostWithACoreEach(List<Integer> counts) {
        return new Jobs(List.of()).mostWithACoreEach(counts, cores());  // none run yet: the rule for a count without runs
    }

    /** The most processes among counts whose MPI jobs in runs each had a core of their own (on a cluster, per node: Jobs). */
    public int mostWithACoreEach(List<Integer> counts, Results runs) {
        return Jobs.of(runs).mostWithACoreEach(counts, cores());
    }

    /** The cores runs' largest MPI job had: on several nodes, theirs in all; else this machine's. */
    public int cores(Results runs) {
        return Jobs.of(runs).cores(cores());
    }

    /** This machine's cores (those this process may use: Machine.cores); a replayed lab's, its machine's. */
    public int cores() {
        return replayed ? Integer.parseInt(machine.get("cores")) : Machine.cores();
    }

    /**
     * A lab as a saved results file has it (its id, preset, machine and runs), to judge again: how the claims'
     * judging (course.claims) is tested against real runs. Nothing is shown, run or saved.
     */
    static Lab replay(Path saved) throws IOException {
        ResultsFile file = ResultsFile.read(saved);
        Lab lab = new Lab(file.lab(), Preset.of(file.lab(), file.preset()).planned(Plan.saved(file.plan())));
        lab.machine = file.machine();
        lab.replayed = true;
        lab.bytecode.putAll(file.bytecode());
        lab.recorded.addAll(file.sweeps());
        lab.noiseFloor = file.noiseFloor();
        return lab;
    }

    /** The one recorded sweep whose runs hold exactly these values of each field named (SavedSweeps.holding). */
    Results sweepHolding(String... fields) {
        return SavedSweeps.holding(recorded, fields);
    }

    /** Runs the last sweep of this lab once more (after closing other programs, say) and returns the new results. */
    public Results again() {
        if (lastSweep == null) throw new IllegalStateException("no sweep has run in this lab yet: run one first, then lab.again() repeats it");
        return lastSweep.run();
    }

    public Sweep sweep(String snippet) {
        if (loaded != null) return new Sweep(snippet, preset, loaded::take);
        return new Sweep(snippet, preset, plan -> SweepRun.results(runner, scratch, plan).map(results -> {
            record(plan, results);
            Notebook.html(RunsTable.html(results), results.toString());
            return results;
        }).orElseGet(() -> new Results(List.of())));
    }

    /**
     * Measures this lab's noise floor on the sweep's first case (run as two identical cases, interleaved),
     * shows it in one line and keeps it with the saved results; graded checks and verdicts read it back.
     */
    public void noiseFloor(Sweep sweep) {
        if (loaded == null) noiseFloor = SweepRun.noiseFloor(runner, scratch, sweep);
        else if (noiseFloor == null) return;  // a loaded file that saved none
        Notebook.html("<p><small>" + Html.escape(noiseFloor.line()) + "</small></p>", noiseFloor.line());
        save();
    }

    /** The noise floor this lab measured (lab.noiseFloor(sweep) must have run first). */
    public NoiseFloor noiseFloor() {
        if (noiseFloor == null) throw new IllegalStateException("no noise floor yet in this lab: run the noise-floor cell first");
        return noiseFloor;
    }

    /** Other JDKs on this machine (under /usr/lib/jvm, or JAVA_HOMES: a colon-separated list), said in a line: to run the same Java cases on them. */
    public List<String> otherJdks() {
        return Jdks.showOthers();
    }

    /** The Java runtimes of this machine's JDKs, this kernel's and every other found, as runs name them ("java 17.0.15"), oldest first. */
    public List<String> jdkRuntimes() {
        return Jdks.runtimes();
    }

    /** A JDK method's bytecode (Jdks.javap), kept with the lab's results so that a replay reads the same answer. */
    public List<String> bytecode(String runtime, String className, String method) {
        return bytecode.computeIfAbsent(runtime + " " + className + "." + method, k -> replayed ? List.of() : Jdks.javap(runtime, className, method));
    }

    /**
     * Compiles the native half of a JNI class (c-snippets/jni/NAME.c) with gcc and this JDK's headers,
     * showing the command, unless that exact source is built already; returns the library's path.
     */
    public Path buildNative(String name) {
        Path source = Course.home().resolve("c-snippets/jni").resolve(name + ".c");
        Path library = runner.build().nativeLibrary(name);
        String cmd = String.join(" ", Build.nativeCommand(source, library, Build.javaHome().resolve("include")));
        Notebook.html("<p>Native library <code>" + Html.escape(library.toString()) + "</code>, built with:</p>"
                + Html.scrolling("the command that built it", cmd, ""), library + "\n" + cmd);
        return library;
    }

    /** A file of the course's data (and its checksum) for an exercise; close it to remove it. */
    public DataFile dataFile(long size) {
        return DataFile.create(runner.build(), scratch, size);
    }

    /** A text file of the course's text (kind: lf, crlf, cr, mixed, utf8), with its line count and checksum. */
    public DataFile textFile(long size, String kind) {
        return DataFile.text(runner.build(), scratch, size, kind);
    }

    /**
     * Counts each invocation's system calls with strace -c (never timed: strace slows I/O down): the I/O calls,
     * and any named in alsoCount (say "mmap", "munmap"), which the table shows whether or not a run made one.
     */
    public void syscalls(Sweep sweep, String... alsoCount) {
        Profile.syscalls(runner, scratch, sweep, List.of(alsoCount));
    }

    /** Counts each Java invocation's file reads, writes and forces as JDK Flight Recorder records them (never timed). */
    public void fileEvents(Sweep sweep) {
        Profile.fileEvents(runner, scratch, sweep);
    }

    /** fio's sequential write, warm read and cold read of a file of this size, beside the course's C figures for them. */
    public void fio(long size, Results course) {
        Fio.crossCheck(runner, scratch, size, course);
    }

    /** Says in one sentence whether cold reads reached a slower device here, and how cold they were. */
    public void coldReading(Results warm, Results cold) {
        coldReading = Coldness.reading(warm, cold);
        Notebook.html("<p>" + Html.escape(coldReading) + "</p>", coldReading);
        save();
    }

    /** True where this JDK is at least that feature release; otherwise says that part is skipped, and how to see it. */
    public boolean javaAtLeast(int feature, String part) {
        if (Runtime.version().feature() >= feature) return true;
        System.out.println(part + " needs Java " + feature + " or later; this kernel runs Java " + Runtime.version().feature()
                + ", so this part is skipped. Set JAVA_HOME to a newer JDK and run setup/setup.sh to see it.");
        return false;
    }

    /** Says how many times longer cold reads took than warm ones, over the cases whose file was evicted (Coldness.cost). */
    public void coldCost(Results cold, Results warm) {
        System.out.println(Coldness.cost(cold, warm));
    }

    /** Says, case by case, how much of its file each case's cold runs still found in the page cache (Coldness.ofCases). */
    public void coldness(Results cold) {
        String line = Coldness.ofCases(cold);
        Notebook.html("<p>" + Html.escape(line) + "</p>", line);
    }

    /** Repeats lab 00's sentence on whether cold reads reach a slower device here (labs with cold runs show it beside them). */
    public void coldReading() {
        StartHere.showColdReading();
    }

    /**
     * Profiles the Java invocations of a sweep with async-profiler: shows the hottest frames and links a
     * flame graph; returns one profile per invocation (none where the profiler cannot run).
     */
    public List<CpuProfile> flameGraph(Sweep sweep) {
        return Profile.flameGraph(runner, scratch, id, sweep);
    }

    /**
     * Packs the notebooks beside this one (the learner's copies) and the results every lab saved into my-work.zip,
     * and shows a link to download it: what survives a Binder session that ends.
     */
    public void keep() {
        Learner.keep(Path.of("").toAbsolutePath(), Course.results(), Course.home().resolve("labs"));
    }

    /** The course's answers to this lab's exercises, each folded: for after trying. */
    public void answers() {
        Learner.answers(Course.home().resolve("labs").resolve(id + ".ipynb"), System.getenv(Learner.ANSWERS));
    }

    /**
     * Shows the function each twin's table of ways names for a strategy, an operation and a pattern, Java's beside C's,
     * read from the snippets (never copied): what the harness runs for `--strategy s --op op --pattern pattern`, inside
     * the frame the snippet may share among its ways (its threads, an open file), which is not shown.
     */
    public void code(String snippet, String strategy, String op, String pattern) {
        code(snippet, strategy, strategy, op, pattern);
    }

    /** As code(snippet, strategy, op, pattern), where the twins name the strategy differently (Java's data, C's big). */
    public void code(String snippet, String javaStrategy, String cStrategy, String op, String pattern) {
        Build build = runner.build();
        Code.pair(Code.way(build.javaSource(snippet), javaStrategy, op, pattern), Code.way(build.cSource(snippet), cStrategy, op, pattern));
    }

    /** One function or method of any course file (say "c-snippets/jni/bulkraf.c"), shown as lab.code shows snippets. */
    public void show(String file, String name) {
        Code.one(Course.home().resolve(file), file, name);
    }

    /**
     * This machine's page-cache ceiling for an operation ("read" or "write"): the median MB/s of C's warm-cache runs
     * in the newest results lab 00 saved here in a real preset (quick or paper; smoke is for tests). NaN, with a note, when lab 00 has not been run yet.
     */
    public double ceiling(String op) {
        return StartHere.ceiling(op);
    }

    public void chart(Map<String, Object> spec) {
        Notebook.chart(spec, String.valueOf(spec.get("description")));
    }

    /**
     * The verdict table of a lab's claims as a judging class of course.claims has them, with that class's source
     * folded under it: what each row compares, for a reader who wants the detail.
     */
    public void verdicts(Class<?> judging, List<Verdict> list) {
        verdicts(list.toArray(Verdict[]::new));
        VerdictTable.judgedBy(Course.home(), "kit/src/main/java/" + judging.getName().replace('.', '/') + ".java");
    }

    /** Shows the verdict table and keeps the verdicts with this lab's saved results. */
    public void verdicts(Verdict... list) {
        verdicts.addAll(List.of(list));
        VerdictTable.show(List.of(list), published.notJudged(id.substring(0, 2)));
        save();
    }

    /**
     * Shows the studies' absolute figures beside this machine's ("then and here"), with no outcome:
     * hardware moved on, so the course judges ratios and shapes, not bandwidths. Saved with the results.
     */
    public void thenAndHere(Context... list) {
        contexts.addAll(List.of(list));
        VerdictTable.thenAndHere(List.of(list));
        save();
    }

    /** A sweep's results, handed back when it ran to its end: saved with the lab's, and that sweep is the one again() repeats. */
    void record(Sweep sweep, Results results) {
        lastSweep = sweep;
        recorded.add(results);
        save();
    }

    /** Writes everything recorded so far, with the machine, to data/results/ (atomically: never half a file). */
    public Path save() {
        if (loaded != null) return loaded.file();  // its runs are saved already, where they came from
        Map<String, String> card = new java.util.LinkedHashMap<>(Machine.toSave(machine()));
        card.putAll(Jobs.of(recorded).card());  // where MPI jobs ran: their nodes, links and MPI-IO
        if (card.containsKey("mpi nodes")) card.put("mpi launcher", MpiRun.launcherName());
        ResultsFile saved = new ResultsFile(id, preset.name(), started, preset.plan().toJson(), card, recorded,
                verdicts.stream().map(ResultsFile::verdict).toList(), contexts.stream().map(ResultsFile::context).toList(),
                bytecode, coldReading, noiseFloor);
        if (file == null) file = saved.claim(Course.results());
        saved.writeTo(file);
        return file;
    }
}
