package course.claims;

import course.Guess;
import course.Lab;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.record.Results;
import course.run.Preset;
import course.show.ReferenceBars;
import java.util.List;
import java.util.Locale;

/**
 * Lab 04's claims (Bonachea, Dickens and Thakur §2–4: typed arrays), judged on this kernel's JDK's runs of each
 * Java way (`javaWays`), C's big-endian and native-order twins (`c`) and the buffer-size sweep of the buffered data
 * stream (`buffers`); and the chart that sets this machine's throughput beside the study's figures.
 */
public final class Lab04 {
    private Lab04() {
    }

    public static void judge(Lab lab, Results javaWays, Results c, Results buffers) {
        lab.verdicts(Lab04.class, verdicts(lab, javaWays, c, buffers));
    }

    public static List<Verdict> verdicts(Lab lab, Results javaWays, Results c, Results buffers) {
        List<String> runtimes = javaWays.javaRuntimes();
        String jdk = runtimes.isEmpty() ? "" : runtimes.get(runtimes.size() - 1);
        List<String> writeInt = jdk.isEmpty() ? List.of() : lab.bytecode(jdk, "java.io.DataOutputStream", "writeInt");
        long byteCalls = writeInt.stream().filter(line -> line.contains("java/io/OutputStream.write:(I)V")).count();
        long arrayCalls = writeInt.stream().filter(line -> line.contains("java/io/OutputStream.write:([BII)V")).count();
        return List.of(
            // JDK 1.1's DataOutputStream.writeInt handed the wrapped stream one byte at a time (§4.2); the class file says what this JDK's does
            writeInt.isEmpty() ? Verdict.unmeasured(lab.claim("bonachea.typed-array.dataoutputstream-byte-at-a-time"),
                    "javap could not read DataOutputStream on " + (jdk.isEmpty() ? "a JDK of these runs" : jdk) + ".")
                : Verdict.claim(lab.claim("bonachea.typed-array.dataoutputstream-byte-at-a-time"),
                    byteCalls >= 2 ? Verdict.Seen.AS_CLAIMED : byteCalls == 0 && arrayCalls == 1 ? Verdict.Seen.OPPOSITE : Verdict.Seen.OTHERWISE,
                    String.format("DataOutputStream.writeInt on %s makes %d write(int) and %d write(byte[], int, int) calls on the wrapped stream (javap -c)",
                        jdk, byteCalls, arrayCalls),
                    "holds when writeInt hands the wrapped stream one byte per call (two or more write(int)); reversed when it makes one"
                        + " array write; changed otherwise",
                    "This JDK's DataOutputStream fills a small array and writes it in one call: an int costs the wrapped stream one call, not four."),
            Verdict.above(lab.claim("bonachea.typed-array.datastream-unbuffered-poorest"),
                Estimate.of(d -> d.from(javaWays).strategies("data-buffered", "data-bytearray", "encode", "bytes", "bytebuffer", "varhandle").lowestStrategyMedian("mb_per_s")
                    / d.from(javaWays).strategies("data").median("mb_per_s")),
                "the next slowest approach ran at %s the unbuffered data stream's MB/s", Why.ifLower("Another approach was as slow or slower here; see the chart.")),
            Verdict.atLeast(lab.claim("bonachea.typed-array.buffering-gain"),
                Estimate.of(d -> d.from(javaWays).strategies("data-buffered").median("mb_per_s") / d.from(javaWays).strategies("data").median("mb_per_s")),
                10, "orders of magnitude", "buffering multiplied the data stream's throughput by %s",
                Why.ifLower("The unbuffered data stream was not as slow here as it was then.")),
            Verdict.atLeast(lab.claim("bonachea.typed-array.datastream-poor-even-buffered"),
                Estimate.of(d -> d.from(javaWays).strategies("bytes").median("mb_per_s") / d.from(javaWays).strategies("data-buffered").median("mb_per_s")),
                2, "poor: at most half raw bytes' throughput", "raw bytes ran at %s the buffered data stream's MB/s",
                Why.ifLower("Today's JIT inlines writeInt and the buffer's bookkeeping, so a call per element costs little more than the copy.")),
            Verdict.atLeast(lab.claim("bonachea.typed-array.conclusion-datastreams-poor"),
                Estimate.of(d -> d.from(javaWays).strategies("bytes").median("mb_per_s") / d.from(buffers).max("mb_per_s")),
                2, "poor: at most half raw bytes' throughput, even at the best buffer size", "raw bytes ran at %s the buffered data stream's best case in the buffer-size sweep",
                Why.ifLower("At its best buffer size a buffered data stream keeps within half of raw bytes here: the JIT made the per-element calls cheap.")),
            Verdict.inPaper(lab.preset().name(), Verdict.ratio(lab.claim("bonachea.typed-array.buffer-size-best-over-worst"),
                Estimate.of(d -> d.from(buffers).where("op", "write").max("mb_per_s") / d.from(buffers).where("op", "write").min("mb_per_s")),
                Why.ifLower("The buffer matters much less once each refill is a cheap page-cache copy: past a few KB the per-element calls dominate.")),
                "the best over the worst of a sweep grows with the sizes it tries: this preset tries " + lab.preset().sizes("buffer_sizes").size()
                    + " buffer sizes, the paper preset " + Preset.of(lab.preset().lab(), "paper").sizes("buffer_sizes").size() + " (the study searched until it found the best)."),
            Verdict.near(lab.claim("bonachea.typed-array.raw-bytes-matches-c"),
                Estimate.of(d -> d.from(c).strategies("native").median("mb_per_s") / d.from(javaWays).strategies("bytes").median("mb_per_s")),
                "Java's raw bytes took %s the time of C's native-order writes and reads",
                Why.ifHigher("Java copies each block between the heap array and a native buffer inside the JDK; C writes from the array itself.")),
            Verdict.atLeast(lab.claim("bonachea.typed-array.encode-decode-drop"),
                Estimate.of(d -> d.from(javaWays).strategies("bytes").median("mb_per_s") / d.from(javaWays).strategies("encode").median("mb_per_s")),
                Verdict.RATIO_TOLERANCE, "much: slower than raw bytes by more than the ratio tolerance", "raw bytes ran at %s encode/decode's MB/s",
                Why.ifLower("The JIT turns the shift loop into a few instructions per int: the conversion is now cheap next to the I/O.")),
            Verdict.atLeast(lab.claim("bonachea.typed-array.only-byte-array-methods-reasonable"),
                Estimate.of(d -> d.from(javaWays).strategies("bytes").median("mb_per_s")
                    / d.from(javaWays).strategies("bytebuffer", "bytebuffer-direct", "varhandle", "native").highestStrategyMedian("mb_per_s")),
                2, "reasonable: at least half raw bytes' throughput", "raw bytes ran at %s the best of today's typed ways (ByteBuffer views, VarHandles)",
                Why.ifLower("ByteBuffer views (Java 1.4) and VarHandles (Java 9) move a whole int[] per call: the bulk operations the study asked for exist now.")));
    }

