package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Course;
import course.profile.Coldness;
import course.profile.ProfileTest;
import course.record.Results;
import course.run.Preset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabTest {
    @Test
    void twoLabsOpenedInOneSecondSaveTwoFiles() throws IOException {
        Lab first = Lab.open("03-operation-size", "smoke"), second = Lab.open("03-operation-size", "smoke");
        Path a = first.save(), b = second.save();
        assertFalse(a.equals(b), "each lab its own file (the name has seconds only)");
        assertEquals(a, first.save(), "a lab keeps its file from save to save");
        Files.delete(a);
        Files.delete(b);
    }

    @Test
    void aVerdictIsSavedWithTheFigureItsRuleJudged() throws IOException {
        Lab lab = Lab.open("01-raw-io", "smoke");
        var why = course.judge.Why.ifLower("lower").orIfHigher("higher");
        var cost = lab.claim("xu-guo.raw-1byte.java-vs-c-write-syscall-cost.100mb");
        printed(() -> lab.verdicts(course.judge.Verdict.ratio(cost, new course.judge.Estimate(1.3, 1.25, 1.36), why),
                course.judge.Verdict.ratio(cost, new course.judge.Estimate(1.3, Double.NaN, Double.NaN), why),
                course.judge.Verdict.unmeasured(cost, "no tool")));
        Path file = lab.save();
        try {
            var saved = com.google.gson.JsonParser.parseString(Files.readString(file)).getAsJsonObject().getAsJsonArray("verdicts");
            assertEquals("{\"value\":1.3,\"low\":1.25,\"high\":1.36}", saved.get(0).getAsJsonObject().get("judged").toString());
            assertEquals("{\"value\":1.3}", saved.get(1).getAsJsonObject().get("judged").toString(), "one round: no interval, and no NaN in JSON");
            assertFalse(saved.get(2).getAsJsonObject().has("judged"), "nothing measured, nothing judged");
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void readingsAreShownUnderTheTableButNotSaved() throws IOException {
        Lab lab = Lab.open("03-operation-size", "smoke");
        var claim = lab.claim("xu-guo.operation-size.seq-knee-high");
        var row = course.judge.Verdict.near(claim, new course.judge.Estimate(1.1, 1.0, 1.2), "%s", course.judge.Why.either("x"));
        String shown = printed(() -> lab.verdicts(row.withReading("\"No big further gain\" as within ×1.25"), row));
        assertTrue(shown.contains("How this lab reads the studies' words:"), shown);
        assertTrue(shown.contains("xu-guo.operation-size.seq-knee-high: \"No big further gain\" as within ×1.25"), shown);
        Path file = lab.save();
        try {
            var saved = com.google.gson.JsonParser.parseString(Files.readString(file)).getAsJsonObject().getAsJsonArray("verdicts");
            assertEquals(2, saved.size());
            assertFalse(saved.get(0).getAsJsonObject().has("reading"), "the course's text, not a measurement: shown, not saved");
        } finally {
            Files.delete(file);
        }
        Lab plain = Lab.open("03-operation-size", "smoke");
        String none = printed(() -> plain.verdicts(row));
        Files.delete(plain.save());
        assertFalse(none.contains("reads the studies' words"), "no fold without a reading");
    }

    @Test
    void laterLabsRepeatLabZerosColdReading() throws IOException {
        Results[] device = ProfileTest.ceiling(10, 100, 0.5);
        Lab start = Lab.open("00-start-here", "quick");
        String shown = printed(() -> start.coldReading(device[0], device[1]));
        String sentence = Coldness.reading(device[0], device[1]);
        assertTrue(shown.contains(sentence), shown);
        var saved = com.google.gson.JsonParser.parseString(Files.readString(start.save())).getAsJsonObject();
        assertEquals(sentence, saved.get("cold_reading").getAsString(), "kept with lab 00's results");
        String repeated = printed(() -> Lab.open("07-nio-threads", "smoke").coldReading());
        assertTrue(repeated.contains("Lab 00 found on this machine: " + sentence), repeated);
    }

    @Test
    void anUnreadableLabZeroResultIsNamedNotTakenForNone() throws IOException {
        Files.createDirectories(course.base.Course.results());
        Path broken = course.base.Course.results().resolve("00-start-here-quick-29991231-235959.json");
        Files.writeString(broken, "{\"runs\": [");  // cut short
        broken.toFile().setLastModified(System.currentTimeMillis() + 3_600_000);  // the newest
        try {
            Lab lab = Lab.open("07-nio-threads", "smoke");
            String said = printed(() -> assertTrue(Double.isNaN(lab.ceiling("read"))));
            assertTrue(said.startsWith("no ceiling: lab 00's results " + broken + " cannot be read ("), said);
            assertTrue(said.contains("run lab 00 again"), said);
            assertTrue(printed(lab::coldReading).contains(broken.toString()));
        } finally {
            Files.delete(broken);
        }
    }

    @Test
    void aPartForANewerJdkSaysItIsSkipped() {
        int here = Runtime.version().feature();
        Lab lab = Lab.open("10-past-the-page-cache", "smoke");
        assertEquals("", printed(() -> assertTrue(lab.javaAtLeast(here, "This part"))));
        String said = printed(() -> assertFalse(lab.javaAtLeast(here + 1, "Mapped segments")));
        assertTrue(said.startsWith("Mapped segments needs Java " + (here + 1) + " or later; this kernel runs Java " + here + ", so this part is skipped."), said);
    }

    /**
     * A lab opened on saved runs hands each cell the sweep of its own cases, wherever the cell stands: lab 03's cells
     * asked in the other order (as a notebook whose parts moved would) each find their own; a cell run twice, or of
     * another snippet, is refused in one line; nothing runs and nothing is saved.
     */
    @Test
    void aLabOpenedOnSavedRunsHandsEachCellTheSweepOfItsOwnCasesAndRunsNothing(@TempDir Path dir) throws IOException {
        Path saved = dir.resolve("03.json");
        try (var in = new java.util.zip.GZIPInputStream(LabTest.class.getResourceAsStream("/runs/03-operation-size.json.gz"))) {
            Files.copy(in, saved);
        }
        Lab[] lab = new Lab[1];
        String first = printed(() -> lab[0] = Lab.loaded("03-operation-size", saved));
        assertTrue(first.contains("loaded from " + saved) && first.contains("Nothing runs here"), first);
        Preset p = lab[0].preset();  // the notebook's own two cells, the second asked first
        Results rand = lab[0].sweep("raw_io").patterns("rand").opSizes(p.sizes("rand_op_sizes")).operations(p.size("rand_operations"), p.size("rand_max_size")).run();
        Results seq = lab[0].sweep("raw_io").opSizes(p.sizes("seq_op_sizes")).operations(p.size("seq_operations"), p.size("seq_max_size")).run();
        assertEquals(Lab.replay(saved).sweepHolding("pattern=rand").runs(), rand.runs());
        assertEquals(Lab.replay(saved).sweepHolding("pattern=seq").runs(), seq.runs());
        String twice = assertThrows(IllegalStateException.class, () -> lab[0].sweep("raw_io").opSizes(p.sizes("seq_op_sizes"))
                .operations(p.size("seq_operations"), p.size("seq_max_size")).run()).getMessage();
        assertTrue(twice.startsWith("COURSE_LOAD=" + saved + ": none of its 2 sweeps left is this cell's (raw_io, ") && !twice.contains("\n"), twice);
        Lab other = Lab.loaded("03-operation-size", saved);
        String wrong = assertThrows(IllegalStateException.class, () -> other.sweep("buffering").run()).getMessage();
        assertTrue(wrong.contains("none of its 2 sweeps left is this cell's (buffering, "), wrong);
        assertEquals(saved, other.save(), "nothing saved: the runs are where they came from");
        assertEquals(1, Files.list(dir).count());
        String elsewhere = printed(() -> assertEquals(null, Lab.loaded("08-mpi-processes", saved)));
        assertTrue(elsewhere.contains("holds the runs of 03-operation-size, so 08-mpi-processes runs its own"), elsewhere);
        Path junk = Files.writeString(dir.resolve("junk.json"), "[1, 2");
        String bad = assertThrows(IllegalArgumentException.class, () -> Lab.loaded("03-operation-size", junk)).getMessage();
        assertTrue(bad.startsWith("COURSE_LOAD=" + junk + ": not a lab's saved results"), bad);
    }

    /** What a call printed (outside a kernel the kit prints its displays' text). */
    static String printed(Runnable call) {
        var out = System.out;
        var captured = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            call.run();
        } finally {
            System.setOut(out);
        }
        return captured.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
