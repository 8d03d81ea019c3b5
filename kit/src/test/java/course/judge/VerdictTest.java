package course.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.record.Results;
import course.record.Runs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerdictTest {
    static final Why WHY = Why.ifLower("lower").orIfHigher("higher");

    static Published.Claim claim(double value, String unit, String kind) {
        return new Published.Claim("test.claim", "Xu & Guo", "§4.2, Fig 4.1", "raw-1byte", "series", "", "", value, unit,
                kind, "a statement");
    }

    static Estimate at(double value) {
        return Estimate.exact(value);
    }

    /** The text a verdict should give: none when it holds, the settle line when too close, else the side it missed on. */
    static String expectedWhy(String outcome, double measured, double published) {
        return switch (outcome) {
            case "holds" -> "";
            case "too close to call" -> Verdict.SETTLE;
            default -> measured > published ? "higher" : "lower";
        };
    }

    @ParameterizedTest(name = "published {0}×, measured {1}: {2}")
    @CsvSource({
            "2, 2, holds", "2, 2.5, holds", "2, 1.6, holds", "2, 2.51, changed", "2, 1.59, changed", "2, 1.0, changed",
            "2, 0.81, changed", "2, 0.79, reversed", "2, 0.3, reversed", "2, 45, changed",
            "0.5, 0.5, holds", "0.5, 0.62, holds", "0.5, 0.41, holds", "0.5, 0.39, changed", "0.5, 1.2, changed",
            "0.5, 1.26, reversed", "0.5, 4, reversed",
            "45, 36.1, holds", "45, 56, holds", "45, 30, changed", "45, 67, changed",
            "1.1, 1.1, holds", "1.1, 3, changed", "1.1, 0.2, changed"})
    void ratiosHoldWithinAQuarterEitherWayOnALogScale(double published, double measured, String outcome) {
        Verdict v = Verdict.ratio(claim(published, "x", "ratio"), at(measured), WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(expectedWhy(outcome, measured, published), v.why());
    }

    @ParameterizedTest(name = "published 2×, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"2, 1.7, 2.4, holds", "1.7, 1.5, 1.8, too close to call", "2.4, 2.3, 2.6, too close to call", "3.5, 3, 4, changed",
            "0.8, 0.7, 0.9, changed", "0.8, 0.75, 0.85, changed", "0.6, 0.5, 0.7, reversed", "1.2, 1.1, 1.3, changed", "1, 0.5, 3, too close to call"})
    void aRatioIsJudgedByItsWholeInterval(double value, double low, double high, String outcome) {
        Verdict v = Verdict.ratio(claim(2, "x", "ratio"), new Estimate(value, low, high), WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(expectedWhy(outcome, value, 2), v.why());
    }

    @Test
    void eachRowStatesItsRule() {
        assertEquals("holds within ×1.25 of 2.00×: 1.60× to 2.50×; reversed below 0.800×",
                Verdict.ratio(claim(2, "x", "ratio"), at(1), WHY).rule());
        assertEquals("holds within ×1.25 of 0.500×: 0.400× to 0.625×; reversed above 1.25×",
                Verdict.ratio(claim(0.5, "x", "ratio"), at(1), WHY).rule());
        assertEquals("holds within ×1.25 of 1.10×: 0.880× to 1.38×", Verdict.ratio(claim(1.1, "x", "ratio"), at(1), WHY).rule());
    }

    @Test
    void ratiosShowTheirInterval() {
        Published.Claim c = claim(2, "x", "ratio");
        Verdict v = Verdict.ratio(c, new Estimate(2.346, 2.1, 2.6), WHY);
        assertSame(c, v.claim());
        assertEquals("2.35× [2.10–2.60]", v.measured());
        assertEquals("224% [200–250]", Verdict.ratio(claim(224, "%", "percent"), new Estimate(2.24, 2.0, 2.5), WHY).measured());
    }

    @ParameterizedTest(name = "published {0}%, measured ratio {1}: {2}")
    @CsvSource({"224, 2.24, holds", "224, 2.8, holds", "224, 1.8, holds", "224, 1.5, changed", "224, 2.9, changed", "224, 0.7, reversed"})
    void ratiosPublishedInPercentAreReadAsRatios(double published, double measured, String outcome) {
        assertEquals(outcome, Verdict.ratio(claim(published, "%", "percent"), at(measured), WHY).outcome());
    }

    @ParameterizedTest(name = "published {0}% less time, measured {1}%: {2}")
    @CsvSource({"85, 85, holds", "85, 82, holds", "85, 88, holds", "85, 95, changed", "85, 75, changed", "85, -30, reversed",
            "85, -10, changed", "25, 25, holds", "25, 0, changed", "25, 39.9, holds", "25, 41, changed", "25, -26, reversed"})
    void cutsAreJudgedAsTheSpeedUpTheyMean(double published, double measured, String outcome) {
        Verdict v = Verdict.cut(claim(published, "%", "percent"), at(measured), WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(expectedWhy(outcome, measured, published), v.why());
    }

    @Test
    void aCutShowsItsSpeedUp() {
        Verdict v = Verdict.cut(claim(85, "%", "percent"), new Estimate(95, 94, 96), WHY);
        assertEquals("20.0× [16.7–25.0] as fast (95.0% [94.0–96.0] less time)", v.measured());
        assertEquals("holds within ×1.25 of 6.67×: 5.33× to 8.33×; reversed below 0.800× as fast (the study's 85% less time)", v.rule());
    }

    @ParameterizedTest(name = "published {0}%, measured {1}%: {2}")
    @CsvSource({"-91.1, -90, holds", "-91.1, -93, changed", "-91.1, 12, changed", "-91.1, 30, reversed",
            "-5.9, -1, holds", "-5.9, 20, changed", "-5.9, -30, changed", "37, 40, holds", "37, -30, reversed"})
    void changesAreJudgedAsTimeRatios(double published, double measured, String outcome) {
        assertEquals(outcome, Verdict.change(claim(published, "%", "table"), at(measured), WHY).outcome());
    }

    @ParameterizedTest(name = "published {0}%, measured {1}%: {2}")
    @CsvSource({"98, 98, holds", "98, 97, holds", "98, 98.9, holds", "98, 99.1, changed", "98, 90, changed", "98, 40, changed", "98, 30, reversed",
            "0.36, 0.36, holds", "0.36, 0.7, holds", "0.36, 0.2, holds", "0.36, 10, changed", "0.36, 80, reversed",
            "50, 40, holds", "50, 80, changed", "50, 20, changed", "85, 75, holds", "85, 95, changed"})
    void sharesAreJudgedByTheirOdds(double published, double measured, String outcome) {
        Verdict v = Verdict.share(claim(published, "%", "percent"), at(measured), WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(expectedWhy(outcome, measured, published), v.why());
    }

    @Test
    void aShareStatesItsBandInPercent() {
        Verdict v = Verdict.share(claim(98, "%", "percent"), new Estimate(89, 85, 93), WHY);
        assertEquals("changed", v.outcome());
        assertEquals("89.0% [85.0–93.0]", v.measured());
        assertEquals("holds within ×2 in odds: 96.1% to 99.0%; reversed below 33.3%", v.rule());
        assertEquals("too close to call", Verdict.share(claim(98, "%", "percent"), new Estimate(96, 94, 97), WHY).outcome());
    }

    @ParameterizedTest(name = "more than 3×, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"5, 4, 6, holds", "2.5, 2.4, 2.6, holds", "2.5, 2.3, 2.7, too close to call", "2, 1.8, 2.2, changed",
            "0.5, 0.4, 0.6, reversed", "30, 20, 40, holds"})
    void aLowerBoundHoldsAnywhereAboveItWithinTheTolerance(double value, double low, double high, String outcome) {
        Verdict v = Verdict.ratio(claim(3, "x", "at-least"), new Estimate(value, low, high), WHY);
        assertEquals(outcome, v.outcome());
        assertEquals("holds at or above 2.40× (the study's: more than 3.00×, within ×1.25); reversed below 0.800×", v.rule());
    }

    @ParameterizedTest(name = "below 1%, measured {0}% [{1}–{2}]: {3}")
    @CsvSource({"0.04, 0.03, 0.05, holds", "1.5, 1.2, 1.8, holds", "2, 1.8, 2.2, too close to call", "6.27, 6.27, 6.27, changed"})
    void anUpperBoundShareHoldsAnywhereBelowItWithinTheTolerance(double value, double low, double high, String outcome) {
        Verdict v = Verdict.share(claim(1, "%", "at-most"), new Estimate(value, low, high), WHY);
        assertEquals(outcome, v.outcome());
        assertEquals("holds at or below 1.98% (the study's: less than 1%, within ×2 in odds); reversed above 66.7%", v.rule());
    }

    @ParameterizedTest(name = "falls, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"0.3, 0.2, 0.4, holds", "1.3, 1.2, 1.5, reversed", "1, 0.97, 1.03, changed", "0.93, 0.9, 1, too close to call",
            "1.06, 1.02, 1.1, changed", "0.99, 0.9, 1.1, too close to call", "1.1, 1.06, 1.2, reversed"})
    void aDirectionHoldsOnlyPastNoDifference(double value, double low, double high, String outcome) {
        Verdict v = Verdict.below(claim(Double.NaN, "", "claim"), new Estimate(value, low, high), "time after: %s the time before", WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(outcome.equals("holds") ? "" : outcome.equals("too close to call") ? Verdict.SETTLE : "higher", v.why());
        assertTrue(v.measured().startsWith("time after: " + String.format(java.util.Locale.ROOT, "%.3g×", value)), v.measured());
        Verdict up = Verdict.above(claim(Double.NaN, "", "claim"), new Estimate(1 / value, 1 / high, 1 / low), "%s", WHY);
        assertEquals(outcome, up.outcome());
    }

    @ParameterizedTest(name = "near, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"1, 0.9, 1.1, holds", "1.3, 1.26, 1.4, changed", "0.5, 0.4, 0.6, changed", "1.2, 1.1, 1.3, too close to call"})
    void aboutTheSameHoldsWithinTheRatioTolerance(double value, double low, double high, String outcome) {
        Verdict v = Verdict.near(claim(Double.NaN, "", "claim"), new Estimate(value, low, high), "Java took %s C's time", WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(expectedWhy(outcome, value, 1), v.why());
        assertEquals("holds within ×1.25 of 1.00×: 0.800× to 1.25×", v.rule());
    }

    @ParameterizedTest(name = "at least 10×, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"50, 20, 80, holds", "10, 10, 12, holds", "5, 3, 8, changed", "12, 8, 15, too close to call"})
    void aSizeInWordsHoldsAtItsReadingsThreshold(double value, double low, double high, String outcome) {
        Verdict v = Verdict.atLeast(claim(Double.NaN, "", "claim"), new Estimate(value, low, high), 10, "orders of magnitude", "gain %s", WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(outcome.equals("holds") ? "" : outcome.equals("changed") ? "lower" : Verdict.SETTLE, v.why());
        assertEquals("holds at or above 10.0× (reading: orders of magnitude)", v.rule());
    }

    @ParameterizedTest(name = "at most 1.5×, measured {0} [{1}–{2}]: {3}")
    @CsvSource({"1.1, 1.02, 1.3, holds", "1.5, 1.2, 1.5, holds", "2, 1.7, 2.4, changed", "1.4, 1.2, 1.8, too close to call"})
    void aSteadyFigureHoldsAtOrBelowItsReadingsThreshold(double value, double low, double high, String outcome) {
        Verdict v = Verdict.atMost(claim(Double.NaN, "", "claim"), new Estimate(value, low, high), 1.5, "steady", "spread %s", WHY);
        assertEquals(outcome, v.outcome());
        assertEquals(outcome.equals("holds") ? "" : outcome.equals("changed") ? "higher" : Verdict.SETTLE, v.why());
        assertEquals("holds at or below 1.50× (reading: steady)", v.rule());
    }

    @ParameterizedTest(name = "a count of at most 1, measured {0} [{1} to {2}]: {3}")
    @CsvSource({"1, 1, 1, holds", "0, -1, 1, holds", "1, 0, 2.6, too close to call", "3, 2, 4, reversed", "1, NaN, NaN, too close to call"})
    void aCountHoldsWhenItsWholeIntervalStaysAtOrBelowTheMost(double value, double low, double high, String outcome) {
        Verdict v = Verdict.countAtMost(claim(Double.NaN, "", "claim"), new Estimate(value, low, high), 1, "%s threads added", "the rule", "it compensated");
        assertEquals(outcome, v.outcome());
        assertEquals(switch (outcome) {
            case "holds" -> "";
            case "reversed" -> "it compensated";
            default -> Double.isNaN(low) ? Verdict.NO_INTERVAL : Verdict.SETTLE;
        }, v.why());
        assertTrue(v.measured().startsWith(String.format(java.util.Locale.ROOT, "%+.0f", value)), v.measured());
    }

    @Test
    void aMissingTextSaysWhichWayInsteadOfGuessing() {
        Verdict v = Verdict.ratio(claim(2, "x", "ratio"), at(5), Why.ifLower("the JIT closed the gap"));
        assertEquals("changed", v.outcome());
        assertTrue(v.why().startsWith("The figure came out higher than the study's"), v.why());
        assertEquals("the JIT closed the gap", Verdict.ratio(claim(2, "x", "ratio"), at(1), Why.ifLower("the JIT closed the gap")).why());
        assertEquals("either way", Verdict.ratio(claim(2, "x", "ratio"), at(5), Why.either("either way")).why());
    }

    @Test
    void wordClaimsStateTheirCheck() {
        Published.Claim c = claim(Double.NaN, "", "claim");
        String rule = "holds when an overlapping lock throws; reversed when it waits; changed when it is granted";
        Verdict yes = Verdict.claim(c, Verdict.Seen.AS_CLAIMED, "it threw", rule, "locks are no longer the JVM's");
        assertEquals("holds", yes.outcome());
        assertEquals("it threw", yes.measured());
        assertEquals("", yes.why());
        assertEquals(rule, yes.rule());
        Verdict opposite = Verdict.claim(c, Verdict.Seen.OPPOSITE, "it waited", rule, "locks are no longer the JVM's");
        assertEquals("reversed", opposite.outcome(), "a word claim the run contradicts reads reversed, as a figure's does");
        assertEquals("locks are no longer the JVM's", opposite.why());
        assertEquals("changed", Verdict.claim(c, Verdict.Seen.OTHERWISE, "granted", rule, "x").outcome());
    }

    @Test
    void oneRoundIsTooCloseToCallAndSaysWhy() {
        Results oneRound = new Results(java.util.List.of(Runs.run("java", "read", 1 << 20, 0, 8_000_000), Runs.run("c", "read", 1 << 20, 0, 4_000_000)));
        Verdict v = Verdict.ratio(claim(2, "x", "ratio"), Estimate.of(d -> d.from(oneRound).ratio("java", "c")), WHY);
        assertEquals("too close to call", v.outcome(), "a figure without an interval is never judged to hold");
        assertEquals(Verdict.NO_INTERVAL, v.why());
        assertEquals("2.00×", v.measured());
    }

    @Test
    void aSettingThatDiffersIsShownBesideTheFigure() {
        Verdict v = Verdict.ratio(claim(2, "x", "ratio"), at(2), WHY).at("250 KB file; study: 100 MB");
        assertEquals("2.00× · 250 KB file; study: 100 MB", v.measured());
        assertEquals("holds", v.outcome());
    }

    @Test
    void aReadingOfTheStudysWordsStaysWithItsRow() {
        Verdict plain = Verdict.ratio(claim(2, "x", "ratio"), new Estimate(2, 1.9, 2.1), WHY);
        assertEquals("", plain.reading(), "a row judged on a figure alone has none");
        Verdict read = plain.withReading(" \"comparable\" as within ×1.25 ");
        assertEquals("\"comparable\" as within ×1.25", read.reading());
        assertEquals(plain.outcome(), read.outcome());
        assertEquals(plain.measured(), read.measured());
        assertEquals(read.reading(), read.at("250 KB file").reading(), "a setting shown beside the figure keeps it");
        assertEquals(read.reading(), Verdict.inPaper("quick", read, "a small step.").reading(), "a row judged in paper only keeps it");
        assertEquals("", Verdict.unmeasured(claim(2, "x", "ratio"), "no tool").withReading(null).reading());
    }

    @Test
    void unmeasuredClaimsSayWhy() {
        Verdict v = Verdict.unmeasured(claim(28.83, "%", "percent"), "async-profiler could not run");
        assertEquals("not measured", v.outcome());
        assertEquals("n/a", v.measured());
        assertEquals("async-profiler could not run", v.why());
    }

    /** Each run as made in round 1 and again, the same, in round 2: a figure with an interval of one point. */
    static Results inTwoRounds(com.google.gson.JsonObject... runs) {
        java.util.List<com.google.gson.JsonObject> all = new java.util.ArrayList<>();
        for (int round = 1; round <= 2; round++) for (var run : runs) all.add(EstimateTest.inRound(run.deepCopy(), round));
        return new Results(all);
    }

    @Test
    void aJdkChangeIsJudgedOnlyAcrossIt() {
        Published.Claim c = claim(2, "x", "ratio");
        com.google.gson.JsonObject old = Runs.run("java", "read", 1 << 20, 0, 8_000_000);
        old.addProperty("runtime", "java 17.0.15");
        Results both = inTwoRounds(old, Runs.run("java", "read", 1 << 20, 0, 4_000_000));
        Verdict judged = Verdict.acrossJdks(c, both, 21, pair -> Verdict.ratio(c, pair.speedup(both), WHY));
        assertEquals("holds", judged.outcome(), "8 ms on JDK 17, 4 ms on JDK 25: 2× faster");
        assertEquals(new JdkPair("java 17.0.15", "java 25.0.3"), JdkPair.around(both, 21).orElseThrow());
        Verdict after = Verdict.acrossJdks(c, both, 17, pair -> { throw new AssertionError("17 is not before a change shipped in 17"); });
        assertEquals("not measured", after.outcome());
        assertTrue(after.why().contains("these runs had java 17.0.15 and java 25.0.3") && after.why().contains("JAVA_HOMES"), after.why());
        Verdict one = Verdict.acrossJdks(c, both.where("runtime", "java 25.0.3"), 21, pair -> { throw new AssertionError("one JDK"); });
        assertTrue(one.why().contains("these runs had java 25.0.3."), one.why());
        assertTrue(JdkPair.missing(both.where("language", "c"), 21).contains("no Java runtime"));
    }

    @Test
    void aJdkChangeToldByTheClassFileIsJudgedBetweenAJdkWithoutItAndOneWithIt() {
        Published.Claim c = claim(2, "x", "ratio");
        com.google.gson.JsonObject early = Runs.run("java", "read", 1 << 20, 0, 8_000_000), backported = Runs.run("java", "read", 1 << 20, 0, 6_000_000);
        early.addProperty("runtime", "java 17.0.7");
        backported.addProperty("runtime", "java 17.0.15");
        Results runs = inTwoRounds(early, backported, Runs.run("java", "read", 1 << 20, 0, 4_000_000));
        java.util.Map<String, Boolean> has = java.util.Map.of("java 17.0.7", false, "java 17.0.15", true, "java 25.0.3", true);
        assertEquals(new JdkPair("java 17.0.7", "java 25.0.3"), JdkPair.around(runs, has::get).orElseThrow(), "the oldest without, the newest with");
        assertEquals("holds", Verdict.acrossJdks(c, runs, has::get, "the change", pair -> Verdict.ratio(c, pair.speedup(runs), WHY)).outcome());
        Results noneWithout = runs.where(r -> !r.get("runtime").getAsString().equals("java 17.0.7"));
        Verdict v = Verdict.acrossJdks(c, noneWithout, has::get, "the change", pair -> { throw new AssertionError("no JDK here lacks it"); });
        assertEquals("not measured", v.outcome());
        assertTrue(v.why().contains("these runs had java 17.0.15 and java 25.0.3 with it."), v.why());
        java.util.Map<String, Boolean> unknown = new java.util.HashMap<>(has);
        unknown.put("java 17.0.7", null);
        assertTrue(JdkPair.around(runs, unknown::get).isEmpty(), "a JDK javap cannot read is on neither side");
        assertTrue(JdkPair.missing(runs, unknown::get, "the change").contains("java 17.0.7 that javap could not read"));
    }

    @Test
    void aClaimNeedingMoreCoresIsJudgedOnlyWhereThereAreEnough() {
        Published.Claim c = claim(2, "x", "ratio");
        Verdict few = Verdict.withCores(c, 2, 3, () -> { throw new AssertionError("judged without the cores"); });
        assertEquals("not measured", few.outcome());
        assertTrue(few.why().contains("at most 2 processes") && few.why().contains("needs 3"), few.why());
        assertEquals("holds", Verdict.withCores(c, 3, 3, () -> Verdict.ratio(c, at(2), WHY)).outcome());
        assertEquals("big-endian", Verdict.when(false, c, "big-endian", () -> Verdict.ratio(c, at(2), WHY)).why());
    }

    @Test
    void aFigureWithoutAnIntervalIsTooCloseToCallUnderEveryRule() {
        Estimate alone = new Estimate(3, Double.NaN, Double.NaN);  // one round: a figure, no interval
        Published.Claim words = claim(Double.NaN, "", "claim");
        assertEquals("too close to call", Verdict.ratio(claim(3, "x", "ratio"), alone, WHY).outcome());
        assertEquals("too close to call", Verdict.above(words, alone, "%s", WHY).outcome());
        assertEquals("too close to call", Verdict.below(words, alone, "%s", WHY).outcome());
        assertEquals("too close to call", Verdict.near(words, alone, "%s", WHY).outcome());
        assertEquals("too close to call", Verdict.atLeast(words, alone, 2, "more", "%s", WHY).outcome());
        assertEquals("too close to call", Verdict.atMost(words, alone, 4, "less", "%s", WHY).outcome());
    }

    @Test
    void aNaNFigureIsNotMeasured() {
        Estimate nan = at(Double.NaN);
        assertEquals("not measured", Verdict.share(claim(0.36, "%", "percent"), nan, WHY).outcome());
        assertEquals("not measured", Verdict.ratio(claim(3, "x", "ratio"), nan, WHY).outcome());
        assertEquals("not measured", Verdict.cut(claim(25, "%", "percent"), nan, WHY).outcome());
        assertEquals("not measured", Verdict.change(claim(25, "%", "table"), nan, WHY).outcome());
        assertEquals("not measured", Verdict.below(claim(Double.NaN, "", "claim"), nan, "%s", WHY).outcome());
    }

    @ParameterizedTest(name = "published {0} {1}, measured {2} MB/s: {3}")
    @CsvSource({"94, MB/s, 188, 188 MB/s (2.00× the study's)", "10, GB/s, 5120, 5.00 GB/s (0.500× the study's)",
            "4, MB/s, 5748, 5748 MB/s (1437× the study's)",
            "10, GB/s, NaN, not measured"})
    void bandwidthsAreContextNotVerdicts(double published, String unit, double measuredMbPerS, String here) {
        assertEquals(here, Context.rate(claim(published, unit, "text"), measuredMbPerS, "note").here());
        assertThrows(IllegalArgumentException.class, () -> Context.rate(claim(2, "x", "ratio"), 5, ""));
    }

    @Test
    void aClaimDeclaredForThePaperPresetIsJudgedOnlyThere() {
        Verdict judged = Verdict.ratio(claim(2, "x", "ratio"), new Estimate(2, 1.9, 2.1), WHY);
        Verdict quick = Verdict.inPaper("quick", judged, "a 14% step in 1 ms reads.");
        assertEquals("judged in paper", quick.outcome());
        assertEquals(judged.measured(), quick.measured());
        assertEquals(judged.rule(), quick.rule());
        assertEquals("Not judged in quick: a 14% step in 1 ms reads. The paper preset judges it.", quick.why());
        assertEquals(judged, Verdict.inPaper("paper", judged, "x"));
    }
}
