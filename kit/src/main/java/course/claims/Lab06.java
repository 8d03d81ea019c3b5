package course.claims;

import course.Guess;
import course.Lab;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.record.Results;
import course.show.Charts;
import course.show.ReferenceBars;
import java.util.List;
import java.util.Locale;

/**
 * Lab 06's claims (Bonachea et al. §5–7: bulk I/O through JNI; Xu and Guo §4.6: a native call per operation), judged
 * on the Java ways' bulk runs (`javaRuns`), C's big-endian and native-order twins (`c`) and the sweep of operation
 * sizes through Java's own buffer, a JNI call each and C (`ops`). "Kept": the study's design with its byte[] kept
 * from call to call (its code made a new one per call). Also the chart that sets this machine's int[] writes beside Fig 4's.
 */
public final class Lab06 {
    private Lab06() {
    }

    public static void judge(Lab lab, Results javaRuns, Results c, Results ops) {
        lab.verdicts(Lab06.class, verdicts(lab, javaRuns, c, ops));
    }

    public static List<Verdict> verdicts(Lab lab, Results javaRuns, Results c, Results ops) {
        Estimate jniTimeOverC = jniTimeOverC(javaRuns, c);
        String kept = "study's design with its byte[] kept; study: a new one per call";
        String smallGap = "the claim is about one extra copy of each megabyte, a small share of a pass; over this preset's small file that gap is about as"
            + " large as how far one quick pass lands from the next, so more runs than one quick pass makes are needed to settle it.";
        return List.of(
            Verdict.near(lab.claim("bonachea.bulk-io.conclusion-match-c"), jniTimeOverC,
                "JNI bulk I/O took %s the time of C's big-endian twin (geometric mean, int and double, read and write)",
                Why.ifHigher("Reaching the array and the per-call JNI cost still show at this block size; try a larger --op-size.")).at(kept),
            Verdict.inPaper(lab.preset().name(), Verdict.above(lab.claim("bonachea.bulk-io.origin-jni-below-c-titanium"), jniTimeOverC, "JNI took %s C's time",
                Why.ifLower("The study's design matched C here: both swap every element once, and the JDK's own copy between the byte[] and its native buffer is small beside the kernel's copy into the page cache.")).at(kept),
                smallGap),
            Verdict.above(lab.claim("bonachea.bulk-io.jit-bulk-beats-encode-decode"),
                Estimate.of(d -> d.from(javaRuns).where("strategy", "jni-convert-reuse").ratioTo(d.from(javaRuns).where("strategy", "encode"), "mb_per_s")),
                "JNI bulk I/O ran at %s encode/decode's MB/s (int and double, read and write), on today's JIT",
                Why.ifLower("Today's JIT turns encode/decode into a few instructions per element: the margin the study saw has closed.")).at(kept),
            Verdict.above(lab.claim("bonachea.bulk-io.sp-jni-read-slightly-lower"),
                Estimate.of(d -> d.from(c).where("strategy", "big").where("op", "read").ratioTo(d.from(javaRuns).where("strategy", "jni-convert-reuse").where("op", "read"), "mb_per_s", "language")),
                "JNI bulk reads took %s the time of C's big-endian reads (int and double)",
                Why.ifLower("From the page cache the JDK's extra copy of a megabyte costs little beside the kernel's own copy and the swap both pay.")).at(kept),
            Verdict.atLeast(lab.claim("bonachea.bulk-io.sp-bulk-read-beats-encode-decode"),
                Estimate.of(d -> d.from(javaRuns).where("strategy", "jni-convert-reuse").where("op", "read").ratioTo(d.from(javaRuns).where("strategy", "encode").where("op", "read"), "mb_per_s")),
                2, "vastly: at least twice the throughput", "JNI bulk reads ran at %s encode/decode's MB/s",
                Why.ifLower("Today's JIT turns encode/decode into a few instructions per element: the gap the study saw has closed.")).at(kept),
            Verdict.when(java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN, lab.claim("bonachea.bulk-io.big-endian-swap"),
                "This machine is big-endian: its native order is Java's, so there is no swap to measure.",
                // §6 names the swap an implementation complexity, not a cost: the row judges the fact and shows what the swap cost C here
                () -> Verdict.claim(lab.claim("bonachea.bulk-io.big-endian-swap"), Verdict.Seen.AS_CLAIMED,
                    "this machine is little-endian, so every element of Java's big-endian format is swapped; what the swap cost C: its big-endian"
                        + " writes and reads took " + Estimate.of(d -> d.from(c).where("strategy", "native").ratioTo(d.from(c).where("strategy", "big"), "mb_per_s"))
                            .format("%.3g×") + " the time of its native-order ones",
                    "holds on a little-endian machine (a fact of format; the swap's cost is shown, not judged: §6 calls it a complexity, not a cost)", "")),
            Verdict.near(lab.claim("xu-guo.jni.jni-like-java-direct-below"),
                Estimate.of(d -> d.from(ops).where("language", "java").where("strategy", "jni").below("op_size", 4)
                    .ratioTo(d.from(ops).where("language", "java").where("strategy", "direct").below("op_size", 4), "median_ms")),
                "below 4 B per operation, a JNI call per operation took %s the time of Java's own buffer",
                Why.ifHigher("The JIT makes Java's own buffer nearly free per operation, while crossing into native code still costs tens of nanoseconds.")),
            Verdict.near(lab.claim("xu-guo.jni.jni-like-c-above"),
                Estimate.of(d -> d.from(ops).where("language", "java").where("strategy", "jni").atLeast("op_size", 64)
                    .ratioTo(d.from(ops).where("language", "c").atLeast("op_size", 64), "median_ms", "language")),
                "from 64 B per operation, JNI took %s C's time",
                Why.either("See the chart: where the lines meet on this machine.")),
            Verdict.below(lab.claim("xu-guo.jni.all-faster-with-opsize"),
                Estimate.of(d -> d.from(ops).where("op_size", lab.preset().largest("ops_sizes"))
                    .ratioTo(d.from(ops).where("op_size", "1"), "ms_per_mb", "op_size")),
                "the largest operations took %s the time per MB of 1-byte ones (geometric mean of Java's own buffer, JNI and C)",
                Why.ifHigher("See the chart: larger operations did not pay here.")));
    }

