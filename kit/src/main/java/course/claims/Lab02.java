package course.claims;

import course.Guess;
import course.Lab;
import course.base.Course;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.profile.CpuProfile;
import course.record.Results;
import course.show.ReferenceBars;
import java.util.List;

/**
 * Lab 02's claims (Xu and Guo: buffering and buffer size), judged on its runs: no buffer, the library's buffered
 * streams and a hand-kept buffer (sequential, 1 KB); the sequential and random sweeps of buffer sizes; and the CPU
 * profiles of the 1 KB stream and direct reads (the kernel's share, the share copying memory).
 */
public final class Lab02 {
    private Lab02() {
    }

    /** How the share rows read the study's "memory-copy calls" (Fig 4.6) in a profile of today's code. */
    private static final String COPYING = "\"Memory copy system calls\" as the profile's samples in frames that copy memory: memcpy, arraycopy and the kernel's copy_user routines.";

    public static void judge(Lab lab, Results none, Results streams, Results direct, Results seqSweep, Results randSweep,
                             List<CpuProfile> profiles) {
        lab.verdicts(Lab02.class, verdicts(lab, none, streams, direct, seqSweep, randSweep, profiles));
    }

    /**
     * a's kernel CPU time per operation over b's (geometric mean over the pieces of work both ran); NaN where either
     * registered no kernel time at all (a run shorter than the kernel's accounting tick).
     */
    static double kernelRatio(Results a, Results b) {
        boolean registered = a.summary().stream().allMatch(r -> r.get("sys_ns_per_op") instanceof Double v && v > 0)
            && b.summary().stream().allMatch(r -> r.get("sys_ns_per_op") instanceof Double v && v > 0);
        return registered ? a.ratioTo(b, "sys_ns_per_op") : Double.NaN;
    }

    /** The study's first step (Fig 4.5) in one language: the time a 1 KB buffered stream saved over no buffer, in percent. */
    static Estimate streamCut(Results none, Results streams, String language) {
        Results stream1k = studysBuffer(streams);
        return Estimate.ofCut(d -> d.from(stream1k).where("language", language).cut(d.from(none)));
    }

    /** Its second step: the time a hand-kept 1 KB buffer saved over the 1 KB buffered stream, in percent. */
    static Estimate directCut(Results streams, Results direct, String language) {
        Results stream1k = studysBuffer(streams);
        return Estimate.ofCut(d -> d.from(direct).where("language", language).cut(d.from(stream1k)));
    }

    /** Java's time over C's, both with a hand-kept 1 KB buffer. */
    static Estimate javaOverC(Results direct) {
        return Estimate.of(d -> d.from(direct).ratio("java", "c"));
    }

    /** The buffered streams' runs with the study's 1 KB buffer. */
    private static Results studysBuffer(Results streams) {
        return streams.where("buffer_size", "1024");
    }

    /** Both steps' time saved in Java and in C as bars with their intervals, the study's two figures for Java as ticks. */
    public static void cutsBesideTheStudy(Lab lab, Results none, Results streams, Results direct) {
        lab.chart(ReferenceBars.cutBars(
            List.of(ReferenceBars.bar("Java: stream vs none", streamCut(none, streams, "java")), ReferenceBars.bar("C: stdio vs none", streamCut(none, streams, "c")),
                    ReferenceBars.bar("Java: direct vs stream", directCut(streams, direct, "java")), ReferenceBars.bar("C: direct vs stdio", directCut(streams, direct, "c"))),
            List.of(ReferenceBars.cutReference("Java: stream vs none", lab.claim("xu-guo.buffering.bufferedstream-gain-vs-raw")),
                    ReferenceBars.cutReference("Java: direct vs stream", lab.claim("xu-guo.buffering.direct-extra-time-cut"))),
            "Time saved by each step, 1 KB buffers"));
    }

