package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class VerdictTest {
    static Published.Claim claim(double value, String unit, String kind) {
        return new Published.Claim("test.claim", "Xu & Guo", "§4.2, Fig 4.1", "raw-1byte", "series", "", "", value, unit,
                kind, "a statement");
    }

    @ParameterizedTest(name = "published {0}x, measured {1}: {2}")
    @CsvSource({
            "2, 2, holds", "2, 3, holds", "2, 1.34, holds", "2, 3.01, changed", "2, 1.3, changed",
            "2, 1.0, changed", "2, 0.95, changed", "2, 0.9, reversed", "2, 0.5, reversed",
            "0.5, 0.5, holds", "0.5, 0.75, holds", "0.5, 0.34, holds", "0.5, 0.33, changed", "0.5, 0.8, changed", "0.5, 1.1, changed",
            "0.5, 1.2, reversed", "0.5, 4, reversed",
            "10, 15, holds", "10, 6.7, holds", "10, 16, changed", "10, 1.05, changed"})
    void ratio(double published, double measured, String outcome) {
        Verdict v = Verdict.ratio(claim(published, "x", "ratio"), measured, "because");
        assertEquals(outcome, v.outcome());
        assertEquals(outcome.equals("holds") ? "" : "because", v.why());
    }

    @Test
    void ratioShowsTimes() {
        Published.Claim c = claim(2, "x", "ratio");
        Verdict v = Verdict.ratio(c, 2.346, "why");
        assertSame(c, v.claim());
        assertEquals("2.35×", v.measured());
    }

    @ParameterizedTest(name = "published {0}%, measured ratio {1}: {2}")
    @CsvSource({"224, 2.24, holds", "224, 3.3, holds", "224, 1.5, holds", "224, 3.5, changed", "224, 0.8, reversed",
            "50, 0.5, holds", "50, 1.5, reversed"})
    void ratioPublishedInPercent(double published, double measured, String outcome) {
        Verdict v = Verdict.ratio(claim(published, "%", "percent"), measured, "w");
        assertEquals(outcome, v.outcome());
    }

    @Test
    void ratioPublishedInPercentShowsPercent() {
        assertEquals("224%", Verdict.ratio(claim(224, "%", "percent"), 2.24, "").measured());
        assertEquals("150%", Verdict.ratio(claim(224, "%", "percent"), 1.5, "").measured());
    }

    @ParameterizedTest(name = "published {0}%, measured {1}%: {2}")
    @CsvSource({"98, 98, holds", "98, 88, holds", "98, 100, holds", "98, 87.9, changed", "98, 60, changed",
            "98, 50, reversed", "98, 10, reversed", "30, 40, holds", "30, 20, holds", "30, 45, changed", "30, 5, changed",
            "30, 51, reversed", "30, 95, reversed", "55, 45, holds", "55, 44, reversed"})
    void share(double published, double measured, String outcome) {
        Verdict v = Verdict.share(claim(published, "%", "percent"), measured, "because");
        assertEquals(outcome, v.outcome());
        assertEquals(outcome.equals("holds") ? "" : "because", v.why());
    }

    @Test
    void shareShowsPercent() {
        assertEquals("88%", Verdict.share(claim(98, "%", "percent"), 87.6, "").measured());
    }

    @Test
    void wordClaims() {
        Published.Claim c = claim(Double.NaN, "", "claim");
        Verdict yes = Verdict.claim(c, true, "flat within 10%", "not flat");
        assertEquals("holds", yes.outcome());
        assertEquals("flat within 10%", yes.measured());
        assertEquals("", yes.why());
        Verdict no = Verdict.claim(c, false, "rate doubled", "not flat");
        assertEquals("changed", no.outcome());
        assertEquals("not flat", no.why());
    }

    @Test
    void tolerances() {
        assertEquals(1.5, Verdict.RATIO_TOLERANCE);
        assertEquals(10, Verdict.SHARE_POINTS);
    }

    @ParameterizedTest
    @CsvSource({"25, 30, holds", "25, 15, holds", "25, 97, changed", "40, -20, reversed", "5, 14.9, holds", "5, 16, changed"})
    void cutsHoldWithinTenPointsAndReverseWhenSlower(double published, double measured, String outcome) {
        Verdict v = Verdict.cut(claim(published, "%", "percent"), measured, "because");
        assertEquals(outcome, v.outcome());
        assertEquals(outcome.equals("holds") ? "" : "because", v.why());
    }

    @Test
    void cutsShowTheTimeSaved() {
        assertEquals("97% less time", Verdict.cut(claim(25, "%", "percent"), 97.4, "").measured());
    }

    @Test
    void unmeasuredClaimsSayWhy() {
        Verdict v = Verdict.unmeasured(claim(28.83, "%", "percent"), "async-profiler could not run");
        assertEquals("not measured", v.outcome());
        assertEquals("n/a", v.measured());
        assertEquals("async-profiler could not run", v.why());
    }

    @Test
    void aNaNFigureIsNotMeasured() {
        assertEquals("not measured", Verdict.share(claim(0.36, "%", "percent"), Double.NaN, "w").outcome());
        assertEquals("not measured", Verdict.ratio(claim(3, "x", "ratio"), Double.NaN, "w").outcome());
        assertEquals("not measured", Verdict.cut(claim(25, "%", "percent"), Double.NaN, "w").outcome());
    }

    @ParameterizedTest
    @CsvSource({"-91.1, -97.0, holds", "-13.9, -30, changed", "-37.3, 12, reversed", "-5.9, -1, holds"})
    void changesCompareSignedPercentages(double published, double measured, String outcome) {
        Verdict v = Verdict.change(claim(published, "%", "table"), measured, "w");
        assertEquals(outcome, v.outcome());
    }

    @ParameterizedTest(name = "published {0} {1}, measured {2} MB/s: {3}")
    @CsvSource({"94, MB/s, 94, holds", "94, MB/s, 141, holds", "94, MB/s, 142, changed", "94, MB/s, 62, changed",
            "10, GB/s, 10240, holds", "10, GB/s, 7000, holds", "10, GB/s, 6000, changed", "6, GB/s, 20000, changed"})
    void rate(double published, String unit, double measuredMbPerS, String outcome) {
        Verdict v = Verdict.rate(claim(published, unit, "text"), measuredMbPerS, "because");
        assertEquals(outcome, v.outcome());
    }

    @Test
    void rateShowsTheClaimsUnit() {
        assertEquals("5.00 GB/s (0.50× the study's)", Verdict.rate(claim(10, "GB/s", "text"), 5120, "").measured());
        assertEquals("not measured", Verdict.rate(claim(10, "GB/s", "text"), Double.NaN, "").outcome());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Verdict.rate(claim(2, "x", "ratio"), 5, ""));
    }

    @ParameterizedTest(name = "published 2x, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"2, 1.8, 2.2, holds", "2, 1.2, 2.2, too close to call", "2.9, 2.7, 3.1, too close to call", "4, 3.5, 4.5, changed",
            "0.8, 0.7, 0.85, reversed", "1, 0.8, 1.2, too close to call", "1.2, 1.1, 1.3, changed"})
    void ratioJudgedByItsWholeInterval(double value, double low, double high, String outcome) {
        Verdict v = Verdict.ratio(claim(2, "x", "ratio"), new Estimate(value, low, high), "because");
        assertEquals(outcome, v.outcome());
        assertEquals(switch (outcome) { case "holds" -> ""; case "too close to call" -> Verdict.SETTLE; default -> "because"; }, v.why());
        assertEquals("holds within ×1.5 of 2.00×; reversed beyond 1 by 10%", v.rule());
    }

    @Test
    void anIntervalIsShownBesideItsFigure() {
        assertEquals("2.35× [2.10–2.60]", Verdict.ratio(claim(2, "x", "ratio"), new Estimate(2.346, 2.1, 2.6), "").measured());
        assertEquals("224% [200–250]", Verdict.ratio(claim(224, "%", "percent"), new Estimate(2.24, 2.0, 2.5), "").measured());
    }

    @ParameterizedTest(name = "published 98%, measured {0}% [{1}–{2}]: {3}")
    @CsvSource({"95, 90, 99, holds", "89, 85, 93, too close to call", "70, 60, 80, changed", "30, 20, 40, reversed", "50, 45, 55, too close to call"})
    void shareJudgedByItsWholeInterval(double value, double low, double high, String outcome) {
        Verdict v = Verdict.share(claim(98, "%", "percent"), new Estimate(value, low, high), "because");
        assertEquals(outcome, v.outcome());
        assertEquals("holds within ±10 points of 98.0%; reversed across 50%", v.rule());
    }
}
