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
 * Lab 03's claims (Xu and Guo §4.5: operation size), judged on its sequential and random sweeps of operation sizes:
 * what 4 KB operations save over 1-byte ones, where the knee lies, and Java beside C at large operations.
 */
public final class Lab03 {
    private Lab03() {
    }

    public static void judge(Lab lab, Results seq, Results rand) {
        lab.verdicts(Lab03.class, verdicts(lab, seq, rand));
    }

    public static List<Verdict> verdicts(Lab lab, Results seq, Results rand) {
        return List.of(
            Verdict.cut(lab.claim("xu-guo.operation-size.seq-java-gain-large-vs-1b"),
                javaCut(seq, "1"),
                Why.ifHigher("A one-byte call today costs a few hundred nanoseconds, nearly all of it the trip into the kernel: 4096 times fewer trips save nearly all the time."))
                .withReading("\"An 85% performance improvement\" as 85% less time (6.7× as fast), not 85% more throughput (1.85×): with system calls at 90% of a 1-byte run's"
                    + " CPU time (§4.2), 4,096 times fewer calls must save most of the time."),
            Verdict.below(lab.claim("xu-guo.operation-size.seq-time-falls-with-opsize"),
                Estimate.of(d -> d.from(seq).where("op_size", "1").ratioTo(d.from(seq).where("op_size", "4096"), "mb_per_s", "op_size", "file_size")),
                "4 KB operations took %s the time per byte of 1-byte ones", Why.ifHigher("See the sequential chart."))
                .withReading("\"Improves as the operation size is increased\" as a direction: 4 KB operations take less time per byte than 1-byte ones."),
            Verdict.inPaper(lab.preset().name(), Verdict.near(lab.claim("xu-guo.operation-size.seq-java-near-c-large-ops"),
                javaOverCAt4k(seq),
                "Java took %s C's time with 4 KB operations",
                Why.ifHigher("With a 4 KB array per call Java still copies through a native buffer of its own (FileInputStream reads into a C buffer, then into the array); larger operations hide it.")),
                "Java's own copy of each 4 KB sits beside a system call whose cost moves with the machine's state, and over this preset's file"
                    + " a run makes a few thousand calls in milliseconds: the figure can move from one pass to the next by more than a pass's"
                    + " interval shows. The study's 100 MB file makes 25,600 calls a run.")
                .withReading("\"Comparable to C performance\" as Java's time within ×1.25 of C's, with 4 KB operations."),
            Verdict.near(lab.claim("xu-guo.operation-size.seq-knee-high"),
                Estimate.of(d -> d.from(seq).where("language", "java").where("op_size", "1024").ratioTo(d.from(seq).where("language", "java").where("op_size", "4096"), "mb_per_s", "op_size", "file_size")),
                "Java's 4 KB operations took %s the time per byte of 1 KB ones",
                Why.ifLower("A system call still costs about as much as copying a kilobyte, so larger operations keep paying until the calls are rare: the knee has moved to tens of KB."))
                .withReading("\"No big gain\" beyond 512 B or 1 KB as: Java's 4 KB operations take within ×1.25 of 1 KB operations' time per byte."),
            Verdict.near(lab.claim("xu-guo.operation-size.rand-similar-to-seq"),
                Estimate.of(d -> d.from(rand).where("language", "java").where("op_size", "1").ratioTo(d.from(rand).where("language", "java").where("op_size", "4096"), "mb_per_s", "op_size", "file_size")
                    / d.from(seq).where("language", "java").where("op_size", "1").ratioTo(d.from(seq).where("language", "java").where("op_size", "4096"), "mb_per_s", "op_size", "file_size")),
                "Java's speed-up from 1-byte to 4 KB operations: %s the sequential one at random",
                Why.ifLower("At random each operation also pays a seek, which larger operations do not remove."))
                .withReading("\"A similar effect\" as: Java's speed-up from 1-byte to 4 KB operations at random within ×1.25 of the sequential one."));
    }

    /** The learner's guesses beside this run: what 4 KB operations saved in Java, from 1 B and from 1 KB, and Java over C at 4 KB. */
    public static void againstYourGuesses(Results seq, double cut, String knee, double javaOverCLarge) {
        System.out.println(String.format(Locale.ROOT, "%s; here 4 KB operations saved %s of Java's 1-byte time, a further %s from 1 KB to 4 KB,"
                + " and Java took %s C's time at 4 KB.",
            Guess.said("%.0f%%, a knee at %s and %.1f×", cut, knee, javaOverCLarge),
            javaCut(seq, "1").format("%.1f%%"), javaCut(seq, "1024").format("%.0f%%"), javaOverCAt4k(seq).format("%.2f×")));
    }

    /** The time Java's 4 KB operations saved over its operations of another size (bytes), in percent, sequentially. */
    static Estimate javaCut(Results seq, String fromOpSize) {
        Results java = seq.where("language", "java");
        return Estimate.ofCut(d -> d.from(java).where("op_size", "4096").cut(d.from(java).where("op_size", fromOpSize), "op_size"));
    }

    /** Java's time over C's with 4 KB operations. */
    static Estimate javaOverCAt4k(Results seq) {
        return Estimate.of(d -> d.from(seq).where("op_size", "4096").ratio("java", "c"));
    }
}
