package course.run;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import course.base.Course;
import course.base.Exec;
import course.base.Scratch;
import course.record.Machine;
import course.show.Progress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Builds snippets, each keyed by the content of its sources (a source edited while a kernel runs is
 * built again) and always into place whole (see intoPlace): C with gcc -O2 (mpicc for MPI sources), Java
 * with jbang, JNI libraries against the running JDK's headers. The labs, the tests (through main) and
 * Binder's postBuild all build this way.
 */
public final class Build {
    private final Path home = Course.home();
    private final Path build = home.resolve("build");
    private final Map<String, List<String>> javaCommands = new ConcurrentHashMap<>();
    private final Map<String, Path> cBinaries = new ConcurrentHashMap<>();

    /**
     * "command SNIPPET LANGUAGE" prints the command line that runs a snippet as a lab's run starts it (a Java snippet with
     * its class cache, where one was made; this makes none), one argument a line, and "library NAME" the JNI library's
     * path, building them as a lab would: the tests build this way. Precompile builds them all.
     */
    public static void main(String[] args) {
        Build build = new Build();
        try {
            if (args.length == 3 && args[0].equals("command")) build.startedAsALabsRun(args[1], args[2]).forEach(System.out::println);
            else if (args.length == 2 && args[0].equals("library")) System.out.println(build.nativeLibrary(args[1]));
            else throw new IllegalArgumentException("usage: course.run.Build command SNIPPET LANGUAGE | library NAME");
        } catch (RuntimeException e) {
            System.err.println("course.run.Build: " + e.getMessage());
            System.exit(2);
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
                yield List.of(cBinary(snippet, withHarness(snippet + ".c")).toString());
            }
            case "java" -> javaCommand(snippet);
            default -> throw new IllegalArgumentException("language " + language + ": must be java or c");
        };
    }

    /** command(snippet, language) with the class cache a run of it made, if any (never making one: SharedClasses.forRun). */
    List<String> startedAsALabsRun(String snippet, String language) {
        List<String> command = command(snippet, language);
        return language.equals("java") ? SharedClasses.around(command, SharedClasses.forRun(classArchive(snippet), true, command)) : command;
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

    /** A C program's source and the harness's rooms (every file of c-snippets/harness/, headers too: the build key covers them). */
    String[] withHarness(String source) {
        try (Stream<Path> rooms = Files.list(home.resolve("c-snippets/harness"))) {
            return Stream.concat(Stream.of(source), rooms.map(room -> "harness/" + room.getFileName()).sorted()).toArray(String[]::new);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the C harness in " + home.resolve("c-snippets/harness") + ": " + e.getMessage(), e);
        }
    }

    /** The binary of these sources, by their content: a source edited while a kernel runs is built again. */
    Path cBinary(String name, String... sources) {
        Path dir = home.resolve("c-snippets");
        List<Path> files = Stream.of(sources).map(dir::resolve).toList();
        String compiler = compiler(files);
        // a source that can use liburing gets it where it is installed (COURSE_LIBURING), and refuses io_uring where not
        boolean liburing = files.stream().anyMatch(Build::usesLiburing) && liburingInstalled();
        Path binary = build.resolve("c").resolve(name + "-" + hash(files, compiler + " -O2 -pthread" + (liburing ? " -DCOURSE_LIBURING -luring" : "")));
        return cBinaries.computeIfAbsent(binary.toString(), b -> {
            if (!Files.exists(binary)) {
                buildAtomically(binary, out -> {
                    List<String> cmd = new ArrayList<>(List.of(compiler, "-O2", "-Wall", "-pthread", "-o", out.toString()));
                    if (liburing) cmd.add("-DCOURSE_LIBURING");
                    files.stream().filter(f -> f.toString().endsWith(".c")).forEach(f -> cmd.add(f.toString()));
                    if (liburing) cmd.add("-luring");
                    return cmd;
                }, "compiling " + name);
            }
            return binary;
        });
    }

    public Path evictHelper() {
        return cBinary("evict", withHarness("evict.c"));
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
            // stdout holds run records only: the JVM's own warnings go to stderr (unified logging writes them to stdout), and
            // no hsperfdata file, which a JVM of the same pid in another PID namespace (a sandbox, a container) sharing
            // /tmp finds locked, and says so, on stdout
            List<String> cmd = new ArrayList<>(List.of(javaHome().resolve("bin/java").toString(), "-XX:-UsePerfData", "-Xlog:disable",
                    "-Xlog:all=warning:stderr"));
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
        String output = Progress.during("compiling " + source.getFileName() + " with jbang (once: later runs reuse it)", () -> {
            jbang("compiling " + source.getFileName(), "build", JAVAC_C1_ONLY, source.toString());
            return jbang("jbang info", "info", "tools", source.toString());
        });
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

    /** The snippet and the files its //SOURCES lines name, and theirs in turn, each once (as jbang reads them). */
    static List<Path> javaSources(Path source) {
        java.util.Set<Path> all = new java.util.LinkedHashSet<>();
        java.util.Deque<Path> toRead = new java.util.ArrayDeque<>(List.of(source.normalize()));
        while (!toRead.isEmpty()) {  // jbang follows //SOURCES in the files it names too: so does the cache key
            Path file = toRead.pop();
            if (!all.add(file)) continue;
            try {
                for (String line : Files.readAllLines(file)) {
                    if (line.startsWith("//SOURCES ")) {
                        for (String name : line.substring("//SOURCES ".length()).trim().split("\\s+")) toRead.add(file.resolveSibling(name).normalize());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + " (named by //SOURCES): " + e.getMessage(), e);
            }
        }
        return List.copyOf(all);
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
        Progress.during(what + " (once: later runs reuse it)", () -> {
            intoPlace(target, partial -> Exec.run(command.apply(partial), what));
            return target;
        });
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
        Scratch.createDirectories(target.getParent());
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
    public static List<String> nativeCommand(Path source, Path library, Path include) {
        return List.of(compiler(List.of(source)), "-O2", "-Wall", "-shared", "-fPIC", "-I" + include, "-I" + include.resolve("linux"),
                "-o", library.toString(), source.toString());
    }

    /** A source that needs MPI on a machine without it (Binder without Open MPI, say): pre-compiling skips it. */
    static boolean needsMissingMpi(Path source) {
        return usesMpi(source) && !MpiRun.available();
    }

    private static boolean usesMpi(Path source) {
        return Files.exists(source) && read(source).contains("#include <mpi.h>");
    }

    static boolean usesLiburing(Path source) {
        return Files.exists(source) && read(source).contains("#include <liburing.h>");
    }

    /** Whether liburing's header lies where setup/packages.tsv says it may (the set-up and the tests read the same row). */
    static boolean liburingInstalled() {
        return Machine.foundBy("liburing").stream().anyMatch(header -> Files.exists(Path.of(header)));
    }

    /** gcc, or mpicc (gcc with the MPI headers and library) for sources that include <mpi.h>. */
    static String compiler(List<Path> sources) {
        boolean mpi = sources.stream().anyMatch(Build::usesMpi);
        if (mpi && !MpiRun.available()) throw new Exec.RunFailed(MpiRun.missing());
        return mpi ? MpiRun.tool("mpicc") : "gcc";
    }

    /**
     * Where the class-data-sharing archives of a Java snippet's build on the course's JDK lie, less their ending (SharedClasses
     * adds the kind's): named by the JDK's build and the jars and their times, since the JVM refuses an archive once either has changed.
     */
    Path classArchive(String snippet) {
        List<String> cmd = javaCommand(snippet);
        StringBuilder jars = new StringBuilder(cmd.get(0) + " " + System.getProperty("java.vm.version"));  // a JDK updated in place: a new key
        try {
            for (String jar : cmd.get(cmd.indexOf("-cp") + 1).split(":")) jars.append(' ').append(jar).append(' ').append(Files.getLastModifiedTime(Path.of(jar)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return build.resolve("cds").resolve(javaSource(snippet).getFileName().toString().replace(".java", "") + "-" + hash(List.of(), jars.toString()));
    }

    public static Path javaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    /**
     * javac's own JVM with C1 alone: a snippet compiles in about a second, too short for C2's compiles to pay back (half
     * the CPU). Only javac's JVM: the classes it writes are the same.
     */
    private static final String JAVAC_C1_ONLY = "--compile-option=-J-XX:TieredStopAtLevel=1";

    /** Runs jbang to completion on the kit's JDK, its caches kept in the course's build folder. */
    private String jbang(String what, String... args) {
        Path jbang = build.resolve("tools/jbang/jbang");
        if (!Files.isExecutable(jbang)) throw new IllegalStateException("jbang is not set up: run `make lab` or setup/setup.sh");
        List<String> cmd = new ArrayList<>(List.of(jbang.toString()));
        cmd.addAll(List.of(args));
        return Exec.run(cmd, what, Map.of("JAVA_HOME", javaHome().toString(), "JBANG_DIR", build.resolve("jbang-home").toString(),
                "JBANG_REPO", build.resolve("jbang-repo").toString()));
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
}
