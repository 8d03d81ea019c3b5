package course;

import java.util.List;
import java.util.Optional;

/**
 * Two Java runtimes the same cases ran on, on either side of a change to the JDK (lab 09): the oldest
 * runtime before the release that shipped it and the newest from that release on. Runtimes are as runs
 * record them ("java 17.0.15").
 */
public record JdkPair(String before, String after) {
    /** The pair around a change first shipped in JDK changedIn, or empty when the runs did not run on both sides of it. */
    public static Optional<JdkPair> around(Results runs, int changedIn) {
        List<String> jdks = runs.javaRuntimes();
        if (jdks.isEmpty()) return Optional.empty();
        String oldest = jdks.get(0), newest = jdks.get(jdks.size() - 1);
        return Results.feature(oldest) < changedIn && Results.feature(newest) >= changedIn
                ? Optional.of(new JdkPair(oldest, newest)) : Optional.empty();
    }

    /** Why a change shipped in JDK changedIn cannot be judged on these runs: the runtimes they had, and how to add one. */
    public static String missing(Results runs, int changedIn) {
        return "Judging a change shipped in JDK " + changedIn + " needs a JDK before it and one from it on; these runs had "
                + runtimesOf(runs) + ". Install another (Debian: sudo apt-get install"
                + " openjdk-17-jdk-headless) or list its home in JAVA_HOMES, then run the lab again.";
    }

    /** The Java runtimes the runs had, for a sentence: "java 17.0.15 and java 25.0.3", or "no Java runtime". */
    static String runtimesOf(Results runs) {
        List<String> jdks = runs.javaRuntimes();
        return jdks.isEmpty() ? "no Java runtime" : String.join(" and ", jdks);
    }

    /** How many times longer the runs took on before than on after (the same cases on both): above 1, the newer JDK was faster. */
    public Estimate speedup(Results runs) {
        return Estimate.of(d -> d.from(runs).where("runtime", before).ratioTo(d.from(runs).where("runtime", after)));
    }
}
