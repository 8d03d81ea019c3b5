package course;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * A figure computed from runs, with its 95% interval: a percentile bootstrap over the runs, in two levels
 * as they were made. Each of RESAMPLES replicates redraws, for every case, its rounds (one process each,
 * see Sweep) with replacement and then the runs within each drawn round (Results.resample; cases and
 * their results stay apart), and computes the figure again; the interval is the middle 95% of the
 * replicates. Redrawing rounds first puts the differences between processes (JIT, memory placement, a
 * slow minute) into the interval, not only the noise between runs of one process. The seed is fixed,
 * so the same runs always give the same interval. With two or three rounds the interval is coarse and
 * undercovers (on simulated runs with a known ratio, three rounds covered it 86 times in 100; runs taken
 * as independent, 63): it widens honestly instead of pretending; the paper preset's five rounds narrow it.
 *
 * <pre>
 * Estimate javaOverC = Estimate.of(draw -> draw.from(seq).ratio("java", "c"));
 * </pre>
 */
public record Estimate(double value, double low, double high) {
    public static final int RESAMPLES = 2000;
    public static final long SEED = 13;
    public static final double LEVEL = 0.95;
    /** The share of redraws whose statistic must be defined (not NaN) for an interval to be given at all. */
    static final double LEAST_USABLE = 0.95;

    /** Hands a statistic the runs of one replicate: the runs themselves for the figure, redrawn ones for the interval. */
    public static final class Draw {
        private final Random random;
        private final Map<Results, Results> drawn = new IdentityHashMap<>();

        private Draw(Random random) {
            this.random = random;
        }

        /** These results as this replicate sees them (the same redraw every time they are asked for within it). */
        public Results from(Results results) {
            return random == null ? results : drawn.computeIfAbsent(results, r -> r.resample(random));
        }
    }

    /** The statistic on the runs, and its bootstrap interval (NaN figures give NaN intervals). */
    public static Estimate of(ToDoubleFunction<Draw> statistic) {
        double value = statistic.applyAsDouble(new Draw(null));
        return bootstrap(value, random -> statistic.applyAsDouble(new Draw(random)));
    }

    /**
     * The median of one case's per-run values, with its bootstrap interval (the band a chart draws around
     * a case's median). With five runs or fewer this is the lowest to the highest run: the median of a
     * redrawn handful lands on its lowest or highest value more than 2.5% of the time.
     */
    public static Estimate ofMedian(List<Double> perRun) {
        double[] runs = perRun.stream().mapToDouble(Double::doubleValue).toArray();
        return bootstrap(Results.median(perRun), random -> {
            double[] drawn = new double[runs.length];
            for (int i = 0; i < drawn.length; i++) drawn[i] = runs[random.nextInt(runs.length)];
            return Results.median(drawn);
        });
    }

    private static Estimate bootstrap(double value, java.util.function.ToDoubleFunction<Random> replicate) {
        if (Double.isNaN(value)) return new Estimate(value, Double.NaN, Double.NaN);
        Random random = new Random(SEED);
        List<Double> replicates = new ArrayList<>(RESAMPLES);
        for (int i = 0; i < RESAMPLES; i++) {
            double v = replicate.applyAsDouble(random);
            if (!Double.isNaN(v)) replicates.add(v);
        }
        // a statistic undefined on too many redraws (a case some redraws leave out) has no interval worth the name
        if (replicates.size() < LEAST_USABLE * RESAMPLES) return new Estimate(value, Double.NaN, Double.NaN);
        Collections.sort(replicates);
        double tail = (1 - LEVEL) / 2;
        return new Estimate(value, quantile(replicates, tail), quantile(replicates, 1 - tail));
    }

    /** A figure with no spread to bootstrap (a count, a figure computed elsewhere). */
    /**
     * A share in percent of whole samples of which part fell in one place (a CPU profile's kernel
     * samples, say), with the Wilson score interval at LEVEL. It counts what sampling alone leaves
     * uncertain, as if each sample were drawn apart from the others (in a steady loop they nearly are: the
     * loop switches between user and kernel far faster than the sampling period); one profile is one
     * process, so how the next process would differ is not in it. No samples: NaN.
     */
    public static Estimate ofShare(long part, long whole) {
        if (whole <= 0) return new Estimate(Double.NaN, Double.NaN, Double.NaN);
        double z = 1.959963984540054, n = whole, p = part / n;  // z: the normal quantile of 97.5%, for LEVEL 95%
        double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
        return new Estimate(100 * p, 100 * Math.max(0, centre - half), 100 * Math.min(1, centre + half));
    }

    /** A figure given, not measured, so without an interval: a test's made-up value (no lab judges one: tests/test_claims.py). */
    public static Estimate exact(double value) {
        return new Estimate(value, value, value);
    }

    static double quantile(List<Double> sorted, double q) {
        double at = q * (sorted.size() - 1);
        int below = (int) Math.floor(at);
        int above = Math.min(below + 1, sorted.size() - 1);
        return sorted.get(below) + (at - below) * (sorted.get(above) - sorted.get(below));
    }

    /** Whether the whole interval lies within [from, to]. */
    public boolean inside(double from, double to) {
        return low >= from && high <= to;
    }

    /** Whether the whole interval lies outside [from, to]. */
    public boolean outside(double from, double to) {
        return high < from || low > to;
    }

    /** The figure and its interval in one format, e.g. "%.2f×" gives "1.29× [1.21–1.37]". */
    public String format(String format) {
        String shown = String.format(Locale.ROOT, format, value);
        if (Double.isNaN(low) || low == high) return shown;
        String from = String.format(Locale.ROOT, format, low).replace("×", "").replace("%", "");
        String between = from.startsWith("-") || from.startsWith("+") ? " to " : "–";  // "-5 to 3", "+98 to +455", never "-5–3"
        return shown + " [" + from + between + String.format(Locale.ROOT, format, high).replace("×", "").replace("%", "") + "]";
    }

    public Estimate map(java.util.function.DoubleUnaryOperator f) {
        double a = f.applyAsDouble(low), b = f.applyAsDouble(high);
        return new Estimate(f.applyAsDouble(value), Math.min(a, b), Math.max(a, b));
    }
}
