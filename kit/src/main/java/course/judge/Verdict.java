package course.judge;

import course.record.Results;
import java.util.List;
import java.util.Locale;

/**
 * One published claim checked against this run: holds, changed, reversed or too close to call, with the
 * measured figure, its 95% interval (see Estimate: Student's t over the rounds) and the rule
 * that judged it. The rules are stated here once, so every lab judges the same way, and each row shows
 * its own.
 * judged is the figure on the scale its rule compares (a ratio; a share's odds; a cut's speed-up), null for
 * a claim made in words or not measured: saved with the results, so that passes can be set side by side.
 *
 * <p>Every numeric claim is judged as a ratio, on a log scale, so that missing by ×2 counts the same
 * either way:
 * <ul>
 * <li>a ratio of times ("Java takes 2× C's time") is the ratio itself;</li>
 * <li>a cut ("85% less time") is the speed-up it means (1 ÷ (1 − 0.85) = 6.7×), so that a 75% and a 95% cut,
 *     4× against 20×, are told apart; a change ("−91%", the white paper's tables) is the time ratio (0.09×);</li>
 * <li>a share ("98% of the CPU time") is judged by its odds (98 : 2 = 49), so that 0.36% and 10% differ as
 *     much as 90% and 99.6% do.</li>
 * </ul>
 * A figure holds when its whole interval lies within a tolerance of the study's (×RATIO_TOLERANCE,
 * or ×SHARE_ODDS_TOLERANCE in odds), and is too close to call when the interval straddles an edge of
 * that band: it may hold, it may not. Too close to call answers one question only, whether the claim
 * holds here; once the whole interval lies outside the band, the claim has changed, and is reversed
 * when the study stated a direction (its figure lies beyond the tolerance from 1: slower, most of the
 * time) and the whole interval lies beyond the tolerance on the other side of 1. Reversed is the
 * stronger statement, made only when the interval shows it; an interval across the reversal line is
 * "changed". A claim of direction alone ("time falls as the buffer grows") holds when the whole
 * interval lies past ×SAME on its side of 1, is too close to call when it straddles that line, is
 * reversed when it lies wholly past ×SAME on the other side, and has changed otherwise (no clear
 * difference either way).
 *
 * <p>Why these tolerances: the studies timed each case once or a few times, on shared machines (Lord
 * &amp; Reddy say only relative times matter) and print two or three figures, so a ratio between them
 * is good to about 20%: ×1.25 is the smallest tolerance they could resolve. Shares come from a profiler
 * there and from the kernel's CPU accounting here, two different measures of the same split, so they
 * get ×2 in odds (50% holds from 33% to 67%, 98% from 96% to 99%). This machine's own noise is in the
 * interval, not the tolerance: a noisy run widens the interval and ends too close to call rather than
 * flipping. ×1.05 is about twice the noise floor labs 00 to 03 measure between identical processes.
 *
 * <p>reading is how the lab reads the study's words for this row ("comparable" as within ×1.25; "improved by 85%" as
 * 85% less time), one short line, "" where the row rests on a figure alone: the claims class that judges the row
 * gives it (withReading), and the verdict table folds the readings under it. It is the course's text, not a
 * measurement, so it is shown, not saved with the results.
 */
public record Verdict(Published.Claim claim, String measured, String outcome, String why, String rule, Estimate judged, String reading) {
    public static final double RATIO_TOLERANCE = 1.25;
    public static final double SHARE_ODDS_TOLERANCE = 2;
    public static final double SAME = 1.05;
    static final String HOLDS = "holds", CHANGED = "changed", REVERSED = "reversed", TOO_CLOSE = "too close to call",
            IN_PAPER = "judged in paper";
    static final String SETTLE = "The interval straddles an edge of the band where the claim holds: more runs (a larger repeat) or the paper"
            + " preset narrow it, which settles the claim unless the figure itself lies on that edge.";
    static final String NO_INTERVAL = "One round gives no interval (it shows nothing of how the next process would differ): run two rounds or more, as quick and paper do.";
    static final String NOT_MEASURED = "this run could not measure it (see the notes above: a tool that cannot run here)";

    /** A verdict without a reading of the study's words (its rule compares a figure). */
    public Verdict(Published.Claim claim, String measured, String outcome, String why, String rule, Estimate judged) {
        this(claim, measured, outcome, why, rule, judged, "");
    }

    public Verdict {
        reading = reading == null ? "" : reading.strip();
    }

