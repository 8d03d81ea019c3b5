package course.profile;

import course.judge.Estimate;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One Java run's CPU profile from async-profiler, reduced to the shares the studies reported: the
 * samples spent in the kernel, and those whose own frame copies memory in the program's space (the two never overlap). Only the samples taken inside
 * the timed strategy count (JVM start-up, the JIT and preparing the file do not): samples is their
 * number, allSamples the whole process's.
 */
public record CpuProfile(String name, long samples, long allSamples, long kernelSamples, long copySamples, Map<String, Long> leaves) {
    /**
     * Frames that move bytes from one buffer to another in the program's own space (the JVM, libc): the study's
     * "memory copy calls to maintain buffers". The kernel's copy into the caller's buffer (copy_to_user) is part of
     * the system call and counted in the kernel share, never in both.
     */
    static final Pattern COPY = Pattern.compile("(?i).*(memcpy|memmove|arraycopy|rep_movs).*");
    /** The harness's timed call of the strategy (Harness.timedRun) is on the stack, at any depth. */
    static final Pattern TIMED = Pattern.compile("(^|.*;)Harness\\.timedRun;.*");

    public double kernelPct() {
        return samples == 0 ? 0 : 100.0 * kernelSamples / samples;
    }

    public double copyPct() {
        return samples == 0 ? 0 : 100.0 * copySamples / samples;
    }

    /**
     * The kernel share of the named profile (a case name such as "java stream 1k read seq"), in percent,
     * with the interval its number of samples allows (Estimate.ofShare); NaN if it was not taken.
     */
    public static Estimate kernelShare(java.util.List<CpuProfile> profiles, String name) {
        return share(profiles, name, CpuProfile::kernelSamples);
    }

    /** The memory-copy share of the named profile, likewise. */
    public static Estimate copyShare(java.util.List<CpuProfile> profiles, String name) {
        return share(profiles, name, CpuProfile::copySamples);
    }

    private static Estimate share(java.util.List<CpuProfile> profiles, String name, java.util.function.ToLongFunction<CpuProfile> part) {
        return profiles.stream().filter(p -> p.name().equals(name)).findFirst()
                .map(p -> Estimate.ofShare(part.applyAsLong(p), p.samples())).orElse(Estimate.exact(Double.NaN));
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
            if (COPY.matcher(leaf).matches() && !leaf.endsWith("_[k]")) copy += samples;
            leaves.merge(leaf, samples, Long::sum);
        }
        return new CpuProfile(name, total, all, kernel, copy, leaves);
    }
}