    /** The learner's three guesses (cell "Predict before you run") beside this run's figures, in one sentence. */
    public static void againstYourGuesses(Results none, Results streams, Results direct, double streamCut, double directCut, double javaOverC) {
        System.out.println(String.format(java.util.Locale.ROOT, "%s; here a 1 KB buffered stream saved %s of the unbuffered time, a hand-kept 1 KB buffer"
                + " saved %s of the buffered stream's, and Java took %s C's time with it.",
            Guess.said("%.0f%%, %.0f%% and %.1f×", streamCut, directCut, javaOverC), streamCut(none, streams, "java").format("%.0f%%"),
            directCut(streams, direct, "java").format("%.0f%%"), javaOverC(direct).format("%.2f×")));
    }

    public static List<Verdict> verdicts(Lab lab, Results none, Results streams, Results direct, Results seqSweep, Results randSweep,
                                  List<CpuProfile> profiles) {
        long randSize = lab.preset().size("rand_size");
        long largestPartial = lab.preset().largestBelow("rand_buffers", randSize);  // the largest buffer smaller than the file
        long smallestBuffer = lab.preset().smallest("rand_buffers");
        long upBuffer = lab.preset().largestUpTo("seq_buffers", Course.parseSize("1m"));  // the study's 1 MB, or the nearest the preset runs
        long belowUp = lab.preset().largestBelow("seq_buffers", upBuffer);
        long seqSize = lab.preset().size("seq_size");
        long seqLargest = lab.preset().largest("seq_buffers");
        return List.of(
            Verdict.cut(lab.claim("xu-guo.buffering.bufferedstream-gain-vs-raw"),
                streamCut(none, streams, "java"),
                Why.ifHigher("A one-byte system call now costs hundreds of nanoseconds while the CPU copies a byte in well under one: removing 1023 of every 1024 calls saves nearly all the time."))
                .withReading("\"Improve … performance by 25%\" as 25% less time (1.33× as fast), the reading lab 03 gives the same study's \"85% performance improvement\"."),
            Verdict.cut(lab.claim("xu-guo.buffering.direct-extra-time-cut"),
                directCut(streams, direct, "java"),
                Why.ifHigher("BufferedInputStream.read() takes a lock and checks its state on every byte; a hand-kept array is one bounds-checked load the JIT keeps in a register.")
                   .orIfLower("The JIT inlines BufferedInputStream.read() and its uncontended lock: the stream's bookkeeping costs less than it did."))
                .withReading("\"Reduce the elapsed time by an additional 40%\" as 40% of the buffered stream's time, not 40 points of the unbuffered time."),
            Verdict.ratio(lab.claim("xu-guo.buffer-size.java-over-c-time-seq-direct"), javaOverC(direct),
                Why.ifLower("The JIT compiles the byte loop to machine code much like gcc's: the interpreter-era gap has closed.")
                   .orIfHigher("Java's byte loop pays bounds checks, and the JDK's native read copies through a buffer of its own; C reads into its array."))
                .withReading("\"Still 3 times slower than C\" as Java's time over C's, both with a hand-kept 1 KB buffer."),
            Verdict.below(lab.claim("xu-guo.buffer-size.seq-time-falls-with-buffer"),
                Estimate.of(d -> d.from(seqSweep).where("buffer_size", "1024").ratioTo(d.from(seqSweep).where("buffer_size", "1"))),
                "a 1 KB buffer took %s the time of a 1-byte buffer", Why.ifHigher("See the sequential chart: on this machine the times did not fall."))
                .withReading("\"Reduces the elapsed time steadily\" as a direction: a 1 KB buffer takes less time than a 1-byte one."),
            Verdict.inPaper(lab.preset().name(), Verdict.cut(lab.claim("xu-guo.buffer-size.seq-gain-beyond-knee-high"),
                Estimate.ofCut(d -> d.from(seqSweep).where("language", "java").above("buffer_size", 1024).fastest()
                    .cut(d.from(seqSweep).where("language", "java").where("buffer_size", "1024"))),
                Why.ifHigher("At 1 KB a system call still costs about as much as copying the kilobyte one byte at a time, so larger buffers keep paying until the calls are rare: the knee has moved to tens of KB.")),
                "a 5% step between runs of well under a millisecond (this preset's " + Course.formatBytes(seqSize) + " file) is far inside how much one process's runs differ from the next's.")
                .withReading("\"Only by a few percent, say 1% to 5%\" as the time the fastest buffer above 1 KB saves over the 1 KB buffer: about 5%, the top."),
            // an uptick is a cost per buffer refill, so the file must hold many buffers (the study's held 100)
            Verdict.when(seqSize >= 10 * upBuffer, lab.claim("xu-guo.buffer-size.seq-java-elapsed-uptick.1mb"),
                "This preset's " + Course.formatBytes(seqSize) + " file holds fewer than 10 of its " + Course.formatBytes(upBuffer)
                    + " buffers, so each run is a handful of refills lasting under a millisecond; the paper preset runs the study's 100 MB file.",
                () -> Verdict.above(lab.claim("xu-guo.buffer-size.seq-java-elapsed-uptick.1mb"),
                    Estimate.of(d -> d.from(seqSweep).where("language", "java").where("buffer_size", upBuffer)
                        .ratioTo(d.from(seqSweep).where("language", "java").where("buffer_size", belowUp))),
                    "Java with a " + Course.formatBytes(upBuffer) + " buffer took %s the time with " + Course.formatBytes(belowUp),
                    Why.ifLower("Read-ahead and write-behind keep up with any buffer here: the file sits in a page cache far larger than the buffer, so a large buffer costs only its first touch."))
                .at(Course.formatBytes(upBuffer) + " buffer, " + Course.formatBytes(seqSize) + " file; study: 1 MB buffer, 100 MB file"))
                .withReading("\"Increased a little\" at 1 MB as: Java's time with a 1 MB buffer (or the preset's nearest) above its time with the next smaller one;"
                    + " judged where the file holds ten such buffers or more (the study's held 100). The 10 MB point is in paper's chart only."),
            Verdict.inPaper(lab.preset().name(), Verdict.above(lab.claim("xu-guo.buffer-size.rand-time-rises-with-buffer"),
                Estimate.of(d -> d.from(randSweep).where("buffer_size", largestPartial).ratioTo(d.from(randSweep).where("buffer_size", smallestBuffer))),
                "a " + Course.formatBytes(largestPartial) + " buffer took %s the time of a " + Course.formatBytes(smallestBuffer) + " one",
                Why.ifLower("Copying a few KB costs little next to the system calls a miss makes, so the buffer's size hardly shows.")),
                "over this preset's " + Course.formatBytes(randSize) + " file a " + Course.formatBytes(largestPartial) + " buffer catches one read in "
                    + randSize / largestPartial + " by the sizes alone (the row below), which pays back part of each refill's extra copy: the two"
                    + " together can leave the ratio near ×1.05, where the rule's \"slower\" begins and a quick pass cannot place it; the study's"
                    + " 10 MB file shows the refill's cost alone.")
                .withReading("\"Performances degrade\" as the buffer grows, read as: the largest buffer smaller than the file takes longer than the smallest buffer."),
            // at random places a buffer's hit ratio is about its size over the file's: below 100 buffers to the file, that arithmetic is all a run shows
            Verdict.when(randSize >= 100 * largestPartial, lab.claim("xu-guo.buffer-size.rand-buffer-hit-ratio"),
                "This preset's " + Course.formatBytes(randSize) + " file holds " + randSize / largestPartial + " of its " + Course.formatBytes(largestPartial)
                    + " buffers: at random places the hit ratio is about one in " + randSize / largestPartial + " from the sizes alone. The paper preset runs"
                    + " the study's 10 MB file.",
                () -> Verdict.share(lab.claim("xu-guo.buffer-size.rand-buffer-hit-ratio"),
                    Estimate.ofPercent(d -> d.from(randSweep).where("buffer_size", largestPartial).median("hit_ratio_pct", r -> true)),
                    Why.ifHigher("The hit ratio at random places is about the buffer's size over the file's: a smaller file than the study's gives more hits."))
                    .at(Course.formatBytes(largestPartial) + " buffer, " + Course.formatBytes(randSize) + " file; study: 10 MB file"))
                .withReading("Judged at the largest buffer smaller than the file, where the file holds 100 such buffers or more: with fewer, the two sizes"
                    + " alone set the ratio (Run 3)."),
            Verdict.below(lab.claim("xu-guo.buffer-size.rand-whole-file-buffer.10mb"),
                Estimate.of(d -> d.from(randSweep).where("buffer_size", randSize).ratioTo(d.from(randSweep).where("buffer_size", smallestBuffer))),
                "the whole-file buffer took %s the time of the " + Course.formatBytes(smallestBuffer) + " buffer", Why.ifHigher("See the random chart."))
                .at(Course.formatBytes(randSize) + " file; study: 10 MB")
                .withReading("\"The performance improvement is obvious\" as a direction: the whole-file buffer takes less time than the smallest buffer."),
            Verdict.inPaper(lab.preset().name(), Verdict.above(lab.claim("xu-guo.buffer-size.rand-read-syscall-cpu-rises"),
                Estimate.of(d -> kernelRatio(d.from(randSweep).where("op", "read").where("buffer_size", largestPartial), d.from(randSweep).where("op", "read").where("buffer_size", smallestBuffer))),
                "a random read with a " + Course.formatBytes(largestPartial) + " buffer cost %s the kernel CPU time of one with a "
                    + Course.formatBytes(smallestBuffer) + " buffer (Java and C)",
                Why.ifLower("A refill of a few KB from the page cache costs the kernel little more than one of a byte: the call, not the copy, is the cost.")), Lab01.CPU_SPLIT_BY_TICKS)
                .withReading("\"The CPU time of read system calls\" as the kernel's CPU time per random read (Java and C): more with the largest buffer smaller than the file than with the smallest."),
            Verdict.inPaper(lab.preset().name(), Verdict.above(lab.claim("xu-guo.buffer-size.rand-syscall-cpu-rises"),
                Estimate.of(d -> kernelRatio(d.from(randSweep).where("buffer_size", largestPartial), d.from(randSweep).where("buffer_size", smallestBuffer))),
                "a random operation with a " + Course.formatBytes(largestPartial) + " buffer cost %s the kernel CPU time of one with a "
                    + Course.formatBytes(smallestBuffer) + " buffer (reads and writes, Java and C)",
                Why.ifLower("A refill of a few KB from the page cache costs the kernel little more than one of a byte: the call, not the copy, is the cost.")), Lab01.CPU_SPLIT_BY_TICKS)
                .withReading("\"The CPU time of I/O-related system calls\" as the kernel's CPU time per random read or write (Java and C): more with the largest buffer smaller than the file than with the smallest."),
            Verdict.inPaper(lab.preset().name(), Verdict.near(lab.claim("xu-guo.buffer-size.rand-write-syscall-cpu-flat"),
                Estimate.of(d -> kernelRatio(d.from(randSweep).where("op", "write").where("buffer_size", largestPartial), d.from(randSweep).where("op", "write").where("buffer_size", smallestBuffer))),
                "a random write with a " + Course.formatBytes(largestPartial) + " buffer cost %s the kernel CPU time of one with a "
                    + Course.formatBytes(smallestBuffer) + " buffer (Java and C)",
                Why.ifHigher("Writing a larger buffer back costs the kernel its copy into the page cache: writes return before the disk, not before the copy.")), Lab01.CPU_SPLIT_BY_TICKS)
                .withReading("\"Stays stable\" as: a random write's kernel CPU time with the largest buffer smaller than the file within ×1.25 of that with the smallest."),
            Verdict.inPaper(lab.preset().name(), Verdict.below(lab.claim("xu-guo.buffer-size.seq-java-syscall-cpu-falls"),
                Estimate.of(d -> kernelRatio(d.from(seqSweep).where("language", "java").where("buffer_size", seqLargest), d.from(seqSweep).where("language", "java").where("buffer_size", "1"))),
                "Java's kernel CPU time per byte with a " + Course.formatBytes(seqLargest) + " buffer was %s that with a 1-byte buffer",
                Why.ifHigher("See the sequential chart.")), Lab01.CPU_SPLIT_BY_TICKS)
                .withReading("\"Consistently reduced\" as a direction: Java's kernel CPU time per byte with the largest buffer below that with a 1-byte buffer."),
            Verdict.inPaper(lab.preset().name(), Verdict.near(lab.claim("xu-guo.buffer-size.seq-c-breakdown-similar"),
                Estimate.of(d -> kernelRatio(d.from(seqSweep).where("language", "c").where("buffer_size", seqLargest), d.from(seqSweep).where("language", "c").where("buffer_size", "1"))
                    / kernelRatio(d.from(seqSweep).where("language", "java").where("buffer_size", seqLargest), d.from(seqSweep).where("language", "java").where("buffer_size", "1"))),
                "C's kernel CPU time per byte fell from a 1-byte to a " + Course.formatBytes(seqLargest) + " buffer by %s Java's factor (reading:"
                    + " a breakdown much like Java's is a kernel share that falls alike)",
                Why.either("C and Java pay the same system call per refill; what differs is the user-space loop around it.")), Lab01.CPU_SPLIT_BY_TICKS)
                .withReading("\"Similar results\" to Java's as: C's kernel CPU time falls from a 1-byte to the largest buffer by a factor within ×1.25 of Java's."),
            Verdict.inPaper(lab.preset().name(), Verdict.share(lab.claim("xu-guo.buffering.read-syscall-cpu-share"), CpuProfile.kernelShare(profiles, "java stream 1k read seq"),
                Why.ifHigher("The study profiled functions on a 667 MHz CPU; here one call per KB is still a visible share of a loop that now handles a byte in a nanosecond or two.")),
                "the study's figure is 0.36% of the CPU time, and a profile of this preset's " + Course.formatBytes(lab.preset().size("profile_size"))
                    + " run holds a few hundred samples: a share near 1% rests on a handful of them, and its interval reaches past the edge of the range where"
                    + " the claim holds.")
                .withReading("Read calls' share as the share of the 1 KB stream's profile samples that are in the kernel (all its kernel time, not only read's)."),
            Verdict.share(lab.claim("xu-guo.buffering.write-syscall-cpu-share"), CpuProfile.kernelShare(profiles, "java stream 1k write seq"),
                Why.ifHigher("As for reads: the byte loop got faster, the system call much less so."))
                .withReading("Write calls' share as the share of the 1 KB stream's profile samples that are in the kernel (all its kernel time, not only write's)."),
            Verdict.share(lab.claim("xu-guo.buffering.memcpy-cpu-share-bufferedstream"), CpuProfile.copyShare(profiles, "java stream 1k read seq"),
                Why.ifLower("The copy between the kernel and the buffer is now a small block copy; most samples sit in the per-byte loop and the kernel's call overhead."))
                .withReading(COPYING),
            Verdict.share(lab.claim("xu-guo.buffering.memcpy-cpu-share-direct"), CpuProfile.copyShare(profiles, "java direct 1k read seq"),
                Why.ifLower("The copy between the kernel and the buffer is now a small block copy; most samples sit in the per-byte loop and the kernel's call overhead."))
                .withReading(COPYING));
    }
}
