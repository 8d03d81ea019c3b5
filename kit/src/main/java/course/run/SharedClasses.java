package course.run;

import course.base.Exec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Class-data sharing for the Java snippets: a JVM start parses and links a few hundred classes before the harness's
 * first line (JMX for the thread CPU clock, NIO, the snippet's own), and a sweep starts hundreds of JVMs. A snippet's
 * first run on the course's JDK, a throwaway one (the set-up's, Precompile; else Runner.classCache before a lab's
 * first run of it), records the classes it loaded; every later run maps them, already parsed and linked.
 * On JDK 25 and later that is an ahead-of-time cache (JEP 483: -XX:AOTMode=record during the run, then one
 * -XX:AOTMode=create after it, as JEP 514's one-step -XX:AOTCacheOutput does in a child JVM that would print its options
 * on stderr), which also links the lambdas and method handles JMX is made of: a shared_file run starts in about 100 ms
 * where a dynamic archive (-XX:ArchiveClassesAtExit, then -XX:SharedArchiveFile) took 140 and none 170. Only class
 * loading and linking change: the same bytecode runs and the JIT compiles it as before (the cache holds no method
 * profiles: -XX:-AOTRecordTraining). Older JDKs get the dynamic archive. A JVM given a cache it cannot use runs
 * without the JDK's own archive too (a shared_file run then starts in 220 ms). One archive per snippet build, JDK and kind (build/cds/NAME-KEY.aot or .jsa, the key Build gives the jar), moved into
 * place whole, so two kernels never read half of one. An MPI job of several ranks never makes one (they would write one
 * file at once), nor a run under strace or a profiler, nor a course folder this user may not write (a grading sandbox).
 * A JVM that cannot use an archive (another JDK's, a changed jar) runs without it. A cache that could not be made
 * says why in NAME-KEY.aot.failed, and that build takes the dynamic archive from then on.
 */
final class SharedClasses {
    /** JDK 25 and later make ahead-of-time caches; older JDKs dynamic class-data archives. */
    static final boolean AHEAD_OF_TIME = Runtime.version().feature() >= 25;

    /**
     * What a run adds to the JVM's options, and what to do once it has ended well: put its new archive into place,
     * after making it from the run's record where the JDK makes it in a step of its own (create).
     */
    record Use(List<String> options, Path made, Path archive, List<String> create, String kind) {
        static final Use NONE = new Use(List.of(), null, null, List.of(), "none");

        /** After the run ended with status 0: its archive made and put into place; after any other end: its partial files removed. */
        void finish(boolean ok) {
            if (made == null) return;
            Path recorded = recordOf(made);
            try {
                if (ok && !create.isEmpty()) Exec.run(create, "making the class cache");  // its output says it made the cache: not the learner's
                if (ok && Files.size(made) > 0) Files.move(made, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                // a run that ended well and left no cache will leave none next time either (the JVM recorded nothing, or
                // create refused): said once, in a file, and later runs take the dynamic archive instead of recording again
                if (ok && !create.isEmpty()) {
                    try {
                        Files.writeString(failedMarker(archive), "no ahead-of-time cache could be made: " + e.getMessage() + "\n");
                    } catch (IOException ignored) {
                        // the next run tries again
                    }
                }
            } finally {
                try {
                    Files.deleteIfExists(made);
                    Files.deleteIfExists(recorded);
                } catch (IOException ignored) {
                    // temporary files in build/cds; `make clean` removes the folder
                }
            }
        }
    }

    /**
     * The JVM's class-sharing messages kept off stderr (its other warnings stay): JDK 25 reports, at level error, that
     * a snippet given --enable-native-access differs from the JDK's own base archive, then uses the archive all the same.
     */
    static final List<String> QUIET = AHEAD_OF_TIME ? List.of("-Xlog:cds=off:stderr", "-Xlog:aot=off:stderr") : List.of("-Xlog:cds=off:stderr");

    /** The archive of a snippet's build: stem (build/cds/NAME-KEY) with the ending of its kind, an ahead-of-time cache where it can be made. */
    static Path archive(Path stem) {
        Path cache = stem.resolveSibling(stem.getFileName() + ".aot");
        return AHEAD_OF_TIME && !Files.exists(failedMarker(cache)) ? cache : stem.resolveSibling(stem.getFileName() + ".jsa");
    }

    /** Beside a cache that could not be made, why (NAME-KEY.aot.failed): the snippet's build then takes the dynamic archive. */
    static Path failedMarker(Path cache) {
        return cache.resolveSibling(cache.getFileName() + ".failed");
    }

    private SharedClasses() {
    }

    /**
     * The flags of the throwaway run that records a snippet's archive (Runner.classCache): its first strategy, once, on a
     * small file, in 4 KiB operations (whole ints and doubles) but buffering's one byte; file_copy only writes, and
     * jni_ops has no default buffer. One process: an MPI job's ranks would write one archive at once.
     */
    static List<String> cacheRun(String snippet) {
        List<String> flags = new ArrayList<>(List.of("--file-size", "64k", "--repeat", "1", "--warmup", "0"));
        if (!snippet.equals("buffering")) flags.addAll(List.of("--op-size", "4k"));
        if (snippet.equals("file_copy")) flags.addAll(List.of("--op", "write"));
        if (snippet.equals("jni_ops")) flags.addAll(List.of("--buffer-size", "4k"));
        return flags;
    }

    /**
     * The options for a run of javaCommand (a snippet's, Build.command) whose archives are named by stem (Build.classArchive):
     * the one of its kind where it is there; else, unless useOnly, the options that record it (the throwaway run of
     * Runner.classCache; a measured run never records).
     */
    static Use forRun(Path stem, boolean useOnly, List<String> javaCommand) {
        Path archive = archive(stem);
        boolean aot = archive.getFileName().toString().endsWith(".aot");
        if (Files.isRegularFile(archive)) {
            if (refused(archive, aot, javaCommand)) return Use.NONE;
            return new Use(with(aot ? "-XX:AOTCache=" + archive : "-XX:SharedArchiveFile=" + archive), null, null, List.of(), aot ? "cache" : "archive");
        }
        if (useOnly) return Use.NONE;
        try {
            Files.createDirectories(archive.getParent());
            Path made = Files.createTempFile(archive.getParent(), ".making-", aot ? ".aot" : ".jsa");
            Files.delete(made);  // the JVM writes it whole
            if (!aot) return new Use(with("-XX:ArchiveClassesAtExit=" + made), made, archive, List.of(), "recording");
            // -DisplayVMOutput: recording ends with a line on stdout, which holds run records only (the JVM's
            // warnings still reach stderr, through unified logging)
            List<String> record = with("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining", "-XX:-DisplayVMOutput",
                    "-XX:AOTMode=record", "-XX:AOTConfiguration=" + recordOf(made));
            // the run's own JVM options and class path (the cache holds to them), and no program: create runs none
            List<String> create = jvmAlone(javaCommand, with("-XX:AOTMode=create", "-XX:AOTConfiguration=" + recordOf(made), "-XX:AOTCache=" + made));
            return new Use(record, made, archive, create, "recording");
        } catch (IOException | UnsupportedOperationException e) {
            return Use.NONE;  // a folder this user may not write: run without sharing
        }
    }

    /** The archives this JVM would not map (SharedClasses.refused), each tried once in a kernel. */
    private static final java.util.Map<Path, Boolean> TRIED = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Whether the JVM refuses this archive for this command (another JDK build, a changed jar or class path), tried once
     * per archive in a kernel: a JVM start told to use it or stop (-XX:AOTMode=on, -Xshare:on) and print its version.
     * A refused one is said in one line, the first time, and every run of the snippet then starts without it, alike,
     * where the JVM would have dropped it silently, and the JDK's base archive with it (see the class comment).
     */
    static boolean refused(Path archive, boolean aot, List<String> javaCommand) {
        return TRIED.computeIfAbsent(archive, a -> {
            List<String> check = new ArrayList<>(jvmAlone(javaCommand, aot ? List.of("-XX:AOTMode=on", "-XX:AOTCache=" + a) : List.of("-Xshare:on", "-XX:SharedArchiveFile=" + a)));
            check.add("-version");
            try {
                Exec.run(check, "trying the class cache " + a.getFileName());
                return false;
            } catch (Exec.RunFailed e) {
                if (Thread.currentThread().isInterrupted()) throw e;  // the stop button: nothing more runs
                String said = e.getMessage().substring(e.getMessage().indexOf('\n') + 1);  // the JVM's own words
                String why = said.lines().filter(l -> l.contains("AOT") || l.contains("CDS") || l.contains("shar")).findFirst().orElse(said.strip());
                System.out.println("The class cache " + a.getFileName() + " is refused by this JVM (" + why.strip() + "): its runs start without one, all alike."
                        + " make setup makes it again.");
                return true;
            } catch (java.io.UncheckedIOException e) {
                return false;  // the run itself will say what cannot start
            }
        });
    }

    /** The run's JVM with its own options, these, and its class path, without its program: the create step, a check that it maps an archive. */
    private static List<String> jvmAlone(List<String> javaCommand, List<String> options) {
        int classPath = javaCommand.indexOf("-cp");
        List<String> jvm = new ArrayList<>(javaCommand.subList(0, classPath));
        jvm.addAll(options);
        jvm.addAll(javaCommand.subList(classPath, classPath + 2));
        return List.copyOf(jvm);
    }

    /** A run's record of the classes it loaded, beside the archive it becomes. */
    private static Path recordOf(Path made) {
        return made.resolveSibling(made.getFileName() + ".record");
    }

    private static List<String> with(String... options) {
        List<String> all = new ArrayList<>(List.of(options));
        all.addAll(QUIET);
        return List.copyOf(all);
    }

    /** The command with the options among the JVM's own, last before the class path (after the course's -Xlog settings, which they refine). */
    static List<String> around(List<String> javaCommand, Use use) {
        if (use.options().isEmpty()) return javaCommand;
        int at = javaCommand.indexOf("-cp");
        List<String> out = new ArrayList<>(javaCommand.subList(0, at));
        out.addAll(use.options());
        out.addAll(javaCommand.subList(at, javaCommand.size()));
        return out;
    }
}
