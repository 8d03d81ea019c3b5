package course.classroom;

import static course.record.Runs.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import course.ResultsFile;
import course.record.Results;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HandinsTest {
    static JsonObject doc(String lab, JsonObject... runs) {
        JsonObject d = new JsonObject();
        d.addProperty("lab", lab);
        d.addProperty("preset", "quick");
        d.add("machine", new JsonObject());
        JsonArray r = new JsonArray();
        for (JsonObject x : runs) r.add(x);
        d.add("runs", r);
        d.add("verdicts", new JsonArray());
        return d;
    }

    @Test
    void aLabsResultsPassAndEverythingElseSaysWhatIsWrong() {
        assertNull(ResultsFile.problem(doc("01-raw-io", run("java", "read", 1 << 20, 0, 1_000_000))));
        JsonObject noRuns = doc("01-raw-io");
        noRuns.remove("runs");
        assertEquals("not a lab's results: no runs", ResultsFile.problem(noRuns));
        assertEquals("no such lab: 99-nothing", ResultsFile.problem(doc("99-nothing")));
        JsonObject bare = run("java", "read", 1 << 20, 0, 1_000_000);
        bare.remove("elapsed_ns");
        assertEquals("not a lab's results: runs[0] has no elapsed_ns", ResultsFile.problem(doc("01-raw-io", bare)));
        JsonObject overCounted = doc("01-raw-io", run("java", "read", 1 << 20, 0, 1_000_000));
        overCounted.add("sweeps", new com.google.gson.Gson().toJsonTree(List.of(5)));
        assertEquals("not a lab's results: its sweeps count 5 runs and it holds 1", ResultsFile.problem(overCounted), "refused, not read past its runs");
    }

    @Test
    void javaOverCComparesEachLanguagesFastestWayOnTheSameWork() {
        Results r = new Results(List.of(run("java", "read", 1 << 20, 0, 3_000_000), run("c", "read", 1 << 20, 0, 2_000_000)));
        assertEquals(1.5, Handins.javaOverC(r), 1e-9);
        assertTrue(Double.isNaN(Handins.javaOverC(r.where("language", "java"))), "no C runs: no ratio");
        Results apart = new Results(List.of(run("java", "read", 1 << 20, 0, 3_000_000), run("c", "read", 2 << 20, 0, 2_000_000)));
        assertTrue(Double.isNaN(Handins.javaOverC(apart)), "no work in common: no ratio");
    }

    @Test
    void aMissingFolderIsOneClearError(@TempDir Path dir) {
        String m = assertThrows(IllegalArgumentException.class, () -> Handins.collect(dir.resolve("nope"))).getMessage();
        assertTrue(m.startsWith("no folder ") && m.contains("COURSE_HANDIN"), m);
        assertEquals(0, Handins.collect(dir).handins().size());
    }

    @Test
    void aHandedInFieldCannotLeaveItsCellOrAttribute(@TempDir Path dir) throws java.io.IOException {
        JsonObject d = doc("01-raw-io", run("java", "read", 1 << 20, 0, 1_000_000));
        JsonObject verdict = new JsonObject();
        verdict.addProperty("claim", "xu-guo.raw-1byte.java-over-c-time-seq");
        verdict.addProperty("published", "2×");
        verdict.addProperty("measured", "' onmouseover='alert(1)\" x=\"<script>");
        verdict.addProperty("verdict", "holds");
        d.getAsJsonArray("verdicts").add(verdict);
        try (var zip = new java.util.zip.ZipOutputStream(java.nio.file.Files.newOutputStream(dir.resolve("results-mallory.zip")))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("01-raw-io-quick-1.json"));
            zip.write(d.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        String page = Handins.collect(dir).verdicts();
        assertTrue(page.contains("title='&#39; onmouseover=&#39;alert(1)&quot; x=&quot;&lt;script&gt;'"), page);
        assertTrue(!page.contains("<script") && !page.contains("' onmouseover"), page);
    }

    static void zip(Path file, String entry, byte[] content) throws java.io.IOException {
        try (var zip = new java.util.zip.ZipOutputStream(java.nio.file.Files.newOutputStream(file))) {
            zip.putNextEntry(new java.util.zip.ZipEntry(entry));
            zip.write(content);
        }
    }

    @Test
    void eachMalformedHandInIsLeftOutByNameAndTheRestShown(@TempDir Path dir) throws java.io.IOException {
        String good = doc("01-raw-io", run("java", "read", 1 << 20, 0, 1_000_000)).toString();
        zip(dir.resolve("results-ada.zip"), "01-raw-io-quick-1.json", good.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.util.Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("lab-null", good.replace("\"lab\":\"01-raw-io\"", "\"lab\":null"));
        bad.put("lab-path", good.replace("\"lab\":\"01-raw-io\"", "\"lab\":\"../../labs/01-raw-io\""));
        bad.put("started-object", good.replace("\"preset\":\"quick\"", "\"preset\":\"quick\",\"started\":{}"));
        bad.put("verdict-number", good.replace("\"verdicts\":[]", "\"verdicts\":[1]"));
        bad.put("verdict-object-field", good.replace("\"verdicts\":[]", "\"verdicts\":[{\"claim\":\"x\",\"verdict\":\"holds\",\"measured\":{}}]"));
        bad.put("elapsed-text", good.replace("\"elapsed_ns\":1000000", "\"elapsed_ns\":\"fast\""));
        bad.put("misses-object", good.replace("\"seed\":42", "\"seed\":42,\"misses\":{}"));
        bad.put("machine-list", good.replace("\"machine\":{}", "\"machine\":{\"cores\":[2]}"));
        for (var e : bad.entrySet()) {
            zip(dir.resolve("results-" + e.getKey() + ".zip"), "01-raw-io-quick-1.json", e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        zip(dir.resolve("results-bomb.zip"), "01-raw-io-quick-1.json", new byte[ResultsFile.MAX_BYTES + 4096]);
        Handins all = Handins.collect(dir);
        assertEquals(List.of("ada"), all.handins().stream().map(Handins.Handin::learner).toList(), "the good one is shown");
        String page = all.html();
        for (String name : bad.keySet()) assertTrue(page.contains("results-" + name + ".zip"), name + " is named under left out: " + page);
        assertTrue(page.contains("results-bomb.zip:01-raw-io-quick-1.json</code>: larger than 16 MB"), page);
        all.verdicts();  // the class's other views take what was kept without failing
        all.ceilings();
        all.javaOverC();
    }

    @Test
    void handInsAreFoundAtAnyDepthAndOnlyTheirResultsRead(@TempDir Path dir) throws java.io.IOException {
        String good = doc("01-raw-io", run("java", "read", 1 << 20, 0, 1_000_000)).toString();
        Path moodle = dir.resolve("Jane Doe_123456_assignsubmission_file_");
        java.nio.file.Files.createDirectories(moodle);
        try (var zip = new java.util.zip.ZipOutputStream(java.nio.file.Files.newOutputStream(moodle.resolve("handin-jane.zip")))) {
            for (String entry : List.of("learner.txt", "01-raw-io.ipynb", "results/01-raw-io-quick-1.json")) {
                zip.putNextEntry(new java.util.zip.ZipEntry(entry));
                zip.write((entry.endsWith(".json") ? good : "{\"cells\": []}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        java.nio.file.Files.createDirectories(dir.resolve("a/b"));
        zip(dir.resolve("a/b/results-ada.zip"), "01-raw-io-quick-1.json", good.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Handins all = Handins.collect(dir);
        assertEquals(List.of("ada", "jane"), all.handins().stream().map(Handins.Handin::learner).sorted().toList());
        assertEquals(List.of(), all.rejected(), "a hand-in's notebooks and learner file are not results, and not refused as such");
    }

    @Test
    void aDamagedEntryCostsItselfNotTheLearnersWholeHandIn(@TempDir Path dir) throws java.io.IOException {
        String good = "results/01-raw-io-quick-1.json", damaged = "results/02-buffering-quick-1.json";
        Path zip = dir.resolve("handin-ann.zip");
        try (var out = new java.util.zip.ZipOutputStream(java.nio.file.Files.newOutputStream(zip))) {
            out.putNextEntry(new java.util.zip.ZipEntry(good));
            out.write(doc("01-raw-io", run("java", "read", 1 << 20, 0, 1_000_000)).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.putNextEntry(new java.util.zip.ZipEntry(damaged));
            out.write(doc("02-buffering", run("java", "read", 1 << 20, 0, 1_000_000)).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        byte[] bytes = java.nio.file.Files.readAllBytes(zip);
        byte[] name = damaged.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int header = -1;  // the damaged entry's local header: "PK\3\4", 26 more bytes, then its name
        for (int at = 0; at + 30 + name.length <= bytes.length && header < 0; at++) {
            if (bytes[at] == 'P' && bytes[at + 1] == 'K' && bytes[at + 2] == 3 && bytes[at + 3] == 4
                    && java.util.Arrays.equals(bytes, at + 30, at + 30 + name.length, name, 0, name.length)) header = at;
        }
        int extra = (bytes[header + 28] & 0xff) | (bytes[header + 29] & 0xff) << 8;
        bytes[header + 30 + name.length + extra] |= 0x06;  // its first deflate block of the reserved type 3: unreadable
        java.nio.file.Files.write(zip, bytes);
        Handins h = Handins.collect(dir);
        assertEquals(1, h.handins().size(), "the learner's hand-in is kept");
        assertEquals(java.util.Set.of("01-raw-io"), h.handins().get(0).labs().keySet());
        assertEquals(1, h.rejected().size());
        assertEquals("handin-ann.zip:" + damaged, h.rejected().get(0).file());
        assertTrue(h.rejected().get(0).reason().startsWith("cannot be read from the zip ("), h.rejected().get(0).reason());
    }
}
