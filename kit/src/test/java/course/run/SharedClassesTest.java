package course.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedClassesTest {
    @Test
    void aRunMakesTheArchiveWhereNoneIsAndUsesItWhereOneIs(@TempDir Path dir) throws Exception {
        Path archive = dir.resolve("cds/Snippet-1.jsa");
        SharedClasses.Use making = SharedClasses.forRun(archive, false);
        assertTrue(making.options().get(0).startsWith("-XX:ArchiveClassesAtExit=" + dir.resolve("cds/.making-")), making.toString());
        assertEquals(SharedClasses.Use.NONE, SharedClasses.forRun(archive, true), "an MPI job of several ranks, strace or a profiler: none made");
        Files.writeString(archive, "an archive");
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive, SharedClasses.QUIET), SharedClasses.forRun(archive, true).options(),
                "an archive there is used by every run");
    }

    @Test
    void aFolderThatCannotBeMadeMeansNoSharing(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("build"), "a file, not a folder");
        assertEquals(SharedClasses.Use.NONE, SharedClasses.forRun(file.resolve("cds/Snippet-1.jsa"), false));
    }

    @Test
    void theOptionsGoLastAmongTheJvmsBeforeTheClassPath() {
        SharedClasses.Use use = new SharedClasses.Use(List.of("-XX:SharedArchiveFile=/a.jsa", SharedClasses.QUIET), null, null);
        assertEquals(List.of("java", "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:SharedArchiveFile=/a.jsa", SharedClasses.QUIET, "-cp", "x.jar", "Main"),
                SharedClasses.around(List.of("java", "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp", "x.jar", "Main"), use));
        assertEquals(List.of("java", "-cp", "x.jar", "Main"), SharedClasses.around(List.of("java", "-cp", "x.jar", "Main"), SharedClasses.Use.NONE));
    }

    /** A real snippet on the course's JDK: the first run leaves an archive, the next maps it, and both print the same record, nothing else. */
    @Test
    void aSnippetRunsTheSameWithItsArchive(@TempDir Path dir) throws Exception {
        List<String> java = new Build().command("raw_io", "java");
        Path archive = dir.resolve("cds/RawIo-test.jsa");
        String first = run(java, SharedClasses.forRun(archive, false), dir);
        assertTrue(Files.size(archive) > 0, "the first run left its archive");
        try (var left = Files.list(archive.getParent())) {
            assertEquals(List.of(archive), left.toList(), "and no partial file");
        }
        SharedClasses.Use using = SharedClasses.forRun(archive, false);
        assertEquals("-XX:SharedArchiveFile=" + archive, using.options().get(0));
        String second = run(java, using, dir);
        assertEquals(checksum(first), checksum(second));
    }

    private static String run(List<String> java, SharedClasses.Use use, Path dir) throws Exception {
        List<String> cmd = new ArrayList<>(SharedClasses.around(java, use));
        cmd.addAll(List.of("--op", "read", "--pattern", "seq", "--file-size", "64k", "--op-size", "1", "--cache", "warm", "--repeat", "1", "--warmup", "0",
                "--file", dir.resolve("x.dat").toString()));
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = p.waitFor();
        use.finish(status == 0);
        assertEquals(0, status, err);
        assertEquals("", err, "nothing on stderr: the JVM's sharing messages are kept off it");
        assertEquals(1, out.lines().count(), "stdout holds the run record only: " + out);
        return out;
    }

    private static long checksum(String record) {
        return com.google.gson.JsonParser.parseString(record).getAsJsonObject().get("checksum").getAsLong();
    }

    @Test
    void aRunThatFailedLeavesNoArchive(@TempDir Path dir) throws Exception {
        Path archive = dir.resolve("cds/Snippet-1.jsa");
        SharedClasses.Use making = SharedClasses.forRun(archive, false);
        Path partial = Path.of(making.options().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(partial, "half an archive");
        making.finish(false);
        assertFalse(Files.exists(partial));
        assertFalse(Files.exists(archive));
    }
}
