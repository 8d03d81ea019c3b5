package course.record;

import java.util.Locale;

/**
 * How far apart two identical cases land on this machine: one case run as two, A and B, interleaved
 * in rounds, and the ratio of their median times. A difference between two real cases that is no
 * larger than this is not a finding here. Each lab measures it once (Lab.noiseFloor).
 */
public record NoiseFloor(String caseName, int runs, double medianA, double medianB) {
    /** A noise floor as a results file saved it (its case, runs and percent): the twins' medians relative, 1 and 1 + pct/100. */
    public static NoiseFloor saved(String caseName, int runs, double pct) {
        return new NoiseFloor(caseName, runs, 1, 1 + pct / 100);
    }

    /** How much slower the slower twin was, in percent of the faster one. */
    public double pct() {
        return 100 * (Math.max(medianA, medianB) / Math.min(medianA, medianB) - 1);
    }

    /**
     * A graded check's allowed factor (say 1.25: "within 25% of the best"), widened to twice the noise floor
     * where that is wider: a choice judged against the best of several noisy cases may miss by noise alone.
     */
    public double widen(double factor) {
        return Math.max(factor, 1 + 2 * pct() / 100);
    }

    public String line() {
        return String.format(Locale.ROOT, "Noise floor here: one case run twice, interleaved (%s), came out %.1f%% apart "
                + "(medians of %d runs each). Differences smaller than that are not findings on this machine.", caseName, pct(), runs);
    }
}
