package course.show;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Course;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeTest {
    static final Path JAVA = Course.home().resolve("java-snippets/RawIo.java");
    static final Path C = Course.home().resolve("c-snippets/raw_io.c");

    @Test
    void extractsAJavaMethod() {
        String code = Code.extract(JAVA, "seqWrite");
        String[] lines = code.split("\n");
        assertTrue(lines[0].startsWith("static long seqWrite(Harness.Options o)"), lines[0]);
        assertEquals("}", lines[lines.length - 1], "ends at the method's own closing brace");
        assertTrue(code.contains("new FileOutputStream"), code);
        assertFalse(code.contains("seqRead"), "stops before the next method: " + code);
        assertTrue(lines[1].startsWith("    try (var out"), "the body keeps its indentation relative to the method: " + lines[1]);
        assertTrue(code.endsWith("}\n"));
    }

    @Test
    void extractsEachJavaMethodSeparately() {
        for (String name : new String[] {"seqWrite", "seqRead", "randWrite", "randRead"}) {
            String code = Code.extract(JAVA, name);
            assertTrue(code.startsWith("static long " + name + "("), code);
            assertEquals(1, code.split("static long ", -1).length - 1, name + " alone: " + code);
            assertTrue(code.contains(name.endsWith("Write") ? "return 0;" : "return used;"), code);
        }
    }

    @Test
    void extractsACFunction() {
        String code = Code.extract(C, "seq_write");
        String[] lines = code.split("\n");
        assertTrue(lines[0].startsWith("static uint64_t seq_write(const struct options *o)"), lines[0]);
        assertEquals("}", lines[lines.length - 1]);
        assertTrue(code.contains("harness_write_fully("), code);
        assertTrue(code.contains("return 0;"), code);
        assertFalse(code.contains("seq_read"), code);
        assertTrue(code.contains("\n    } else {\n"), "inner braces do not end the function: " + code);
    }

    @Test
    void extractsTheRandomCFunctions() {
        String code = Code.extract(C, "rand_write");
        assertTrue(code.contains("lseek("), code);
        assertTrue(code.contains("prng_below("), code);
        assertFalse(code.contains("rand_read"), code);
    }

    @Test
    void missingSignatureIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Code.extract(JAVA, "noSuchMethod"));
        assertTrue(e.getMessage().contains("noSuchMethod"), e.getMessage());
        assertTrue(e.getMessage().contains("RawIo.java"), e.getMessage());
    }

    @Test
    void nestedIndentation(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("X.java"), String.join("\n",
                "class X {",
                "    static long a() {",
                "        if (true) {",
                "            return 1;",
                "        }",
                "",
                "        return 2;",
                "    }",
                "",
                "    static long b() {",
                "        return 3;",
                "    }",
                "}", ""));
        assertEquals("static long a() {\n    if (true) {\n        return 1;\n    }\n\n    return 2;\n}\n",
                Code.extract(file, "a"));
        assertEquals("static long b() {\n    return 3;\n}\n", Code.extract(file, "b"));
    }

    @Test
    void findsFunctionsOfEveryKindAndReturnType() {
        String[][] cases = {
            {"java-snippets/TextLines.java", "chars", "static void chars(Harness.Options o, Lines lines)"},
            {"c-snippets/text_lines.c", "open_text", "static FILE *open_text("},
            {"c-snippets/text_lines.c", "consume", "static void consume("},
            {"c-snippets/jni/bulkraf.c", "Java_BulkRandomAccessFile_transfer", "JNIEXPORT jint JNICALL Java_BulkRandomAccessFile_transfer("},
            {"java-snippets/BulkRandomAccessFile.java", "order", "public BulkRandomAccessFile order(ByteOrder order) {"},
            {"java-snippets/BulkRandomAccessFile.java", "read", "private void read(Object array"}};  // not a one-liner that calls read(
        for (String[] c : cases) {
            String code = Code.extract(Course.home().resolve(c[0]), c[1]);
            assertTrue(code.startsWith(c[2]), c[0] + " · " + c[1] + ": " + code);
        }
    }

    @Test
    void findsAWayInEitherTable() {
        Code.Function java = Code.way(Course.home().resolve("java-snippets/Buffering.java"), "direct", "write", "rand");
        assertEquals("directRandWrite", java.name());
        assertTrue(java.file().endsWith("Buffering.java"), java.file().toString());
        Code.Function c = Code.way(Course.home().resolve("c-snippets/buffering.c"), "stream", "read", "seq");
        assertEquals("stream_read", c.name());
    }

    @Test
    void aRowServingAnyFlagAndAMethodOfAnotherClass(@TempDir Path dir) throws IOException {
        Path snippet = Files.writeString(dir.resolve("B.java"), String.join("\n",
                "    static final List<Harness.Way<Share>> WAYS = List.of(",
                "            new Harness.Way<>(\"x\", \"write\", \"seq\", B::first),",
                "            new Harness.Way<>(\"x\", Harness.ANY, Harness.ANY, A::other));", ""));
        assertEquals(new Code.Function(snippet, "first"), Code.way(snippet, "x", "write", "seq"), "the first row that serves, as the harness takes it");
        assertEquals(new Code.Function(dir.resolve("A.java"), "other"), Code.way(snippet, "x", "read", "rand"));
        Path c = Files.writeString(dir.resolve("b.c"), "    {\"x\", ANY, \"rand\", {.share = spread}},\n    {NULL},\n");
        assertEquals(new Code.Function(c, "spread"), Code.way(c, "x", "write", "rand"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Code.way(c, "x", "read", "seq"));
        assertEquals("b.c has no way x read seq (its ways: x any rand)", e.getMessage());
    }

    @Test
    void everyWayOfEverySnippetHasItsCode() throws IOException {
        int found = 0;
        for (String folder : new String[] {"java-snippets", "c-snippets"}) {
            try (var files = Files.list(Course.home().resolve(folder))) {
                for (Path file : files.filter(f -> f.toString().matches(".*\\.(java|c)$")).toList()) {
                    var rows = java.util.regex.Pattern.compile("(?:new Harness\\.Way<>\\(|\\{)\"([^\"]+)\", (Harness\\.ANY|ANY|\"[a-z]+\"), "
                            + "(Harness\\.ANY|ANY|\"[a-z]+\"), ").matcher(Files.readString(file));
                    while (rows.find()) {
                        String op = rows.group(2).contains("ANY") ? "read" : rows.group(2).replace("\"", "");
                        String pattern = rows.group(3).contains("ANY") ? "seq" : rows.group(3).replace("\"", "");
                        assertFalse(Code.way(file, rows.group(1), op, pattern).code().isBlank());
                        found++;
                    }
                }
            }
        }
        assertTrue(found >= 60, found + " ways");
    }
}
