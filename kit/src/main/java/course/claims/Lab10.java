package course.claims;

import course.Lab;
import course.judge.Verdict;
import course.record.Results;
import java.util.List;

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
                double added = virtualCold.platformThreadsAdded();
                return Verdict.claim(lab.claim("openjdk.jdk-8329593.no-carrier-for-buffered-reads"),
                    added <= lab.cores() - 1 ? Verdict.Seen.AS_CLAIMED : Verdict.Seen.OPPOSITE,
                    String.format("%+.0f platform threads from the fewest virtual workers to the most, cold, on %s", added, jdk),
                    "holds when the most workers add at most cores − 1 platform threads (the pool's own carriers); reversed when they add more"
                        + " (the scheduler compensated with carriers, as before the change)",
                    "The scheduler added carriers while virtual threads waited in file reads: this JDK still compensates for buffered file I/O.");
            }));
    }
}
