package course.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanTest {
    private static final JsonObject SETTINGS = Preset.table().getAsJsonObject("_plan");
    private static final Plan.Costs REFERENCE = Plan.referenceCosts(SETTINGS);
    private static final double BUDGET = Plan.budgetSeconds(SETTINGS);

    private static JsonObject quick(String lab) {
        return Preset.table().getAsJsonObject(lab).getAsJsonObject("quick");
    }

    private static Plan.Costs times(double perCall, double perStart) {
        return new Plan.Costs(REFERENCE.readNs() * perCall, REFERENCE.jvmStartMs() * perStart);
    }

    @Test
    void everyLabsQuickHasAModelAndFitsTheBudgetOnTheReferenceMachine() {
        for (String lab : Preset.table().keySet()) {
            if (lab.startsWith("_")) continue;
            JsonObject quick = quick(lab);
            assertTrue(quick.has("scale") && quick.has("seconds"), lab + "'s quick has a scale and its seconds");
            for (String part : java.util.List.of("fixed", "judged", "work")) assertTrue(quick.getAsJsonObject("seconds").has(part), lab + "'s seconds: " + part);
            assertEquals(quick.has("fewest"), quick.getAsJsonObject("seconds").has("rounds"), lab + ": what its fewest rounds save is measured where it has them");
            if (quick.has("fewest")) {
                for (var e : quick.getAsJsonObject("fewest").entrySet()) {
                    int least = e.getKey().endsWith("rounds") ? 3 : 1;  // an interval needs three rounds
                    assertTrue(e.getKey().endsWith("rounds") || e.getKey().equals("repeat"), lab + " " + e.getKey() + ": only counts of repeats are taken at their fewest");
                    assertTrue(e.getValue().getAsInt() >= least && e.getValue().getAsInt() < quick.get(e.getKey()).getAsInt(),
                            lab + " " + e.getKey() + ": at least " + least + ", fewer than quick's");
                }
            }
            Plan plan = Plan.fit(quick, REFERENCE, REFERENCE, BUDGET);
            assertEquals(1, plan.divisor(), lab + " runs whole on the machine its seconds come from: " + plan);
            for (String key : quick.getAsJsonObject("scale").keySet()) {
                assertTrue(quick.has(key), lab + "'s scale names " + key + ", which its quick preset has");
                assertTrue(java.util.List.of(2, 4, 8).contains(quick.getAsJsonObject("scale").get(key).getAsInt()), lab + " " + key);
            }
        }
    }

    /**
     * A machine like the AMD EPYC VM the course was tried on: a system call four times the reference's, a JVM start half
     * again as long (lab 09, whose time is mostly JVM starts, took 1.44 times as long there as on the reference machine).
     * Every lab gets within the budget there or, where what its verdicts rest on takes longer than that, makes every cut
     * it may and says how long it will take.
     */
    @Test
    void aMachineFourTimesCostlierPerCallGetsAPlanWithinTheBudgetOrAllItMayCut() {
        for (String lab : Preset.table().keySet()) {
            if (lab.startsWith("_")) continue;
            Plan plan = Plan.fit(quick(lab), times(4, 1.5), REFERENCE, BUDGET);
            boolean allItMay = plan.divisor() == 8 && plan.fewestRounds() == quick(lab).has("fewest");
            assertTrue(plan.seconds() <= BUDGET || allItMay, lab + ": " + plan);
            String opening = new Preset(lab, "quick", quick(lab)).planned(plan).openingLine("a machine");
            assertTrue(opening.contains(String.format(java.util.Locale.ROOT, "about %.0f s here", plan.seconds())), opening);
        }
    }

    /** The planner never cuts what a verdict rests on: no lab's quick lists a judged key to cut, and under every plan each keeps quick's value. */
    @Test
    void noPlanChangesAKeyAJudgedClaimReads() {
        for (String lab : Preset.table().keySet()) {
            if (lab.startsWith("_")) continue;
            JsonObject quick = quick(lab);
            Plan.refuseCutsOfJudgedKeys(quick);
            Preset whole = new Preset(lab, "quick", quick);
            for (int divisor : Plan.DIVISORS) {
                for (boolean fewest : java.util.List.of(false, true)) {
                    Preset planned = whole.planned(new Plan(divisor, fewest, null, null, Double.NaN, "test"));
                    for (String key : Plan.judgedOn(quick)) assertEquals(valueOf(whole, key), valueOf(planned, key), lab + " " + key + " at 1/" + divisor);
                }
            }
        }
    }

    /** A key's value as the notebooks read it: sizes are written as text ("1k"), counts as numbers. */
    private static Object valueOf(Preset preset, String key) {
        com.google.gson.JsonElement v = preset.values().get(key);
        boolean many = v.isJsonArray(), text = (many ? v.getAsJsonArray().get(0) : v).getAsJsonPrimitive().isString();
        if (text) return many ? preset.sizes(key) : preset.size(key);
        return many ? preset.counts(key) : preset.count(key);
    }

    @Test
    void aCutOfAJudgedKeyIsRefusedInOneLineAndNeverMade() {
        JsonObject quick = JsonParser.parseString("{\"scale\": {\"file_size\": 8}, \"judged_on\": [\"file_size\"], \"file_size\": \"64m\","
                + " \"seconds\": {\"fixed\": 1, \"judged\": 1, \"work\": 1}}").getAsJsonObject();
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Plan.refuseCutsOfJudgedKeys(quick));
        assertEquals("labs/presets.json: quick's scale lists file_size, which a judged claim reads (judged_on): a plan may cut only what no"
                + " verdict rests on; take it out of scale", refused.getMessage());
        assertEquals(64L << 20, new Preset("x", "quick", quick).planned(new Plan(8, false, null, null, Double.NaN, "test")).size("file_size"));
    }

    @Test
    void theReferenceMachinesOwnSpreadChangesNothing() {
        for (String lab : Preset.table().keySet()) {
            if (lab.startsWith("_")) continue;
            Plan plan = Plan.fit(quick(lab), times(1 + Plan.PROBE_TOLERANCE, 1 + Plan.PROBE_TOLERANCE), REFERENCE, BUDGET);
            assertTrue(plan.divisor() == 1 && !plan.fewestRounds(), lab + ": a probe reading 15% slow on the reference machine keeps quick whole: " + plan);
        }
    }

    @Test
    void aFasterMachineKeepsQuicksSizes() {
        Plan plan = Plan.fit(quick("03-operation-size"), times(0.5, 0.5), REFERENCE, BUDGET);
        assertEquals(1, plan.divisor());
    }

    @Test
    void theFirstPlanThatFitsIsChosenSizesBeforeRounds() {
        JsonObject quick = JsonParser.parseString("{\"scale\": {\"size\": 8}, \"fewest\": {\"rounds\": 3}, \"rounds\": 5,"
                + " \"seconds\": {\"fixed\": 20, \"judged\": 0, \"work\": 60, \"rounds\": 8}}").getAsJsonObject();
        Plan.Costs reference = new Plan.Costs(200, 50);
        assertEquals(1, Plan.fit(quick, reference, reference, 80).divisor(), "20 + 60 fits 80");
        assertEquals(2, Plan.fit(quick, new Plan.Costs(300, 50), reference, 80).divisor(), "20 + 90 / 2 = 65");
        Plan four = Plan.fit(quick, new Plan.Costs(600, 50), reference, 80);
        assertEquals(4, four.divisor(), "20 + 180 / 4 = 65");
        assertFalse(four.fewestRounds(), "rounds are kept while dividing sizes is enough");
        Plan fewer = Plan.fit(quick, new Plan.Costs(200, 190), reference, 80);
        assertTrue(fewer.fewestRounds() && fewer.divisor() == 2, "76 s no size drives: then the fewest rounds save 8 × 3.8 and 60 / 2 fits: " + fewer);
        Plan most = Plan.fit(quick, new Plan.Costs(200, 400), reference, 80);
        assertTrue(most.fewestRounds() && most.divisor() == 8, "160 s that no size drives, 96 with the fewest rounds: the most there is, " + most);
        assertTrue(most.seconds() > 80, "and its prediction says it is still too long: " + most);
        assertEquals(3, new Preset("x", "quick", quick).planned(fewer).count("rounds"));
        assertEquals(5, new Preset("x", "quick", quick).planned(four).count("rounds"));
    }

    @Test
    void whatTheVerdictsRestOnFollowsAReadAndOnlyFewerRepeatsShortenIt() {
        JsonObject quick = JsonParser.parseString("{\"scale\": {\"exercise_size\": 8}, \"judged_on\": [\"file_size\"], \"fewest\": {\"repeat\": 3},"
                + " \"file_size\": \"16m\", \"exercise_size\": \"1m\", \"repeat\": 6, \"seconds\": {\"fixed\": 20, \"judged\": 40, \"work\": 20, \"rounds\": 30}}").getAsJsonObject();
        Plan.Costs reference = new Plan.Costs(200, 50);
        Plan plan = Plan.fit(quick, new Plan.Costs(400, 50), reference, 80);
        assertTrue(plan.fewestRounds() && plan.divisor() == 2, "20 + 80 + 20 × 2 / 8 = 105 is too long; the fewest repeats keep half of 100, and 50 + 40 / 2 fits: " + plan);
        assertEquals(70, plan.seconds(), 1e-9);
        Preset planned = new Preset("x", "quick", quick).planned(plan);
        assertEquals(16L << 20, planned.size("file_size"), "the size the verdicts rest on is kept");
        assertEquals(3, planned.count("repeat"));
        assertEquals(512L << 10, planned.size("exercise_size"));
    }

    @Test
    void onlyTheListedSizesShrinkAndNeverPastTheirLimit() {
        JsonObject values = JsonParser.parseString("{\"scale\": {\"file_size\": 8, \"sizes\": 2}, \"seconds\": {\"fixed\": 1, \"judged\": 0, \"work\": 1},"
                + " \"file_size\": \"64m\", \"sizes\": [\"16k\", \"256k\"], \"op_size\": \"1m\"}").getAsJsonObject();
        Preset quarter = new Preset("x", "quick", values).planned(new Plan(4, false, null, null, Double.NaN, "test"));
        assertEquals(16L << 20, quarter.size("file_size"));
        assertEquals(java.util.List.of(8L << 10, 128L << 10), quarter.sizes("sizes"), "at most halved");
        assertEquals(1L << 20, quarter.size("op_size"), "a size scale does not list is kept");
        assertEquals("file size 16m · sizes 8k, 128k · op size 1m", quarter.sizesLine());
        assertEquals(64L << 20, new Preset("x", "quick", values).size("file_size"), "unplanned: as written");
    }

    @Test
    void courseplanSetsItByHandAndRefusesAnythingElseInOneLine() {
        assertTrue(Plan.chosen(null).isEmpty());
        assertTrue(Plan.chosen("auto").isEmpty());
        assertEquals(1, Plan.chosen("off").orElseThrow().divisor());
        assertEquals(4, Plan.chosen("1/4").orElseThrow().divisor());
        assertFalse(Plan.chosen("1/4").orElseThrow().fewestRounds());
        assertTrue(Plan.chosen("fewest").orElseThrow().fewestRounds());
        assertEquals(1, Plan.chosen("fewest").orElseThrow().divisor());
        assertEquals(8, Plan.chosen("1/8+fewest").orElseThrow().divisor());
        for (String bad : new String[] {"1/3", "0.25", "1/1", "quarter", "fewer", "1/3+fewest"}) {
            var e = assertThrows(IllegalArgumentException.class, () -> Plan.chosen(bad));
            assertTrue(e.getMessage().startsWith("COURSE_PLAN=" + bad + ": use auto, off, 1/2, 1/4, 1/8"), e.getMessage());
        }
    }

    /** Every lab opens under every plan COURSE_PLAN can set, those without a "fewest" (labs 00 and 08) included. */
    @Test
    void everyLabOpensUnderEveryPlanSetByHand() {
        for (String lab : Preset.table().keySet()) {
            if (lab.startsWith("_")) continue;
            for (String setting : java.util.List.of("off", "1/2", "1/8", "fewest", "1/4+fewest")) {
                Plan plan = Plan.chosen(setting).orElseThrow();
                String opening = new Preset(lab, "quick", quick(lab)).planned(plan).openingLine("a machine");
                assertTrue(opening.startsWith("Lab " + lab + " · preset quick"), setting + ": " + opening);
            }
        }
    }

    @Test
    void aSavedPlanComesBackWithItsDivisor() {
        Plan plan = Plan.fit(quick("01-raw-io"), times(4, 1.5), REFERENCE, BUDGET);
        JsonObject saved = plan.toJson();
        assertEquals("probe", saved.get("source").getAsString());
        assertEquals(plan.divisor(), Plan.saved(saved).divisor());
        assertEquals(plan.fewestRounds(), Plan.saved(saved).fewestRounds());
        assertEquals(1, Plan.saved(null).divisor(), "results saved before plans ran quick whole");
        assertTrue(plan.line(quick("01-raw-io")).contains("4.0× the course's reference machine"), plan.line(quick("01-raw-io")));
    }

    @Test
    void theProbeTimesOneSystemCallPerByteAndLeavesNothing(@TempDir Path scratch) throws IOException {
        // what it times, counted by the kernel rather than by a clock: seven passes of one read(2) per byte and one at the end
        long before = readCalls();
        double readNs = Plan.Costs.measureReadNs(scratch);
        long calls = readCalls() - before;
        long expected = 7L * (Plan.PROBE_BYTES + 1);
        assertTrue(calls >= expected && calls < expected + 100, calls + " read calls for " + expected + " one-byte reads");
        assertTrue(readNs > 0, "a 1-byte read: " + readNs);
        assertEquals(0, scratch.toFile().list().length, "the probe's file is removed");
    }

    /** The read system calls this thread made so far, as the kernel counts them (/proc/thread-self/io's syscr). */
    static long readCalls() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/io"))) {
            if (line.startsWith("syscr:")) return Long.parseLong(line.substring(6).strip());
        }
        throw new IllegalStateException("no syscr in /proc/thread-self/io");
    }
}
