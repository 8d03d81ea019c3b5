package course;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Compiles snippets (cached by content hash: gcc -O2 for C, jbang for Java) and runs one invocation
 * as a child process in a scratch folder of its own, which is removed afterwards whatever happens.
 */
public final class Runner {
    /** One child process: a snippet in one language with its flags; javaHome, if set, runs Java on another JDK. */
    public record Invocation(String snippet, String language, List<String> flags, String javaHome) {
        public Invocation(String snippet, String language, List<String> flags) {
            this(snippet, language, flags, null);
        }

        public String label() {
            return language + " " + snippet + " " + String.join(" ", flags) + (javaHome == null ? "" : " on " + javaHome);
        }

        /** What sets this case apart, e.g. "java stream 1k read seq": language, strategy and buffer if given, op, pattern. */
        public String caseName() {
            StringBuilder name = new StringBuilder(language);
            for (String f : List.of("--strategy", "--buffer-size", "--text", "--type", "--op", "--pattern")) {
                if (flags.contains(f)) name.append(' ').append(flag(f));
            }
            if (javaHome != null) name.append(" on ").append(Path.of(javaHome).getFileName());
            return name.toString();
        }

        /** The value given for a flag, e.g. flag("--op") is "read". */
        public String flag(String name) {
            int at = flags.indexOf(name);
            if (at < 0 || at + 1 >= flags.size()) throw new IllegalArgumentException(label() + " has no " + name);
            return flags.get(at + 1);
        }
    }

    /** The child failed; its one-line error is the message. */
    public static final class RunFailed extends RuntimeException {
        RunFailed(String message) {
            super(message);
        }
    }

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Set<Path> LIVE_DIRS = ConcurrentHashMap.newKeySet();
    private static final String END = "\u0000end";  // the end of a child's stdout in collect's queue, never shown

