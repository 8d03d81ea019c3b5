package course.claims;

import course.Guess;
import course.Lab;
import course.judge.Context;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.record.FileSystemKind;
import course.record.Results;
import course.show.Charts;
import java.util.List;
import java.util.Locale;

/**
 * Lab 07's figures and claims (Awan et al. §III–V: NIO and threads on one shared file): the study's bandwidths beside
 * this machine's (no verdict: hardware moved on), then its claims, judged on the Java ways' runs over thread counts
 * (`javaRuns`), the one-block reads of growing files (`mapSizes`), RandomAccessFile's one-int calls (`raf`) and the
 * overlapping-lock experiment (`secondLock`).
 */
public final class Lab07 {
    private Lab07() {
    }

    /** What a second lock on an overlapping region, asked for in the same JVM with tryLock, got (the lab's lock experiment). */
    public enum SecondLock {
        THREW("an overlapping lock in the same JVM threw OverlappingFileLockException instead of waiting"),
        WOULD_WAIT("tryLock returned null: an overlapping lock in the same JVM would wait, as one of another process does"),
        GRANTED("an overlapping lock in the same JVM was granted: both held the same bytes at once");

        /** What the run saw, in the words of the verdict table. */
        public final String seen;

        SecondLock(String seen) {
            this.seen = seen;
        }
    }

    public static void judge(Lab lab, Results javaRuns, Results mapSizes, Results raf, SecondLock secondLock) {
        lab.thenAndHere(thenAndHere(lab, javaRuns).toArray(Context[]::new));
        lab.verdicts(Lab07.class, verdicts(lab, javaRuns, mapSizes, raf, secondLock));
    }

    public static List<Context> thenAndHere(Lab lab, Results javaRuns) {
        String fs = lab.machine().get("filesystem");
        boolean onNfs = FileSystemKind.of(fs) == FileSystemKind.NFS;
        double viewBufferWrites = javaRuns.where("op", "write").strategies("view-heap", "view-direct").max("study_mb_per_s");
        return List.of(
            Context.rate(lab.claim("awan.nio-threads.view-buffer-read-local-max"), bestViewBufferRead(javaRuns),
                "Memory bandwidth and core count set this ceiling; the study's node had 8 cores (16 hardware threads)."),
            Context.rate(lab.claim("awan.nio-threads.mapped-read-max"), javaRuns.where("op", "read").strategies("mapped").max("study_mb_per_s"),
                "Reads from the page cache run at memory speed; the study's figure is one 2012 node's, most likely reading over NFS (see the retelling)."),
            Context.rate(lab.claim("awan.nio-threads.view-buffer-write-local-max"), viewBufferWrites,
                "Today's disks (and a virtual machine's caches below fsync) are far faster than a 2012 local disk."),
            Context.rate(lab.claim("awan.nio-threads.mapped-write-local-max"), javaRuns.where("op", "write").strategies("mapped").max("study_mb_per_s"),
                "Mapped writes pay a page fault per page and msync; see the writes chart."),
            Context.rate(lab.claim("awan.nio-threads.braf-write-local-max"), javaRuns.where("op", "write").strategies("bulk").max("study_mb_per_s"),
                "Today's disks are far faster than a 2012 local disk."),
            Context.rate(lab.claim("awan.nio-threads.view-buffer-write-nfs-max"), onNfs ? viewBufferWrites : Double.NaN, onNfs
                ? "Your NFS server's disks and network against the study's SAN behind one NFS server."
                : "The scratch folder is on " + fs + ", not NFS; point COURSE_SCRATCH at an NFS mount and rerun this lab."));
    }

