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
    static final List<String> JAVA = List.of("java", "-Xlog:disable", "-cp", "x.jar", "Main");

    @Test
    void aRunMakesTheArchiveWhereNoneIsAndUsesItWhereOneIs(@TempDir Path dir) throws Exception {
        Path stem = dir.resolve("cds/Snippet-1"), archive = SharedClasses.archive(stem);
        SharedClasses.Use making = SharedClasses.forRun(stem, false, JAVA);
        assertTrue(making.made().startsWith(dir.resolve("cds")) && making.made().getFileName().toString().startsWith(".making-"), making.toString());
        if (SharedClasses.AHEAD_OF_TIME) {
            assertTrue(making.options().contains("-XX:AOTMode=record"), making.toString());
            assertEquals(List.of("java", "-Xlog:disable"), making.create().subList(0, 2), "create: the run's JVM options");
            assertTrue(making.create().contains("-XX:AOTCache=" + making.made()), making.create().toString());
            assertEquals(List.of("-cp", "x.jar"), making.create().subList(making.create().size() - 2, making.create().size()), "its class path, no program");
        } else {
            assertEquals("-XX:ArchiveClassesAtExit=" + making.made(), making.options().get(0));
        }
        assertEquals(SharedClasses.Use.NONE, SharedClasses.forRun(stem, true, JAVA), "use only (a measured run): none made");
        Files.writeString(archive, "not an archive");
        assertEquals(SharedClasses.Use.NONE, SharedClasses.forRun(stem, true, JAVA), "one the JVM refuses is given to no run: they start alike, without");
    }

    @Test
    void aFolderThatCannotBeMadeMeansNoSharing(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("build"), "a file, not a folder");
        assertEquals(SharedClasses.Use.NONE, SharedClasses.forRun(file.resolve("cds/Snippet-1"), false, JAVA));
    }

    @Test
    void theOptionsGoLastAmongTheJvmsBeforeTheClassPath() {
        SharedClasses.Use use = new SharedClasses.Use(List.of("-XX:SharedArchiveFile=/a.jsa", "-Xlog:cds=off:stderr"), null, null, List.of(), "archive");
        assertEquals(List.of("java", "-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:SharedArchiveFile=/a.jsa", "-Xlog:cds=off:stderr", "-cp", "x.jar", "Main"),
                SharedClasses.around(List.of("java", "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp", "x.jar", "Main"), use));
        assertEquals(List.of("java", "-cp", "x.jar", "Main"), SharedClasses.around(List.of("java", "-cp", "x.jar", "Main"), SharedClasses.Use.NONE));
    }

    /** A real snippet on the course's JDK: the first run leaves an archive, the next maps it (or stops), and both print the same record, nothing else. */
    @Test
    void aSnippetRunsTheSameWithItsArchive(@TempDir Path dir) throws Exception {
        List<String> java = new Build().command("raw_io", "java");
        Path stem = dir.resolve("cds/RawIo-test"), archive = SharedClasses.archive(stem);
        String first = run(java, SharedClasses.forRun(stem, false, java), dir);
        assertTrue(Files.size(archive) > 0, "the first run left its archive");
        try (var left = Files.list(archive.getParent())) {
            assertEquals(List.of(archive), left.toList(), "and no partial file");
        }
        SharedClasses.Use using = SharedClasses.forRun(stem, false, java);
        assertEquals((SharedClasses.AHEAD_OF_TIME ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + archive, using.options().get(0), "an archive the JVM maps is used by every run");
        List<String> strictly = new ArrayList<>(using.options());
        strictly.add(SharedClasses.AHEAD_OF_TIME ? "-XX:AOTMode=on" : "-Xshare:on");  // a JVM that cannot map it stops
        assertEquals(SharedClasses.AHEAD_OF_TIME ? "cache" : "archive", using.kind(), "what a run record says it mapped");
        String second = run(java, new SharedClasses.Use(strictly, null, null, List.of(), using.kind()), dir);
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
        Path archive = SharedClasses.archive(dir.resolve("cds/Snippet-1"));
        SharedClasses.Use making = SharedClasses.forRun(dir.resolve("cds/Snippet-1"), false, JAVA);
        Path partial = making.made();
        Path record = partial.resolveSibling(partial.getFileName() + ".record");
        Files.writeString(partial, "half an archive");
        Files.writeString(record, "a run's record");
        making.finish(false);
        assertFalse(Files.exists(partial));
        assertFalse(Files.exists(record));
        assertFalse(Files.exists(archive));
    }

    @Test
    void aCacheThatCouldNotBeMadeIsSaidOnceAndTheDynamicArchiveTakesOver(@TempDir Path dir) throws Exception {
        Path stem = dir.resolve("cds/Snippet-1");
        SharedClasses.Use making = SharedClasses.forRun(stem, false, List.of("false", "-cp", "x.jar", "Main"));
        if (!SharedClasses.AHEAD_OF_TIME) return;  // older JDKs make the dynamic archive in the run itself
        making.finish(true);  // the run ended well, but its create step ("false ...") fails
        Path cache = SharedClasses.archive(stem);
        assertEquals(dir.resolve("cds/Snippet-1.jsa"), cache, "from now on, the dynamic archive");
        assertTrue(Files.readString(SharedClasses.failedMarker(stem.resolveSibling("Snippet-1.aot"))).startsWith("no ahead-of-time cache could be made"));
        try (var left = Files.list(dir.resolve("cds"))) {
            assertEquals(List.of("Snippet-1.aot.failed"), left.map(f -> f.getFileName().toString()).toList(), "nothing else left");
        }
    }
}
