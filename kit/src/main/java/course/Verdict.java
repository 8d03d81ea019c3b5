package course;

import java.util.Locale;

/**
 * One published claim checked against this run: holds, changed or reversed, with the measured figure.
 * The rules are stated here once so that every lab judges the same way:
 * - a ratio holds within a factor of 1.5 of the published one, is reversed when it falls on the other
 *   side of 1 (by more than 10%), and has changed otherwise;
 * - a share (a percentage of a whole) holds within 10 points, is reversed when it crosses 50%, and has
 *   changed otherwise;
 * - a cut (the share of time one way saves over another) holds within 10 points, is reversed when the
 *   way that should save time costs time instead, and has changed otherwise;
 * - a claim without a number holds or has changed, as the lab's check says;
 * - a claim this machine could not measure (a tool missing, say; the figure is NaN) is "not measured".
 *
 * A figure given as an Estimate (its 95% bootstrap interval over the runs, see Estimate) is judged by
 * its whole interval: it holds or misses only when all of the interval does, and is "too close to call"
 * when the interval straddles the rule's edge. Every verdict carries its rule, shown in its row.
 */
public record Verdict(Published.Claim claim, String measured, String outcome, String why, String rule) {
    public static final double RATIO_TOLERANCE = 1.5;
    public static final double SHARE_POINTS = 10;
    static final String TOO_CLOSE = "too close to call";
    static final String SETTLE = "The interval straddles the rule's edge: more runs (a larger repeat) or the paper preset would settle it.";
    static final String NOT_MEASURED = "this run could not measure it (see the notes above: a tool that cannot run here)";

    /** A "how many times" claim; published values in % (224% of C) are read as ratios (2.24). */
    public static Verdict ratio(Published.Claim claim, double measured, String whyIfNot) {
        return ratio(claim, Estimate.exact(measured), whyIfNot);
    }

    /** The same, judged by the figure's whole interval (too close to call when it straddles an edge of the rule). */
    public static Verdict ratio(Published.Claim claim, Estimate measured, String whyIfNot) {
        if (Double.isNaN(measured.value())) return unmeasured(claim, NOT_MEASURED);
        double published = claim.asRatio();
        String outcome;
        if (measured.inside(published / RATIO_TOLERANCE, published * RATIO_TOLERANCE)) outcome = "holds";
        else if (!measured.outside(published / RATIO_TOLERANCE, published * RATIO_TOLERANCE)) outcome = TOO_CLOSE;
        else if ((published > 1 && measured.high() < 1 / 1.1) || (published < 1 && measured.low() > 1.1)) outcome = "reversed";
        else if ((published > 1 && measured.low() < 1 / 1.1) || (published < 1 && measured.high() > 1.1)) outcome = TOO_CLOSE;
        else outcome = "changed";
        String shown = claim.unit().equals("%") ? measured.map(x -> 100 * x).format("%.0f%%") : measured.format("%.2f×");
        String rule = String.format(Locale.ROOT, "holds within ×%.1f of %.3g×; reversed beyond 1 by 10%%", RATIO_TOLERANCE, published);
        return judged(claim, shown, outcome, whyIfNot, rule);
    }

    private static Verdict judged(Published.Claim claim, String shown, String outcome, String whyIfNot, String rule) {
        String why = switch (outcome) {
            case "holds" -> "";
            case TOO_CLOSE -> SETTLE;
            default -> whyIfNot;
        };
        return new Verdict(claim, shown, outcome, why, rule);
    }

    /**
     * A bandwidth the study reached (MB/s or GB/s) against this machine's, in MB/s: holds within a
     * factor of 1.5 either way; otherwise changed (hardware moves on; the measured figure says which way).
     */
    public static Verdict rate(Published.Claim claim, double measuredMbPerS, String whyIfNot) {
        if (Double.isNaN(measuredMbPerS)) return unmeasured(claim, NOT_MEASURED);
        double measured = switch (claim.unit()) {
            case "MB/s" -> measuredMbPerS;
            case "GB/s" -> measuredMbPerS / 1024;
            default -> throw new IllegalArgumentException(claim.id() + " is in " + claim.unit() + ", not a bandwidth (MB/s or GB/s)");
        };
        boolean holds = measured / claim.value() <= RATIO_TOLERANCE && claim.value() / measured <= RATIO_TOLERANCE;
        String shown = String.format(Locale.ROOT, "%.3g %s (%.2f× the study's)", measured, claim.unit(), measured / claim.value());
        return new Verdict(claim, shown, holds ? "holds" : "changed", holds ? "" : whyIfNot,
                String.format(Locale.ROOT, "holds within ×%.1f of %s", RATIO_TOLERANCE, claim.shown()));
    }

