package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EstimateTest {
    /** Runs of one raw_io read case per language, with these times in ms. */
    static Results runs(double[] javaMs, double[] cMs) {
        List<JsonObject> all = new ArrayList<>();
        for (int i = 0; i < javaMs.length; i++) all.add(Runs.run("java", "read", 1 << 20, i, (long) (javaMs[i] * 1e6)));
        for (int i = 0; i < cMs.length; i++) all.add(Runs.run("c", "read", 1 << 20, i, (long) (cMs[i] * 1e6)));
        return new Results(all);
    }

    @Test
    void runsWithoutSpreadGiveAnIntervalOfOnePoint() {
        Results r = runs(new double[] {10, 10, 10}, new double[] {5, 5, 5});
        Estimate e = Estimate.of(draw -> draw.from(r).ratio("java", "c"));
        assertEquals(2, e.value(), 1e-9);
        assertEquals(2, e.low(), 1e-9);
        assertEquals(2, e.high(), 1e-9);
        assertEquals("2.00×", e.format("%.2f×"));
    }

    @Test
    void aKnownSampleGivesTheFigureOfItsRunsAndAnIntervalWithinTheirRange() {
        Results r = runs(new double[] {9, 10, 12}, new double[] {5, 5, 5});
        Estimate e = Estimate.of(draw -> draw.from(r).ratio("java", "c"));
        assertEquals(2, e.value(), 1e-9, "median 10 over median 5");
        assertEquals(1.8, e.low(), 1e-9, "a redrawn median of three is one of the three runs");
        assertEquals(2.4, e.high(), 1e-9);
        assertEquals("2.00× [1.80–2.40]", e.format("%.2f×"));
        assertEquals("-3% [-8 to 2]", new Estimate(-3, -8, 2).format("%.0f%%"), "a range with a negative end reads 'to', not a dash");
        assertEquals("+99% [+98 to +455]", new Estimate(99, 98, 455).format("%+.0f%%"), "signed ends read 'to' too");
        assertEquals(e, Estimate.of(draw -> draw.from(r).ratio("java", "c")), "a fixed seed: the same runs, the same interval");
    }

    @Test
    void oneRedrawPerResultsWithinAReplicate() {
        Results r = runs(new double[] {9, 10, 12}, new double[] {5, 6, 7});
        Estimate same = Estimate.of(draw -> draw.from(r).ratio("java", "c") / draw.from(r).ratio("java", "c"));
        assertEquals(Estimate.exact(1), same, "asking twice within a replicate sees the same redraw");
    }

    @Test
    void theIntervalCoversATrueRatioAboutAsOftenAsItSays() {
        Random random = new Random(7);
        int covered = 0, experiments = 100;
        for (int x = 0; x < experiments; x++) {
            double[] java = new double[10], c = new double[10];
            for (int i = 0; i < 10; i++) {
                java[i] = 15 * Math.exp(0.1 * random.nextGaussian());  // true ratio of medians: 1.5
                c[i] = 10 * Math.exp(0.1 * random.nextGaussian());
            }
            Results r = runs(java, c);
            Estimate e = Estimate.of(draw -> draw.from(r).ratio("java", "c"));
            if (e.low() <= 1.5 && 1.5 <= e.high()) covered++;
        }
        assertTrue(covered >= 85 && covered <= 100, covered + " of " + experiments + " intervals covered the true ratio (95% asked)");
    }

    /**
     * Runs in rounds, as a sweep makes them: each round a new process per case, whose own offset (JIT,
     * memory placement, the machine's minute) all its runs share; rounds numbered from 1, or all 0 when
     * the rounds are not known.
     */
    static Results inRounds(Random random, int rounds, int runsPerRound, double processSpread, boolean roundsKnown) {
        List<JsonObject> all = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double javaProcess = Math.exp(processSpread * random.nextGaussian()), cProcess = Math.exp(processSpread * random.nextGaussian());
            for (int i = 0; i < runsPerRound; i++) {
                JsonObject java = Runs.run("java", "read", 1 << 20, i, (long) (15e6 * javaProcess * Math.exp(0.01 * random.nextGaussian())));
                JsonObject c = Runs.run("c", "read", 1 << 20, i, (long) (10e6 * cProcess * Math.exp(0.01 * random.nextGaussian())));
                java.addProperty("round", roundsKnown ? round : 0);
                c.addProperty("round", roundsKnown ? round : 0);
                all.add(java);
                all.add(c);
            }
        }
        return new Results(all);
    }

    @Test
    void roundsAreRedrawnWholeSoAProcesssOwnOffsetWidensTheInterval() {
        Random random = new Random(11);
        int coveredByRounds = 0, coveredByRuns = 0, experiments = 100;
        for (int x = 0; x < experiments; x++) {
            long seed = random.nextLong();
            Results known = inRounds(new Random(seed), 3, 10, 0.1, true), unknown = inRounds(new Random(seed), 3, 10, 0.1, false);
            Estimate byRounds = Estimate.of(draw -> draw.from(known).ratio("java", "c"));
            Estimate byRuns = Estimate.of(draw -> draw.from(unknown).ratio("java", "c"));
            assertEquals(byRuns.value(), byRounds.value(), 1e-12, "the same runs, the same figure");
            if (byRounds.low() <= 1.5 && 1.5 <= byRounds.high()) coveredByRounds++;
            if (byRuns.low() <= 1.5 && 1.5 <= byRuns.high()) coveredByRuns++;
        }
        // three rounds are three draws of each process's offset, so no interval reaches 95% from them (86 here);
        // taking thirty runs for thirty independent draws covers the true ratio far less often (63 here)
        assertTrue(coveredByRounds >= 80, coveredByRounds + " of " + experiments + " two-level intervals covered the true ratio");
        assertTrue(coveredByRuns <= coveredByRounds - 15, coveredByRuns + " runs-only against " + coveredByRounds + " two-level intervals covered it");
    }

    @Test
    void oneRoundIsRedrawnRunByRun() {
        Results r = runs(new double[] {9, 10, 12}, new double[] {5, 5, 5});  // no round recorded: one round
        assertEquals(new Estimate(2, 1.8, 2.4), Estimate.of(draw -> draw.from(r).ratio("java", "c")));
    }

    @Test
    void aMediansIntervalIsItsRangeUpToFiveRunsAndNarrowerBeyond() {
        assertEquals(new Estimate(3, 1, 5), Estimate.ofMedian(List.of(5.0, 1.0, 3.0, 2.0, 4.0)));
        assertEquals(new Estimate(2.5, 1, 4), Estimate.ofMedian(List.of(1.0, 2.0, 3.0, 4.0)));
        List<Double> seven = List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
        Estimate e = Estimate.ofMedian(seven);
        assertEquals(4, e.value(), 1e-9);
        assertTrue(e.low() > 1 && e.high() < 7, "seven runs: the median rarely lands on an extreme run: " + e);
        assertEquals(e, Estimate.ofMedian(seven), "fixed seed");
    }

    @Test
    void aMissingFigureHasNoInterval() {
        Estimate e = Estimate.of(draw -> Double.NaN);
        assertTrue(Double.isNaN(e.low()) && Double.isNaN(e.high()));
    }

    @Test
    void aShareOfSamplesCarriesTheWilsonInterval() {
        Estimate one = Estimate.ofShare(1, 100);
        assertEquals(1.0, one.value(), 1e-12);
        assertEquals(0.1767, one.low(), 1e-3);
        assertEquals(5.449, one.high(), 1e-3);
        Estimate none = Estimate.ofShare(0, 50);
        assertEquals(0.0, none.low(), 1e-12, "no samples there: the interval starts at 0");
        assertEquals(7.13, none.high(), 1e-2);
        assertTrue(Estimate.ofShare(100, 10_000).high() - Estimate.ofShare(100, 10_000).low() < one.high() - one.low(), "more samples, a narrower interval");
        assertTrue(Double.isNaN(Estimate.ofShare(0, 0).value()), "no samples at all: nothing measured");
    }

    @Test
    void aStatisticUndefinedOnTooManyRedrawsGetsNoInterval() {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Estimate never = Estimate.of(d -> calls.getAndIncrement() == 0 ? 2.0 : Double.NaN);  // defined on the runs, never redrawn
        assertEquals(2.0, never.value());
        assertTrue(Double.isNaN(never.low()) && Double.isNaN(never.high()), "no interval from no replicate (it once indexed an empty list)");
        calls.set(0);
        Estimate often = Estimate.of(d -> calls.getAndIncrement() % 10 == 9 ? Double.NaN : 2.0);  // one redraw in ten undefined
        assertTrue(Double.isNaN(often.low()), "more than 5% of the redraws unusable: refused");
        calls.set(0);
        Estimate seldom = Estimate.of(d -> calls.getAndIncrement() % 50 == 49 ? Double.NaN : 2.0);  // one in fifty
        assertEquals(2.0, seldom.low());
    }
}
