package course.judge;

import course.record.Results;
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
        return around(runs.javaRuntimes(), changedIn);
    }

    /** The pair around a change first shipped in JDK changedIn among these runtimes (oldest first), or empty. */
    public static Optional<JdkPair> around(List<String> jdks, int changedIn) {
        if (jdks.isEmpty()) return Optional.empty();
        String oldest = jdks.get(0), newest = jdks.get(jdks.size() - 1);
        return Results.feature(oldest) < changedIn && Results.feature(newest) >= changedIn
                ? Optional.of(new JdkPair(oldest, newest)) : Optional.empty();
    }

    /**
     * The pair around a change told by what each runtime holds (hasChange: true, false, or null when it cannot say):
     * the oldest runtime without it and the newest with it, the older first; empty when the runs have no such pair.
     */
    public static Optional<JdkPair> around(Results runs, java.util.function.Function<String, Boolean> hasChange) {
        return around(runs.javaRuntimes(), hasChange);
    }

    /** The pair around a change told by what each of these runtimes (oldest first) holds, or empty. */
    public static Optional<JdkPair> around(List<String> jdks, java.util.function.Function<String, Boolean> hasChange) {
        Optional<String> before = jdks.stream().filter(j -> Boolean.FALSE.equals(hasChange.apply(j))).findFirst();
        Optional<String> after = jdks.stream().filter(j -> Boolean.TRUE.equals(hasChange.apply(j))).reduce((older, newer) -> newer);
        return before.isPresent() && after.isPresent() && jdks.indexOf(before.get()) < jdks.indexOf(after.get())
                ? Optional.of(new JdkPair(before.get(), after.get())) : Optional.empty();
    }

    /** Why a change told by the class file cannot be judged on these runs: which runtimes have it, which do not. */
    public static String missing(Results runs, java.util.function.Function<String, Boolean> hasChange, String change) {
        List<String> with = new java.util.ArrayList<>(), without = new java.util.ArrayList<>(), unknown = new java.util.ArrayList<>();
        for (String jdk : runs.javaRuntimes()) {
            Boolean has = hasChange.apply(jdk);
            (has == null ? unknown : has ? with : without).add(jdk);
        }
        return "Judging " + change + " needs an older JDK without it and a newer one with it, told by the class file (javap): these runs had "
                + (with.isEmpty() ? "" : String.join(" and ", with) + " with it") + (with.isEmpty() || without.isEmpty() ? "" : ", ")
                + (without.isEmpty() ? "" : String.join(" and ", without) + " without it")
                + (unknown.isEmpty() ? "" : (with.isEmpty() && without.isEmpty() ? "" : ", ") + String.join(" and ", unknown) + " that javap could not read")
                + ". A JDK without it: an older release (a JDK 17 update from before its backport), listed in JAVA_HOMES.";
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