    /**
     * FFM's three ways beside the study's JNI design and C (int[], MB per second), and what they came to in one sentence:
     * ffm over JNI, ffm-native over C's native, and the hazard ffm-heap over ffm-native (the copy it saved).
     */
    public static void ffmBesideJniAndC(Lab lab, Results ffm, Results javaRuns, Results c) {
        Results jni = javaRuns.where("strategy", "jni-convert-reuse");
        lab.chart(Charts.methodBars(ffm.and(jni).and(c).where("type", "int"), "int[]: FFM beside JNI and C, MB per second"));
        System.out.println(String.format(java.util.Locale.ROOT, "FFM's big-endian bulk I/O ran at %.2f× the throughput of the study's JNI design"
                + " (its byte[] kept); ffm-native at %.2f× C's native write and read; the hazard, ffm-heap, saved ffm-native's copy and ran at %.2f× its throughput.",
            ffm.where("strategy", "ffm").ratioTo(jni, "mb_per_s"),
            ffm.where("strategy", "ffm-native").ratioTo(c.where("strategy", "native"), "mb_per_s", "language"),
            ffm.where("strategy", "ffm-heap").ratioTo(ffm.where("strategy", "ffm-native"), "mb_per_s")));
    }

    /**
     * Writing an int[]: the study's JNI design (its byte[] kept), C's big-endian twin and encode/decode as bars of this
     * machine's median MB/s with their intervals, on all's int runs; Fig 4's IBM SP figures for the same kinds as ticks.
     */
    public static void hereAndInTheStudy(Lab lab, Results all) {
        Results writes = all.where("type", "int").where("op", "write");
        java.util.function.Function<String, Estimate> rate = strategy -> Estimate.of(d -> d.from(writes).strategies(strategy).median("mb_per_s"));
        lab.chart(ReferenceBars.logBars(
            List.of(ReferenceBars.bar("JNI bulk", rate.apply("jni-convert-reuse")), ReferenceBars.bar("C", rate.apply("big")), ReferenceBars.bar("encode", rate.apply("encode"))),
            List.of(ReferenceBars.reference("JNI bulk", lab.claim("bonachea.bulk-io.sp-jni-write.32")), ReferenceBars.reference("JNI bulk", lab.claim("bonachea.bulk-io.sp-jni-write.64")),
                    ReferenceBars.reference("C", lab.claim("bonachea.bulk-io.sp-c-write.32")), ReferenceBars.reference("C", lab.claim("bonachea.bulk-io.sp-c-write.64")),
                    ReferenceBars.reference("encode", lab.claim("bonachea.typed-array.sp-encode-decode-write.64"))),
            "MB per second", "Writing an int[]: this machine (bars) and the IBM SP (ticks)"));
    }

    /**
     * What the ways came to against the study's design with its byte[] kept (the direct design, a new byte[] per call), then the
     * learner's guesses beside this run: JNI over C, direct over the study's design, GetPrimitiveArrayCritical over Get<Type>ArrayElements.
     */
    public static void againstYourGuesses(Results javaRuns, Results c, double jniOverC, double directOverStudy, double criticalGain) {
        Estimate direct = Estimate.of(d -> d.from(javaRuns).where("strategy", "jni-critical").ratioTo(d.from(javaRuns).where("strategy", "jni-convert-reuse"), "mb_per_s"));
        Estimate newArray = Estimate.of(d -> d.from(javaRuns).where("strategy", "jni-convert").ratioTo(d.from(javaRuns).where("strategy", "jni-convert-reuse"), "mb_per_s"));
        System.out.println(String.format(Locale.ROOT, "Against the study's design with its byte[] kept: the direct design the study declined ran at %s its throughput,"
            + " and a new byte[] per call, as the study's code made, at %s (int and double, read and write).", direct.format("%.2f×"), newArray.format("%.2f×")));
        System.out.println(String.format(Locale.ROOT, "%s; here the study's JNI design ran at %s C's throughput, the direct design at %s the study's,"
                + " and GetPrimitiveArrayCritical at %s Get<Type>ArrayElements' throughput.",
            Guess.said("%.2f×, %.2f× and %.2f×", jniOverC, directOverStudy, criticalGain),
            jniTimeOverC(javaRuns, c).map(time -> 1 / time).format("%.2f×"),  // throughput over C's: its time ratio turned over
            direct.format("%.2f×"),
            Estimate.of(d -> d.from(javaRuns).where("strategy", "jni-critical").ratioTo(d.from(javaRuns).where("strategy", "jni-elements"), "mb_per_s")).format("%.2f×")));
    }

    /** The study's JNI design (its byte[] kept) against C's big-endian twin: JNI's time over C's, from their MB/s (int and double, read and write). */
    static Estimate jniTimeOverC(Results javaRuns, Results c) {
        return Estimate.of(d -> d.from(c).where("strategy", "big").ratioTo(d.from(javaRuns).where("strategy", "jni-convert-reuse"), "mb_per_s", "language"));
    }
}