    public static List<Verdict> verdicts(Lab lab, Results javaRuns, Results mapSizes, Results raf, SecondLock secondLock) {
        Results smallest = mapSizes.where("file_size", lab.preset().smallest("map_sizes"));
        Results largest = mapSizes.where("file_size", lab.preset().largest("map_sizes"));
        String atStudySize = "the study ranked its ways over a 1 GB shared array (§V.B); over this preset's smaller file a run lasts tens"
            + " of milliseconds, and there one bulk copy's lead over another can move from one pass to the next by more than a"
            + " pass's interval shows.";
        return List.of(
            // §V.B: steady across its configurations and tests, not run to run (the study gave averages, no spread): here, across
            // operations and thread counts, how far each way fell behind the fastest where it fell furthest
            Verdict.inPaper(lab.preset().name(), Verdict.above(lab.claim("awan.approaches.view-buffer-most-stable"),
                Estimate.of(d -> {
                    Results r = d.from(javaRuns);
                    return Math.min(r.worstStanding("mapped"), r.worstStanding("bulk")) / Math.min(r.worstStanding("view-heap"), r.worstStanding("view-direct"));
                }),
                "at its worst (over operations and thread counts) the steadiest other way fell %s as far behind the fastest way as the steadier"
                    + " view buffer did",
                Why.ifLower("Another way kept closer to the fastest everywhere here: from the page cache, mapped and bulk ways keep pace with view buffers.")),
                atStudySize)
                .withReading("\"The most stable performance\" (the study: over its three setups and every test, from means without a spread) as: at its worst over operations"
                    + " and thread counts, the better view buffer falls less far behind the fastest way than the steadiest other way."),
            Verdict.near(lab.claim("awan.approaches.braf-comparable"),
                Estimate.of(d -> d.from(javaRuns).where("strategy", "bulk").ratioTo(d.from(javaRuns).where("strategy", "view-direct"))),
                "BulkRandomAccessFile took %s the direct view buffer's time",
                Why.ifHigher("The native half copies the array and swaps each int: a cost the view buffer shares, but not equally on reads from memory."))
                .withReading("\"Performed comparable\" as BulkRandomAccessFile's time within ×1.25 of the direct view buffer's."),
            Verdict.inPaper(lab.preset().name(), Verdict.near(lab.claim("awan.nio-threads.braf-mapped-read-comparable"),
                Estimate.of(d -> d.from(javaRuns).where("strategy", "bulk").where("op", "read").ratioTo(d.from(javaRuns).where("strategy", "mapped").where("op", "read"))),
                "bulk reads took %s the time of mapped reads",
                Why.ifHigher("From the page cache, a mapping copies once, while the bulk read copies into the kernel's buffer and again into the array.")),
                atStudySize)
                .withReading("\"Performed comparable\" as bulk reads' time within ×1.25 of mapped reads'."),
            Verdict.above(lab.claim("awan.approaches.mapped-mixed"),
                Estimate.of(d -> d.from(javaRuns).mixedStanding("mapped")),  // over each operation × threads the Java ways shared
                "mapped's lead where it was fastest and its lag where it was slowest, the smaller of the two: %s (above 1: both happened)",
                Why.ifLower("Mapped mode was never both the fastest and the slowest Java way here: it ranked the same way everywhere."))
                .withReading("\"Mixed results\" as: mapped was the fastest Java way in one piece of work and the slowest in another."),
            Verdict.above(lab.claim("awan.approaches.mmap-large-files-only"),
                Estimate.of(d -> d.from(smallest).strategies("mapped").ratioTo(d.from(smallest).strategies("view-direct"))
                    / d.from(largest).strategies("mapped").ratioTo(d.from(largest).strategies("view-direct"))),
                "mapped over view-buffer time on the smallest file, over the same on the largest: %s",
                Why.ifLower("Setting up a mapping did not cost more, relatively, on small files here."))
                .withReading("\"Recommended for large file sizes only\" as: mapping costs more, relative to a view buffer, on the smallest file than on the largest."),
            Verdict.atLeast(lab.claim("awan.approaches.randomaccessfile-inefficient"), rafOverViewBuffer(raf),
                10, "extremely inefficient: at least 10× the view buffer's time", "RandomAccessFile.writeInt/readInt took %s the view buffer's time",
                Why.ifLower("One call per int was not much slower here."))
                .withReading("\"Extremely inefficient\" as at least 10× the view buffer's time."),
            Verdict.atLeast(lab.claim("awan.approaches.braf-faster-than-raf"),
                Estimate.of(d -> d.from(raf).where("strategy", "raf").ratioTo(d.from(raf).where("strategy", "bulk"))),
                Verdict.RATIO_TOLERANCE, "significantly: slower by more than ×1.25", "RandomAccessFile took %s the time of BulkRandomAccessFile",
                Why.ifLower("One call per int costs little more than the bulk call here."))
                .withReading("\"Significantly better\" as RandomAccessFile taking more than 1.25× BulkRandomAccessFile's time."),
            Verdict.inPaper(lab.preset().name(), Verdict.below(lab.claim("awan.approaches.nio-recommended"),
                Estimate.of(d -> d.from(javaRuns).strategies("view-heap", "view-direct").bestStrategyRatioTo(d.from(javaRuns).strategies("bulk"))),
                "the better view buffer took %s the bulk extension's time (RandomAccessFile's slowness is the row above)",
                Why.ifHigher("The bulk extension kept up with NIO here: from the page cache, its conversion and the JDK's copy cost about what a view buffer's copies do.")),
                atStudySize)
                .withReading("NIO approaches that \"performed even better\" than the bulk extension as a direction: the better view buffer takes less time than BulkRandomAccessFile."),
            Verdict.claim(lab.claim("awan.approaches.filelock-jvm-wide"), switch (secondLock) {
                    case THREW -> Verdict.Seen.AS_CLAIMED;
                    case WOULD_WAIT -> Verdict.Seen.OPPOSITE;
                    case GRANTED -> Verdict.Seen.OTHERWISE;
                }, secondLock.seen,
                "holds when a second, overlapping lock in the same JVM throws; reversed when it would wait (locks held per thread);"
                    + " changed when it is granted",
                "This JDK's locks no longer belong to the JVM as a whole.")
                .withReading("\"Held on behalf of the entire Java virtual machine\" as: a second, overlapping lock asked for in the same JVM throws rather than waits."));
    }

