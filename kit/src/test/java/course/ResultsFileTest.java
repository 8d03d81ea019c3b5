package course;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.base.Course;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {
    static ResultsFile empty(String started) {
        return new ResultsFile("03-operation-size", "smoke", started, new JsonObject(), Map.of(), List.of(), List.of(), List.of(), Map.of(), null, null);
    }

    @Test
    void aResultsNameTakenIsNotTakenAgain(@TempDir Path dir) {
        ResultsFile saved = empty("20261125-120000");
        assertEquals(dir.resolve("03-operation-size-smoke-20261125-120000.json"), saved.claim(dir));
        assertEquals(dir.resolve("03-operation-size-smoke-20261125-120000-2.json"), saved.claim(dir));
        assertEquals(dir.resolve("03-operation-size-smoke-20261125-120000-3.json"), saved.claim(dir));
    }

    @Test
    void everySavedResultsFileReadsBackToTheSameDocument() throws IOException {
        try (var files = Files.list(Course.home().resolve("kit/src/test/resources/runs"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json.gz")).toList()) {
                JsonObject doc;
                try (var in = new GZIPInputStream(Files.newInputStream(file))) {
                    doc = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject();
                }
                assertEquals(doc, ResultsFile.of(doc).toJson(), file + ": what the reader takes, the writer gives back");
            }
        }
    }
}
