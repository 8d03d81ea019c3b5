package course.run;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import course.base.Course;
import course.base.Exec;
import course.base.Scratch;
import course.record.Schema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Runs one invocation as a child process (built by Build, started under mpirun where MpiRun says so) in
 * a scratch folder of its own, which is removed afterwards whatever happens; collects its JSON lines as
 * they arrive and stops the child, and all it started, on an interrupt or when the kernel ends.
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

        /** This invocation's case name alone (see names). */
        public String caseName() {
            return names(List.of(this)).get(this);
        }

        /**
         * Each invocation's case name, as strace tables and profiles key their rows ("java stream 1k read seq"): its
         * language; its values of the case fields that always name a case (x-name in data/results.schema.json); of any
         * other case field given as a flag, where these invocations differ in it (a size, threads, a lock…), so that
         * two invocations of different cases never share a name; and the JDK where it is not the course's. Fields in
         * the schema's order.
         */
        public static Map<Invocation, String> names(List<Invocation> invocations) {
            List<String> always = Schema.results().runFields("x-name");
            List<String> named = new ArrayList<>();
            for (String field : Schema.results().runFields("x-case")) {
                String flag = flagOf(field);  // language, snippet and runtime are no flag: never given
                if (always.contains(field) || invocations.stream().map(inv -> inv.value(flag)).distinct().count() > 1) named.add(flag);
            }
            Map<Invocation, String> names = new java.util.LinkedHashMap<>();
            for (Invocation inv : invocations) {
                StringBuilder name = new StringBuilder(inv.language);
                for (String flag : named) if (inv.value(flag) != null) name.append(' ').append(inv.value(flag));
                if (inv.javaHome != null && !Path.of(inv.javaHome).equals(Build.javaHome())) name.append(" on ").append(Path.of(inv.javaHome).getFileName());
                names.put(inv, name.toString());
            }
            return names;
        }

        /**
         * What a run of this case records in the case fields its flags give (x-case in the schema), with its language and
         * snippet: --file-size 64k is file_size 65536. How a saved sweep is known for a cell's (SavedSweeps).
         */
        public Map<String, String> caseFields() {
            Map<String, String> given = new java.util.TreeMap<>(Map.of("language", language, "snippet", snippet));
            for (String field : Schema.results().runFields("x-case")) {
                String value = value(flagOf(field));
                if (value != null) given.put(field, Schema.results().runFieldIsInteger(field) ? String.valueOf(Course.parseSize(value)) : value);
            }
            return given;
        }

        /** The value given for a flag, or null where it is not given. */
        private String value(String name) {
            int at = flags.indexOf(name);
            return at < 0 || at + 1 >= flags.size() ? null : flags.get(at + 1);
        }

        /** The value given for a flag, e.g. flag("--op") is "read". */
        public String flag(String name) {
            String value = value(name);
            if (value == null) throw new IllegalArgumentException(label() + " has no " + name);
            return value;
        }
    }

    /** The flag that sets a run record's field: file_size is --file-size. */
    static String flagOf(String field) {
        return "--" + field.replace('_', '-');
    }

    /** The exit status a snippet gives when this machine cannot run its strategy (Harness.UNSUPPORTED, HARNESS_UNSUPPORTED). */
    static final int UNSUPPORTED = 3;

    private static final Set<Path> LIVE_DIRS = ConcurrentHashMap.newKeySet();
    private static final String END = "\u0000end";  // the end of a child's stdout in collect's queue, never shown

    static {  // a kernel that is shut down or restarted takes its children's files with it
        Exec.atShutdown(() -> LIVE_DIRS.forEach(Scratch::removeTree));
    }

    private final Build build = new Build();
    private volatile List<String> lastCommand = List.of();

    /** What builds this runner's snippets (the code cells show, the command lines). */
    public Build build() {
        return build;
    }

    /** The command line of the last run started, as a shell would take it (its --file was a scratch file, since removed). */
    public String lastCommand() {
        return shellLine(lastCommand);
    }

    /** Words as a shell takes them: each quoted where it holds anything but plain characters. */
    static String shellLine(List<String> words) {
        return String.join(" ", words.stream().map(a -> a.matches("[\\w@%+=:,./-]+") ? a : "'" + a.replace("'", "'\\''") + "'").toList());
    }

    /**
     * The name of a run's data file: the snippet's and its run folder's own, never one name for every run. Open MPI's
     * MPI_File_open (OMPIO's shared file pointer, sharedfp/sm) opens a POSIX semaphore named after the file's name
     * alone (/dev/shm/sem.OMPIO_NAME), one for the whole machine: where another user's job held that name (two
     * learners' lab 08 on one hub, a root test beside a learner's), this job's processes failed to open the file, or
     * one did and the others waited for it forever.
     */
    static String dataFileName(String snippet, Path runFolder) {
        return snippet + "-" + runFolder.getFileName().toString().substring(Scratch.RUN_PREFIX.length()) + ".dat";
    }

    /**
     * The command that runs a failed invocation again from a terminal: its environment (the eviction helper for cold
     * runs, a profiler's options), and its --file's name in the lab's scratch folder, since the run's own folder is gone.
     */
    static String reproduce(List<String> cmd, Map<String, String> env, Path scratch) {
        List<String> words = new ArrayList<>();
        env.forEach((k, v) -> words.add(k + "=" + v));
        List<String> run = new ArrayList<>(cmd);
        int file = run.lastIndexOf("--file");
        if (file >= 0 && file + 1 < run.size()) run.set(file + 1, scratch.resolve(Path.of(run.get(file + 1)).getFileName()).toString());
        words.addAll(run);
        return shellLine(words);
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
        if (inv.language().equals("java") && inv.javaHome() == null) {
            try {
                classCache(inv.snippet(), scratch);
            } catch (Exec.RunFailed e) {
                if (Thread.currentThread().isInterrupted()) throw e;  // the stop button: nothing more runs
                // else the run goes on without a cache, and says itself what is wrong, if anything
            }
        }
        return run(inv, scratch, onRow, prefix, env, false);
    }

    /**
     * Whether the snippet has its class cache (SharedClasses) on the course's JDK, made first, where none is yet, by a
     * throwaway run of it (SharedClasses.cacheRun): a measured run never records one, and every run of a snippet,
     * watched by strace or not, starts alike. The set-up makes them all (Precompile); this makes one a changed snippet
     * needs. Throws what the throwaway run met; false where this user may not write the course's build folder.
     */
    public boolean classCache(String snippet, Path scratch) {
        Path archive = SharedClasses.archive(build.classArchive(snippet));
        if (!Files.isRegularFile(archive)) run(new Invocation(snippet, "java", SharedClasses.cacheRun(snippet)), scratch, row -> { }, List.of(), Map.of(), true);
        return Files.isRegularFile(SharedClasses.archive(build.classArchive(snippet)));
    }

    /** A run; recording: the throwaway run that records its class cache (SharedClasses), which no other run does. */
    private List<JsonObject> run(Invocation inv, Path scratch, Consumer<JsonObject> onRow, List<String> prefix,
                                 Map<String, String> env, boolean recording) {
        List<String> cmd = new ArrayList<>(prefix);
        List<String> launcher = MpiRun.launcher(inv.flags());
        cmd.addAll(launcher);
        boolean java = inv.language().equals("java");
        // Open MPI's mpirun puts the working folder first on a program named java's class path, which no class archive
        // of the snippet's then matches: started through env, the JVM keeps the class path it is given
        if (java && !launcher.isEmpty()) cmd.add("env");
        int program = cmd.size();
        List<String> command = build.command(inv.snippet(), inv.language());
        SharedClasses.Use sharing = java && inv.javaHome() == null
                ? SharedClasses.forRun(build.classArchive(inv.snippet()), !recording, command)
                : SharedClasses.Use.NONE;
        cmd.addAll(SharedClasses.around(command, sharing));
        if (inv.javaHome() != null && java) {
            cmd.set(program, Path.of(inv.javaHome(), "bin", "java").toString());  // the snippets are compiled for Java 17
        }
        cmd.addAll(inv.flags());
        Path dir = null;
        Process child = null;
        boolean ended = false;
        try {
            Scratch.createDirectories(scratch);
            dir = Files.createTempDirectory(scratch, Scratch.RUN_PREFIX);
            LIVE_DIRS.add(dir);
            cmd.add("--file");
            cmd.add(dir.resolve(dataFileName(inv.snippet(), dir)).toString());
            lastCommand = List.copyOf(cmd);
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
            pb.environment().put("COURSE_EVICT", build.evictHelper().toString());
            pb.environment().put("COURSE_SCRATCH", dir.toString());
            pb.environment().putAll(env);
            child = Exec.start(pb);
            try {
                List<JsonObject> rows = collect(child, inv.label(), onRow);
                ended = true;
                if (java) rows.forEach(row -> row.addProperty("class_sharing", sharing.kind()));  // what this JVM was given to map
                return rows;
            } catch (Exec.RunFailed e) {
                if (e.unsupported()) throw e;  // not a fault: Sweep says so in one line
                Map<String, String> shown = new java.util.TreeMap<>(env);
                if (inv.flags().contains("cold")) shown.put("COURSE_EVICT", build.evictHelper().toString());
                throw new Exec.RunFailed("to run it again from a terminal: " + reproduce(cmd, shown, scratch) + "\n" + e.getMessage());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Exec.RunFailed("interrupted: stopped " + inv.label() + " and removed its files");
        } finally {
            if (child != null) Exec.stop(child);
            sharing.finish(ended);
            if (dir != null) {
                Scratch.removeTree(dir);
                LIVE_DIRS.remove(dir);
            }
        }
    }

    /**
     * The JSON rows a child prints, each handed to onRow as it arrives; a child that fails throws Exec.RunFailed
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
        if (unlike != null && status == 0) throw new Exec.RunFailed(unlike);
        if (status != 0) {
            List<String> all = new ArrayList<>(said);
            all.addAll(stray);
            String message = String.join("\n", all.stream().map(String::strip).filter(l -> !l.isEmpty()).distinct().toList());  // each MPI process may say it
            throw new Exec.RunFailed(message.isEmpty() ? label + " exited with status " + status : message, status == UNSUPPORTED);
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
}
