package course.record;

import course.base.Course;
import course.base.Exec;
import course.base.Html;
import course.base.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
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
        Limits limits = Limits.read(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup"));
        m.put("cpu", firstMatch(Path.of("/proc/cpuinfo"), "model name"));
        int cores = cores(), jvm = Runtime.getRuntime().availableProcessors();
        m.put("cores", String.valueOf(cores));
        if (jvm != cores) m.put("cores the JVM reports", jvm + " (more than this process may use: the course counts " + cores + ")");
        m.put("memory", memory());
        m.put("container limits", limits.describe());
        m.put("load", load(Path.of("/proc/loadavg"), Path.of("/proc/stat"), Path.of("/proc/self/stat"), BUSY_WINDOW_MS));
        m.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("cpu mitigations", mitigations(Path.of("/sys/devices/system/cpu/vulnerabilities")));
        Scratch.createDirectories(scratch);
        m.put("scratch", scratch.toString());
        m.put("filesystem", Mount.filesystem(scratch));
        m.put("mount options", Mount.options(scratch));
        m.put("free space", gib(scratch.toFile().getUsableSpace()));
        m.put("jdk", System.getProperty("java.vendor") + " " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")");
        m.put("gcc", Exec.run(List.of("gcc", "-dumpfullversion"), "gcc").strip());
        for (String tool : OPTIONAL_TOOLS) m.put(tool, onPath(tool) ? "found" : "missing: " + installHint(tool));
        m.put("course commit", commit());
        return m;
    }

    /**
     * The card as results keep it, which a learner hands in: without this machine's folders (the scratch path, where
     * the JDK lies), which can name a person (/home/jane.doe/…) and say nothing of the figures.
     */
    public static Map<String, String> toSave(Map<String, String> m) {
        Map<String, String> out = new LinkedHashMap<>(m);
        out.remove("scratch");
        out.computeIfPresent("jdk", (k, v) -> v.replaceFirst(" \\(/[^)]*\\)$", ""));
        return out;
    }

    /** This machine's card in a line, its JDK the one this JVM runs. */
    public static String oneLine(Map<String, String> m) {
        return oneLine(m, System.getProperty("java.version"));
    }

    /** A card in a line, with the JDK given (a saved card's own, for runs made elsewhere). */
    public static String oneLine(Map<String, String> m, String jdk) {
        return m.get("cores") + " cores (" + m.get("cpu") + "), " + m.get("memory") + " memory, " + m.get("kernel")
                + ", scratch on " + m.get("filesystem") + " with " + m.get("free space") + " free, JDK "
                + jdk + ", gcc " + m.get("gcc") + warning(m);
    }

    /**
     * A warning (on a line of its own) when the figures will be noisier or lower than the hardware's: a
     * container's memory or CPU limit, other work loading the cores, or a hypervisor taking CPU time (steal).
     */
    static String warning(Map<String, String> m) {
        List<String> why = new java.util.ArrayList<>();
        // getOrDefault: a card saved by an older course (a results file opened with COURSE_LOAD) may lack a row
        if (!m.getOrDefault("container limits", NO_LIMITS).equals(NO_LIMITS)) why.add("a container limits it (" + m.get("container limits") + ")");
        if (m.containsKey("cores the JVM reports")) why.add("the JVM reports " + m.get("cores the JVM reports"));
        String load = m.getOrDefault("load", "");
        if (busyPerCore(load) > BUSY_PER_CORE) why.add("other work keeps its cores busy (" + load + ")");
        java.util.regex.Matcher steal = java.util.regex.Pattern.compile("steal ([0-9.]+)%").matcher(load);
        if (steal.find() && Double.parseDouble(steal.group(1)) > SHARED_STEAL_PCT) why.add("a hypervisor takes CPU time from it (" + load + ")");
        return (why.isEmpty() ? "" : "\n⚠ This machine is shared or throttled: " + String.join("; ", why)
                + ". Expect noisier figures; compare ratios and shapes, and run a case again before you trust a close call.")
                + (FileSystemKind.of(m.getOrDefault("filesystem", "")) == FileSystemKind.MEMORY ? "\n⚠ The scratch folder is on " + m.get("filesystem") + ", which keeps files in"
                        + " memory: cold reads and forced writes never reach a disk, so the lab measures memory. Give it a folder on a disk:"
                        + " COURSE_SCRATCH=/path/on/disk, or lab.scratch(\"/path/on/disk\")." : "");
    }

    /**
     * How busy other work keeps each core, from the machine card's load line: what the look as the lab opened saw, where
     * it saw anything (the 1-minute load also counts the lab run just before this one), else the load; NaN when neither.
     */
    static double busyPerCore(String load) {
        for (String figure : List.of("([0-9.]+) per core busy with other work now", "load ([0-9.]+) per core")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(figure).matcher(load);
            if (m.find()) return Double.parseDouble(m.group(1));
        }
        return Double.NaN;
    }

    /**
     * The cores the course counts on: the JVM's count (which follows a container's CPU limit), but never more than
     * this process may run on, its CPU affinity and its cgroup's quota (rounded up): -XX:ActiveProcessorCount or an
     * odd container runtime can make the JVM report more, and a lab would then start that many processes at once.
     */
    public static int cores() {
        return Cores.COUNT;
    }

    /** The count worked out once per kernel (the first time it is asked), not from /proc at every call. */
    private static final class Cores {
        static final int COUNT = count();

        private static int count() {
            int jvm = Runtime.getRuntime().availableProcessors();
            int usable = usableCpus(Path.of("/proc/self/status"), Limits.read(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup")));
            return usable > 0 ? Math.min(jvm, usable) : jvm;
        }
    }

    /** CPUs this process may run on (Cpus_allowed_list: "0-3,8"), cut to a CPU quota rounded up; 0 when it cannot say. */
    static int usableCpus(Path procSelfStatus, Limits limits) {
        int allowed = allowedCpus(procSelfStatus).size();
        if (allowed > 0 && limits.cpus() != null) allowed = Math.min(allowed, (int) Math.ceil(limits.cpus()));
        return allowed;
    }

    /** The numbers of the CPUs this process may run on (Cpus_allowed_list: "0-3,8"); none when it cannot say. */
    static java.util.Set<Integer> allowedCpus(Path procSelfStatus) {
        java.util.Set<Integer> cpus = new java.util.TreeSet<>();
        try {
            for (String line : Files.readAllLines(procSelfStatus)) {
                if (!line.startsWith("Cpus_allowed_list:")) continue;
                for (String range : line.substring(line.indexOf(':') + 1).strip().split(",")) {
                    String[] ends = range.split("-");
                    for (int c = Integer.parseInt(ends[0]); c <= Integer.parseInt(ends[ends.length - 1]); c++) cpus.add(c);
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            return java.util.Set.of();
        }
        return cpus;
    }

    static final String NO_LIMITS = "none";
    /** Above this much of each core busy with other programs' work (now, or else the 1-minute load), they compete with the lab's runs. */
    static final double BUSY_PER_CORE = 0.5;
    /** How long the course watches the CPUs for other work when a lab opens: long enough for a few 10 ms ticks on each core. */
    static final long BUSY_WINDOW_MS = 300;
    /** Above this share of CPU time taken by the hypervisor since boot, the machine's cores are shared. */
    static final double SHARED_STEAL_PCT = 2.0;

    /** What a container (its cgroup, v2 or v1) allows this process; null where nothing is set. */
    record Limits(Long memoryBytes, Double cpus, String version) {
        /** v1's "no limit" is a huge number rounded to a page: anything this large is none. */
        static final long UNLIMITED = 1L << 62;

        /** Reads the limits along the process's cgroup path (procSelfCgroup: /proc/self/cgroup) under root, the tightest level winning. */
        static Limits read(Path procSelfCgroup, Path root) {
            Map<String, String> paths = new LinkedHashMap<>();  // controller ("" for v2) → path
            try {
                for (String line : Files.readAllLines(procSelfCgroup)) {
                    String[] f = line.split(":", 3);
                    if (f.length < 3) continue;
                    for (String controller : f[1].split(",")) paths.put(controller, f[2]);
                }
            } catch (IOException notLinux) {
                return new Limits(null, null, null);
            }
            Path v2 = Files.exists(root.resolve("cgroup.controllers")) ? root : root.resolve("unified");
            if (paths.containsKey("")) {
                Long memory = tightest(v2, paths.get(""), "memory.max", Limits::bytes);
                Double cpus = tightest(v2, paths.get(""), "cpu.max", Limits::quota);
                if (memory != null || cpus != null) return new Limits(memory, cpus, "cgroup v2");
            }
            Long memory = paths.containsKey("memory") ? tightest(root.resolve("memory"), paths.get("memory"), "memory.limit_in_bytes", Limits::bytes) : null;
            Double cpus = null;
            if (paths.containsKey("cpu")) {
                for (String dir : List.of("cpu", "cpu,cpuacct")) {
                    Path at = root.resolve(dir);
                    Double c = tightest(at, paths.get("cpu"), "cpu.cfs_quota_us", quota -> {
                        long q = Long.parseLong(quota.strip());
                        return q <= 0 ? null : q / 1.0;
                    });
                    Long period = tightest(at, paths.get("cpu"), "cpu.cfs_period_us", Limits::bytes);
                    if (c != null && period != null) cpus = c / period;
                }
            }
            return new Limits(memory, cpus, memory != null || cpus != null ? "cgroup v1" : null);
        }

        /** The smallest value of file at every level from the cgroup at path up to root; null if none sets one. */
        static <T extends Comparable<T>> T tightest(Path root, String path, String file, java.util.function.Function<String, T> parse) {
            T best = null;
            for (Path dir = root.resolve(path.replaceFirst("^/+", "")); dir != null && dir.startsWith(root); dir = dir.getParent()) {
                try {
                    T value = parse.apply(Files.readString(dir.resolve(file)));
                    if (value != null && (best == null || value.compareTo(best) < 0)) best = value;
                } catch (IOException | RuntimeException absentOrUnreadable) {
                    // this level sets nothing
                }
            }
            return best;
        }

        static Long bytes(String text) {
            String t = text.strip();
            if (t.equals("max")) return null;
            long v = Long.parseLong(t);
            return v >= UNLIMITED ? null : v;
        }

        /** cpu.max: "quota period" in microseconds, or "max period". */
        static Double quota(String text) {
            String[] f = text.strip().split("\\s+");
            return f[0].equals("max") ? null : Double.parseDouble(f[0]) / Double.parseDouble(f[1]);
        }

        String describe() {
            if (version == null) return NO_LIMITS;
            List<String> parts = new java.util.ArrayList<>();
            if (memoryBytes != null) parts.add(gib(memoryBytes) + " memory");
            if (cpus != null) parts.add(String.format(java.util.Locale.ROOT, "%.2g CPUs", cpus));
            return String.join(", ", parts) + " (" + version + ")";
        }
    }

    /**
     * The 1-minute load per usable core; how much of each CPU this process may use other processes kept busy over a short
     * window now (windowMs, 0 for none), this process's own time left out; and the share of CPU time a hypervisor took since boot (steal). The
     * load alone would blame other work for the lab run a minute before, or the kernel's own start.
     */
    static String load(Path loadavg, Path stat, Path self, long windowMs) {
        try {
            double load = Double.parseDouble(Files.readString(loadavg).split("\\s+")[0]);
            String before = Files.readString(stat), selfBefore = Files.readString(self);
            String[] cpu = before.lines().findFirst().orElseThrow().split("\\s+");  // cpu user nice system idle iowait irq softirq steal …
            double total = 0;
            for (int i = 1; i < cpu.length && i <= 8; i++) total += Double.parseDouble(cpu[i]);
            double steal = cpu.length > 8 && total > 0 ? 100 * Double.parseDouble(cpu[8]) / total : 0;
            String busyNow = "";
            if (windowMs > 0) {
                Thread.sleep(windowMs);
                double other = otherWorkPerCore(before, selfBefore, Files.readString(stat), Files.readString(self), allowedCpus(Path.of("/proc/self/status")));
                if (!Double.isNaN(other)) busyNow = String.format(java.util.Locale.ROOT, ", %.2f per core busy with other work now", other);
            }
            return String.format(java.util.Locale.ROOT, "load %.2f per core (1 min)%s, steal %.1f%% of CPU time since boot", load / cores(), busyNow, steal);
        } catch (IOException | RuntimeException notLinux) {
            return "unknown";
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /**
     * Between two readings of /proc/stat and /proc/self/stat: the CPU time other processes' work took (user, nice, system,
     * irq, softirq; not idle, I/O wait or steal) on the CPUs this process may run on (all, where it cannot say), over those
     * CPUs' time, so 1 is every one of them busy. NaN when no tick passed.
     */
    static double otherWorkPerCore(String statBefore, String selfBefore, String statAfter, String selfAfter, java.util.Set<Integer> allowed) {
        long[] a = cpuTicks(statBefore, allowed), b = cpuTicks(statAfter, allowed);
        double all = b[0] - a[0], own = ownTicks(selfAfter) - ownTicks(selfBefore);
        return all <= 0 ? Double.NaN : Math.max(0, b[1] - a[1] - own) / all;
    }

    /** {all ticks but guests', working ticks} of the allowed CPUs' lines of /proc/stat (cpu0, cpu1, …), or of its first line, all CPUs. */
    private static long[] cpuTicks(String stat, java.util.Set<Integer> allowed) {
        long all = 0, working = 0;
        for (String line : stat.lines().toList()) {
            String[] f = line.split("\\s+");
            boolean wanted = allowed.isEmpty() ? f[0].equals("cpu") : f[0].matches("cpu\\d+") && allowed.contains(Integer.parseInt(f[0].substring(3)));
            if (!wanted) continue;
            for (int i = 1; i < f.length && i <= 8; i++) {
                long t = Long.parseLong(f[i]);
                all += t;
                if (i != 4 && i != 5 && i != 8) working += t;  // 4 idle, 5 iowait, 8 steal
            }
        }
        return new long[] {all, working};
    }

    /** This process's user and system ticks from /proc/self/stat (fields 14 and 15; its name may hold spaces). */
    private static long ownTicks(String self) {
        String[] f = self.substring(self.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * What the kernel does on this CPU against speculative-execution attacks, from its vulnerabilities folder: each
     * guard it names, in its words ("spectre_v2: Retpolines"), a guard it applies while still calling the CPU vulnerable
     * too ("Vulnerable: Safe RET, no microcode": the kernel is guarded, programs may not be; common in virtual machines).
     * Several (KPTI, buffer clearing, Safe RET, retpolines) are paid on every system call, so two machines of one age can
     * differ several times over in what a 1-byte read costs. An entry with no guard ("Vulnerable", "Not affected") costs
     * nothing and is left out. "none listed" where the folder is absent (not Linux, an old kernel).
     */
    static String mitigations(Path folder) {
        List<String> out = new java.util.ArrayList<>();
        try (var entries = Files.list(folder)) {
            for (Path entry : entries.sorted().toList()) {
                String state = Files.readString(entry).strip();
                if (state.startsWith("Mitigation: ")) out.add(entry.getFileName() + ": " + state.substring("Mitigation: ".length()));
                else if (state.startsWith("Vulnerable: ")) out.add(entry.getFileName() + ": " + state);
            }
        } catch (IOException e) {
            return "none listed (" + folder + " unreadable)";
        }
        return out.isEmpty() ? "none" : String.join("; ", out);
    }

    public static String html(Map<String, String> m) {
        Html.Table table = new Html.Table().rowHeads().left(0, 1).caption("This machine");
        m.forEach(table::row);
        return table.html();
    }

    /** A JDK's version as its release file says it (JAVA_VERSION="17.0.15"), as java.version gives it; "" when unreadable. */
    public static String releaseVersion(Path jdkHome) {
        try {
            return Files.readAllLines(jdkHome.resolve("release")).stream().filter(l -> l.startsWith("JAVA_VERSION="))
                    .map(l -> l.substring("JAVA_VERSION=".length()).replace("\"", "")).findFirst().orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether a tool runs here: found on PATH, or, given as a path, executable there. */
    public static boolean onPath(String tool) {
        if (tool.contains("/")) return Files.isExecutable(Path.of(tool));
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }

    /**
     * Debian's install line for a tool the course looks for, from setup/packages.tsv (where each comes from, in one
     * place): the row of that name, or that finds it by that command (mpirun: Open MPI's two packages).
     */
    public static String installHint(String tool) {
        return "sudo apt-get install " + packageRow(tool)[2];
    }

    /** What shows a tool of setup/packages.tsv is here: the commands its row names, or the files (any one of them). */
    public static List<String> foundBy(String tool) {
        return List.of(packageRow(tool)[1].split(" "));
    }

    /** The row of setup/packages.tsv of that name, or that finds the tool by that command. */
    private static String[] packageRow(String tool) {
        try {
            for (String line : Files.readAllLines(Course.home().resolve("setup/packages.tsv"))) {
                String[] row = line.split("\t");
                if (line.startsWith("#") || row.length < 3) continue;
                if (row[0].equals(tool) || List.of(row[1].split(" ")).contains(tool)) return row;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalArgumentException(tool + ": no row of setup/packages.tsv says where it comes from");
    }

    /** The memory this process may use: the machine's, or its container's limit where that is lower. */
    public static long memoryAllowed() {
        String kb = firstMatch(Path.of("/proc/meminfo"), "MemTotal").replaceAll("[^0-9]", "");
        long total = kb.isEmpty() ? Runtime.getRuntime().maxMemory() * 4 : Long.parseLong(kb) * 1024;  // no /proc: the JVM's view
        Long limit = Limits.read(Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup")).memoryBytes();
        return limit == null ? total : Math.min(total, limit);
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
            return Exec.run(List.of("git", "-C", Course.home().toString(), "rev-parse", "--short", "HEAD"), "git").strip();
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
