package course;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The facts a result needs to be read against: CPU, memory, kernel, disk, JDK, compiler, tools. */
public final class Machine {
    static final List<String> OPTIONAL_TOOLS = List.of("strace", "fio", "mpirun", "chromium");

    private Machine() {
    }

    public static Map<String, String> describe(Path scratch) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu", firstMatch(Path.of("/proc/cpuinfo"), "model name"));
        m.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        m.put("memory", memory());
        m.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        Runner.createDirectories(scratch);
        m.put("scratch", scratch.toString());
        m.put("filesystem", Runner.exec(List.of("stat", "-f", "-c", "%T", scratch.toString()), "stat").strip());
        m.put("free space", gib(scratch.toFile().getUsableSpace()));
        m.put("jdk", System.getProperty("java.vendor") + " " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")");
        m.put("gcc", Runner.exec(List.of("gcc", "-dumpfullversion"), "gcc").strip());
        for (String tool : OPTIONAL_TOOLS) m.put(tool, onPath(tool) ? "found" : "missing: " + installHint(tool));
        m.put("course commit", commit());
        return m;
    }

    public static String oneLine(Map<String, String> m) {
        return m.get("cores") + " cores (" + m.get("cpu") + "), " + m.get("memory") + " memory, " + m.get("kernel")
                + ", scratch on " + m.get("filesystem") + " with " + m.get("free space") + " free, JDK "
                + System.getProperty("java.version") + ", gcc " + m.get("gcc");
    }

    public static String html(Map<String, String> m) {
        StringBuilder h = new StringBuilder("<table><tbody>");
        m.forEach((k, v) -> h.append("<tr><th style='text-align:left'>").append(Notebook.escape(k)).append("</th><td style='text-align:left'>")
                .append(Notebook.escape(v)).append("</td></tr>"));
        return h.append("</tbody></table>").toString();
    }

    /** Whether a tool runs here: found on PATH, or, given as a path, executable there. */
    static boolean onPath(String tool) {
        if (tool.contains("/")) return Files.isExecutable(Path.of(tool));
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    static String installHint(String tool) {
        return switch (tool) {
            case "mpirun" -> "sudo apt-get install openmpi-bin libopenmpi-dev";
            default -> "sudo apt-get install " + tool;
        };
    }

    private static String memory() {
        String kb = firstMatch(Path.of("/proc/meminfo"), "MemTotal").replaceAll("[^0-9]", "");
        return kb.isEmpty() ? "unknown" : gib(Long.parseLong(kb) * 1024);
    }

    private static String gib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    private static String commit() {
        try {
            return Runner.exec(List.of("git", "-C", Course.home().toString(), "rev-parse", "--short", "HEAD"), "git").strip();
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    private static String firstMatch(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) return line.substring(line.indexOf(':') + 1).strip();
            }
        } catch (IOException ignored) {
            // not Linux: say so below
        }
        return "unknown";
    }
}
