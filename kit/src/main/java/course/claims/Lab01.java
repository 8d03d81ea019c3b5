package course.claims;

import course.Guess;
import course.Lab;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.record.Results;
import java.util.List;
import java.util.Locale;

/**
 * Lab 01's claims (Xu and Guo: raw 1-byte I/O), judged on its sequential and random 1-byte sweeps: Java over C in
 * time and in CPU time per call, how steady the rate is across file sizes, and the kernel's share of the CPU.
 */
public final class Lab01 {
    /** Why a split of CPU time between user and kernel is judged in the paper preset only (labs 01 and 02). */
    static final String CPU_SPLIT_BY_TICKS = "the kernel splits a process's CPU time between user and system by sampling it at each timer tick"
        + " (every 1 to 10 ms by its configuration), and this preset's runs last milliseconds to tens of milliseconds: too few samples to split.";

    private Lab01() {
    }

    public static void judge(Lab lab, Results seq, Results rand) {
        lab.verdicts(Lab01.class, verdicts(lab, seq, rand));
    }

    public static List<Verdict> verdicts(Lab lab, Results seq, Results rand) {
        String sameMeasureDiffers = "The measure differs: the study profiled functions, this is the kernel share of the thread's CPU time.";
        return List.of(
            Verdict.ratio(lab.claim("xu-guo.raw-1byte.java-over-c-time-seq"), javaOverC(seq),
                Why.ifLower("Today's JIT compiles the byte loop to machine code and the JDK's read()/write(int) go almost straight to the system call: both languages now pay mostly for the kernel.")
                   .orIfHigher("Java's path to the system call (a JNI transition, the JDK's checks) costs more next to today's cheaper system calls.")),
            Verdict.ratio(lab.claim("xu-guo.raw-1byte.java-over-c-time-rand"), javaOverC(rand),
                Why.ifLower("RandomAccessFile.seek and read are thin native calls in today's JDK; a system call costs the same from Java as from C.")),
            Verdict.above(lab.claim("xu-guo.raw-1byte.rand-syscalls-costlier-java"), Estimate.of(d -> d.from(rand).ratio("java", "c", "cpu_ns_per_op")),
                "Java's random operations took %s C's CPU time each (read or write with its seek)",
                Why.ifLower("A system call costs the same from Java as from C today: RandomAccessFile's seek and read are thin native calls.")),
            Verdict.atMost(lab.claim("xu-guo.raw-1byte.seq-rate-flat-vs-file-size"),
                Estimate.of(d -> d.from(seq).worstSpread("ops_per_s", "language", "op")), 1.5,
                "steady: the fastest size's rate within 1.5× of the slowest's, for each language and operation",
                "the largest over the smallest rate across sizes (the worst language and operation): %s",
                Why.ifHigher("Small files finish in milliseconds, where timer noise and the page cache's first touches weigh more; try the paper preset.")),
            Verdict.inPaper(lab.preset().name(), Verdict.share(lab.claim("xu-guo.raw-1byte.syscall-cpu-share-c.100mb"),
                Estimate.ofPercent(d -> d.from(seq).where("language", "c").median("sys_share_pct", r -> true)), Why.either(sameMeasureDiffers)), CPU_SPLIT_BY_TICKS),
            Verdict.inPaper(lab.preset().name(), Verdict.share(lab.claim("xu-guo.raw-1byte.syscall-cpu-share-java.100mb"),
                Estimate.ofPercent(d -> d.from(seq).where("language", "java").median("sys_share_pct", r -> true)), Why.either(sameMeasureDiffers)), CPU_SPLIT_BY_TICKS),
            Verdict.ratio(lab.claim("xu-guo.raw-1byte.java-vs-c-read-syscall-cost.100mb"),
                Estimate.of(d -> d.from(seq).where("op", "read").ratio("java", "c", "cpu_ns_per_op")),
                Why.ifLower("A 1-byte read from Java today costs less over C's than it did: the call path through the JDK's native code is short.")),
            Verdict.ratio(lab.claim("xu-guo.raw-1byte.java-vs-c-write-syscall-cost.100mb"),
                Estimate.of(d -> d.from(seq).where("op", "write").ratio("java", "c", "cpu_ns_per_op")),
                Why.ifLower("A 1-byte write from Java today costs less over C's than it did: the call path through the JDK's native code is short.")));
    }

    /** The learner's guesses ("Predict before you run") beside this run's Java-over-C time ratios, with their intervals. */
    public static void againstYourGuesses(Results seq, Results rand, double sequential, double random) {
        System.out.println(String.format(Locale.ROOT, "%s; Java took %s C's time sequentially and %s at random here.",
            Guess.said("%.1f× (sequential) and %.1f× (random)", sequential, random),
            javaOverC(seq).format("%.2f×"), javaOverC(rand).format("%.2f×")));
    }

    /**
     * What one system call costs on this machine, from the sequential 1-byte reads (a median over the file sizes, its
     * 95% interval over rounds), in C and in Java, with the CPU's mitigations from the machine card: the machine's own
     * tax, which the study could not show.
     */
    public static void systemCallCost(Lab lab, Results seq) {
        Estimate c = nsPerRead(seq, "c"), java = nsPerRead(seq, "java");
        String mitigations = lab.machine().getOrDefault("cpu mitigations", "not recorded");
        String text = String.format(Locale.ROOT,
                "One 1-byte read(2) of a file in the page cache costs %s from C and %s from Java on this machine (medians over this"
                + " run's file sizes%s). The guards against speculative-execution attacks this kernel names, in its own words: %s.",
                c.format("%.0f") + " ns", java.format("%.0f") + " ns", c.hasInterval() ? ", with their 95% intervals" : "", mitigations);
        course.show.Notebook.html("<p>" + course.base.Html.escape(text) + "</p>", text);
    }

    /** Nanoseconds per 1-byte sequential read in one language: the median rate over file sizes, turned into a time per call. */
    static Estimate nsPerRead(Results seq, String language) {
        return Estimate.of(d -> 1e9 / d.from(seq).where("language", language).where("op", "read").median("ops_per_s"));
    }

    /** Java's time over C's for the same 1-byte work (geometric mean over the cases both ran). */
    static Estimate javaOverC(Results runs) {
        return Estimate.of(d -> d.from(runs).ratio("java", "c"));
    }
}