    /** A "this part takes N% of the whole" claim, measured in percent. */
    public static Verdict share(Published.Claim claim, double measuredPercent, String whyIfNot) {
        return share(claim, Estimate.exact(measuredPercent), whyIfNot);
    }

    /** The same, judged by the share's whole interval. */
    public static Verdict share(Published.Claim claim, Estimate measuredPercent, String whyIfNot) {
        if (Double.isNaN(measuredPercent.value())) return unmeasured(claim, NOT_MEASURED);
        double published = claim.value();
        String outcome;
        if (measuredPercent.inside(published - SHARE_POINTS, published + SHARE_POINTS)) outcome = "holds";
        else if (!measuredPercent.outside(published - SHARE_POINTS, published + SHARE_POINTS)) outcome = TOO_CLOSE;
        else if (published > 50 ? measuredPercent.high() <= 50 : measuredPercent.low() > 50) outcome = "reversed";
        else if (measuredPercent.inside(0, 50) || measuredPercent.low() > 50) outcome = "changed";
        else outcome = TOO_CLOSE;
        String rule = String.format(Locale.ROOT, "holds within ±%.0f points of %.3g%%; reversed across 50%%", SHARE_POINTS, published);
        return judged(claim, measuredPercent.format("%.0f%%"), outcome, whyIfNot, rule);
    }

    /** A "this cuts the time by N%" claim; measuredPercent is 100 × (1 − new time ÷ old time). */
    public static Verdict cut(Published.Claim claim, double measuredPercent, String whyIfNot) {
        if (Double.isNaN(measuredPercent)) return unmeasured(claim, NOT_MEASURED);
        double published = claim.value();
        String outcome = Math.abs(measuredPercent - published) <= SHARE_POINTS ? "holds"
                : published > 0 && measuredPercent < 0 ? "reversed" : "changed";
        String shown = String.format(Locale.ROOT, Math.abs(measuredPercent) >= 99 ? "%.1f%% less time" : "%.0f%% less time", measuredPercent);
        return new Verdict(claim, shown, outcome, outcome.equals("holds") ? "" : whyIfNot,
                String.format(Locale.ROOT, "holds within ±%.0f points of %.3g%% less time", SHARE_POINTS, published));
    }

    /**
     * A "the time changed by N%" claim as the white paper's tables state it (−91% is 91% less time);
     * the same rules as a cut.
     */
    public static Verdict change(Published.Claim claim, double measuredChangePercent, String whyIfNot) {
        if (Double.isNaN(measuredChangePercent)) return unmeasured(claim, NOT_MEASURED);
        double published = claim.value();
        String outcome = Math.abs(measuredChangePercent - published) <= SHARE_POINTS ? "holds"
                : (published < 0) != (measuredChangePercent < 0) ? "reversed" : "changed";
        return new Verdict(claim, String.format(Locale.ROOT, "%+.1f%%", measuredChangePercent), outcome,
                outcome.equals("holds") ? "" : whyIfNot, String.format(Locale.ROOT, "holds within ±%.0f points of %+.3g%%", SHARE_POINTS, published));
    }

    /** The colour a verdict's outcome is shown in, in every table (green holds, orange changed, grey not measured, blue too close, red reversed). */
    static String color(String outcome) {
        return switch (outcome) {
            case "holds" -> "#2b8a3e";
            case "changed" -> "#e67700";
            case "not measured" -> "#868e96";
            case TOO_CLOSE -> "#1971c2";
            default -> "#c92a2a";
        };
    }

    /** A claim this run could not check, with the reason (a tool that is not installed, say). */
    public static Verdict unmeasured(Published.Claim claim, String why) {
        return new Verdict(claim, "n/a", "not measured", why, "");
    }

    /** A claim the study made in words: the lab computes whether it holds and says what it saw. */
    public static Verdict claim(Published.Claim claim, boolean holds, String measured, String whyIfNot) {
        return new Verdict(claim, measured, holds ? "holds" : "changed", holds ? "" : whyIfNot, "the lab's check, shown as measured");
    }
}