    /** The same verdict with the lab's reading of the study's words for it: one short line, shown in the table's fold. */
    public Verdict withReading(String reading) {
        return new Verdict(claim, measured, outcome, why, rule, judged, reading);
    }

    /** A "how many times" claim; published values in % (224% of C) are read as ratios (2.24). */
    public static Verdict ratio(Published.Claim claim, Estimate measured, Why why) {
        if (Double.isNaN(measured.value())) return unmeasured(claim, NOT_MEASURED);
        double published = claim.asRatio();
        String shown = claim.unit().equals("%") ? measured.map(x -> 100 * x).format("%.0f%%") : measured.format("%.3g×");
        return judged(claim, shown, published, measured, RATIO_TOLERANCE, why, band(claim, published, RATIO_TOLERANCE, "%.3g×"));
    }

    /**
     * A "this cuts the time by N%" claim; measuredPercent is 100 × (1 − new time ÷ old time), judged as the
     * speed-up it means. A cut of 100% (no time left at all) cannot be measured.
     */
    public static Verdict cut(Published.Claim claim, Estimate measuredPercent, Why why) {
        if (Double.isNaN(measuredPercent.value())) return unmeasured(claim, NOT_MEASURED);
        Estimate speedUp = measuredPercent.map(Verdict::speedUp);
        double published = speedUp(claim.value());
        String shown = speedUp.format("%.3g×") + " as fast (" + measuredPercent.format("%.3g%%") + " less time)";
        return judged(claim, shown, published, speedUp, RATIO_TOLERANCE, why,
                band(claim, published, RATIO_TOLERANCE, "%.3g×") + " as fast (the study's " + claim.shown() + " less time)");
    }

    private static double speedUp(double cutPercent) {
        return 100 / (100 - cutPercent);
    }

    /** A "the time changed by N%" claim as the white paper's tables state it (−91% is 0.09× the time). */
    public static Verdict change(Published.Claim claim, Estimate measuredPercent, Why why) {
        if (Double.isNaN(measuredPercent.value())) return unmeasured(claim, NOT_MEASURED);
        double published = 1 + claim.value() / 100;
        return judged(claim, measuredPercent.format("%+.1f%%"), published, measuredPercent.map(p -> 1 + p / 100), RATIO_TOLERANCE, why,
                band(claim, published, RATIO_TOLERANCE, "%.3g×") + " the time before (the study's " + claim.shown() + ")");
    }

    /** A "this part takes N% of the whole" claim, measured in percent, judged by its odds. */
    public static Verdict share(Published.Claim claim, Estimate measuredPercent, Why why) {
        if (Double.isNaN(measuredPercent.value())) return unmeasured(claim, NOT_MEASURED);
        double published = odds(claim.value()), t = SHARE_ODDS_TOLERANCE;
        Boolean atLeast = bound(claim);
        String rule = atLeast == null
            ? String.format(Locale.ROOT, "holds within ×%s in odds: %.3g%% to %.3g%%", plain(t), share(published / t), share(published * t))
            : String.format(Locale.ROOT, "holds at or %s %.3g%% (the study's: %s %s, within ×%s in odds)", atLeast ? "above" : "below",
                share(atLeast ? published / t : published * t), atLeast ? "more than" : "less than", claim.shown(), plain(t));
        if (published > t) rule += String.format(Locale.ROOT, "; reversed below %.3g%%", share(1 / t));
        if (published < 1 / t) rule += String.format(Locale.ROOT, "; reversed above %.3g%%", share(t));
        return judged(claim, measuredPercent.format("%.3g%%"), published, measuredPercent.map(Verdict::odds), t, why, rule);
    }

    private static double odds(double percent) {
        return percent / (100 - percent);
    }

    private static double share(double odds) {
        return 100 * odds / (1 + odds);
    }

    /**
     * A claim of direction: measuredRatio lies below 1 (a time falls as the buffer grows: after ÷ before;
     * a way is faster: its time ÷ the other's). shown fills its %s with the ratio and its interval.
     */
    public static Verdict below(Published.Claim claim, Estimate measuredRatio, String shown, Why why) {
        return direction(claim, measuredRatio, false, shown, why);
    }

    /** A claim of direction: measuredRatio lies above 1 (a time rises; a way is slower). */
    public static Verdict above(Published.Claim claim, Estimate measuredRatio, String shown, Why why) {
        return direction(claim, measuredRatio, true, shown, why);
    }