    /**
     * Two charts, write then read: each approach the study measured as a bar of this machine's median MB/s (with its
     * interval) on the runs given (one JDK's), and the study's figures for the same approach as labelled ticks.
     */
    public static void hereAndInTheStudy(Lab lab, Results javaWays) {
        for (String op : List.of("write", "read")) {
            Results mine = javaWays.where("op", op);
            var bars = List.of("data", "data-buffered", "data-bytearray", "encode", "bytes").stream()
                .map(s -> ReferenceBars.bar(s, Estimate.of(d -> d.from(mine).where("strategy", s).median("mb_per_s", r -> true)))).toList();
            var ticks = STUDY_FIGURES.stream().filter(f -> f.op().equals(op)).map(f -> ReferenceBars.reference(f.approach(), lab.claim(f.claim()))).toList();
            lab.chart(ReferenceBars.logBars(bars, ticks, "MB per second", "Java " + op + ": this machine (bars) and the study (ticks)"));
        }
    }

    /** One of the study's figures (Fig 2, §4.2–4.4) for an approach and an operation: a tick of hereAndInTheStudy. */
    private record StudyFigure(String op, String approach, String claim) {
    }

    private static final List<StudyFigure> STUDY_FIGURES = List.of(
        new StudyFigure("write", "data", "bonachea.typed-array.datastream-unbuffered-example"),
        new StudyFigure("write", "data-buffered", "bonachea.typed-array.datastream-buffered-example"),
        new StudyFigure("write", "data-buffered", "bonachea.typed-array.origin-buffered-stream-write"),
        new StudyFigure("write", "data-bytearray", "bonachea.typed-array.sp-bytearray-stream-write.64"),
        new StudyFigure("write", "encode", "bonachea.typed-array.sp-encode-decode-write.64"),
        new StudyFigure("write", "encode", "bonachea.typed-array.origin-encode-decode-write.64"),
        new StudyFigure("write", "bytes", "bonachea.typed-array.sp-raw-bytes-write.32"),
        new StudyFigure("write", "bytes", "bonachea.typed-array.origin-raw-bytes-write.64"),
        new StudyFigure("read", "data-buffered", "bonachea.typed-array.origin-buffered-stream-read"),
        new StudyFigure("read", "data-bytearray", "bonachea.typed-array.sp-bytearray-stream-read.64"),
        new StudyFigure("read", "data-bytearray", "bonachea.typed-array.origin-bytearray-stream-read"),
        new StudyFigure("read", "encode", "bonachea.typed-array.sp-encode-decode-read.64"),
        new StudyFigure("read", "encode", "bonachea.typed-array.origin-encode-decode-read.64"),
        new StudyFigure("read", "bytes", "bonachea.typed-array.sp-raw-bytes-read.16"),
        new StudyFigure("read", "bytes", "bonachea.typed-array.origin-raw-bytes-read.16"));

    /** The learner's guesses beside this run: DataOutputStream's MB/s, encode/decode over raw bytes, and the fastest way. */
    public static void againstYourGuesses(Results javaWays, double dataMBs, double encodeOverBytes, String best) {
        Estimate data = Estimate.of(d -> d.from(javaWays).medianByStrategy("mb_per_s").get("data"));  // the way's median MB/s
        Estimate encodeOverRaw = Estimate.of(d -> {
            var mbPerS = d.from(javaWays).medianByStrategy("mb_per_s");
            return mbPerS.get("encode") / mbPerS.get("bytes");
        });
        System.out.println(String.format(Locale.ROOT, "%s; this machine measured %s MB/s, encode/decode at %s the rate of raw bytes, and %s was fastest.",
            Guess.said("%.2f\u00a0MB/s, %.2f× and %s", dataMBs, encodeOverBytes, best), data.format("%.2f"), encodeOverRaw.format("%.2f×"),
            javaWays.strategies("encode", "bytes", "bytebuffer", "bytebuffer-direct", "varhandle", "native").strategyWithHighestMedian("mb_per_s")));
    }
}
