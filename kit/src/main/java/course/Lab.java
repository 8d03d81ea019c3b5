package course;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import course.base.Course;
import course.base.Exec;
import course.base.Html;
import course.base.Scratch;
import course.judge.Context;
import course.judge.Estimate;
import course.judge.Published;
import course.judge.Verdict;
import course.profile.CpuProfile;
import course.profile.Profile;
import course.record.Machine;
import course.record.NoiseFloor;
import course.record.Results;
import course.run.Build;
import course.run.DataFile;
import course.run.MpiRun;
import course.run.Plan;
import course.run.Preset;
import course.run.Runner;
import course.run.Sweep;
import course.run.SweepRun;
import course.show.Notebook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
    /** Where this lab's results are saved: claimed on its first save (claimName). */
    private Path file;
    /** The last sweep that ran to its end (lab.again() repeats it). */
    private Sweep lastSweep;
    /** A lab opened on saved runs (COURSE_LOAD): the file, and its sweeps not yet handed to a cell; null otherwise. */
    private Path loadedFrom;
    private java.util.Deque<Results> toLoad;

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
        Preset unplanned = Preset.of(id, presetName);
        Lab lab = new Lab(id, unplanned.plannedHere(Course.scratch()));
        Plan plan = lab.preset.plan();
        boolean cut = plan.divisor() > 1 || plan.fewestRounds();  // by hand (COURSE_PLAN): less than quick's whole time, not predicted
        String minutes = !Double.isNaN(plan.seconds()) ? String.format(Locale.ROOT, "about %.0f s", plan.seconds())
                : String.format(Locale.ROOT, "%s %.1f min", cut ? "under" : "about", lab.preset.minutes());
        String fitted = plan.line(lab.preset.values());
        String line = String.format(Locale.ROOT, "Lab %s · preset %s (%s here; %s) · %s%s", id, presetName, minutes,
                lab.preset.sizesLine(), Machine.oneLine(lab.machine()), fitted.isEmpty() ? "" : "\n" + fitted);
        Notebook.html("<small>" + Html.escape(line).replace("\n", "<br>") + "</small>", line);
        int swept = Scratch.sweepStale(lab.scratch);
        if (swept > 0) System.out.println("removed " + swept + " run folder(s) a stopped kernel left in " + lab.scratch);
        return lab;
    }

    /**
     * A lab opened on the runs a results file saved (COURSE_LOAD names it: a batch job's, another machine's): each sweep
     * a cell starts hands over the file's next sweep instead of running, so its tables, charts and verdicts are those
     * runs', judged on the preset and machine they ran with. Nothing runs, and nothing is saved. Null, said in a line,
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
        lab.loadedFrom = file;
        lab.toLoad = new java.util.ArrayDeque<>(lab.recorded);
        String line = String.format(Locale.ROOT, "Lab %s · loaded from %s: the runs of its preset %s on %s. Nothing runs here: each cell takes the next sweep saved.",
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
        if (loadedFrom != null) return;  // nothing runs
        if (!MpiRun.available()) throw new Exec.RunFailed(MpiRun.missing() + "; then restart the kernel and run this lab again");
        String version = Exec.run(List.of(MpiRun.tool("mpirun"), "--version"), "mpirun --version").lines().findFirst().orElse("mpirun");
        String line = "MPI: " + version + ", mpicc; processes start with: " + String.join(" ", MpiRun.launcher(List.of("--procs", "1"))).replace("-np 1", "-np N") + " …";
        Notebook.html("<small>" + Html.escape(line) + "</small>", line);
    }

    /** The command line of the last run, to rerun it outside the notebook (with a --file of your own). */
    public String lastCommand() { return loadedFrom != null ? "nothing ran here: these runs were loaded from " + loadedFrom : runner.lastCommand(); }

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

    /** The most threads or processes a lab starts, whatever the cores: past it a large machine would start hundreds of JVMs. */
    public static final int MOST_WORKERS = 64;
    /** The memory one MPI process (a JVM of its own, with its buffers) is counted as needing, to cap process counts. */
    public static final long MEMORY_PER_PROCESS = 256L << 20;

    /**
     * Thread or process counts to try on this machine: threadCounts up to perCore × its cores, but never
     * more than MOST_WORKERS, than blocks (each worker takes at least one block of the file) or, for
     * processes (one JVM each), than the memory allowed holds at MEMORY_PER_PROCESS each.
     */
    public List<Integer> workerCounts(int perCore, long blocks, boolean processes) {
        return workerCounts(cores(), perCore, blocks, processes ? Machine.memoryAllowed() : 0);
    }

    /** The same for a machine with these cores and, for processes, this much memory allowed (0: threads, no memory cap). */
    public static List<Integer> workerCounts(int cores, int perCore, long blocks, long memory) {
        long most = Math.min((long) cores * perCore, Math.min(MOST_WORKERS, blocks));
        if (memory > 0) most = Math.min(most, memory / MEMORY_PER_PROCESS);
        return threadCounts((int) Math.max(1, most));
    }

    /** Thread counts to try: 1, 2, 4, … up to and including max (say, twice the cores). */
    public static List<Integer> threadCounts(int max) {
        List<Integer> counts = new java.util.ArrayList<>();
        for (int t = 1; t < max; t *= 2) counts.add(t);
        counts.add(max);
        return counts;
    }

    /** The most of these counts (of processes or threads) that each get a core of this machine: none share one. */
    public int mostWithACoreEach(List<Integer> counts) {
        return counts.stream().filter(c -> c <= cores()).max(Integer::compare).orElse(0);
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
        JsonObject doc = com.google.gson.JsonParser.parseString(Files.readString(saved)).getAsJsonObject();
        Preset ran = Preset.of(doc.get("lab").getAsString(), doc.get("preset").getAsString())
                .planned(Plan.saved(doc.has("plan") ? doc.getAsJsonObject("plan") : null));
        Lab lab = new Lab(doc.get("lab").getAsString(), ran);
        lab.machine = new java.util.TreeMap<>();
        doc.getAsJsonObject("machine").entrySet().forEach(e -> lab.machine.put(e.getKey(), e.getValue().getAsString()));
        lab.replayed = true;
        if (doc.has("bytecode")) {
            lab.bytecode.putAll(new com.google.gson.Gson().<Map<String, List<String>>>fromJson(doc.get("bytecode"),
                    new com.google.gson.reflect.TypeToken<Map<String, List<String>>>() { }.getType()));
        }
        List<JsonObject> runs = new ArrayList<>();
        doc.getAsJsonArray("runs").forEach(r -> runs.add(r.getAsJsonObject()));
        int from = 0;
        for (var count : doc.has("sweeps") ? doc.getAsJsonArray("sweeps") : new JsonArray()) {
            lab.recorded.add(new Results(runs.subList(from, from += count.getAsInt())));
        }
        if (from < runs.size()) lab.recorded.add(new Results(runs.subList(from, runs.size())));  // saved before sweeps were
        if (doc.has("noise_floor")) {
            JsonObject floor = doc.getAsJsonObject("noise_floor");
            lab.noiseFloor = NoiseFloor.saved(floor.get("case").getAsString(), floor.get("runs").getAsInt(), floor.get("pct").getAsDouble());
        }
        return lab;
    }

    /** The results of the lab's i-th sweep (from 0), in the order it ran them. */
    Results sweep(int i) {
        return recorded.get(i);
    }

    /** Runs the last sweep of this lab once more (after closing other programs, say) and returns the new results. */
    public Results again() {
        if (lastSweep == null) throw new IllegalStateException("no sweep has run in this lab yet: run one first, then lab.again() repeats it");
        return lastSweep.run();
    }

    public Sweep sweep(String snippet) {
        if (loadedFrom != null) return new Sweep(snippet, preset, plan -> nextLoaded(snippet));
        return new Sweep(snippet, preset, plan -> SweepRun.results(runner, scratch, plan).map(results -> {
            record(plan, results);
            Notebook.html(results.html(), results.toString());
            return results;
        }).orElseGet(() -> new Results(List.of())));
    }

    /** The next sweep of a loaded lab's file, shown as a run one is, if it is of this snippet. */
    private Results nextLoaded(String snippet) {
        int at = recorded.size() - toLoad.size() + 1;
        Results next = toLoad.poll();
        if (next == null) {
            throw new IllegalStateException("COURSE_LOAD=" + loadedFrom + ": it saved " + recorded.size() + " sweeps and this cell asks for one more"
                    + " (the lab changed since): load results of this lab as it is now, or unset COURSE_LOAD");
        }
        String saved = next.typed().isEmpty() ? snippet : next.typed().get(0).snippet();
        if (!saved.equals(snippet)) {
            throw new IllegalStateException("COURSE_LOAD=" + loadedFrom + ": sweep " + at + " saved runs of " + saved + " and this cell asks for "
                    + snippet + " (the lab changed since): load results of this lab as it is now, or unset COURSE_LOAD");
        }
        Notebook.html(next.html(), next.toString());
        return next;
    }

    /**
     * Measures this lab's noise floor on the sweep's first case (run as two identical cases, interleaved),
     * shows it in one line and keeps it with the saved results; graded checks and verdicts read it back.
     */
    public void noiseFloor(Sweep sweep) {
        if (loadedFrom == null) noiseFloor = SweepRun.noiseFloor(runner, scratch, sweep);
        else if (noiseFloor == null) return;  // a loaded file that saved none
        Notebook.html("<p><small>" + Html.escape(noiseFloor.line()) + "</small></p>", noiseFloor.line());
        save();
    }

    /** The noise floor this lab measured (lab.noiseFloor(sweep) must have run first). */
    public NoiseFloor noiseFloor() {
        if (noiseFloor == null) throw new IllegalStateException("no noise floor yet in this lab: run the noise-floor cell first");
        return noiseFloor;
    }

    /**
     * Other JDKs on this machine (folders under /usr/lib/jvm, or JAVA_HOMES: a colon-separated list),
     * each once, without the course's own: for running the same Java cases on another JDK.
     */
    public List<String> otherJdks() {
        List<String> found = jdkHomes().stream().skip(1).map(Path::toString).toList();
        String line = found.isEmpty() ? "No other JDK found (install one, or list homes in JAVA_HOMES)."
                : "Other JDKs: " + String.join(", ", found);
        Notebook.html("<small>" + Html.escape(line) + "</small>", line);
        return found;
    }

    /** The Java runtimes of this machine's JDKs, this kernel's and every other found, as runs name them ("java 17.0.15"), oldest first. */
    public List<String> jdkRuntimes() {
        return jdkHomes().stream().map(Machine::releaseVersion).filter(v -> !v.isEmpty()).map(v -> "java " + v).distinct()
                .sorted(Results.OLDEST_FIRST).toList();
    }

    /**
     * The bytecode of a method of a JDK class, as `javap -c -p` prints it, on the JDK whose runs say `runtime` ("java
     * 17.0.15"): what tells whether a JDK has a change, where its version number cannot (an update may carry a
     * backport). Empty when no JDK here is that runtime or javap cannot say. Kept with the lab's results, so that a
     * replay reads the same answer.
     */
    public List<String> bytecode(String runtime, String className, String method) {
        return bytecode.computeIfAbsent(runtime + " " + className + "." + method, k -> javap(runtime, className, method));
    }

    private List<String> javap(String runtime, String className, String method) {
        for (Path home : replayed ? List.<Path>of() : jdkHomes()) {
            if (!runtime.equals("java " + Machine.releaseVersion(home)) || !Files.isExecutable(home.resolve("bin/javap"))) continue;
            List<String> lines = Exec.run(List.of(home.resolve("bin/javap").toString(), "-c", "-p", className), "javap " + className).lines().toList();
            List<String> body = new ArrayList<>();
            boolean in = false;
            for (String line : lines) {
                if (!in && line.contains(" " + method + "(")) in = true;
                else if (in && line.isBlank()) break;
                if (in) body.add(line.strip());
            }
            return List.copyOf(body);
        }
        return List.of();
    }

    /** This kernel's JDK first, then every other JDK found (JAVA_HOMES, else /usr/lib/jvm), each once, by its real path. */
    private static List<Path> jdkHomes() {
        List<Path> candidates = new ArrayList<>();
        String listed = System.getenv("JAVA_HOMES");
        try {
            if (listed != null && !listed.isBlank()) {
                for (String home : listed.split(":")) candidates.add(Path.of(home));
            } else if (Files.isDirectory(Path.of("/usr/lib/jvm"))) {
                try (var dirs = Files.list(Path.of("/usr/lib/jvm"))) {
                    dirs.sorted().forEach(candidates::add);
                }
            }
            java.util.Set<Path> seen = new java.util.LinkedHashSet<>();
            seen.add(Build.javaHome().toRealPath());
            for (Path home : candidates) {
                if (Files.isExecutable(home.resolve("bin/java"))) seen.add(home.toRealPath());
            }
            return List.copyOf(seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Compiles the native half of a JNI class (c-snippets/jni/NAME.c) with gcc and this JDK's headers,
     * showing the command, unless that exact source is built already; returns the library's path.
     */
    public Path buildNative(String name) {
        Path source = Course.home().resolve("c-snippets/jni").resolve(name + ".c");
        Path library = runner.build().nativeLibrary(name);
        String cmd = String.join(" ", Build.nativeCommand(source, library, Build.javaHome().resolve("include")));
        Notebook.html("<p>Native library <code>" + Html.escape(library.toString()) + "</code>, built with:</p><pre>"
                + Html.escape(cmd) + "</pre>", library + "\n" + cmd);
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
        Profile.fio(runner, scratch, size, course);
    }

    /** Says in one sentence whether cold reads reached a slower device here, and how cold they were. */
    public void coldReading(Results warm, Results cold) {
        coldReading = Profile.coldReading(warm, cold);
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

    /** Says how many times longer cold reads took than warm ones, over the cases whose file was evicted (Profile.coldCost). */
    public void coldCost(Results cold, Results warm) {
        System.out.println(Profile.coldCost(cold, warm));
    }

    /** Says, case by case, how much of its file each case's cold runs still found in the page cache (Profile.coldness). */
    public void coldness(Results cold) {
        String line = Profile.coldness(cold);
        Notebook.html("<p>" + Html.escape(line) + "</p>", line);
    }

    /** Repeats lab 00's sentence on whether cold reads reach a slower device here (labs with cold runs show it beside them). */
    public void coldReading() {
        String line;
        try {
            line = newestStartHere().filter(doc -> doc.has("cold_reading")).map(doc -> "Lab 00 found on this machine: " + doc.get("cold_reading").getAsString())
                    .orElse("Run lab 00 once on this machine to learn whether its cold reads reach a slower device.");
        } catch (IllegalStateException | UncheckedIOException unreadable) {
            line = unreadable.getMessage();
        }
        Notebook.html("<p><small>" + Html.escape(line) + "</small></p>", line);
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

    /** Shows a Java method and its C twin side by side, read from the snippet files (never copied). */
    public void code(String snippet, String javaMethod, String cFunction) {
        Path javaFile = runner.build().javaSource(snippet), cFile = runner.build().cSource(snippet);
        String java = extract(javaFile, javaMethod);
        String c = extract(cFile, cFunction);
        String html = "<div style='display:flex;flex-wrap:wrap;gap:1em'>" + codeBox(javaFile.getFileName() + " · " + javaMethod, java)
                + codeBox(cFile.getFileName() + " · " + cFunction, c) + "</div>";
        Notebook.html(html, java + "\n" + c);
    }

    /**
     * A snippet's code, as wide as its longest line: side by side with its twin where both fit, one above the other
     * where they do not (a clipped line hides the strategy), scrolling sideways only on a screen narrower than one line.
     * The box takes the code's font so that its width in ch is the code's own.
     */
    private static String codeBox(String title, String code) {
        int widest = code.lines().mapToInt(String::length).max().orElse(0);
        return "<div style='flex:1 1 " + (widest + 4) + "ch;min-width:0;font-family:var(--jp-code-font-family,monospace);font-size:85%'>"
                + "<b style='font-family:var(--jp-content-font-family,system-ui,sans-serif);font-size:117.6%'>" + Html.escape(title) + "</b>"
                + "<pre style='font-size:inherit;font-family:inherit;white-space:pre;overflow-x:auto'>" + Html.escape(code) + "</pre></div>";
    }

    /** One function or method of any course file (say "c-snippets/jni/bulkraf.c"), shown as lab.code shows snippets. */
    public void show(String file, String name) {
        Path path = Course.home().resolve(file);
        String code = extract(path, name);
        Notebook.html(codeBox(file + " · " + name, code), code);
    }

    /** A static method or function's source: from the line that declares it to the closing brace at its indentation. */
    static String extract(Path file, String name) {
        java.util.regex.Pattern declaration = java.util.regex.Pattern.compile("\\s*(static|JNIEXPORT|public|private)\\b[^(=]*[\\s*]"
                + java.util.regex.Pattern.quote(name) + "\\(.*");
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!declaration.matcher(line).matches() || line.strip().endsWith(";")) continue;  // not a prototype
            String indent = line.substring(0, line.indexOf(line.strip()));
            StringBuilder out = new StringBuilder();
            for (int j = i; j < lines.size(); j++) {
                out.append(lines.get(j).startsWith(indent) ? lines.get(j).substring(indent.length()) : lines.get(j)).append('\n');
                if (j > i && lines.get(j).equals(indent + "}")) return out.toString();
            }
        }
        throw new IllegalArgumentException("static " + name + "(...) not found in " + file);
    }

    /** The page-cache ceiling rule, the one place it is stated: the median MB/s of lab 00's C warm-cache runs of op. */
    public static java.util.OptionalDouble ceilingOf(Results startHere, String op) {
        Results warm = startHere.where("language", "c").where("cache", "warm").where("op", op);
        return warm.runs().isEmpty() ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(warm.median("mb_per_s", r -> true));
    }

    /**
     * This machine's page-cache ceiling for an operation ("read" or "write"): the median MB/s of C's warm-cache runs
     * in the newest results lab 00 saved here in a real preset (quick or paper; smoke is for tests). NaN, with a note, when lab 00 has not been run yet.
     */
    public double ceiling(String op) {
        java.util.Optional<JsonObject> doc;
        try {
            doc = newestStartHere();
        } catch (IllegalStateException | UncheckedIOException unreadable) {
            Notebook.html("<small>No ceiling: " + Html.escape(unreadable.getMessage()) + "</small>", "no ceiling: " + unreadable.getMessage());
            return Double.NaN;
        }
        if (doc.isPresent()) {
            List<com.google.gson.JsonObject> runs = new ArrayList<>();
            doc.get().getAsJsonArray("runs").forEach(r -> runs.add(r.getAsJsonObject()));
            java.util.OptionalDouble ceiling = ceilingOf(new Results(runs), op);
            if (ceiling.isPresent()) {
                double mbPerS = ceiling.getAsDouble();
                String file = doc.get().get("lab").getAsString() + "-" + doc.get().get("preset").getAsString() + "-"
                        + doc.get().get("started").getAsString() + ".json";
                Notebook.html(String.format(Locale.ROOT, "<small>Page-cache ceiling from lab 00 (%s): C %s, warm cache, %,.0f MB/s</small>",
                        Html.escape(file), op, mbPerS), "ceiling " + op + " " + mbPerS);
                return mbPerS;
            }
        }
        Notebook.html("<small>No ceiling yet: run lab 00 once on this machine to see your page-cache ceiling here.</small>",
                "no ceiling: run lab 00 first");
        return Double.NaN;
    }

    /** The newest results lab 00 saved here in a real preset (quick or paper; smoke's tiny files measure no disk), if readable. */
    /** The newest results lab 00 saved here in a real preset, if any; a file that cannot be read or parsed is an error naming it. */
    private static java.util.Optional<JsonObject> newestStartHere() {
        Path newest;
        try (var files = Files.list(Course.results())) {
            newest = files.filter(f -> f.getFileName().toString().matches("00-start-here-.*\\.json"))
                    .filter(f -> !f.getFileName().toString().startsWith("00-start-here-smoke-"))
                    .max(java.util.Comparator.comparing(f -> f.toFile().lastModified())).orElse(null);
        } catch (java.nio.file.NoSuchFileException none) {
            return java.util.Optional.empty();  // no results folder yet: the caller says to run lab 00
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + Course.results() + ": " + e.getMessage(), e);
        }
        if (newest == null) return java.util.Optional.empty();
        try {
            return java.util.Optional.of(com.google.gson.JsonParser.parseString(Files.readString(newest)).getAsJsonObject());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("lab 00's results " + newest + " cannot be read (" + e.getMessage()
                    + "): run lab 00 again to save new ones", e);
        }
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
        String file = "kit/src/main/java/" + judging.getName().replace('.', '/') + ".java";
        Path source = Course.home().resolve(file);
        if (!Files.isReadable(source)) return;  // a course without its sources (grading reads the built kit only)
        try {
            String code = Files.readString(source);
            code = code.substring(code.indexOf("/**"));  // from the class's own comment: no package line, no imports
            Notebook.html("<details><summary>How each row is judged: " + Html.escape(file) + "</summary>"
                    + "<pre style='font-size:85%;white-space:pre;overflow-x:auto'>" + Html.escape(code) + "</pre></details>", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Shows the verdict table and keeps the verdicts with this lab's saved results. */
    public void verdicts(Verdict... list) {
        verdicts.addAll(List.of(list));
        Html.Table table = new Html.Table("claim", "where", "published", "measured here [95% interval]", "verdict", "rule", "why").left(0, 5, 6);
        StringBuilder t = new StringBuilder();
        for (Verdict v : list) {
            table.row(v.claim().statement(), v.claim().citation(), v.claim().shown(), v.measured(), Html.coloured(v.outcome(), Verdict.color(v.outcome())),
                    Html.raw("<small>" + Html.escape(v.rule()) + "</small>"), v.why());
            t.append(String.format(Locale.ROOT, "%-9s %s | published %s | measured %s%n", v.outcome(), v.claim().id(),
                    v.claim().shown(), v.measured()));
        }
        StringBuilder h = new StringBuilder(table.html());
        List<Verdict> read = List.of(list).stream().filter(v -> !v.reading().isEmpty()).toList();
        if (!read.isEmpty()) {
            Html.Table readings = new Html.Table("claim", "the course's reading").left(0, 1);
            t.append("How this lab reads the studies' words:").append(System.lineSeparator());
            for (Verdict v : read) {
                readings.row(v.claim().statement(), v.reading());
                t.append("  ").append(v.claim().id()).append(": ").append(v.reading()).append(System.lineSeparator());
            }
            h.append("<details><summary>How this lab reads the studies' words (").append(read.size()).append(read.size() == 1 ? " row" : " rows")
                    .append(")</summary>").append(readings.html()).append("</details>");
        }
        List<Published.NotJudged> left = published.notJudged(id.substring(0, 2));
        if (!left.isEmpty()) {
            Html.Table notJudged = new Html.Table().left(0, 2);
            left.forEach(n -> notJudged.row(n.claim().statement(), n.claim().citation(), n.reason()));
            h.append("<details><summary>").append(left.size()).append(" more statements of the studies belong to this lab but are not judged here, and why</summary>")
                    .append(notJudged.html()).append("</details>");
            t.append(left.size()).append(" more statements not judged here (see data/not-judged.csv)").append(System.lineSeparator());
        }
        Notebook.html(h.toString(), t.toString());
        save();
    }

    /**
     * Shows the studies' absolute figures beside this machine's ("then and here"), with no outcome:
     * hardware moved on, so the course judges ratios and shapes, not bandwidths. Saved with the results.
     */
    public void thenAndHere(Context... list) {
        contexts.addAll(List.of(list));
        Html.Table table = new Html.Table("figure", "where", "then (the study's machine)", "here", "what differs").left(0, 4);
        StringBuilder t = new StringBuilder();
        for (Context c : list) {
            table.row(c.claim().statement(), c.claim().citation(), c.claim().shown(), c.here(), c.note());
            t.append(String.format(Locale.ROOT, "then %s | here %s | %s%n", c.claim().shown(), c.here(), c.claim().id()));
        }
        Notebook.html(table.html(), t.toString());
        save();
    }

    /** A sweep's results, handed back when it ran to its end: saved with the lab's, and that sweep is the one again() repeats. */
    void record(Sweep sweep, Results results) {
        lastSweep = sweep;
        recorded.add(results);
        save();
    }

    /** A verdict's figure on its rule's scale, and its interval where it has one (JSON has no NaN or infinity). */
    private static JsonObject judgedFigure(Estimate figure) {
        JsonObject o = new JsonObject();
        o.addProperty("value", figure.value());
        if (Double.isFinite(figure.low()) && Double.isFinite(figure.high())) {
            o.addProperty("low", figure.low());
            o.addProperty("high", figure.high());
        }
        return o;
    }

    /** Writes everything recorded so far, with the machine, to data/results/ (atomically: never half a file). */
    public Path save() {
        if (loadedFrom != null) return loadedFrom;  // its runs are saved already, where they came from
        JsonObject doc = new JsonObject();
        doc.addProperty("lab", id);
        doc.addProperty("preset", preset.name());
        doc.addProperty("started", started);
        doc.add("plan", preset.plan().toJson());
        JsonObject env = new JsonObject();
        Machine.toSave(machine()).forEach(env::addProperty);
        List<String> hosts = recorded.stream().flatMap(r -> r.hosts().stream()).distinct().toList();
        if (!hosts.isEmpty()) env.addProperty("mpi nodes", hosts.size() + " (" + String.join(", ", hosts) + ")");  // where its MPI jobs ran: a cluster's nodes
        doc.add("machine", env);
        JsonArray runs = new JsonArray(), sweeps = new JsonArray();
        recorded.forEach(r -> r.runs().forEach(runs::add));
        recorded.forEach(r -> sweeps.add(r.runs().size()));
        doc.add("runs", runs);
        doc.add("sweeps", sweeps);
        JsonArray checked = new JsonArray();
        for (Verdict v : verdicts) {
            JsonObject o = new JsonObject();
            o.addProperty("claim", v.claim().id());
            o.addProperty("published", v.claim().shown());
            o.addProperty("measured", v.measured());
            o.addProperty("verdict", v.outcome());
            o.addProperty("rule", v.rule());
            if (v.judged() != null && Double.isFinite(v.judged().value())) o.add("judged", judgedFigure(v.judged()));
            checked.add(o);
        }
        doc.add("verdicts", checked);
        JsonArray context = new JsonArray();
        for (Context c : contexts) {
            JsonObject o = new JsonObject();
            o.addProperty("claim", c.claim().id());
            o.addProperty("published", c.claim().shown());
            o.addProperty("here", c.here());
            context.add(o);
        }
        if (!contexts.isEmpty()) doc.add("then_and_here", context);
        if (!bytecode.isEmpty()) doc.add("bytecode", new com.google.gson.Gson().toJsonTree(bytecode));
        if (coldReading != null) doc.addProperty("cold_reading", coldReading);
        if (noiseFloor != null) {
            JsonObject floor = new JsonObject();
            floor.addProperty("case", noiseFloor.caseName());
            floor.addProperty("runs", noiseFloor.runs());
            floor.addProperty("pct", noiseFloor.pct());
            doc.add("noise_floor", floor);
        }
        Path dir = Course.results();
        try {
            Files.createDirectories(dir);
            if (file == null) file = claimName(dir, id + "-" + preset.name() + "-" + started);
            Path tmp = Files.createTempFile(dir, ".saving-", ".json");
            try {
                Files.writeString(tmp, new GsonBuilder().serializeNulls().setPrettyPrinting().create().toJson(doc));
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);  // a save that failed half-way leaves nothing (after the move there is nothing to delete)
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save results to " + (file != null ? file : dir) + ": " + e.getMessage(), e);
        }
        return file;
    }

    /**
     * This lab's results file, claimed on its first save: NAME.json, or NAME-2.json, NAME-3.json… when another lab
     * opened in the same second (a second kernel, Lab.open run twice) has the name already. Created empty, at once,
     * so no two labs can take one name; every save then replaces it whole.
     */
    static Path claimName(Path dir, String name) throws IOException {
        for (int n = 1; ; n++) {
            Path candidate = dir.resolve(name + (n == 1 ? "" : "-" + n) + ".json");
            try {
                return Files.createFile(candidate);
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                // the next number
            }
        }
    }
}