    /**
     * A claim that two figures are about the same ("comparable", "no big further gain"): measuredRatio
     * (one over the other) holds within ×RATIO_TOLERANCE of 1, as a ratio claim of 1× would.
     */
    public static Verdict near(Published.Claim claim, Estimate measuredRatio, String shown, Why why) {
        if (Double.isNaN(measuredRatio.value())) return unmeasured(claim, NOT_MEASURED);
        String outcome = outcome(1, measuredRatio, RATIO_TOLERANCE);
        return new Verdict(claim, String.format(Locale.ROOT, shown, measuredRatio.format("%.3g×")), outcome,
                explain(outcome, why, measuredRatio.value() > 1, measuredRatio), band(null, 1, RATIO_TOLERANCE, "%.3g×"), measuredRatio);
    }

    private static Verdict direction(Published.Claim claim, Estimate ratio, boolean claimedUp, String shown, Why why) {
        if (Double.isNaN(ratio.value())) return unmeasured(claim, NOT_MEASURED);
        boolean up = ratio.low() > SAME, down = ratio.high() < 1 / SAME;
        // short of holding, yet across its line; with no interval (one round) nothing rules it out: too close to call
        boolean reaches = !(claimedUp ? ratio.high() <= SAME : ratio.low() >= 1 / SAME);
        String outcome = (claimedUp ? up : down) ? HOLDS : reaches ? TOO_CLOSE : (claimedUp ? down : up) ? REVERSED : CHANGED;
        String rule = String.format(Locale.ROOT, "holds %s ×%.3g; reversed %s ×%.3g; changed between (no clear difference)",
                claimedUp ? "above" : "below", claimedUp ? SAME : 1 / SAME, claimedUp ? "below" : "above", claimedUp ? 1 / SAME : SAME);
        return new Verdict(claim, String.format(Locale.ROOT, shown, ratio.format("%.3g×")), outcome, explain(outcome, why, !claimedUp, ratio), rule, ratio);
    }

    /**
     * A claim of size without a figure ("orders of magnitude", "poor"): measuredRatio lies at or above
     * threshold, which the lab names as its reading of the study's words. Changed when the whole interval
     * lies below it, too close to call when it straddles it.
     */
    public static Verdict atLeast(Published.Claim claim, Estimate measuredRatio, double threshold, String reading, String shown, Why why) {
        if (Double.isNaN(measuredRatio.value())) return unmeasured(claim, NOT_MEASURED);
        String outcome = measuredRatio.low() >= threshold ? HOLDS : measuredRatio.high() < threshold ? CHANGED : TOO_CLOSE;
        return new Verdict(claim, String.format(Locale.ROOT, shown, measuredRatio.format("%.3g×")), outcome, explain(outcome, why, false, measuredRatio),
                String.format(Locale.ROOT, "holds at or above %.3g× (reading: %s)", threshold, reading), measuredRatio);
    }

    /**
     * The other side of atLeast: measuredRatio lies at or below threshold (a rate "steady" across sizes:
     * the largest over the smallest). Changed when the whole interval lies above it, too close to call when
     * it straddles it.
     */
    public static Verdict atMost(Published.Claim claim, Estimate measuredRatio, double threshold, String reading, String shown, Why why) {
        if (Double.isNaN(measuredRatio.value())) return unmeasured(claim, NOT_MEASURED);
        String outcome = measuredRatio.high() <= threshold ? HOLDS : measuredRatio.low() > threshold ? CHANGED : TOO_CLOSE;
        return new Verdict(claim, String.format(Locale.ROOT, shown, measuredRatio.format("%.3g×")), outcome, explain(outcome, why, true, measuredRatio),
                String.format(Locale.ROOT, "holds at or below %.3g× (reading: %s)", threshold, reading), measuredRatio);
    }

    /**
     * A claim in words judged on a count (threads a scheduler added, say): holds when the whole interval lies at or below
     * most, reversed when it lies above, too close to call when it straddles most (or a single round gives no interval).
     */
    public static Verdict countAtMost(Published.Claim claim, Estimate count, double most, String shown, String rule, String whyIfAbove) {
        if (Double.isNaN(count.value())) return unmeasured(claim, NOT_MEASURED);
        String outcome = count.high() <= most ? HOLDS : count.low() > most ? REVERSED : TOO_CLOSE;
        return new Verdict(claim, String.format(Locale.ROOT, shown, count.format("%+.0f")), outcome, explain(outcome, Why.either(whyIfAbove), true, count),
                rule, count);
    }

