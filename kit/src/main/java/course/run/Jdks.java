package course.run;

import course.base.Exec;
import course.base.Html;
import course.record.Machine;
import course.record.Results;
import course.show.Notebook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The JDKs of this machine (the course's, then JAVA_HOMES or /usr/lib/jvm), and what javap says of their classes. */
public final class Jdks {
    private Jdks() {
    }

    /** The other JDKs' homes, without the course's own, said in one line: for running the same Java cases on another JDK. */
    public static List<String> showOthers() {
        List<String> found = homes().stream().skip(1).map(Path::toString).toList();
        String line = found.isEmpty() ? "No other JDK found (install one, or list homes in JAVA_HOMES)."
                : "Other JDKs: " + String.join(", ", found);
        Notebook.html("<small>" + Html.escape(line) + "</small>", line);
        return found;
    }

    /** The Java runtimes of every JDK here, as runs name them ("java 17.0.15"), oldest first. */
    public static List<String> runtimes() {
        return homes().stream().map(Machine::releaseVersion).filter(v -> !v.isEmpty()).map(v -> "java " + v).distinct()
                .sorted(Results.OLDEST_FIRST).toList();
    }

    /**
     * A method's bytecode as `javap -c -p` prints it, on the JDK here whose runs say `runtime` ("java 17.0.15"): what
     * tells whether a JDK has a change, where its version number cannot (an update may carry a backport). Empty when
     * no JDK here is that runtime or javap cannot say.
     */
    public static List<String> javap(String runtime, String className, String method) {
        for (Path home : homes()) {
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
    static List<Path> homes() {
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
            Set<Path> seen = new LinkedHashSet<>();
            seen.add(Build.javaHome().toRealPath());
            for (Path home : candidates) {
                if (Files.isExecutable(home.resolve("bin/java"))) seen.add(home.toRealPath());
            }
            return List.copyOf(seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
