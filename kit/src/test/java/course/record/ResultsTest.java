package course.record;

import static course.record.Runs.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import course.judge.Estimate;
import course.judge.EstimateTest;
import course.show.RunsTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class ResultsTest {
    static final long MB = 1L << 20;

    @Test
    void medianOfAnOddCountIsTheMiddleRun() {
        Results r = new Results(List.of(run("java", "read", MB, 0, 30_000_000), run("java", "read", MB, 1, 10_000_000),
                run("java", "read", MB, 2, 20_000_000)));
        List<Map<String, Object>> rows = r.summary();
        assertEquals(1, rows.size());
        Map<String, Object> row = rows.get(0);
        assertEquals(3, row.get("runs"));
        assertEquals(20.0, (double) row.get("median_ms"), 1e-9);
        assertEquals(10.0, (double) row.get("min_ms"), 1e-9);
        assertEquals(30.0, (double) row.get("max_ms"), 1e-9);
        assertEquals(50.0, (double) row.get("mb_per_s"), 1e-9, "1 MB in 20 ms");
        assertEquals(MB / 0.020, (double) row.get("ops_per_s"), 1e-6);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        Results r = new Results(List.of(run("c", "write", MB, 0, 40_000_000), run("c", "write", MB, 1, 10_000_000),
                run("c", "write", MB, 2, 20_000_000), run("c", "write", MB, 3, 1_000_000_000)));
        Map<String, Object> row = r.summary().get(0);
        assertEquals(4, row.get("runs"));
        assertEquals(30.0, (double) row.get("median_ms"), 1e-9);
        assertEquals(10.0, (double) row.get("min_ms"), 1e-9);
        assertEquals(1000.0, (double) row.get("max_ms"), 1e-9);
        assertEquals(1 / 0.030, (double) row.get("mb_per_s"), 1e-9);
    }

    @Test
    void caseFieldsAreCopiedWithTheirTypes() {
        Map<String, Object> row = new Results(List.of(run("java", "read", "rand", 10001, 4096, 0, 1_000_000, 0, 0)))
                .summary().get(0);
        assertEquals("java", row.get("language"));
        assertEquals("raw_io", row.get("snippet"));
        assertEquals("raw", row.get("strategy"));
        assertEquals("read", row.get("op"));
        assertEquals("rand", row.get("pattern"));
        assertEquals("warm", row.get("cache"));
        assertEquals(10001L, row.get("file_size"));
        assertEquals(4096L, row.get("op_size"));
        assertEquals(0L, row.get("buffer_size"));
        // rand: 2 whole slots = 8192 bytes in 1 ms
        assertEquals(8192.0 / MB / 0.001, (double) row.get("mb_per_s"), 1e-9);
        assertEquals(2000.0, (double) row.get("ops_per_s"), 1e-9);
        assertNull(row.get("sys_share_pct"), "no CPU time measured: no share");
    }

    @Test
    void cpuColumns() {
        Map<String, Object> row = new Results(List.of(
                run("java", "read", "seq", 1000, 1, 0, 5_000_000, 1_000_000, 3_000_000),
                run("java", "read", "seq", 1000, 1, 1, 5_000_000, 3_000_000, 1_000_000),
                run("java", "read", "seq", 1000, 1, 2, 5_000_000, 2_000_000, 2_000_000))).summary().get(0);
        assertEquals(50.0, (double) row.get("sys_share_pct"), 1e-9, "median user 2 ms, median sys 2 ms");
        assertEquals(4_000.0, (double) row.get("cpu_ns_per_op"), 1e-9, "4 ms over 1000 operations");
    }

    @Test
    void theTableSplitsCpuTimeOnlyWhereTheRunsHeldEnoughOfIt() {
        // five runs of 10 ms of CPU time each: 50 ms in all, a handful of ticks
        List<JsonObject> short_ = new java.util.ArrayList<>(), long_ = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) short_.add(run("c", "write", "seq", 1000, 1, i, 10_000_000, 6_000_000, 4_000_000));
        for (int i = 0; i < 5; i++) long_.add(run("c", "read", "seq", 1000, 1, i, 50_000_000, 30_000_000, 20_000_000));
        assertEquals(40.0, (double) new Results(short_).summary().get(0).get("sys_share_pct"), 1e-9, "the figure is kept for the verdicts");
        assertFalse(RunsTable.html(new Results(short_)).contains("sys share"), "no row holds enough CPU time: no column");
        String both = RunsTable.html(new Results(short_).and(new Results(long_)));
        assertTrue(both.contains("<th>sys share pct</th>") && both.contains("<td>40.0</td>") && both.contains("<td>n/a</td>"), both);
    }

    @Test
    void theStrategyWithTheHighestMedianIsNamed() {
        JsonObject slow = Runs.run("java", "read", MB, 0, 4_000_000), fast = Runs.run("java", "read", MB, 0, 1_000_000);
        slow.addProperty("strategy", "data");
        fast.addProperty("strategy", "bytes");
        assertEquals("bytes", new Results(List.of(slow, fast)).strategyWithHighestMedian("mb_per_s"));
        assertEquals("data", new Results(List.of(slow, fast)).strategyWithHighestMedian("median_ms"));
        assertEquals("", new Results(List.of()).strategyWithHighestMedian("mb_per_s"));
    }

    @Test
    void aShareOfSystemTimePoolsTheRunsThatTickedThereRarely() {
        // four runs of 4 ticks each (4 ms a tick): one tick in the system in one run only, as the kernel samples it
        List<JsonObject> runs = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) runs.add(run("c", "write", "seq", 1000, 1, i, 16_000_000, i == 0 ? 12_000_000 : 16_000_000, i == 0 ? 4_000_000 : 0));
        assertEquals(100.0 * 4 / 64, (double) new Results(runs).summary().get(0).get("sys_share_pct"), 1e-9,
                "4 ms of 64 ms in all, where the median run's share would be 0%");
    }

    @Test
    void residentIsTheMostAnyColdRunFoundCachedAndShownOnlyWhereMeasured() {
        JsonObject warm = Runs.run("c", "read", 1 << 20, 0, 1000);
        List<JsonObject> cold = new java.util.ArrayList<>();
        double[] found = {0.0, 3.5, 0.2};
        for (int i = 0; i < found.length; i++) {
            JsonObject r = Runs.run("c", "read", 1 << 20, i, 2000);
            r.addProperty("cache", "cold");
            r.addProperty("resident_pct", found[i]);
            cold.add(r);
        }
        assertEquals(3.5, new Results(cold).summary().get(0).get("resident_pct"));
        assertNull(new Results(List.of(warm)).summary().get(0).get("resident_pct"));
        assertFalse(RunsTable.html(new Results(List.of(warm))).contains("resident"), "a warm table has no such column");
        assertTrue(RunsTable.html(new Results(cold)).contains("<th>resident pct</th>"));
    }

    @Test
    void oneRowPerCaseInFirstSeenOrder() {
        List<JsonObject> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.add(run("java", "write", MB, i, 10_000_000));
            runs.add(run("c", "write", MB, i, 5_000_000));
            runs.add(run("java", "write", 2 * MB, i, 20_000_000));
        }
        runs.add(run("java", "read", MB, 0, 1_000_000));
        List<Map<String, Object>> rows = new Results(runs).summary();
        assertEquals(4, rows.size());
        assertEquals(List.of("java", "c", "java", "java"), rows.stream().map(r -> r.get("language")).toList());
        assertEquals(List.of(MB, MB, 2 * MB, MB), rows.stream().map(r -> r.get("file_size")).toList());
        assertEquals(List.of(3, 3, 3, 1), rows.stream().map(r -> r.get("runs")).toList());
    }

    @Test
    void ratioIsTheGeometricMeanOverCasesBothRan() {
        List<JsonObject> runs = new ArrayList<>();
        runs.add(run("java", "write", MB, 0, 40_000_000));
        runs.add(run("c", "write", MB, 0, 10_000_000));   // 4×
        runs.add(run("java", "read", MB, 0, 10_000_000));
        runs.add(run("c", "read", MB, 0, 10_000_000));    // 1×
        runs.add(run("java", "read", 2 * MB, 0, 99_000_000)); // no C twin: ignored
        Results r = new Results(runs);
        assertEquals(2.0, r.ratio("java", "c"), 1e-9, "sqrt(4 × 1)");
        assertEquals(0.5, r.ratio("c", "java"), 1e-9);
    }

    @Test
    void ratioUsesMedians() {
        List<JsonObject> runs = new ArrayList<>();
        long[] java = {30_000_000, 90_000_000, 30_000_000}, c = {10_000_000, 10_000_000, 1_000_000};
        for (int i = 0; i < 3; i++) {
            runs.add(run("java", "write", MB, i, java[i]));
            runs.add(run("c", "write", MB, i, c[i]));
        }
        assertEquals(3.0, new Results(runs).ratio("java", "c"), 1e-9);
    }

    @Test
    void cpuTimePerOperationPoolsTheRunsAndIsMissingWhereNoneRegistered() {
        // tick-sampled CPU time: one run got the whole 2 ms tick, the other none; a case with no tick at all has no figure
        Results r = new Results(List.of(
                run("java", "read", "seq", 1000, 1, 0, 1_000_000, 2_000_000, 0),
                run("java", "read", "seq", 1000, 1, 1, 1_000_000, 0, 0),
                run("c", "read", "seq", 1000, 1, 0, 1_000_000, 0, 0),
                run("c", "read", "seq", 1000, 1, 1, 1_000_000, 0, 0)));
        Map<String, Object> java = r.where("language", "java").summary().get(0);
        assertEquals(1_000.0, (double) java.get("cpu_ns_per_op"), 1e-9, "2 ms over the 2000 operations of both runs");
        assertNull(r.where("language", "c").summary().get(0).get("cpu_ns_per_op"), "no CPU time registered: no figure, not 0 ns");
        assertTrue(Double.isNaN(r.ratio("java", "c", "cpu_ns_per_op")), "not measured, where a run of 0 ns would have been a crash or infinity");
        assertThrows(IllegalArgumentException.class, () -> r.ratio("java", "rust", "cpu_ns_per_op"), "no case in both is a caller's mistake");
    }

    @Test
    void ratioOfAnotherColumn() {
        Results r = new Results(List.of(
                run("java", "write", "seq", 1000, 1, 0, 9_000_000, 3_000_000, 3_000_000),
                run("c", "write", "seq", 1000, 1, 0, 1_000_000, 1_000_000, 1_000_000)));
        assertEquals(9.0, r.ratio("java", "c"), 1e-9);
        assertEquals(3.0, r.ratio("java", "c", "cpu_ns_per_op"), 1e-9);
    }

    @Test
    void ratioWithoutCommonCasesThrows() {
        Results r = new Results(List.of(run("java", "write", MB, 0, 1_000_000), run("c", "read", MB, 0, 1_000_000)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.ratio("java", "c"));
        assertTrue(e.getMessage().contains("java") && e.getMessage().contains("c"), e.getMessage());
    }

    @Test
    void worstSpreadIsTheLargestWithinAnyGroup() {
        List<JsonObject> runs = new ArrayList<>();
        runs.add(run("java", "write", MB, 0, 10_000_000));
        runs.add(run("java", "write", 2 * MB, 0, 20_000_000));   // same rate: spread 1
        runs.add(run("c", "write", MB, 0, 10_000_000));
        runs.add(run("c", "write", 2 * MB, 0, 60_000_000));      // 100 vs 33.3 MB/s: spread 3
        Results r = new Results(runs);
        assertEquals(3.0, r.worstSpread("mb_per_s", "language", "op"), 1e-9);
        assertEquals(1.0, r.where("language", "java").worstSpread("mb_per_s", "language", "op"), 1e-9);
        assertEquals(6.0, r.worstSpread("median_ms"), 1e-9, "no grouping: all cases together");
        assertEquals(3.0, r.where("language", "c").worstSpread("mb_per_s"), 1e-9, "one language's cases alone");
    }

    @Test
    void medianOfAColumnAcrossCases() {
        List<JsonObject> runs = List.of(run("java", "write", MB, 0, 10_000_000), run("java", "write", 2 * MB, 0, 10_000_000),
                run("java", "write", 4 * MB, 0, 10_000_000), run("c", "write", MB, 0, 1_000_000));
        Results r = new Results(runs);
        assertEquals(200.0, r.median("mb_per_s", row -> row.get("language").equals("java")), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> r.median("mb_per_s", row -> false));
    }

    @Test
    void whereFilters() {
        Results r = new Results(List.of(run("java", "write", MB, 0, 1), run("c", "write", MB, 0, 2),
                run("java", "read", MB, 0, 3)));
        assertEquals(2, r.where("language", "java").runs().size());
        assertEquals(1, r.where("language", "java").where("op", "read").runs().size());
        assertEquals(3, r.where("language", "java").where("op", "read").runs().get(0).get("elapsed_ns").getAsLong());
        assertEquals(0, r.where("language", "rust").runs().size());
        assertEquals(3, r.where("file_size", String.valueOf(MB)).runs().size(), "numbers compare as their text");
        assertEquals(1, r.where(o -> o.get("elapsed_ns").getAsLong() >= 2 && o.get("language").getAsString().equals("c"))
                .runs().size());
        assertEquals(3, r.runs().size(), "where does not change the original");
    }

    @Test
    void runsAreCopied() {
        List<JsonObject> list = new ArrayList<>(List.of(run("java", "write", MB, 0, 1)));
        Results r = new Results(list);
        list.add(run("c", "write", MB, 0, 1));
        assertEquals(1, r.runs().size());
    }

    @Test
    void textAndHtmlShowSizesInShortForm() {
        Results r = new Results(List.of(run("java", "read", "seq", 16 * MB, 4096, 0, 1_000_000_000, 1, 1)));
        String text = r.toString();
        assertTrue(text.contains("16m") && text.contains("4k"), text);
        assertTrue(text.contains("16.00 MB/s"), text);
        String html = RunsTable.html(r);
        assertTrue(html.contains("<table>") && html.endsWith("</table></div>"), html);
        assertTrue(html.contains("<td>16m</td>") && html.contains("<td>4k</td>"), html);
    }

    static JsonObject buffered(String strategy, long bufferSize, String language, int run, long elapsedNs, Long misses) {
        JsonObject o = run(language, "read", "seq", MB, 1, run, elapsedNs, 1, 1);
        o.addProperty("snippet", "buffering");
        o.addProperty("strategy", strategy);
        o.addProperty("buffer_size", bufferSize);
        if (misses != null) o.addProperty("misses", misses);
        else o.add("misses", com.google.gson.JsonNull.INSTANCE);
        return o;
    }

    @Test
    void hitRatioComesFromMissesWhereCountedAndMethodNamesStrategyAndBuffer() {
        Results r = new Results(List.of(buffered("direct", 1024, "c", 0, 1_000_000, MB / 1024),
                buffered("stream", 0, "c", 0, 1_000_000, null), run("c", "read", MB, 0, 5_000_000)));
        List<Map<String, Object>> rows = r.summary();
        assertEquals(100 * (1 - 1.0 / 1024), (Double) rows.get(0).get("hit_ratio_pct"), 1e-9);
        assertEquals("direct 1k", rows.get(0).get("method"));
        assertNull(rows.get(1).get("hit_ratio_pct"), "stdio keeps its misses to itself");
        assertEquals("stream", rows.get(1).get("method"), "no --buffer-size: the library's default");
        assertNull(rows.get(2).get("hit_ratio_pct"), "runs without the field (older results) have no hit ratio");
    }

    @Test
    void ratioToMatchesTheSameWorkDoneAnotherWay() {
        Results raw = new Results(List.of(run("java", "read", MB, 0, 100_000_000), run("c", "read", MB, 0, 50_000_000)));
        Results direct = new Results(List.of(buffered("direct", 1024, "java", 0, 10_000_000, 1024L),
                buffered("direct", 1024, "c", 0, 2_000_000, 1024L)));
        assertEquals(Math.sqrt(0.1 * 0.04), direct.ratioTo(raw), 1e-12);
        Results other = new Results(List.of(run("java", "write", MB, 0, 1)));
        assertThrows(IllegalArgumentException.class, () -> direct.ratioTo(other));
    }

    @Test
    void fastestKeepsTheBestCaseOfEachPieceOfWork() {
        Results r = new Results(List.of(buffered("direct", 1024, "java", 0, 9_000_000, 1L), buffered("direct", 1024, "java", 1, 11_000_000, 1L),
                buffered("direct", 4096, "java", 0, 8_000_000, 1L), buffered("direct", 1 << 20, "java", 0, 8_500_000, 1L),
                buffered("direct", 1024, "c", 0, 3_000_000, 1L), buffered("direct", 4096, "c", 0, 4_000_000, 1L)));
        Results best = r.fastest();
        assertEquals(2, best.summary().size());
        assertEquals(4096L, best.where("language", "java").summary().get(0).get("buffer_size"));
        assertEquals(1024L, best.where("language", "c").summary().get(0).get("buffer_size"));
        assertEquals(r.runs().size() + 1, r.and(best.where("language", "c")).runs().size());
    }

    @Test
    void htmlStatesConstantColumnsOnceAndShowsHitRatioOnlyWhereCounted() {
        Results r = new Results(List.of(buffered("direct", 1024, "java", 0, 1_000_000, 1024L), buffered("direct", 4096, "java", 0, 1_000_000, 256L)));
        String html = RunsTable.html(r);
        assertTrue(html.contains("<caption>Each case&#39;s runs in one row; every row: language java · runtime java 25.0.3 · op read · pattern seq"), html);
        assertTrue(html.contains("<th>method</th>") && html.contains("<td>direct 4k</td>") && html.contains("hit ratio pct"), html);
        assertFalse(RunsTable.html(new Results(List.of(run("c", "read", MB, 0, 5_000_000), run("c", "write", MB, 0, 5_000_000)))).contains("hit ratio"));
    }

    @Test
    void fieldsThatMayDifferAreNotMatched() {
        Results small = new Results(List.of(run("java", "read", "seq", MB, 1, 0, 1_000_000_000, 1, 1)));
        Results large = new Results(List.of(run("java", "read", "seq", MB, 4096, 0, 10_000_000, 1, 1),
                run("java", "read", "seq", MB, 65536, 0, 5_000_000, 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> large.ratioTo(small), "op sizes differ: nothing matches");
        Results best = large.fastest("op_size");
        assertEquals(1, best.summary().size());
        assertEquals(65536L, best.summary().get(0).get("op_size"));
        assertEquals(0.005, best.ratioTo(small, "median_ms", "op_size"), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> large.fastest("colour"));
    }

    @Test
    void cutComparesTimePerByteAcrossFileSizes() {
        Results none = new Results(List.of(run("java", "read", "seq", MB, 1, 0, 1_000_000_000, 1, 1)));
        Results buffered = new Results(List.of(run("java", "read", "seq", 16 * MB, 1, 0, 160_000_000, 1, 1)));
        assertEquals(99.0, buffered.cut(none), 1e-9, "10 ms per MB against 1000 ms per MB");
        assertEquals(-9900.0, none.cut(buffered), 1e-6, "slower: a negative cut");
        Results large = new Results(List.of(run("java", "read", "seq", MB, 4096, 0, 10_000_000, 1, 1)));
        assertEquals(99.0, large.cut(none, "op_size"), 1e-9);
    }

    @Test
    void runtimesAreSeparateCasesButDoNotStopJavaMeetingC() {
        JsonObject on17 = run("java", "read", MB, 0, 40_000_000), on25 = run("java", "read", MB, 0, 10_000_000), c = run("c", "read", MB, 0, 10_000_000);
        on17.addProperty("runtime", "java 17.0.15");
        on25.addProperty("runtime", "java 25.0.3");
        c.addProperty("runtime", "gcc 12.2.0");
        Results r = new Results(List.of(on17, on25, c));
        assertEquals(3, r.summary().size());
        assertEquals(2.0, r.ratio("java", "c"), 1e-9, "geometric mean of 4× (JDK 17) and 1× (JDK 25)");
        assertEquals(4.0, r.where("runtime", "java 17.0.15").ratioTo(r.where("runtime", "java 25.0.3")), 1e-9);
    }

    public static JsonObject threaded(String strategy, String lock, int threads, int run, long elapsedNs, long spanNs, long... threadNs) {
        JsonObject o = run("java", "read", "seq", 64 * MB, MB, run, elapsedNs, 0, 0);
        o.addProperty("snippet", "shared_file");
        o.addProperty("strategy", strategy);
        o.addProperty("threads", threads);
        o.addProperty("lock", lock);
        com.google.gson.JsonArray times = new com.google.gson.JsonArray();
        for (long t : threadNs) times.add(t);
        o.add("thread_ns", times);
        o.addProperty("span_ns", spanNs);
        return o;
    }

    @Test
    void processRunsGetTheStudysBandwidthFromEveryProcesssTime() {
        JsonObject run = threaded("view-direct", "none", 1, 0, 1_000_000_000, 800_000_000, 400_000_000, 600_000_000);
        run.add("proc_ns", run.remove("thread_ns"));
        run.addProperty("procs", 2);
        run.addProperty("snippet", "mpi_file");
        Map<String, Object> row = new Results(List.of(run)).summary().get(0);
        assertEquals(128.0, (double) row.get("study_mb_per_s"), 1e-9);
        assertEquals(80.0, (double) row.get("wall_mb_per_s"), 1e-9);
        assertEquals(2L, row.get("procs"));
    }

    @Test
    void threadedRunsGetTheStudysBandwidthAndTheWallClockOne() {
        // 64 MB by two threads: their own times average 0.5 s (the study's way: 128 MB/s); first start to last end 0.8 s (80 MB/s)
        Results r = new Results(List.of(threaded("view-direct", "none", 2, 0, 1_000_000_000, 800_000_000, 400_000_000, 600_000_000),
                threaded("view-direct", "none", 2, 1, 1_000_000_000, 640_000_000, 500_000_000, 500_000_000),
                threaded("view-direct", "none", 2, 2, 1_000_000_000, 1_600_000_000, 1_000_000_000, 1_000_000_000)));
        Map<String, Object> row = r.summary().get(0);
        assertEquals(128.0, (double) row.get("study_mb_per_s"), 1e-9);
        assertEquals(80.0, (double) row.get("wall_mb_per_s"), 1e-9);
        assertEquals(2L, row.get("threads"));
        assertEquals("view-direct", row.get("method"));
        assertTrue(RunsTable.html(r).contains("study mb per s") && RunsTable.html(r).contains("wall mb per s"));
        Results inRounds = new Results(r.runs().stream().map(run -> EstimateTest.inRound(run.deepCopy(), run.get("run").getAsInt() + 1)).toList());
        assertEquals(Estimate.overRounds(80, new double[] {80, 100, 40}, null), Estimate.ofCase(inRounds, row, "wall_mb_per_s"),
                "three rounds: t over each round's own rate");
        assertFalse(RunsTable.html(new Results(List.of(run("java", "read", MB, 0, 1_000_000)))).contains("study mb per s"),
                "single-threaded snippets have no such columns");
    }

    @Test
    void lockedRunsAreTheirOwnMethodAndThreadCountsAreWork() {
        Results r = new Results(List.of(threaded("view-direct", "none", 1, 0, 100, 90, 90), threaded("view-direct", "region", 1, 0, 200, 180, 180),
                threaded("view-direct", "none", 2, 0, 400, 90, 90, 90)));
        assertEquals(List.of("view-direct", "view-direct locked", "view-direct"), r.summary().stream().map(m -> m.get("method")).toList());
        Results locked = r.where("lock", "region"), unlocked = r.where("lock", "none");
        assertEquals(2.0, locked.ratioTo(unlocked), 1e-9, "matched with the unlocked run of the same thread count only");
        assertEquals(0.0, (double) r.summary().get(0).get("spread_pct"), 1e-9);
    }

    /** A run of raw_io read by one strategy, taking ms. */
    static com.google.gson.JsonObject byStrategy(String strategy, int run, long ms) {
        com.google.gson.JsonObject r = Runs.run("java", "read", 1 << 20, run, ms * 1_000_000);
        r.addProperty("strategy", strategy);
        return r;
    }

    @Test
    void strategiesMedianMaxAndPercentChange() {
        Results r = new Results(List.of(byStrategy("view", 0, 10), byStrategy("view", 1, 30), byStrategy("view", 2, 20),
                byStrategy("bulk", 0, 5), byStrategy("mapped", 0, 40)));
        assertEquals(List.of("view", "view", "view", "mapped"), r.strategies("view", "mapped").runs().stream()
                .map(x -> x.get("strategy").getAsString()).toList());
        assertEquals(20, r.strategies("view").median("median_ms"), 1e-9, "the median of the case's median");
        assertEquals(1024.0 / 5 * 1000 / 1024, r.max("mb_per_s"), 1e-9, "the fastest case: bulk, 1 MB in 5 ms");
        assertTrue(Double.isNaN(r.strategies("none").max("mb_per_s")), "no case: NaN");
        assertEquals(-75, r.strategies("bulk").percentChange(r.strategies("view")), 1e-9, "5 ms against 20 ms: 75% less time");
        assertEquals(Map.of("view", 20.0, "bulk", 5.0, "mapped", 40.0), r.medianByStrategy("median_ms"));
        assertEquals(1024.0 / 40 * 1000 / 1024, r.min("mb_per_s"), 1e-9, "the slowest case: mapped, 1 MB in 40 ms");
        assertEquals(40, r.highestStrategyMedian("median_ms"), 1e-9);
        assertEquals(5, r.lowestStrategyMedian("median_ms"), 1e-9);
        assertTrue(Double.isNaN(r.strategies("none").lowestStrategyMedian("median_ms")), "no strategy: NaN");
        assertEquals(0.25, r.strategies("bulk", "mapped").bestStrategyRatioTo(r.strategies("view")), 1e-9, "bulk's 5 ms over view's 20 ms, not mapped's 2×");
        assertEquals(3, r.where("strategy", "view").where("run", 1).runs().get(0).get("run").getAsLong() * 3, "numeric fields match a long");
    }

    @Test
    void mixedStandingIsTheSmallerOfTheBestLeadAndTheWorstLag() {
        com.google.gson.JsonObject slowWrite = byStrategy("mapped", 0, 50);
        slowWrite.addProperty("op", "write");
        com.google.gson.JsonObject viewWrite = byStrategy("view", 0, 40);
        viewWrite.addProperty("op", "write");
        Results r = new Results(List.of(byStrategy("view", 0, 20), byStrategy("bulk", 0, 15), byStrategy("mapped", 0, 10), slowWrite, viewWrite));
        assertEquals(1.25, r.mixedStanding("mapped"), 1e-9, "reads: fastest, bulk's 15 ms over 10 (1.5); writes: slowest, 50 over 40 (1.25)");
        assertEquals(10.0 / 20, r.where("op", "read").strategies("mapped", "view").mixedStanding("mapped"), 1e-9,
                "never the slowest: its smallest lag, 10 ms against view's 20, is below 1");
        assertTrue(Double.isNaN(r.strategies("bulk").mixedStanding("bulk")), "alone in its work: no standing at all");
        assertTrue(Double.isNaN(r.mixedStanding("none")), "a strategy with no runs: NaN");
    }

    @Test
    void javaRuntimesComeOldestFirstAndFeatureReadsTheRelease() {
        com.google.gson.JsonObject old = Runs.run("java", "read", 1 << 20, 0, 5_000_000);
        old.addProperty("runtime", "java 17.0.15");
        com.google.gson.JsonObject newer = Runs.run("java", "read", 1 << 20, 0, 5_000_000);
        newer.addProperty("runtime", "java 21.0.2");
        Results r = new Results(List.of(Runs.run("java", "read", 1 << 20, 0, 5_000_000), Runs.run("c", "read", 1 << 20, 0, 5_000_000), old, newer,
                Runs.run("java", "write", 1 << 20, 0, 5_000_000)));
        assertEquals(List.of("java 17.0.15", "java 21.0.2", "java 25.0.3"), r.javaRuntimes(), "by version, not as text (\"java 9\" sorts after \"java 17\" as text)");
        assertEquals(17, Results.feature("java 17.0.15"));
        assertEquals(25, Results.feature("java 25"));
        assertEquals(List.of(), r.where("language", "c").javaRuntimes());
    }

    @Test
    void numericFiltersKeepTheRunsTheySay() {
        Results r = new Results(List.of(run("java", "read", "seq", MB, 1, 0, 10, 1, 1), run("java", "read", "seq", MB, 4, 0, 10, 1, 1),
                run("java", "read", "seq", MB, 64, 0, 10, 1, 1), run("java", "read", "seq", MB, 1024, 0, 10, 1, 1)));
        java.util.function.Function<Results, List<Long>> sizes = x -> x.runs().stream().map(o -> o.get("op_size").getAsLong()).toList();
        assertEquals(List.of(64L, 1024L), sizes.apply(r.above("op_size", 4)));
        assertEquals(List.of(4L, 64L, 1024L), sizes.apply(r.atLeast("op_size", 4)));
        assertEquals(List.of(1L), sizes.apply(r.below("op_size", 4)));
        assertEquals(List.of(1L, 1024L), sizes.apply(r.whereIn("op_size", 1, 1024)));
        assertEquals(List.of(64L), sizes.apply(r.where("op_size", 64)));
    }
}
