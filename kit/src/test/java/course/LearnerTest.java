package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LearnerTest {
    @Test
    void packsTheNotebooksAndResultsAsAHandInHoldsThem(@TempDir Path dir) throws Exception {
        Path notebooks = Files.createDirectories(dir.resolve("my-labs")), results = Files.createDirectories(dir.resolve("results"));
        Files.writeString(notebooks.resolve("00-start-here.ipynb"), "{}");
        Files.writeString(notebooks.resolve(".~00-start-here.ipynb"), "a save under way");
        Files.writeString(results.resolve("00-start-here-quick-20261125-120000.json"), "{}");
        Files.writeString(results.resolve("notes.txt"), "not a result");
        Learner.Kept kept = Learner.pack(notebooks, results);
        assertEquals(1, kept.notebooks());
        assertEquals(1, kept.results());
        List<String> names = new ArrayList<>();
        try (ZipFile z = new ZipFile(kept.zip().toFile())) {
            z.stream().forEach(e -> names.add(e.getName()));
        }
        assertEquals(List.of("00-start-here.ipynb", "results/00-start-here-quick-20261125-120000.json"), names);
        try (var left = Files.list(notebooks)) {
            assertFalse(left.anyMatch(p -> p.getFileName().toString().endsWith(".partial")), "no partial file left");
        }
    }

    @Test
    void answersAreTheSolutionCellsFoldedWithoutTheirMarkers() {
        var notebook = JsonParser.parseString("""
            {"cells": [
              {"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "lab00-x", "solution": true}},
               "source": ["double x() {\\n", "    // BEGIN SOLUTION\\n", "    return 4;\\n", "    // END SOLUTION\\n", "}"]},
              {"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "lab00-x-check", "grade": true, "solution": false}},
               "source": "assert x() == 4;"},
              {"cell_type": "markdown", "metadata": {"nbgrader": {"grade_id": "lab00-think", "solution": true}},
               "source": "<details><summary>A model answer</summary>\\n\\nBecause the cache.\\n</details>"}
            ]}""").getAsJsonObject();
        String md = Learner.answersMarkdown(notebook);
        assertTrue(md.contains("<summary style='padding:3px 0'>The course's answer to <code>lab00-x</code></summary>"), md);
        assertTrue(md.contains("double x() {\n    return 4;\n}"), md);
        assertFalse(md.contains("SOLUTION") || md.contains("lab00-x-check") || md.contains("A model answer"), md);
        assertTrue(md.contains("Because the cache."), md);
        assertEquals(2, md.split("<details>", -1).length - 1, "one folded block per answer");
    }

    @Test
    void answersStayClosedWhenTheTeacherTurnedThemOffOrSetTheSwitchWrong(@TempDir Path dir) throws Exception {
        Path source = Files.writeString(dir.resolve("00-start-here.ipynb"), "{\"cells\": []}");
        assertTrue(LabTest.printed(() -> Learner.answers(source, "off")).startsWith("Your teacher has turned the course's answers off"));
        assertEquals("COURSE_ANSWERS=maybe is neither on nor off, so the answers stay closed: your teacher can set it right.\n",
                LabTest.printed(() -> Learner.answers(source, "maybe")));
    }
}
