package course.judge;

import java.util.Locale;

/**
 * A study's absolute figure beside this machine's: context, not a verdict. Bandwidths of 1999–2012
 * clusters say how hardware moved on, not whether a claim about Java still holds, so the course shows
 * them side by side ("then and here") and judges only ratios and shapes.
 */
public record Context(Published.Claim claim, String here, String note) {
    /** A bandwidth the study reached (MB/s or GB/s) and this machine's, measured in MB/s (NaN: not measured here). */
    public static Context rate(Published.Claim claim, double measuredMbPerS, String note) {
        if (Double.isNaN(measuredMbPerS)) return new Context(claim, "not measured", note);
        double measured = switch (claim.unit()) {
            case "MB/s" -> measuredMbPerS;
            case "GB/s" -> measuredMbPerS / 1024;
            default -> throw new IllegalArgumentException(claim.id() + " is in " + claim.unit() + ", not a bandwidth (MB/s or GB/s)");
        };
        return new Context(claim, figure(measured) + " " + claim.unit() + " (" + figure(measured / claim.value()) + "× the study's)", note);
    }

    /** 3 significant figures without exponents: 0.238, 53.1, 1437. */
    static String figure(double x) {
        return String.format(Locale.ROOT, Math.abs(x) >= 1000 ? "%.0f" : "%.3g", x);
    }
}
