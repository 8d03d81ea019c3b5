package course.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PresetTest {
    /** Quick states its time once, in the seconds the plan's model reads (its minutes once said 0.3 where they made 20 s). */
    @Test
    void quickStatesItsTimeOnceInItsSeconds() {
        for (String lab : Preset.table().keySet().stream().filter(key -> !key.startsWith("_")).toList()) {
            Preset quick = Preset.of(lab, "quick");
            assertFalse(quick.values().has("minutes"), lab + "'s quick states minutes beside its seconds");
            JsonObject s = quick.values().getAsJsonObject("seconds");
            assertEquals((s.get("fixed").getAsDouble() + s.get("judged").getAsDouble() + s.get("work").getAsDouble()) / 60, quick.minutes(), 1e-9, lab);
        }
    }

    @ParameterizedTest
    @CsvSource({"00-start-here, quick", "00-start-here, smoke", "00-start-here, paper",
            "01-raw-io, quick", "01-raw-io, smoke", "01-raw-io, paper"})
    void everyLabHasTheThreePresets(String lab, String name) {
        Preset p = Preset.of(lab, name);
        assertEquals(lab, p.lab());
        assertEquals(name, p.name());
        assertTrue(p.minutes() > 0, "minutes " + p.minutes());
        assertTrue(p.count("repeat") >= 1);
        assertTrue(p.count("warmup") >= 0);
    }

    @Test
    void smallestLargestAndTheStepBelow() {
        Preset p = new Preset("x", "quick", com.google.gson.JsonParser.parseString("{\"buffers\": [\"1\", \"1k\", \"64k\", \"4m\"]}").getAsJsonObject());
        assertEquals(1, p.smallest("buffers"));
        assertEquals(4L << 20, p.largest("buffers"));
        assertEquals(64L << 10, p.largestUpTo("buffers", 1L << 20), "the study's 1 MB is not run: the nearest below it");
        assertEquals(1024, p.largestUpTo("buffers", 1024), "up to includes the limit");
        assertEquals(1, p.largestBelow("buffers", 1024), "below does not");
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> p.largestBelow("buffers", 1));
        assertTrue(e.getMessage().contains("buffers"), e.getMessage());
    }

    @Test
    void startHereSizesParse() {
        Preset smoke = Preset.of("00-start-here", "smoke");
        assertEquals(8L << 20, smoke.size("ceiling_size"));
        assertEquals(1L << 20, smoke.size("ceiling_op_size"));
        assertEquals(64L << 10, smoke.size("first_size"));
        assertEquals(4096, smoke.size("first_op_size"));
        assertEquals(2, smoke.count("repeat"));
        assertEquals(0, smoke.count("warmup"));
        assertEquals(1, Preset.of("00-start-here", "quick").size("first_op_size"));
        Preset paper = Preset.of("00-start-here", "paper");
        assertEquals(Math.min(2L << 30, paper.sizeCap()), paper.size("ceiling_size"), "the study's size, or this machine's cap");
    }

    @Test
    void rawIoSizesParse() {
        assertEquals(List.of(16L << 10, 48L << 10), Preset.of("01-raw-io", "smoke").sizes("seq_sizes"));
        assertEquals(List.of(64L << 10, 128L << 10, 256L << 10), Preset.of("01-raw-io", "quick").sizes("seq_sizes"));
        Preset paper = Preset.of("01-raw-io", "paper");
        assertEquals(List.of(1L << 20, 10L << 20, 25L << 20, 50L << 20, 100L << 20), paper.sizes("seq_sizes"));
        assertEquals(List.of(1L << 20, 5L << 20, 10L << 20), paper.sizes("rand_sizes"), "up to Fig 4.4's 10 MB");
        assertEquals(45.0, paper.minutes());
    }

    @Test
    void smokeIsNoBiggerThanQuickNoBiggerThanPaper() {
        for (String key : List.of("strace_size", "profile_size")) {
            long smoke = Preset.of("01-raw-io", "smoke").size(key), quick = Preset.of("01-raw-io", "quick").size(key),
                    paper = Preset.of("01-raw-io", "paper").size(key);
            assertTrue(smoke <= quick && quick <= paper, key);
        }
        List<Long> smoke = Preset.of("01-raw-io", "smoke").sizes("rand_sizes"), quick = Preset.of("01-raw-io", "quick").sizes("rand_sizes"),
                paper = Preset.of("01-raw-io", "paper").sizes("rand_sizes");
        assertTrue(smoke.get(smoke.size() - 1) <= quick.get(quick.size() - 1) && quick.get(quick.size() - 1) <= paper.get(paper.size() - 1), "rand_sizes");
    }

    @Test
    void unknownPresetNamesTheAllowedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Preset.of("01-raw-io", "huge"));
        assertTrue(e.getMessage().contains("huge"), e.getMessage());
        for (String allowed : List.of("smoke", "quick", "paper")) assertTrue(e.getMessage().contains(allowed), e.getMessage());
    }

    @Test
    void unknownLab() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Preset.of("99-nope", "quick"));
        assertTrue(e.getMessage().contains("99-nope"), e.getMessage());
    }

    @Test
    void missingKeyIsNamed() {
        Preset p = Preset.of("01-raw-io", "quick");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.size("ceiling_size"));
        assertTrue(e.getMessage().contains("'ceiling_size'"), e.getMessage());
        assertTrue(e.getMessage().contains("quick") && e.getMessage().contains("01-raw-io"), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void sizesLineShowsEverySizeAsWritten() {
        var values = com.google.gson.JsonParser.parseString(
                "{\"minutes\": 1, \"size\": \"128m\", \"map_sizes\": [\"16k\", \"64m\"], \"repeat\": 3}").getAsJsonObject();
        org.junit.jupiter.api.Assertions.assertEquals("size 128m · map sizes 16k, 64m", new Preset("07-x", "quick", values).sizesLine());
    }

    @Test
    void sizesAreCappedAtAQuarterOfTheMemoryAllowed() {
        assertEquals(512L << 20, Preset.capFor(2L << 30), "a 2 GiB Binder container");
        assertEquals(256L << 20, Preset.capFor(1536L << 20), "a power of two within a quarter");
        var values = com.google.gson.JsonParser.parseString(
                "{\"size\": \"1g\", \"map_sizes\": [\"16k\", \"1g\"], \"op_size\": \"4m\", \"exercise_ints\": \"1g\"}").getAsJsonObject();
        Preset binder = new Preset("07-x", "paper", values, Preset.capFor(2L << 30));
        assertEquals(512L << 20, binder.size("size"));
        assertEquals(List.of(16L << 10, 512L << 20), binder.sizes("map_sizes"));
        assertEquals(4L << 20, binder.size("op_size"), "sizes under the cap are kept");
        assertEquals(1L << 30, binder.size("exercise_ints"), "counts are not sizes");
        assertEquals("size 512m (not 1g) · map sizes 16k, 512m (not 1g) · op size 4m · sizes capped at 512m, a quarter of the memory allowed here",
                binder.sizesLine());
        assertEquals(1L << 30, new Preset("07-x", "paper", values).size("size"), "no cap");
    }

    /** What grading sizes its sandbox by: the largest size any lab's preset lists, as written (a size key's value or list). */
    @Test
    void theLargestSizeOfAPresetIsOverEveryLab() {
        assertEquals(8L << 20, Preset.largestSize("smoke"));
        assertEquals(256L << 20, Preset.largestSize("quick"));
        assertEquals(2L << 30, Preset.largestSize("paper"));
        assertEquals(0, Preset.largestSize("no-such-preset"));
    }
}