    /** The one judgement: measured against published on a log scale, within ×tolerance either way. */
    static String outcome(double published, Estimate measured, double tolerance) {
        double low = published / tolerance, high = published * tolerance;
        if (measured.inside(low, high)) return HOLDS;
        if (!measured.outside(low, high)) return TOO_CLOSE;
        if (published > tolerance && measured.high() < 1 / tolerance) return REVERSED;
        if (published < 1 / tolerance && measured.low() > tolerance) return REVERSED;
        return CHANGED;
    }

    /**
     * A figure the study gave as a bound ("more than tripled": kind at-least; "stayed below 1%": at-most)
     * holds when its whole interval lies on the bound's side, the bound moved by the same tolerance a point
     * figure gets (the study's figure is as uncertain), is too close to call across it, and otherwise has
     * changed (reversed as for a point figure).
     */
    static String boundOutcome(boolean atLeast, double published, Estimate measured, double tolerance) {
        double edge = atLeast ? published / tolerance : published * tolerance;
        if (atLeast ? measured.low() >= edge : measured.high() <= edge) return HOLDS;
        if (!(atLeast ? measured.high() < edge : measured.low() > edge)) return TOO_CLOSE;  // across it, or no interval
        if (published > tolerance && measured.high() < 1 / tolerance) return REVERSED;
        if (published < 1 / tolerance && measured.low() > tolerance) return REVERSED;
        return CHANGED;
    }

    /** "at-least" or "at-most" when the study gave this figure as a bound, null when it gave a value. */
    private static Boolean bound(Published.Claim claim) {
        if (claim == null) return null;
        return switch (claim.kind()) {
            case "at-least" -> true;
            case "at-most" -> false;
            default -> null;
        };
    }

    private static Verdict judged(Published.Claim claim, String shown, double published, Estimate measured, double tolerance,
                                  Why why, String rule) {
        Boolean atLeast = bound(claim);
        String outcome = atLeast == null ? outcome(published, measured, tolerance) : boundOutcome(atLeast, published, measured, tolerance);
        return new Verdict(claim, shown, outcome, explain(outcome, why, measured.value() > published, measured), rule, measured);
    }

    private static String explain(String outcome, Why why, boolean higher, Estimate measured) {
        return switch (outcome) {
            case HOLDS -> "";
            case TOO_CLOSE -> measured.hasInterval() ? SETTLE : NO_INTERVAL;
            default -> why.text(higher);
        };
    }

    /** "holds within ×1.25 of 2×: 1.6× to 2.5×; reversed below 0.8×"; for a bound, "holds at or above 2.4× (the study's: more than 3×, within ×1.25)" */
    private static String band(Published.Claim claim, double published, double tolerance, String format) {
        Boolean atLeast = bound(claim);
        String rule = atLeast == null
            ? String.format(Locale.ROOT, "holds within ×%s of " + format + ": " + format + " to " + format,
                plain(tolerance), published, published / tolerance, published * tolerance)
            : String.format(Locale.ROOT, "holds at or %s " + format + " (the study's: %s " + format + ", within ×%s)",
                atLeast ? "above" : "below", atLeast ? published / tolerance : published * tolerance,
                atLeast ? "more than" : "less than", published, plain(tolerance));
        if (published > tolerance) rule += String.format(Locale.ROOT, "; reversed below " + format, 1 / tolerance);
        if (published < 1 / tolerance) rule += String.format(Locale.ROOT, "; reversed above " + format, tolerance);
        return rule;
    }

