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
 */
public record Verdict(Published.Claim claim, String measured, String outcome, String why) {
    public static final double RATIO_TOLERANCE = 1.5;
    public static final double SHARE_POINTS = 10;
    static final String NOT_MEASURED = "this run could not measure it (see the notes above: a tool that cannot run here)";

    /** A "how many times" claim; published values in % (224% of C) are read as ratios (2.24). */
    public static Verdict ratio(Published.Claim claim, double measured, String whyIfNot) {
        if (Double.isNaN(measured)) return unmeasured(claim, NOT_MEASURED);
        double published = claim.asRatio();
        String outcome;
        if (measured / published <= RATIO_TOLERANCE && published / measured <= RATIO_TOLERANCE) outcome = "holds";
        else if ((published > 1 && measured < 1 / 1.1) || (published < 1 && measured > 1.1)) outcome = "reversed";
        else outcome = "changed";
        String shown = claim.unit().equals("%") ? String.format(Locale.ROOT, "%.0f%%", 100 * measured)
                : String.format(Locale.ROOT, "%.2f×", measured);
        return new Verdict(claim, shown, outcome, outcome.equals("holds") ? "" : whyIfNot);
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
        return new Verdict(claim, shown, holds ? "holds" : "changed", holds ? "" : whyIfNot);
    }

    /** A "this part takes N% of the whole" claim, measured in percent. */
    public static Verdict share(Published.Claim claim, double measuredPercent, String whyIfNot) {
        if (Double.isNaN(measuredPercent)) return unmeasured(claim, NOT_MEASURED);
        double published = claim.value();
        String outcome = Math.abs(measuredPercent - published) <= SHARE_POINTS ? "holds"
                : (published > 50) != (measuredPercent > 50) ? "reversed" : "changed";
        return new Verdict(claim, String.format(Locale.ROOT, "%.0f%%", measuredPercent), outcome, outcome.equals("holds") ? "" : whyIfNot);
    }

    /** A "this cuts the time by N%" claim; measuredPercent is 100 × (1 − new time ÷ old time). */
    public static Verdict cut(Published.Claim claim, double measuredPercent, String whyIfNot) {
        if (Double.isNaN(measuredPercent)) return unmeasured(claim, NOT_MEASURED);
        double published = claim.value();
        String outcome = Math.abs(measuredPercent - published) <= SHARE_POINTS ? "holds"
                : published > 0 && measuredPercent < 0 ? "reversed" : "changed";
        String shown = String.format(Locale.ROOT, Math.abs(measuredPercent) >= 99 ? "%.1f%% less time" : "%.0f%% less time", measuredPercent);
        return new Verdict(claim, shown, outcome,
                outcome.equals("holds") ? "" : whyIfNot);
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
                outcome.equals("holds") ? "" : whyIfNot);
    }

    /** The colour a verdict's outcome is shown in, in every table (green holds, orange changed, grey not measured, red reversed). */
    static String color(String outcome) {
        return switch (outcome) {
            case "holds" -> "#2b8a3e";
            case "changed" -> "#e67700";
            case "not measured" -> "#868e96";
            default -> "#c92a2a";
        };
    }

    /** A claim this run could not check, with the reason (a tool that is not installed, say). */
    public static Verdict unmeasured(Published.Claim claim, String why) {
        return new Verdict(claim, "n/a", "not measured", why);
    }

    /** A claim the study made in words: the lab computes whether it holds and says what it saw. */
    public static Verdict claim(Published.Claim claim, boolean holds, String measured, String whyIfNot) {
        return new Verdict(claim, measured, holds ? "holds" : "changed", holds ? "" : whyIfNot);
    }
}
