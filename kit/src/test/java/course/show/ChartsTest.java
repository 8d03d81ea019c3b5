package course.show;

import static course.record.Runs.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.judge.Estimate;
import course.judge.EstimateTest;
import course.judge.Published;
import course.record.Results;
import course.record.ResultsTest;
import course.record.Runs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChartsTest {
    static final long MB = 1L << 20;

    static Results results() {
        List<JsonObject> runs = new ArrayList<>();
        for (long size : new long[] {MB, 4 * MB}) {
            for (int i = 0; i < 3; i++) {
                runs.add(EstimateTest.inRound(run("java", "write", size, 0, (10 + i) * 1_000_000L * (size / MB)), i + 1));
                runs.add(EstimateTest.inRound(run("c", "write", size, 0, (5 + i) * 1_000_000L * (size / MB)), i + 1));
                runs.add(EstimateTest.inRound(run("java", "read", size, 0, (4 + i) * 1_000_000L * (size / MB)), i + 1));
            }
        }
        return new Results(runs);
    }

    /** The spec as the notebook receives it: JSON text, parsed back. */
    static JsonObject json(Map<String, Object> spec) {
        String text = new Gson().toJson(spec);
        return JsonParser.parseString(text).getAsJsonObject();
    }

    static void assertSelfContained(JsonObject spec, int values) {
        assertTrue(spec.get("$schema").getAsString().contains("vega-lite/v5"), spec.get("$schema").toString());
        JsonObject data = spec.getAsJsonObject("data");
        assertTrue(data.has("values"), "data must be inline");
        assertEquals(values, data.getAsJsonArray("values").size());
        assertFalse(hasKey(spec, "url"), "no spec may load data from a url: " + spec);
        assertTrue(spec.getAsJsonArray("layer").size() > 0);
        assertTrue(spec.has("title"));
    }

    static boolean hasKey(JsonElement e, String key) {
        if (e.isJsonObject()) {
            for (var entry : e.getAsJsonObject().entrySet()) {
                if (entry.getKey().equals(key) || hasKey(entry.getValue(), key)) return true;
            }
        } else if (e.isJsonArray()) {
            for (JsonElement x : e.getAsJsonArray()) if (hasKey(x, key)) return true;
        }
        return false;
    }

    @Test
    void hasKeyFindsNestedKeys() {
        assertTrue(hasKey(JsonParser.parseString("{\"a\":[{\"b\":{\"url\":\"x\"}}]}"), "url"));
        assertFalse(hasKey(JsonParser.parseString("{\"a\":[{\"b\":{\"u\":\"url\"}}]}"), "url"));
    }

    @Test
    void rateVsSize() {
        JsonObject spec = json(Charts.rateVsSize(results(), "mb_per_s", "Rate against size"));
        assertSelfContained(spec, 6);
        assertEquals("Rate against size", spec.getAsJsonObject("title").get("text").getAsString());
        assertEquals(Charts.BAND, spec.getAsJsonObject("title").get("subtitle").getAsString(), "the chart says what its band is");
        JsonArray values = spec.getAsJsonObject("data").getAsJsonArray("values");
        JsonObject first = values.get(0).getAsJsonObject();  // java write 1 MB: 10, 11, 12 ms
        assertEquals("java write", first.get("series").getAsString());
        assertEquals(MB, first.get("size").getAsLong());
        assertEquals(1 / 0.011, first.get("y").getAsDouble(), 1e-9);
        Estimate band = Estimate.ofCase(results(), results().summary().get(0), "mb_per_s");
        assertEquals(band.low(), first.get("y_low").getAsDouble(), 1e-9, "the band is the verdicts' interval (t over the rounds)");
        assertEquals(band.high(), first.get("y_high").getAsDouble(), 1e-9);
        assertTrue(band.low() < 1 / 0.012 && band.high() > 1 / 0.010, "three rounds of 10, 11, 12 ms: t's interval reaches past both: " + band);
        assertEquals(4 * MB, values.get(3).getAsJsonObject().get("size").getAsLong());
        assertTrue(spec.toString().contains("\"errorband\""));
    }

    @Test
    void rateVsSizeInOperations() {
        JsonObject spec = json(Charts.rateVsSize(results(), "ops_per_s", "ops"));
        JsonObject first = spec.getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject();
        assertEquals(MB / 0.011, first.get("y").getAsDouble(), 1e-3);
        assertTrue(spec.toString().contains("operations per second"));
    }

    @Test
    void ratioBars() {
        Published.Claim claim = new Published.Claim("xu-guo.raw-1byte.java-over-c-time-seq", "Xu & Guo", "§4.2, Fig 4.1",
                "raw-1byte", "s", "", "", 224, "%", "percent", "st");
        JsonObject spec = json(ReferenceBars.ratioBars(List.of(ReferenceBars.bar("seq write", new Estimate(1.8, 1.6, 2.0)), ReferenceBars.bar("seq read", Estimate.exact(2.1))),
                List.of(ReferenceBars.reference("seq write", claim)), "Java time / C time", "Ratios"));
        assertSelfContained(spec, 3);
        Published.Claim other = new Published.Claim("xu-guo.raw-1byte.java-over-c-time-rand", "Xu & Guo", "§4.2, Fig 4.3",
                "raw-1byte", "s", "", "", 4, "x", "ratio", "st");
        JsonObject twice = json(ReferenceBars.ratioBars(List.of(ReferenceBars.bar("seq write", Estimate.exact(1.8))),
                List.of(ReferenceBars.reference("seq write", claim), ReferenceBars.reference("seq write", claim), ReferenceBars.reference("seq read", claim),
                        ReferenceBars.reference("seq read", other)), "t", "t"));
        JsonArray ticks = twice.getAsJsonObject("data").getAsJsonArray("values");
        assertEquals(List.of(true, false, true, true), List.of(1, 2, 3, 4).stream().map(i -> ticks.get(i).getAsJsonObject().get("labelled").getAsBoolean()).toList(),
                "a source's number is written beside its first tick on each bar, not beside a second tick of it on the same bar");
        assertEquals(List.of("1", "1", "1", "2"), List.of(1, 2, 3, 4).stream().map(i -> ticks.get(i).getAsJsonObject().get("number").getAsString()).toList());
        assertEquals("left", ticks.get(4).getAsJsonObject().get("side").getAsString(), "a bar's second source is numbered on the other side of its tick");
        assertEquals("right", ticks.get(3).getAsJsonObject().get("side").getAsString());
        assertEquals("[\"black ticks, the studies' figures: 1 Xu & Guo §4.2, Fig 4.1 · 2 Xu & Guo §4.2, Fig 4.3\"]",
                twice.getAsJsonObject("title").get("subtitle").toString(), "the numbers spelled out under the title");
        JsonArray values = spec.getAsJsonObject("data").getAsJsonArray("values");
        assertEquals("measured here", values.get(0).getAsJsonObject().get("kind").getAsString());
        assertEquals(1.8, values.get(0).getAsJsonObject().get("value").getAsDouble());
        assertEquals(1.6, values.get(0).getAsJsonObject().get("low").getAsDouble(), "the interval rides with its bar, drawn as a whisker");
        assertFalse(values.get(1).getAsJsonObject().has("low"), "an exact figure has no whisker");
        assertTrue(spec.toString().contains("isValid(datum.low)"), spec.toString());
        JsonObject ref = values.get(2).getAsJsonObject();
        assertEquals("published", ref.get("kind").getAsString());
        assertEquals(2.24, ref.get("value").getAsDouble(), 1e-12, "224% is drawn as 2.24");
        assertEquals("Xu & Guo §4.2, Fig 4.1", ref.get("citation").getAsString());
        assertTrue(ref.get("labelled").getAsBoolean(), "the first tick of a citation carries its number");
        assertEquals("1", ref.get("number").getAsString());
        // the reference line at 1 brings its own inline data
        assertTrue(spec.toString().contains("\"base\":1"), spec.toString());
    }

    @Test
    void timeLinesDrawTheIntervalOfEachMedianAsTheBand() {
        JsonObject spec = json(Charts.lines(results(), "file_size", "median_ms", true, "Time"));
        assertSelfContained(spec, 6);
        JsonObject first = spec.getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject();
        assertEquals(11.0, first.get("y").getAsDouble(), 1e-9);
        Estimate band = Estimate.ofCase(results(), results().summary().get(0), "median_ms");
        assertEquals(band.low(), first.get("y_low").getAsDouble(), 1e-9);
        assertEquals(band.high(), first.get("y_high").getAsDouble(), 1e-9);
        assertTrue(spec.toString().contains("\"type\":\"log\""), "log scales");
    }

    @Test
    void manyRunsGiveABandNarrowerThanTheirRange() {
        List<JsonObject> runs = new ArrayList<>();
        // five rounds of three runs, one straggler at 500 ms in the first
        for (int i = 0; i < 15; i++) runs.add(EstimateTest.inRound(run("java", "read", MB, i % 3, (100 + (i == 0 ? 400 : i)) * 1_000_000L), i / 3 + 1));
        JsonObject v = json(Charts.lines(new Results(runs), "file_size", "median_ms", false, "T"))
                .getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject();
        assertTrue(v.get("y_high").getAsDouble() < 200, "a straggler does not stretch the median's interval: " + v);
        assertTrue(v.get("y_low").getAsDouble() > 101 && v.get("y_low").getAsDouble() <= v.get("y").getAsDouble(), v.toString());
    }

    @Test
    void methodBarsCarryEachMediansIntervalAsAWhisker() {
        JsonObject spec = json(Charts.methodBars(results(), "T"));
        JsonObject first = spec.getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject();  // java write 1 MB: 10, 11, 12 ms
        Estimate whisker = Estimate.ofCase(results(), results().summary().get(0), "mb_per_s");
        assertEquals(whisker.low(), first.get("low").getAsDouble(), 1e-9, "the whisker is the verdicts' interval");
        assertEquals(whisker.high(), first.get("high").getAsDouble(), 1e-9);
        assertEquals(2, spec.getAsJsonObject("spec").getAsJsonArray("layer").size(), "bars and whiskers in each panel");
        assertEquals("op", spec.getAsJsonObject("facet").getAsJsonObject("column").get("field").getAsString());
    }

    @Test
    void levelsAndRangesAddLayersWithTheirOwnData() {
        Map<String, Object> base = Charts.lines(results(), "file_size", "mb_per_s", false, "T");
        JsonObject spec = json(Charts.withRange(Charts.withLevel(base, 1000, "disk ceiling"), 512, 1024, "knee"));
        assertSelfContained(spec, 6);
        assertEquals(6, spec.getAsJsonArray("layer").size());
        String text = spec.toString();
        assertTrue(text.contains("disk ceiling") && text.contains("knee") && text.contains("\"rect\""), text);
        assertEquals("rect", spec.getAsJsonArray("layer").get(0).getAsJsonObject().getAsJsonObject("mark").get("type").getAsString(),
                "the shaded range is drawn under the lines");
    }

    @Test
    void methodBarsKeepTheDataOrderAndPanelByOperation() {
        JsonObject spec = json(Charts.methodBars(results(), "Methods"));
        assertEquals(6, spec.getAsJsonObject("data").getAsJsonArray("values").size());
        JsonObject enc = spec.getAsJsonObject("spec").getAsJsonArray("layer").get(0).getAsJsonObject().getAsJsonObject("encoding");
        assertEquals("[\"raw\"]", enc.getAsJsonObject("x").get("sort").toString(), "the order the lab ran the methods in");
        assertEquals("op", spec.getAsJsonObject("facet").getAsJsonObject("column").get("field").getAsString());
        assertFalse(enc.getAsJsonObject("y").get("stack").getAsBoolean(), "bars on a log axis cannot start at a stack's zero");
        assertEquals("raw", spec.getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject().get("method").getAsString());
    }

    @Test
    void cutBarsDrawPublishedPercentages() {
        Published.Claim claim = new Published.Claim("x.cut", "Xu & Guo", "§4.3, Fig 4.5", "buffering", "s", "", "", 25, "%", "percent", "st");
        JsonObject spec = json(ReferenceBars.cutBars(List.of(ReferenceBars.bar("read", Estimate.exact(97.5))), List.of(ReferenceBars.cutReference("read", claim)), "Cuts"));
        JsonArray values = spec.getAsJsonObject("data").getAsJsonArray("values");
        assertEquals(25.0, values.get(1).getAsJsonObject().get("value").getAsDouble(), 1e-12, "25% is drawn as 25");
        assertTrue(spec.toString().contains("\"base\":0"), spec.toString());
    }

    @Test
    void throughputBars() {
        JsonObject spec = json(Charts.throughputBars(results(), "Throughput"));
        assertSelfContained(spec, 6);
        assertEquals("java write", spec.getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject()
                .get("case").getAsString());
    }

    @Test
    void longBarLabelsAreSlantedShortOnesLevel() {
        Map<String, Object> longLabels = ReferenceBars.ratioBars(List.of(ReferenceBars.bar("RandomAccessFile.readInt", Estimate.exact(3)),
                ReferenceBars.bar("DataInputStream.readInt, in memory", Estimate.exact(1))), List.of(), "ratio", "Long");
        assertTrue(json(longLabels).toString().contains("\"labelAngle\":-30"), json(longLabels).toString());
        Map<String, Object> shortLabels = ReferenceBars.ratioBars(List.of(ReferenceBars.bar("seq read", Estimate.exact(3))), List.of(), "ratio", "Short");
        assertTrue(json(shortLabels).toString().contains("\"labelAngle\":0"));
    }

    @Test
    void throughputBarsSetRunsPastThePageCacheApart() {
        JsonObject direct = run("c", "read", MB, 0, 2_000_000);
        direct.addProperty("strategy", "o-direct");
        JsonObject cold = run("c", "read", MB, 0, 3_000_000);
        cold.addProperty("cache", "cold");
        JsonObject spec = json(Charts.throughputBars(new Results(List.of(run("c", "read", MB, 0, 1_000_000), cold, direct)), "Three ways"));
        List<String> caches = new ArrayList<>();
        spec.getAsJsonObject("data").getAsJsonArray("values").forEach(v -> caches.add(v.getAsJsonObject().get("cache").getAsString()));
        assertEquals(List.of("warm", "cold", Charts.BYPASSED), caches);
        assertTrue(spec.toString().contains(Charts.BYPASSED + "\"]"), "the legend names it");
        assertFalse(json(Charts.throughputBars(results(), "Two ways")).toString().contains(Charts.BYPASSED), "a legend without such runs does not");
    }

    @Test
    void throughputBarsMarkAColdCaseWhoseFileStayedCached() {
        JsonObject held = run("java", "read", MB, 0, 1_000_000), evicted = run("c", "read", MB, 0, 3_000_000);
        held.addProperty("cache", "cold");
        held.addProperty("resident_pct", 100.0);
        evicted.addProperty("cache", "cold");
        evicted.addProperty("resident_pct", 0.0);
        JsonObject spec = json(Charts.throughputBars(new Results(List.of(held, evicted)), "Mapped"));
        List<String> caches = new ArrayList<>();
        spec.getAsJsonObject("data").getAsJsonArray("values").forEach(v -> caches.add(v.getAsJsonObject().get("cache").getAsString()));
        assertEquals(List.of(Charts.STILL_CACHED, "cold"), caches);
        assertTrue(spec.toString().contains("\"domain\":[\"warm\",\"cold\",\"" + Charts.STILL_CACHED + "\"]"), spec.toString());
        assertTrue(spec.toString().contains("\"range\":[\"#b07d00\",\"#0072b2\",\"#666666\"]"), "each name keeps its colour");
        assertTrue(spec.get("description").getAsString().endsWith("a cold case that found its file still cached is marked so"));
    }

    @Test
    void perRun() {
        JsonObject spec = json(Charts.perRun(results(), "Runs"));
        assertSelfContained(spec, 18);
        JsonObject first = spec.getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject();
        assertEquals(1, first.get("run").getAsInt(), "runs are numbered from 1");
        assertEquals(10.0, first.get("ms").getAsDouble(), 1e-12);
        assertEquals("java", first.get("language").getAsString());
    }

    /**
     * A case whose median user and system CPU times are both 0 has no kernel share, and rateVsSize and throughputBars
     * copy the whole summary row into the spec: Gson (the kernel's JSON writer too) refuses NaN, so the row must hold none.
     */
    @Test
    void chartsSerializeWhenNoCpuTimeWasMeasured() {
        Results r = new Results(List.of(Runs.run("c", "write", "seq", 4096, 4096, 0, 20_000, 0, 0)));
        json(Charts.rateVsSize(r, "mb_per_s", "t"));
        json(Charts.throughputBars(r, "t"));
    }

    @Test
    void logBarsHaveNoBaselineAndALogScale() {
        Published.Claim claim = new Published.Claim("b.x", "Bonachea, Dickens & Thakur", "§4.2", "typed-array", "s", "", "", 0.00074, "MB/s", "text", "st");
        JsonObject spec = json(ReferenceBars.logBars(List.of(ReferenceBars.bar("data", Estimate.exact(3.2))), List.of(ReferenceBars.reference("data", claim)), "MB per second", "T"));
        assertEquals(4, spec.getAsJsonArray("layer").size(), "bars, ticks, and the ticks' numbers right and left");
        assertTrue(spec.toString().contains("\"type\":\"log\""));
        assertEquals(0.00074, spec.getAsJsonObject("data").getAsJsonArray("values").get(1).getAsJsonObject().get("value").getAsDouble(), 1e-12);
    }

    @Test
    void methodBarsSplitALanguageByRuntimeWhenItRanOnSeveral() {
        JsonObject a = run("java", "read", MB, 0, 1_000_000), b = run("java", "read", MB, 0, 2_000_000), c = run("c", "read", MB, 0, 1_000_000);
        a.addProperty("runtime", "java 25");
        b.addProperty("runtime", "java 17");
        c.addProperty("runtime", "gcc 12");
        JsonObject spec = json(Charts.methodBars(new Results(List.of(a, b, c)), "T"));
        var who = new java.util.ArrayList<String>();
        spec.getAsJsonObject("data").getAsJsonArray("values").forEach(v -> who.add(v.getAsJsonObject().get("who").getAsString()));
        assertEquals(List.of("java 25", "java 17", "c"), who);
    }

    @Test
    @SuppressWarnings("unchecked")
    void threadsGoOnALogAxisWithEachRatesOwnBand() {
        Results r = new Results(List.of(EstimateTest.inRound(ResultsTest.threaded("mapped", "none", 2, 0, 10, 8, 4, 6), 1),
                EstimateTest.inRound(ResultsTest.threaded("mapped", "none", 2, 0, 10, 16, 10, 10), 2)));
        Map<String, Object> spec = Charts.lines(r, true, "threads", "wall_mb_per_s", true, "t");
        String json = new Gson().toJson(spec);
        assertTrue(json.contains("\"title\":\"threads (log scale)\""), json);
        assertFalse(json.contains("labelExpr"), "thread counts are not sizes");
        assertTrue(json.contains("\"values\":[2]") && json.contains("\"format\":\"d\""), "ticks at the counts measured, as whole numbers: " + json);
        List<Map<String, Object>> values = (List<Map<String, Object>>) ((Map<String, Object>) spec.get("data")).get("values");
        double low = (double) values.get(0).get("y_low"), high = (double) values.get(0).get("y_high");
        Estimate band = Estimate.ofCase(r, r.summary().get(0), "wall_mb_per_s");
        assertEquals(band.low(), low, 1e-9, "each rate's own band: the interval over its rounds");
        assertEquals(band.high(), high, 1e-9);
        assertTrue(high / low > 2, "two rounds whose rates differ twofold: t with one degree of freedom reaches well past both");
    }

    @Test
    void oneRoundDrawsNoBand() {
        JsonObject v = json(Charts.lines(new Results(List.of(run("java", "read", MB, 0, 1_000_000), run("java", "read", MB, 1, 2_000_000))),
                "file_size", "median_ms", false, "T")).getAsJsonObject("data").getAsJsonArray("values").get(0).getAsJsonObject();
        assertTrue(!v.has("y_low") && !v.has("y_high"), "no interval: no band (and JSON holds no NaN): " + v);
    }

    @Test
    @SuppressWarnings("unchecked")
    void levelLabelsNeverOverlapAndNeverCrossTheirOwnLine() {
        Map<String, Object> spec = Charts.lines(results(), "file_size", "mb_per_s", true, "T");
        for (double y : new double[] {631, 500, 158, 96, 4}) spec = Charts.withLevel(spec, y, "level " + y);
        List<Map<String, Object>> layers = (List<Map<String, Object>>) spec.get("layer");
        assertEquals(4, layers.size(), "one rule layer and one label layer for all levels, however many were added");
        Map<String, Object> labels = layers.get(3);
        List<Map<String, Object>> placed = (List<Map<String, Object>>) ((Map<String, Object>) labels.get("data")).get("values");
        Map<String, Object> labelScale = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) labels.get("encoding")).get("y")).get("scale");
        assertEquals(List.of(1.0, 1000.0), labelScale.get("domain"), "whole decades around the data (about 90 MB/s) and the levels (4 to 631)");
        double px = Double.NEGATIVE_INFINITY;
        for (Map<String, Object> level : placed) {  // top to bottom
            double y = ((Number) level.get("y")).doubleValue(), labelY = ((Number) level.get("label_y")).doubleValue();
            double at = 260 * (1 - Math.log10(labelY) / 3);
            assertTrue(labelY >= y, "a label sits above its own line: " + level);
            assertTrue(at - px >= Charts.LABEL_GAP - 1e-9, "labels at least a line of text apart: " + placed);
            px = at;
        }
        for (Map<String, Object> layer : layers) {
            Map<String, Object> y = (Map<String, Object>) ((Map<String, Object>) layer.get("encoding")).get("y");
            assertEquals(List.of(1.0, 1000.0), ((Map<String, Object>) y.get("scale")).get("domain"), "every layer shares the fixed domain the labels were placed in");
        }
    }

    @Test
    void aLevelNotMeasuredAndAnEmptyRangeDrawNothing() {
        Map<String, Object> base = Charts.lines(results(), "file_size", "mb_per_s", false, "T");
        assertEquals(base, Charts.withLevel(base, Double.NaN, "no ceiling"));
        assertEquals(base, Charts.withRange(base, 4, 4, "more processes than cores"), "no process count past the cores: no shaded range");
    }

    @Test
    void sizeAxesTickAtTheMeasuredSizesAndLegendsShowTheLines() {
        String json = json(Charts.lines(results(), "file_size", "mb_per_s", false, "T")).toString();
        assertTrue(json.contains("\"values\":[" + MB + "," + 4 * MB + "]"), "ticks at 1 MB and 4 MB only: " + json);
        assertTrue(json.contains("\"symbolType\":\"stroke\"") && json.contains("\"symbolOpacity\":1"), "a legend entry is a full-strength line, not the pale band");
        assertTrue(json.contains("#0072b2") && json.contains("\"category\":[\"#0072b2\""), "colour-blind-safe colours: " + json);
    }

    @Test
    void everyChartSaysInOneLineWhatItShows() {
        String lines = json(Charts.lines(results(), "file_size", "mb_per_s", false, "Rates")).get("description").getAsString();
        assertEquals("Rates: MB per second against file size (log scale), a line each for java write, c write and java read;"
                + " shaded bands are 95% intervals", lines);
        assertTrue(json(Charts.methodBars(results(), "M")).get("description").getAsString().startsWith("M: MB per second (log scale) for each way"));
        assertTrue(json(ReferenceBars.ratioBars(List.of(ReferenceBars.bar("seq", Estimate.exact(2))), List.of(), "Java ÷ C", "R")).get("description").getAsString()
                .startsWith("R: Java ÷ C, measured here (bars) beside the studies' figures (black ticks): seq 2.00 here"));
        assertTrue(json(Charts.throughputBars(results(), "C")).get("description").getAsString().contains("warm and cold"));
        assertTrue(json(Charts.perRun(results(), "P")).get("description").getAsString().startsWith("P: each measured run's time"));
    }

    @Test
    void aReferenceChartSaysWhereEachBarStandsAgainstTheStudies() {
        Published.Claim claim = new Published.Claim("xu-guo.raw-1byte.java-over-c-time-seq", "Xu & Guo", "§4.2, Fig 4.1",
                "raw-1byte", "s", "", "", 2.5, "x", "ratio", "st");
        String said = json(ReferenceBars.ratioBars(List.of(ReferenceBars.bar("seq write", new Estimate(3.1, 2.9, 3.3)), ReferenceBars.bar("seq read", Estimate.exact(2.1))),
                List.of(ReferenceBars.reference("seq write", claim)), "Java time / C time", "Ratios")).get("description").getAsString();
        assertTrue(said.endsWith(": seq write 3.10 here (2.90 to 3.30) against 2.50 in Xu & Guo §4.2, Fig 4.1; seq read 2.10 here"), said);
    }

    @Test
    void everyChartOffersItsFiguresAsATable() {
        String lines = ChartTable.figures(Charts.withLevel(Charts.lines(results(), "file_size", "mb_per_s", false, "Rates"), 500, "the ceiling"));
        assertTrue(lines.startsWith("<details><summary"), lines);
        assertTrue(lines.contains("<caption>The figures of &quot;Rates&quot;</caption><thead><tr><th>language</th><th>operation</th><th>file size</th>"
                + "<th>MB per second</th><th>95% interval</th><th>runs</th></tr></thead>"), lines);
        assertEquals(6, lines.split("<tr><td>", -1).length - 1, "a row per line's point: 3 lines at 2 sizes");
        assertTrue(lines.contains("<td>java</td><td>write</td><td>1 MB</td>"), lines);
        assertTrue(lines.contains("Lines across the chart: the ceiling at 500."), lines);
        String said = String.valueOf(Charts.withRange(Charts.withLevel(Charts.lines(results(), "file_size", "mb_per_s", false, "Rates"), 512.5, "the ceiling"),
                MB, 2 * MB, "the knee").get("description"));
        assertTrue(said.endsWith("shaded bands are 95% intervals; a dashed line across it at 512.5: the ceiling; shaded from 1 MB to 2 MB: the knee"), said);
        for (Map<String, Object> spec : List.of(Charts.methodBars(results(), "M"), Charts.throughputBars(results(), "T"), Charts.perRun(results(), "P"),
                ReferenceBars.ratioBars(List.of(ReferenceBars.bar("seq", Estimate.exact(2))), List.of(), "Java ÷ C", "R"))) {
            assertTrue(ChartTable.figures(spec).contains("<tbody><tr><td>"), String.valueOf(spec.get("title")));
        }
    }
}