    static {  // a kernel that is shut down or restarted takes its children and their files with it
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LIVE.forEach(Process::destroyForcibly);
            LIVE_DIRS.forEach(Runner::removeTree);
        }));
    }

    private final Path home = Course.home();
    private final Path build = home.resolve("build");
    private final Map<String, List<String>> javaCommands = new ConcurrentHashMap<>();
    private final Map<String, Path> cBinaries = new ConcurrentHashMap<>();
    private volatile List<String> lastCommand = List.of();

    /** The command line of the last run started, as a shell would take it (its --file was a scratch file, since removed). */
    public String lastCommand() {
        return String.join(" ", lastCommand.stream().map(a -> a.matches("[\\w@%+=:,./-]+") ? a : "'" + a.replace("'", "'\\''") + "'").toList());
    }

    /**
     * No arguments: compiles every snippet in both languages, and the eviction helper (Binder's postBuild
     * runs this). "command SNIPPET LANGUAGE" prints the command line that runs a snippet, one argument a
     * line, and "library NAME" the JNI library's path, building them as a lab would: the tests build this way.
     */
    public static void main(String[] args) throws IOException {
        Runner runner = new Runner();
        if (args.length > 0) {
            try {
                if (args.length == 3 && args[0].equals("command")) runner.command(args[1], args[2]).forEach(System.out::println);
                else if (args.length == 2 && args[0].equals("library")) System.out.println(runner.nativeLibrary(args[1]));
                else throw new IllegalArgumentException("usage: course.Runner [command SNIPPET LANGUAGE | library NAME]");
            } catch (RuntimeException e) {
                System.err.println("course.Runner: " + e.getMessage());
                System.exit(2);
            }
            return;
        }
        runner.evictHelper();
        try (Stream<Path> files = Files.list(runner.home.resolve("c-snippets"))) {
            for (Path c : files.filter(f -> f.toString().endsWith(".c")).sorted().toList()) {
                String snippet = c.getFileName().toString().replace(".c", "");
                if (snippet.equals("harness") || snippet.equals("evict")) continue;  // shared parts, not snippets
                if (needsMissingMpi(c)) {
                    System.out.println("skipped " + snippet + " (" + mpiMissing() + ")");
                    continue;
                }
                runner.command(snippet, "c");
                runner.command(snippet, "java");
                System.out.println("precompiled " + snippet);
            }
        }
        try (Stream<Path> files = Files.list(runner.home.resolve("java-snippets"))) {  // Java-only snippets (typed_ffm)
            for (Path java : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String snippet = snakeCase(java.getFileName().toString().replace(".java", ""));
                if (Files.exists(runner.cSource(snippet)) || !Files.readString(java).contains("Harness.run(")) continue;
                try {
                    runner.command(snippet, "java");
                    System.out.println("precompiled " + snippet);
                } catch (RunFailed e) {
                    System.out.println("skipped " + snippet + " (it needs a newer JDK than " + Runtime.version().feature() + ")");
                }
            }
        }
        try (Stream<Path> files = Files.list(runner.home.resolve("c-snippets/jni"))) {
            for (Path c : files.filter(f -> f.toString().endsWith(".c")).sorted().toList()) {
                if (needsMissingMpi(c)) continue;  // said above
                System.out.println("precompiled " + runner.nativeLibrary(c.getFileName().toString().replace(".c", "")));
            }
        }
    }

    /** The command line that runs a snippet, compiling it first when its sources changed. */
    public List<String> command(String snippet, String language) {
        if (!Files.exists(javaSource(snippet)) && !Files.exists(cSource(snippet))) {
            throw new IllegalArgumentException("no snippet " + snippet + ": neither " + javaSource(snippet) + " nor " + cSource(snippet) + " exists");
        }
        return switch (language) {
            case "c" -> {
                if (!Files.exists(cSource(snippet))) {
                    throw new IllegalArgumentException(snippet + " has no C twin of its own (" + javaSource(snippet).getFileName()
                            + " says which C snippet writes the same files): run it with .languages(\"java\")");
                }
                yield List.of(cBinary(snippet, snippet + ".c", "harness.c", "harness.h").toString());
            }
            case "java" -> javaCommand(snippet);
            default -> throw new IllegalArgumentException("language " + language + ": must be java or c");
        };
    }

    /** TypedFfm → typed_ffm: the snippet name of a Java file. */
    static String snakeCase(String className) {
        return className.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** raw_io is RawIo.java in java-snippets/ and raw_io.c in c-snippets/. */
    public Path javaSource(String snippet) {
        StringBuilder name = new StringBuilder();
        for (String part : snippet.split("_")) name.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        return home.resolve("java-snippets").resolve(name + ".java");
    }

    public Path cSource(String snippet) {
        return home.resolve("c-snippets").resolve(snippet + ".c");
    }

    /** The binary of these sources, by their content: a source edited while a kernel runs is built again. */
    Path cBinary(String name, String... sources) {
        Path dir = home.resolve("c-snippets");
        List<Path> files = Stream.of(sources).map(dir::resolve).toList();
        String compiler = compiler(files);
        Path binary = build.resolve("c").resolve(name + "-" + hash(files, compiler + " -O2 -pthread"));
        return cBinaries.computeIfAbsent(binary.toString(), b -> {
            if (!Files.exists(binary)) {
                buildAtomically(binary, out -> {
                    List<String> cmd = new ArrayList<>(List.of(compiler, "-O2", "-Wall", "-pthread", "-o", out.toString()));
                    files.stream().filter(f -> f.toString().endsWith(".c")).forEach(f -> cmd.add(f.toString()));
                    return cmd;
                }, "compiling " + name);
            }
            return binary;
        });
    }

    Path evictHelper() {
        return cBinary("evict", "evict.c", "harness.c", "harness.h");
    }

    /**
     * jbang compiles and caches the snippet; its `info tools` says which jar and class to run. A
     * snippet whose sources call System.loadLibrary("x") gets c-snippets/jni/x.c built and put on its
     * java.library.path.
     */
    private List<String> javaCommand(String snippet) {
        Path source = javaSource(snippet);
        List<Path> sources = javaSources(source);
        String key = hash(sources, javaHome().toString());
        return javaCommands.computeIfAbsent(key, k -> {
            List<String> built = jbangBuild(source, key);
            String mainClass = built.get(0);
            List<String> classpath = built.subList(1, built.size());
            List<String> cmd = new ArrayList<>(List.of(javaHome().resolve("bin/java").toString()));
            List<String> libraries = nativeLibraries(sources);
            if (!libraries.isEmpty()) {  // one property: given twice, the JVM keeps only the last
                cmd.add("-Djava.library.path=" + String.join(":", libraries.stream().map(l -> nativeLibrary(l).getParent().toString()).toList()));
            }
            boolean foreign = sources.stream().anyMatch(f -> read(f).contains("java.lang.foreign"));
            if (!libraries.isEmpty() || foreign) cmd.add("--enable-native-access=ALL-UNNAMED");  // JDK 24+ warns without it
            cmd.addAll(List.of("-cp", String.join(":", classpath), mainClass));
            return List.copyOf(cmd);
        });
    }

    /**
     * The main class and class path of a snippet jbang has built: read from build/jbang-built/NAME-KEY
     * when that build is recorded and its jars still exist (jbang itself takes two JVM starts, about
     * two seconds, even for a cache hit); otherwise jbang builds it and the answer is recorded.
     */
    private List<String> jbangBuild(Path source, String key) {
        Path record = build.resolve("jbang-built").resolve(source.getFileName().toString().replace(".java", "") + "-" + key);
        if (Files.exists(record)) {
            List<String> lines = readLines(record);
            // jars of this course's own build (a copied course folder must not run the original's) that are still there
            if (lines.size() >= 2 && lines.stream().skip(1).map(Path::of).allMatch(jar -> jar.startsWith(build) && Files.exists(jar))) return lines;
        }
        Path jbang = build.resolve("tools/jbang/jbang");
        if (!Files.isExecutable(jbang)) throw new IllegalStateException("jbang is not set up: run `make lab` or setup/setup.sh");
        exec(List.of(jbang.toString(), "build", source.toString()), "compiling " + source.getFileName());
        String output = exec(List.of(jbang.toString(), "info", "tools", source.toString()), "jbang info");
        JsonObject info = new Gson().fromJson(output.substring(Math.max(0, output.indexOf('{'))), JsonObject.class);
        List<String> lines = new ArrayList<>(List.of(info.get("mainClass").getAsString(), info.get("applicationJar").getAsString()));
        info.getAsJsonArray("resolvedDependencies").forEach(d -> lines.add(d.getAsString()));
        try {
            writeAtomically(record, String.join("\n", lines) + "\n");
        } catch (UncheckedIOException e) {
            // a course folder this user may only read (a grading sandbox): jbang is asked again next time
        }
        return lines;
    }

    static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a file whole or not at all (see intoPlace), so a kernel running at the same time never reads half of one. */
    static void writeAtomically(Path file, String text) {
        intoPlace(file, partial -> Files.writeString(partial, text));
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The snippet and the files its //SOURCES lines name. */
    static List<Path> javaSources(Path source) {
        List<Path> all = new ArrayList<>(List.of(source));
        try {
            for (String line : Files.readAllLines(source)) {
                if (line.startsWith("//SOURCES ")) {
                    for (String name : line.substring("//SOURCES ".length()).trim().split("\\s+")) all.add(source.resolveSibling(name));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    static final java.util.regex.Pattern LOAD_LIBRARY = java.util.regex.Pattern.compile("System\\.loadLibrary\\(\"(\\w+)\"\\)");

    static List<String> nativeLibraries(List<Path> sources) {
        List<String> names = new ArrayList<>();
        for (Path source : sources) {
            var m = LOAD_LIBRARY.matcher(read(source));
            while (m.find()) if (!names.contains(m.group(1))) names.add(m.group(1));
        }
        return names;
    }

    /**
     * Builds c-snippets/jni/NAME.c into build/native/NAME-HASH/libNAME.so with gcc and the running
     * JDK's JNI headers, unless that exact source was built already (the hash covers the source and
     * the JDK); returns the library.
     */
    public Path nativeLibrary(String name) {
        return nativeLibrary(name, home.resolve("c-snippets/jni").resolve(name + ".c"));
    }

    Path nativeLibrary(String name, Path source) {
        Path dir = build.resolve("native").resolve(name + "-" + hash(List.of(source), javaHome().toString()));
        Path library = dir.resolve("lib" + name + ".so");
        if (!Files.exists(library)) {
            Path include = javaHome().resolve("include");
            buildAtomically(library, out -> nativeCommand(source, out, include), "compiling " + source.getFileName());
        }
        return library;
    }

    /**
     * Runs a compiler into a temporary file beside target and renames it into place, so a kernel running
     * at the same time never starts a half-written binary and a failed build leaves nothing behind.
     */
    static void buildAtomically(Path target, java.util.function.Function<Path, List<String>> command, String what) {
        intoPlace(target, partial -> exec(command.apply(partial), what));
    }

    /** What makes a file, given the temporary path to make it at. */
    interface Maker {
        void make(Path partial) throws IOException;
    }

    /**
     * Makes target at a temporary name beside it (one no other maker has) and renames it into place; a
     * maker that fails leaves neither the target nor the temporary.
     */
    static void intoPlace(Path target, Maker maker) {
        createDirectories(target.getParent());
        Path partial = null;
        try {
            partial = Files.createTempFile(target.getParent(), target.getFileName() + ".", ".partial");
            maker.make(partial);
            Files.move(partial, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        } finally {
            try {
                if (partial != null) Files.deleteIfExists(partial);
            } catch (IOException e) {
                // nothing more to do: the maker's own error, if any, is the one to report
            }
        }
    }

    /** The command line that builds a JNI library (shown in the notebook, so it can be rerun by hand). */
    static List<String> nativeCommand(Path source, Path library, Path include) {
        return List.of(compiler(List.of(source)), "-O2", "-Wall", "-shared", "-fPIC", "-I" + include, "-I" + include.resolve("linux"),
                "-o", library.toString(), source.toString());
    }

    /** A source that needs MPI on a machine without it (Binder without Open MPI, say): pre-compiling skips it. */
    static boolean needsMissingMpi(Path source) {
        return usesMpi(source) && !mpiAvailable();
    }

    private static boolean usesMpi(Path source) {
        return Files.exists(source) && read(source).contains("#include <mpi.h>");
    }

    /** gcc, or mpicc (gcc with the MPI headers and library) for sources that include <mpi.h>. */
    static String compiler(List<Path> sources) {
        boolean mpi = sources.stream().anyMatch(Runner::usesMpi);
        if (mpi && !mpiAvailable()) throw new RunFailed(mpiMissing());
        return mpi ? mpi("mpicc") : "gcc";
    }

    /**
     * An MPI tool (mpirun, mpicc): from beside COURSE_MPIRUN when it names one MPI among several (a
     * cluster's module, say), else from PATH.
     */
    static String mpi(String tool) {
        String chosen = System.getenv("COURSE_MPIRUN");
        return chosen == null || chosen.isBlank() ? tool : Path.of(chosen).resolveSibling(tool).toString();
    }

    /** Whether MPI can run here: its mpirun and mpicc exist. */
    public static boolean mpiAvailable() {
        return Machine.onPath(mpi("mpirun")) && Machine.onPath(mpi("mpicc"));
    }

    static String mpiMissing() {
        return "MPI is not installed here (no " + mpi("mpirun") + " and " + mpi("mpicc") + "). Lab 08 needs Open MPI: "
                + "sudo apt-get install openmpi-bin libopenmpi-dev (Debian, Ubuntu) or conda install -c conda-forge openmpi";
    }

    /** A process count mpirun can start: 1 to 256 (mpirun itself reads -np 0 as "one per core"). */
    static void checkProcs(String value) {
        if (!value.matches("[0-9]{1,3}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > 256) {
            throw new IllegalArgumentException("procs " + value + ": must be a whole number between 1 and 256");
        }
    }

    /**
     * What starts an invocation's processes: nothing for most snippets; for a snippet given --procs N,
     * mpirun with N processes (more than the cores allowed, and said so in the lab), the run's
     * environment passed on to every node, `--allow-run-as-root` only for root, and COURSE_MPI_ARGS
     * (a --hostfile, say) in front. COURSE_MPIRUN picks the mpirun (and the mpicc beside it).
     */
    public static List<String> launcher(Invocation inv) {
        if (!inv.flags().contains("--procs")) return List.of();
        checkProcs(inv.flag("--procs"));
        if (!mpiAvailable()) throw new RunFailed(mpiMissing());
        List<String> cmd = new ArrayList<>(List.of(mpi("mpirun"), "-q", "--oversubscribe", "-np", inv.flag("--procs"),
                "-x", "COURSE_EVICT", "-x", "COURSE_SCRATCH"));
        if ("root".equals(System.getProperty("user.name"))) cmd.add(1, "--allow-run-as-root");
        String extra = System.getenv("COURSE_MPI_ARGS");
        if (extra != null && !extra.isBlank()) cmd.addAll(1, List.of(extra.trim().split("\\s+")));
        return cmd;
    }

    static Path javaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    /** A path as a child run in scratch reaches it from its working folder, a run folder straight under scratch (run). */
    static String fromRunFolder(Path scratch, Path path) {
        createDirectories(scratch);
        try {
            return "../" + scratch.toRealPath().relativize(path.toAbsolutePath().getParent().toRealPath().resolve(path.getFileName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs one invocation in a fresh folder under scratch; each JSON line goes to onRow as it arrives.
     * An interrupt (the notebook's stop button) kills the child, removes its files and rethrows.
     */
    public List<JsonObject> run(Invocation inv, Path scratch, Consumer<JsonObject> onRow) {
        return run(inv, scratch, onRow, List.of(), Map.of());
    }

    /** The same, with a command in front (strace) and extra environment (a profiler agent). */
    public List<JsonObject> run(Invocation inv, Path scratch, Consumer<JsonObject> onRow, List<String> prefix,
                                Map<String, String> env) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(launcher(inv));
        int program = cmd.size();
        cmd.addAll(command(inv.snippet(), inv.language()));
        if (inv.javaHome() != null && inv.language().equals("java")) {
            cmd.set(program, Path.of(inv.javaHome(), "bin", "java").toString());  // the snippets are compiled for Java 17
        }
        cmd.addAll(inv.flags());
        Path dir = null;
        Process child = null;
        try {
            createDirectories(scratch);
            dir = Files.createTempDirectory(scratch, RUN_PREFIX);
            LIVE_DIRS.add(dir);
            cmd.add("--file");
            cmd.add(dir.resolve(inv.snippet() + ".dat").toString());
            lastCommand = List.copyOf(cmd);
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
            pb.environment().put("COURSE_EVICT", evictHelper().toString());
            pb.environment().put("COURSE_SCRATCH", dir.toString());
            pb.environment().putAll(env);
            child = pb.start();
            LIVE.add(child);
            return collect(child, inv.label(), onRow);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailed("interrupted: stopped " + inv.label() + " and removed its files");
        } finally {
            if (child != null) stop(child);
            if (dir != null) {
                removeTree(dir);
                LIVE_DIRS.remove(dir);
            }
        }
    }

    /**
     * The JSON rows a child prints, each handed to onRow as it arrives; a child that fails throws RunFailed
     * with what it said on stderr (and any stray stdout), or "label exited with status N" when it said nothing.
     * Every row is checked against the run record (data/results.schema.json): a snippet whose output has
     * drifted from it fails here, naming the field, rather than in a chart.
     */
    static List<JsonObject> collect(Process child, String label, Consumer<JsonObject> onRow) throws InterruptedException {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        List<String> said = java.util.Collections.synchronizedList(new ArrayList<>());  // stderr, from its own thread
        List<String> stray = new ArrayList<>();  // stdout lines that are not rows (a profiler agent's), from this thread
        Thread out = pump(child.getInputStream(), lines::add, () -> lines.add(END));
        Thread err = pump(child.getErrorStream(), said::add, () -> { });
        List<JsonObject> rows = new ArrayList<>();
        Gson gson = new Gson();
        String unlike = null;  // the first row that is not a run record, and why
        for (String line; !(line = lines.take()).equals(END); ) {
            if (!line.startsWith("{")) {
                stray.add(line);
                continue;
            }
            JsonObject row = gson.fromJson(line, JsonObject.class);
            String problem = Schema.results().runProblem(row);
            if (problem != null) {
                if (unlike == null) unlike = label + " printed a line that is not a run record (" + problem + "): " + line;
                continue;  // the child runs to its end, and removes its files, before we say so
            }
            rows.add(row);
            onRow.accept(row);
        }
        int status = child.waitFor();
        out.join();
        err.join();
        if (unlike != null && status == 0) throw new RunFailed(unlike);
        if (status != 0) {
            List<String> all = new ArrayList<>(said);
            all.addAll(stray);
            String message = String.join("\n", all.stream().map(String::strip).filter(l -> !l.isEmpty()).distinct().toList());  // each MPI process may say it
            throw new RunFailed(message.isEmpty() ? label + " exited with status " + status : message);
        }
        return rows;
    }

    /** Reads a stream line by line on its own thread until it closes, then calls atEnd. */
    private static Thread pump(InputStream stream, Consumer<String> sink, Runnable atEnd) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) sink.accept(line);
            } catch (IOException ignored) {
                // the child was killed: its pipe closes under us
            } finally {
                atEnd.run();
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * SIGTERM first, so the harness removes its own file (mpirun passes it on to every process); SIGKILL
     * after 3 s. Then kills any of the child's own children still alive (the processes an mpirun
     * started) and waits until all are gone, even when the cell was interrupted (again) meanwhile.
     */
    private static void stop(Process child) {
        boolean interrupted = Thread.interrupted();  // an interrupted thread could not wait below
        List<ProcessHandle> family = new ArrayList<>(child.descendants().toList());
        try {
            if (child.isAlive()) {
                child.destroy();
                if (!child.waitFor(3, TimeUnit.SECONDS)) child.destroyForcibly();
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            interrupted = true;
        } finally {
            family.add(child.toHandle());
            family.forEach(ProcessHandle::destroyForcibly);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (family.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                interrupted |= Thread.interrupted();
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            LIVE.remove(child);
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Runs a build step to completion and returns its stdout; a failure carries its output. */
    static String exec(List<String> cmd, String what) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            Path home = Course.home();
            pb.environment().put("JAVA_HOME", javaHome().toString());
            pb.environment().put("JBANG_DIR", home.resolve("build/jbang-home").toString());
            pb.environment().put("JBANG_REPO", home.resolve("build/jbang-repo").toString());
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) throw new RunFailed(what + " failed:\n" + output);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailed("interrupted while " + what);
        }
    }

    static String hash(List<Path> files, String salt) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Path f : files) sha.update(Files.readAllBytes(f));
            sha.update(salt.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * run-PID-START-…: which kernel made a run folder (its process id and start time, so a reused id is
     * not taken for it), so that a later lab can remove what a killed kernel left without touching a live one's.
     */
    static final String RUN_PREFIX = "run-" + ProcessHandle.current().pid() + "-" + startMillis(ProcessHandle.current()) + "-";
    private static final java.util.regex.Pattern RUN_FOLDER = java.util.regex.Pattern.compile("run-(\\d+)-(\\d+)-.*");

    static long startMillis(ProcessHandle process) {
        return process.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }

    /**
     * Removes the run folders under scratch whose kernel has ended (killed mid-run, it never removed them),
     * first stopping what still runs in them: a killed kernel's children and MPI ranks live on, orphaned, in
     * their run folder (their working folder). Returns how many folders.
     */
    public static int sweepStale(Path scratch) {
        if (!Files.isDirectory(scratch)) return 0;
        List<Path> stale;
        try (Stream<Path> folders = Files.list(scratch)) {
            stale = folders.filter(f -> {
                var m = RUN_FOLDER.matcher(f.getFileName().toString());
                if (!m.matches() || !Files.isDirectory(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return false;
                long start = Long.parseLong(m.group(2));
                return ProcessHandle.of(Long.parseLong(m.group(1)))
                        .filter(owner -> owner.isAlive() && (start == 0 || startMillis(owner) == start)).isEmpty();
            }).toList();
        } catch (IOException e) {
            return 0;  // an unreadable scratch folder: the runs themselves will say so
        }
        if (!stale.isEmpty()) {
            List<Path> real = stale.stream().map(Runner::realPath).toList();  // /proc shows links resolved
            List<ProcessHandle> orphans = ProcessHandle.allProcesses()
                    .filter(p -> workingFolder(p).map(cwd -> real.stream().anyMatch(cwd::startsWith)).orElse(false)).toList();
            orphans.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle orphan : orphans) orphan.onExit().completeOnTimeout(orphan, 3, TimeUnit.SECONDS).join();
        }
        stale.forEach(Runner::removeTree);
        return stale.size();
    }

    private static Path realPath(Path folder) {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder;
        }
    }

    /** A process's working folder, where Linux shows it (/proc/PID/cwd) and this user may see it. */
    static java.util.Optional<Path> workingFolder(ProcessHandle process) {
        try {
            return java.util.Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()), "cwd")));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return java.util.Optional.empty();
        }
    }

    static void removeTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a later run's cleanup or `make clean` removes what is left
        }
    }
}
