package course.base;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Where the course lives on disk (its folders), and how it writes sizes. */
public final class Course {
    private Course() {
    }

    /** Where labs save their results: data/results/ in the course, or COURSE_RESULTS (the tests keep theirs apart). */
    public static Path results() {
        return folder("COURSE_RESULTS", System.getenv("COURSE_RESULTS"), () -> home().resolve("data/results"));
    }

    /** Where runs write their files: COURSE_SCRATCH if set, else scratch/ in the course folder. */
    public static Path scratch() {
        return folder("COURSE_SCRATCH", System.getenv("COURSE_SCRATCH"), () -> home().resolve("scratch"));  // a run's cwd is its own folder
    }

    /** COURSE_HOME if set (the course kernel sets it), else the nearest folder above cwd holding setup/setup.sh. */
    public static Path home() {
        return folder("COURSE_HOME", System.getenv("COURSE_HOME"), () -> {
            for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
                if (Files.exists(dir.resolve("setup/setup.sh"))) return dir;
            }
            throw new IllegalStateException("cannot find the course folder: set COURSE_HOME or start from inside the course");
        });
    }

    /**
     * The folder an environment variable names, else the fallback. The JVM decodes names as UTF-8 and puts
     * U+FFFD where a byte is not, so such a folder could never be opened: refused, in one line.
     */
    static Path folder(String variable, String value, java.util.function.Supplier<Path> fallback) {
        if (value == null || value.isEmpty()) return fallback.get();
        if (value.indexOf('\uFFFD') >= 0) {
            throw new IllegalArgumentException(variable + "=" + value + " is not valid UTF-8, which Java needs to open a folder: name one in UTF-8");
        }
        return Path.of(value).toAbsolutePath();
    }

    /** Where flame graphs go: flamegraphs/ beside the notebook (the kernel's folder), which its links name; COURSE_FLAMEGRAPHS if set (grading). */
    public static Path flameGraphs() {
        return folder("COURSE_FLAMEGRAPHS", System.getenv("COURSE_FLAMEGRAPHS"), () -> Path.of("flamegraphs").toAbsolutePath());
    }

    public static Path build() {
        return home().resolve("build");
    }

    /** Parses 4k, 16m, 1g (powers of 1024) as the snippets' harnesses do. */
    public static long parseSize(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int shift = t.endsWith("k") ? 10 : t.endsWith("m") ? 20 : t.endsWith("g") ? 30 : 0;
        if (shift > 0) t = t.substring(0, t.length() - 1);
        if (!t.matches("[0-9]{1,12}")) throw new IllegalArgumentException("not a size: '" + text + "' (use e.g. 4k, 16m, 1g)");
        long number = Long.parseLong(t);
        if (number > (Long.MAX_VALUE >> shift)) throw new IllegalArgumentException("size too large: '" + text + "'");
        return number << shift;
    }

    /** The reverse of parseSize, for flags and labels: 1048576 becomes 1m. */
    public static String formatSize(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + "g";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + "m";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + "k";
        return Long.toString(bytes);
    }

    /** A size for prose: "1 B", "512 B", "4 KB", "1 MB" (exact multiples only; otherwise bytes). */
    public static String formatBytes(long bytes) {
        String flag = formatSize(bytes);
        char unit = flag.charAt(flag.length() - 1);
        return Character.isDigit(unit) ? bytes + " B" : flag.substring(0, flag.length() - 1) + " " + Character.toUpperCase(unit) + "B";
    }
}
