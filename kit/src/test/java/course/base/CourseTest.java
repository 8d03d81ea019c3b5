package course.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CourseTest {
    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "1000, 1000", "4k, 4096", "4K, 4096", "16m, 16777216", "16M, 16777216",
            "1g, 1073741824", "64g, 68719476736", "' 8k ', 8192"})
    void parseSize(String text, long bytes) {
        assertEquals(bytes, Course.parseSize(text));
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "1000, 1000", "1025, 1025", "4096, 4k", "1572864, 1536k", "16777216, 16m",
            "1073741824, 1g", "68719476736, 64g", "3221225472, 3g"})
    void formatSize(long bytes, String text) {
        assertEquals(text, Course.formatSize(bytes));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 7, 1000, 1024, 4096, 10001, 1536L << 10, 1L << 20, 10L << 20, 100L << 20, 1L << 30,
            2L << 30, 64L << 30, (1L << 30) + 1024})
    void roundTrip(long bytes) {
        String text = Course.formatSize(bytes);
        assertEquals(bytes, Course.parseSize(text), text);
        assertEquals(text, Course.formatSize(Course.parseSize(text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "k", "abc", "1.5m", "-1", "4kb", "4 k", "1t", "1234567890123"})
    void rejects(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Course.parseSize(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    /**
     * A large number with a suffix is refused or parsed whole, never shifted past a long into a wrong, even negative,
     * size (the harnesses refuse the same text: "must be between 1 and 64g").
     */
    @ParameterizedTest
    @ValueSource(strings = {"9999999999g", "999999999999g", "999999999999m"})
    void hugeSizesAreRejectedNotWrapped(String text) {
        long bytes;
        try {
            bytes = Course.parseSize(text);
        } catch (IllegalArgumentException rejected) {
            return;
        }
        long number = Long.parseLong(text.substring(0, text.length() - 1));
        assertEquals(number, bytes >> (text.endsWith("g") ? 30 : 20), text + " parsed as " + bytes);
    }

    @Test
    void homeIsTheCourseFolder() {
        assertTrue(Files.exists(Course.home().resolve("setup/setup.sh")), Course.home().toString());
        assertTrue(Files.isRegularFile(Course.home().resolve("labs/presets.json")));
        assertEquals(Course.home().resolve("build"), Course.build());
    }

    @Test
    void bytesForProse() {
        assertEquals("1 B", Course.formatBytes(1));
        assertEquals("1000 B", Course.formatBytes(1000));
        assertEquals("4 KB", Course.formatBytes(4096));
        assertEquals("128 KB", Course.formatBytes(128 << 10));
        assertEquals("10 MB", Course.formatBytes(10 << 20));
    }

    @Test
    void aFolderNamedInAnEnvironmentVariableMustBeUtf8() {
        java.nio.file.Path fallback = java.nio.file.Path.of("/fallback");
        assertEquals(fallback, Course.folder("COURSE_SCRATCH", null, () -> fallback));
        assertEquals(fallback, Course.folder("COURSE_SCRATCH", "", () -> fallback));
        assertEquals(java.nio.file.Path.of("/tmp/a b, 'c' d"), Course.folder("COURSE_SCRATCH", "/tmp/a b, 'c' d", () -> fallback));
        var e = assertThrows(IllegalArgumentException.class, () -> Course.folder("COURSE_SCRATCH", "/tmp/odd\uFFFD", () -> fallback));
        assertEquals("COURSE_SCRATCH=/tmp/odd\uFFFD is not valid UTF-8, which Java needs to open a folder: name one in UTF-8", e.getMessage());
    }
}