    /** Reads by the wall clock over thread counts, and how far the study's way (bytes over the mean thread time) overstates it at the most threads. */
    public static void wallClockReads(Lab lab, Results all, int most) {
        Results reads = all.where("op", "read");
        lab.chart(Charts.lines(reads, true, "threads", "wall_mb_per_s", true, "Reads: aggregate MB/s by the wall clock"));
        Results atMost = reads.where("threads", most);
        System.out.println(String.format(Locale.ROOT, "With %d threads on %d cores, the study's way gives %s the wall-clock bandwidth (median over the ways).",
            most, lab.cores(), Estimate.of(d -> d.from(atMost).studyOverWall()).format("%.2f×")));
    }

    /** Each way with and without a lock on its thread's region, and what the lock cost in time. */
    public static void lockCost(Lab lab, Results locking) {
        lab.chart(Charts.methodBars(locking, "With and without a lock on each thread's region, MB per second"));
        System.out.println(String.format(Locale.ROOT, "Locked runs took %s the time of unlocked ones (geometric mean over ways and operations).",
            Estimate.of(d -> d.from(locking).where("lock", "region").ratioTo(d.from(locking).where("lock", "none"))).format("%.2f×")));
    }

    /** RandomAccessFile's one int per call against the view buffer, one thread. */
    public static void rafAgainstViewBuffer(Results raf) {
        System.out.println(String.format(Locale.ROOT, "RandomAccessFile took %s the time of the view buffer.",
            rafOverViewBuffer(raf).format("%.0f×")));
    }

    /** The learner's guesses beside this run: the best read bandwidth the study's way, and the most threads' gain over one (wall clock). */
    public static void againstYourGuesses(Results javaRuns, Results all, double readGBs, double threadsSpeedup) {
        Results reads = all.where("op", "read").strategies("view-heap", "view-direct", "mapped", "bulk");
        System.out.println(String.format(Locale.ROOT, "%s; this machine read at up to %s GB/s the study's way, and more threads gave %s one thread (wall clock).",
            Guess.said("%.1f\u00a0GB/s and %.1f×", readGBs, threadsSpeedup),
            Estimate.of(d -> bestViewBufferRead(d.from(javaRuns)) / 1024).format("%.1f"),
            Estimate.of(d -> d.from(reads).max("wall_mb_per_s") / d.from(reads).where("threads", "1").max("wall_mb_per_s")).format("%.2f×")));
    }

    /** The view buffers' best read bandwidth, the study's way (bytes over the mean thread time), over thread counts. */
    static double bestViewBufferRead(Results javaRuns) {
        return javaRuns.where("op", "read").strategies("view-heap", "view-direct").max("study_mb_per_s");
    }

    /** RandomAccessFile's one int per call: its time over the direct view buffer's, one thread. */
    static Estimate rafOverViewBuffer(Results raf) {
        return Estimate.of(d -> d.from(raf).where("strategy", "raf").ratioTo(d.from(raf).where("strategy", "view-direct")));
    }
}