    private static String plain(double x) {
        return x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x);
    }

    /**
     * The colour of a verdict's badge, in every table (green holds, orange changed, grey not measured, blue too close,
     * red reversed): each at least 4.8:1 under the badge's white word (WCAG AA asks 4.5:1).
     */
    public static String color(String outcome) {
        return switch (outcome) {
            case HOLDS -> "#237a38";
            case CHANGED -> "#a35200";
            case "not measured", IN_PAPER -> "#5f676e";
            case TOO_CLOSE -> "#1864ab";
            default -> "#c92a2a";
        };
    }

    /** A claim this run could not check, with the reason (a tool that is not installed, say). */
    public static Verdict unmeasured(Published.Claim claim, String why) {
        return new Verdict(claim, "n/a", "not measured", why, "", null);
    }

    /**
     * A claim smaller than a short preset can resolve (a 14% step between reads of a millisecond, say),
     * declared in advance, whatever the figure: judged in the paper preset only. Elsewhere the row shows
     * this run's figure and the rule, says why it is not judged, and counts as no verdict.
     */
    public static Verdict inPaper(String preset, Verdict judged, String why) {
        if (preset.equals("paper")) return judged;
        return new Verdict(judged.claim(), judged.measured(), IN_PAPER,
                "Not judged in " + preset + ": " + why + " The paper preset judges it.", judged.rule(), judged.judged(), judged.reading());
    }

    /** judge's verdict where this machine can measure the claim, otherwise "not measured" with whyNot. */
    public static Verdict when(boolean measurable, Published.Claim claim, String whyNot, java.util.function.Supplier<Verdict> judge) {
        return measurable ? judge.get() : unmeasured(claim, whyNot);
    }

    /**
     * A change to the JDK, first shipped in JDK changedIn: judged where the runs ran on a JDK before it and
     * one after (see JdkPair), otherwise not measured, naming the JDKs the runs had.
     */
    public static Verdict acrossJdks(Published.Claim claim, Results runs, int changedIn, java.util.function.Function<JdkPair, Verdict> judge) {
        return JdkPair.around(runs, changedIn).map(judge).orElseGet(() -> unmeasured(claim, JdkPair.missing(runs, changedIn)));
    }

    /**
     * A change to the JDK judged between the oldest runtime without it and the newest with it, each told by what its
     * class files hold (hasChange: true, false, or null where it cannot say); otherwise not measured, saying which had it.
     */
    public static Verdict acrossJdks(Published.Claim claim, Results runs, java.util.function.Function<String, Boolean> hasChange, String change,
                                     java.util.function.Function<JdkPair, Verdict> judge) {
        return JdkPair.around(runs, hasChange).map(judge).orElseGet(() -> unmeasured(claim, JdkPair.missing(runs, hasChange, change)));
    }

    /**
     * A change to the JDK, first shipped in JDK changedIn, about what the JDK does from then on: judged on the
     * runs made on the newest such JDK, otherwise not measured, naming the JDKs the runs had.
     */
    public static Verdict sinceJdk(Published.Claim claim, Results runs, int changedIn, java.util.function.Function<String, Verdict> judge) {
        List<String> after = runs.javaRuntimes().stream().filter(r -> Results.feature(r) >= changedIn).toList();
        if (!after.isEmpty()) return judge.apply(after.get(after.size() - 1));
        return unmeasured(claim, "A change shipped in JDK " + changedIn + " is judged on that JDK or a later one; these runs had "
                + JdkPair.runtimesOf(runs) + ". Set JAVA_HOME to a newer JDK and run setup/setup.sh.");
    }

    /**
     * A claim about more processes (or threads) than small machines have cores for: judged where this run
     * gave at least needed of them a core each, otherwise not measured, saying how many it could.
     */
    public static Verdict withCores(Published.Claim claim, int withACoreEach, int needed, java.util.function.Supplier<Verdict> judge) {
        return when(withACoreEach >= needed, claim, String.format(Locale.ROOT, "This run gave at most %d processes a core each; judging this needs %d"
                + " (the studies' 16 to 64 processes each had a processor): run the paper preset on a machine with more cores.", withACoreEach, needed), judge);
    }

    /** What a run saw of a claim made in words: what the study said, its opposite, or something else again. */
    public enum Seen { AS_CLAIMED, OPPOSITE, OTHERWISE }

    /**
     * A claim the study made in words (a lock that throws, a method that mangles characters, a scheduler that
     * adds no thread): the lab works out what it saw, and the row holds, is reversed (the run saw the opposite:
     * the lock waited, the characters came through whole) or has changed (neither: both locks were granted).
     * rule states every way the lab tells them apart ("holds when …; reversed when …").
     */
    public static Verdict claim(Published.Claim claim, Seen seen, String measured, String rule, String whyIfNot) {
        String outcome = switch (seen) {
            case AS_CLAIMED -> HOLDS;
            case OPPOSITE -> REVERSED;
            case OTHERWISE -> CHANGED;
        };
        return new Verdict(claim, measured, outcome, seen == Seen.AS_CLAIMED ? "" : whyIfNot, rule, null);
    }

    /** The same verdict with the setting that differs from the study's, shown beside the figure ("250 KB file; study: 100 MB"). */
    public Verdict at(String setting) {
        return new Verdict(claim, measured + " · " + setting, outcome, why, rule, judged, reading);
    }
}
