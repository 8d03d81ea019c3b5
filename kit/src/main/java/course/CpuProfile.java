package course;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * One Java run's CPU profile from async-profiler, reduced to the shares the studies reported: the
 * percentage of samples spent in the kernel, and of samples whose own frame copies memory. Only the
 * samples taken inside the timed strategy count (JVM start-up, the JIT and preparing the file do not):
 * samples is their number, allSamples the whole process's.
 */
public record CpuProfile(String name, long samples, long allSamples, double kernelPct, double copyPct, Map<String, Long> leaves) {
    /** Frames that move bytes from one buffer to another, in the JVM, libc or the kernel. */
    static final Pattern COPY = Pattern.compile("(?i).*(memcpy|memmove|arraycopy|copy_user|copy_(to|from)_user"
            + "|copyout|copyin|rep_movs|copy_\\w*iter).*");
    /** The harness's timed call of the strategy (Harness.timedRun) is on the stack, at any depth. */
    static final Pattern TIMED = Pattern.compile("(^|.*;)Harness\\.timedRun;.*");

    /** The kernel share of the named profile (a case name such as "java stream 1k read seq"); NaN if it was not taken. */
    public static double kernelPct(java.util.List<CpuProfile> profiles, String name) {
        return profiles.stream().filter(p -> p.name().equals(name)).mapToDouble(CpuProfile::kernelPct).findFirst().orElse(Double.NaN);
    }

    /** The memory-copy share of the named profile; NaN if it was not taken. */
    public static double copyPct(java.util.List<CpuProfile> profiles, String name) {
        return profiles.stream().filter(p -> p.name().equals(name)).mapToDouble(CpuProfile::copyPct).findFirst().orElse(Double.NaN);
    }

    /** Reads async-profiler's collapsed stacks ("frame;frame;leaf count" per line; kernel frames end in _[k]). */
    static CpuProfile fromCollapsed(String name, Iterable<String> lines) {
        long total = 0, all = 0, kernel = 0, copy = 0;
        Map<String, Long> leaves = new java.util.TreeMap<>();
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            if (space < 0 || !line.substring(space + 1).matches("\\d{1,18}")) continue;  // not a stack line
            long samples = Long.parseLong(line.substring(space + 1));
            String stack = line.substring(0, space);
            String leaf = stack.substring(stack.lastIndexOf(';') + 1);
            all += samples;
            if (!TIMED.matcher(stack).matches()) continue;
            total += samples;
            if (stack.contains("_[k]")) kernel += samples;
            if (COPY.matcher(leaf).matches()) copy += samples;
            leaves.merge(leaf, samples, Long::sum);
        }
        return new CpuProfile(name, total, all, total == 0 ? 0 : 100.0 * kernel / total, total == 0 ? 0 : 100.0 * copy / total, leaves);
    }
}
