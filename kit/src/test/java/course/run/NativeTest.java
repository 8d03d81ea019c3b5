package course.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Course;
import course.base.Scratch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeTest {
    @Test
    void theLibraryIsRebuiltWhenItsSourceChangesAndOnlyThen(@TempDir Path dir) throws IOException {
        Path source = dir.resolve("probe.c");
        Files.writeString(source, "int probe(void) { return 1; }\n");
        Build build = new Build();
        Path first = build.nativeLibrary("probe", source);
        assertTrue(Files.exists(first) && first.getFileName().toString().equals("libprobe.so"), first.toString());
        long built = Files.getLastModifiedTime(first).toMillis();
        assertEquals(first, build.nativeLibrary("probe", source), "the same source: the same library, not rebuilt");
        assertEquals(built, Files.getLastModifiedTime(first).toMillis());
        Files.writeString(source, "int probe(void) { return 2; }\n");
        Path second = build.nativeLibrary("probe", source);
        assertNotEquals(first.getParent(), second.getParent(), "a changed source builds a new library");
        assertTrue(Files.exists(second));
        Scratch.removeTree(first.getParent());
        Scratch.removeTree(second.getParent());
    }

    @Test
    void snippetsThatLoadALibraryAreFound() {
        Path typed = Course.home().resolve("java-snippets/TypedArrays.java");
        List<Path> sources = Build.javaSources(typed);
        assertTrue(sources.stream().anyMatch(p -> p.endsWith("BulkRandomAccessFile.java")), sources.toString());
        assertEquals(List.of("bulkraf"), Build.nativeLibraries(sources));
        assertEquals(List.of(), Build.nativeLibraries(Build.javaSources(Course.home().resolve("java-snippets/RawIo.java"))));
    }

    @Test
    void theCommandUsesThisJdksHeaders() {
        List<String> cmd = Build.nativeCommand(Path.of("x.c"), Path.of("libx.so"), Path.of("/jdk/include"));
        assertTrue(cmd.containsAll(List.of("-shared", "-fPIC", "-I/jdk/include", "-I/jdk/include/linux")), cmd.toString());
    }

    @Test
    void aSnippetsSourcesIncludeTheSourcesTheyNameInTurn(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        java.nio.file.Files.writeString(dir.resolve("A.java"), "///usr/bin/env jbang\n//SOURCES B.java\nclass A {}\n");
        java.nio.file.Files.writeString(dir.resolve("B.java"), "//SOURCES C.java A.java\nclass B {}\n");
        java.nio.file.Files.writeString(dir.resolve("C.java"), "class C {}\n");
        assertEquals(List.of(dir.resolve("A.java"), dir.resolve("B.java"), dir.resolve("C.java")), Build.javaSources(dir.resolve("A.java")),
                "C, named by B only, is a source of A (it changes A's build), and A is read once");
    }
}
