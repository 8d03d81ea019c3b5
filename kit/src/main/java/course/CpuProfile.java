package course;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * One Java run's CPU profile from async-profiler, reduced to the shares the studies reported: the
 * percentage of samples spent in the kernel, and of samples whose own frame copies memory.
 */
public record CpuProfile(String name, long samples, double kernelPct, double copyPct, Map<String, Long> leaves) {
    /** Frames that move bytes from one buffer to another, in the JVM, libc or the kernel. */
    static final Pattern COPY = Pattern.compile("(?i).*(memcpy|memmove|arraycopy|copy_user|copy_to_user|copy_from_user"
            + "|copyout|copyin|rep_movs|_copy_to_iter|copy_page_to_iter|copy_page_from_iter).*");

    /** Reads async-profiler's collapsed stacks ("frame;frame;leaf count" per line; kernel frames end in _[k]). */
    static CpuProfile fromCollapsed(String name, Iterable<String> lines) {
        long total = 0, kernel = 0, copy = 0;
        Map<String, Long> leaves = new java.util.TreeMap<>();
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            if (space < 0 || !line.substring(space + 1).matches("\\d{1,18}")) continue;  // not a stack line
            long samples = Long.parseLong(line.substring(space + 1));
            String stack = line.substring(0, space);
            String leaf = stack.substring(stack.lastIndexOf(';') + 1);
            total += samples;
            if (stack.contains("_[k]")) kernel += samples;
            if (COPY.matcher(leaf).matches()) copy += samples;
            leaves.merge(leaf, samples, Long::sum);
        }
        return new CpuProfile(name, total, total == 0 ? 0 : 100.0 * kernel / total, total == 0 ? 0 : 100.0 * copy / total, leaves);
    }
}
