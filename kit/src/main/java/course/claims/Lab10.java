package course.claims;

import course.Guess;
import course.Lab;
import course.judge.Estimate;
import course.judge.Verdict;
import course.record.Results;
import course.show.Charts;
import java.util.List;
import java.util.Locale;

/**
 * Lab 10's claim (JDK-8329593: no carrier added for virtual threads reading files opened for buffered I/O), judged on
 * the newest JDK from 23 on, on the cold random reads by virtual threads (`readersCold`, every way's cold runs).
 */
public final class Lab10 {
    private Lab10() {
    }

    public static void judge(Lab lab, Results readersCold) {
        lab.verdicts(Lab10.class, verdicts(lab, readersCold));
    }

    public static List<Verdict> verdicts(Lab lab, Results readersCold) {
        return List.of(
            Verdict.sinceJdk(lab.claim("openjdk.jdk-8329593.no-carrier-for-buffered-reads"), readersCold.where("strategy", "virtual"), 23, jdk -> {
                Results virtualCold = readersCold.where("strategy", "virtual").where("runtime", jdk);
                return Verdict.countAtMost(lab.claim("openjdk.jdk-8329593.no-carrier-for-buffered-reads"),
                    Estimate.ofDifference(d -> d.from(virtualCold).platformThreadsAdded()), lab.cores() - 1,
                    "%s platform threads from the fewest virtual workers to the most, cold, on " + jdk,
                    "holds when the platform threads the most workers add, with their interval over rounds, stay at or below cores − 1 (the pool's own"
                        + " carriers); reversed when the whole interval lies above (the scheduler compensated with carriers, as before the change)",
                    "The scheduler added carriers while virtual threads waited in file reads: this JDK still compensates for buffered file I/O.");
            }));
    }

    /** The learner's guess beside this run: Java's O_DIRECT reads over its warm page-cache reads, in MB/s. */
    public static void againstYourGuess(Results direct, Results cached, double directOverWarm) {
        System.out.println(String.format(Locale.ROOT, "%s; here O_DIRECT read at %s the warm page cache's MB/s.", Guess.said("%.2f", directOverWarm),
            Estimate.of(d -> d.from(direct).where("language", "java").where("op", "read").median("mb_per_s")
                / d.from(cached).where("language", "java").where("op", "read").median("mb_per_s")).format("%.2f×")));
    }

    /** The learner's guess beside this run: cold, reading through a mapping with load() first over the same reads without it. */
    public static void loadAgainstYourGuess(Results mapsCold, double loadCold) {
        System.out.println(String.format(Locale.ROOT, "%s; cold, load() first took %s the time of the same reads without it here.",
            Guess.said("%.2f×", loadCold), Estimate.of(d -> d.from(mapsCold).where("strategy", "segment-load").ratioTo(d.from(mapsCold).where("strategy", "segment"))).format("%.2f×")));
    }

    /**
     * The small random reads warm and cold against the reads in flight, and, cold, the most tasks the kernel ran and platform threads the
     * runtime counted at once; then the most io-wq workers io_uring used, and the learner's guess beside virtual over platform threads, cold.
     */
    public static void readersAgainstYourGuess(Lab lab, Results readersWarm, Results readersCold, List<Integer> inFlight, double virtualCold) {
        lab.chart(Charts.lines(readersWarm, true, "in_flight", "mb_per_s", false, "Warm: random 4 KB reads, N in flight, MB per second"));
        lab.chart(Charts.lines(readersCold, true, "in_flight", "mb_per_s", false, "Cold: random 4 KB reads, N in flight, MB per second"));
        lab.chart(Charts.lines(readersCold, true, "in_flight", "tasks", true, "Cold: the most tasks (threads) the kernel ran at once"));
        lab.chart(Charts.lines(readersCold, true, "in_flight", "platform_threads", true, "Cold: the most platform threads the runtime counted at once"));
        Results ringCold = readersCold.where("strategy", "io-uring");
        if (!ringCold.runs().isEmpty()) {
            double workers = ringCold.max("io_workers");  // the most a run saw at once, looking about once a millisecond
            String fs = lab.machine().get("filesystem");
            if (workers == 0) System.out.println("Cold through io_uring, the runs saw no io-wq worker (they look about once a millisecond): on " + fs
                + " the reads that waited for the disk did so with no thread of their own.");
            else if (workers > 0) System.out.println(String.format(Locale.ROOT, "Cold through io_uring, at most %.0f io-wq worker%s at once: %s handed"
                + " the reads that had to wait to them.", workers, workers == 1 ? "" : "s", fs));
        }
        int most = java.util.Collections.max(inFlight);
        System.out.println(String.format(Locale.ROOT, "%s; with %d workers, cold, virtual threads took %s the time of platform threads here.",
            Guess.said("%.2f×", virtualCold), most, Estimate.of(d -> d.from(readersCold).where("strategy", "virtual").where("threads", most)
                .ratioTo(d.from(readersCold).where("language", "java").where("strategy", "platform").where("threads", most))).format("%.2f×")));
    }
}
