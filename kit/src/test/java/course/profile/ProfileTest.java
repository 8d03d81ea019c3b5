package course.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.base.Exec;
import course.record.Results;
import course.record.Runs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class ProfileTest {
    /** A warm read of 1 MB in warmMs, and cold ones in coldMs, each still finding resident % of the file cached. */
    public static Results[] ceiling(long warmMs, long coldMs, double resident) {
        List<com.google.gson.JsonObject> warm = new java.util.ArrayList<>(), cold = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            warm.add(Runs.run("c", "read", 1 << 20, i, warmMs * 1_000_000));
            com.google.gson.JsonObject c = Runs.run("c", "read", 1 << 20, i, coldMs * 1_000_000);
            c.addProperty("cache", "cold");
            c.addProperty("resident_pct", i == 1 ? resident : 0.0);
            cold.add(c);
        }
        return new Results[] {new Results(warm), new Results(cold)};
    }

    @Test
    void theCallTableSaysHowManyBytesEachCallMoved() {
        assertEquals("8,192", Profile.bytesPerMovingCall(java.util.Map.of("read", 100L, "pread64", 28L, "openat", 9L), 1 << 20),
                "1 MB in 128 reads: the openat is not a call that moves bytes");
        assertEquals("1", Profile.bytesPerMovingCall(java.util.Map.of("write", 262_144L), 262_144));
        assertEquals("no such call", Profile.bytesPerMovingCall(java.util.Map.of("mmap", 4L), 1 << 20));
    }

    @Test
    void coldReadingSaysWhetherColdReachedTheDevice() {
        Results[] device = ceiling(10, 100, 0.5);
        assertEquals("Cold runs found at most 0.5% of the file cached and read 10.0× slower than warm ones: on this machine cold reads"
                + " reach the device.", Coldness.reading(device[0], device[1]));
        Results[] cachedDisk = ceiling(10, 12, 0.0);
        assertTrue(Coldness.reading(cachedDisk[0], cachedDisk[1]).contains("yet read at 0.8× the warm speed"));
        com.google.gson.JsonObject coldWrite = Runs.run("c", "write", 1 << 20, 0, 50_000_000);  // a cold write: no residency recorded
        coldWrite.addProperty("cache", "cold");
        assertEquals(Coldness.reading(device[0], device[1]), Coldness.reading(device[0], device[1].and(new Results(List.of(coldWrite)))),
                "a cold write among the cold runs (resident_pct null) once unboxed a null, and its rate counted as a cold read's");
        Results[] tmpfs = ceiling(10, 10, 100.0);
        assertTrue(Coldness.reading(tmpfs[0], tmpfs[1]).startsWith("Cold runs still found up to 100% of the file in the page cache"));
    }

    @Test
    void coldnessNamesTheCasesWhosePagesWereHeld() {
        List<com.google.gson.JsonObject> runs = new java.util.ArrayList<>();
        for (String strategy : List.of("buffer", "segment")) {
            for (int i = 0; i < 3; i++) {
                com.google.gson.JsonObject c = Runs.run("java", "read", 1 << 20, i, 5_000_000);
                c.addProperty("strategy", strategy);
                c.addProperty("cache", "cold");
                c.addProperty("resident_pct", strategy.equals("buffer") ? 100.0 : 0.0);
                runs.add(c);
            }
        }
        Results cold = new Results(runs);
        assertEquals("Still in the page cache when a cold run's clock started (the most of any run): java buffer 100%, java segment 0%."
                + " Eviction worked for the others, so the pages of java buffer were held: the course's eviction (posix_fadvise) leaves"
                + " pages a process still maps, so those \"cold\" figures are warm ones.", Coldness.ofCases(cold));
        assertTrue(Coldness.ofCases(cold.where("strategy", "segment")).endsWith("java segment 0%. Every cold run began cold."));
        assertTrue(Coldness.ofCases(cold.where("strategy", "buffer")).endsWith("every \"cold\" figure is a warm one."));
        List<com.google.gson.JsonObject> warmRuns = new java.util.ArrayList<>();
        for (String strategy : List.of("buffer", "segment", "mapped")) {  // each warm way at its own speed: cold compares like with like
            for (int i = 0; i < 3; i++) {
                com.google.gson.JsonObject w = Runs.run("java", "read", 1 << 20, i, strategy.equals("segment") ? 1_000_000 : 20_000_000);
                w.addProperty("strategy", strategy);
                warmRuns.add(w);
            }
        }
        assertEquals("Cold reads took 5.0× the time of the same reads from the page cache (geometric mean over 1 way; without java buffer,"
                + " whose pages stayed cached).", Coldness.cost(cold, new Results(warmRuns)));
        assertTrue(Coldness.cost(cold.where("strategy", "buffer"), new Results(warmRuns)).startsWith("No cold run here found its file evicted"));
    }

    @Test
    void parsesAStraceTableWithTheErrorsColumn() {
        List<String> lines = List.of(
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ----------------",
                " 61.25    0.412345           4    100000           write",
                " 38.50    0.259001           2    100001           read",
                "  0.15    0.001010          10       101        37 openat",
                "  0.10    0.000700           7       100           close",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    0.673056           3    200202        37 total");
        Map<String, Long> counts = Profile.parseStrace(lines);
        assertEquals(Map.of("write", 100000L, "read", 100001L, "openat", 101L, "close", 100L), counts);
        assertFalse(counts.containsKey("total"));
    }

    @Test
    void parsesAStraceTableWithoutErrors() {
        List<String> lines = List.of(
                "% time     seconds  usecs/call     calls    errors syscall",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    0.000021           1        16           pwrite64",
                "  0.00    0.000000           0         3           lseek",
                "------ ----------- ----------- --------- --------- ----------------",
                "100.00    0.000021           1        19           total");
        assertEquals(Map.of("pwrite64", 16L, "lseek", 3L), Profile.parseStrace(lines));
    }

    @Test
    void readsEventCountsFromJfrSummary() {
        List<String> lines = List.of("", " Version: 2.1", " Chunks: 1", " Duration: 1 s", "",
                " Event Type                              Count  Size (bytes) ",
                "=============================================================",
                " jdk.FileRead                             1037         27955",
                " jdk.BooleanFlag                           496         15213",
                " jdk.FileWrite                              40          1042",
                " jdk.FileForce                               0             0");
        Map<String, Long> counts = Profile.parseJfrSummary(lines);
        assertEquals(1037L, counts.get("jdk.FileRead"));
        assertEquals(40L, counts.get("jdk.FileWrite"));
        assertEquals(0L, counts.get("jdk.FileForce"));
        assertFalse(counts.containsKey("Version:"), "the header is not an event");
    }

    @Test
    void ignoresEverythingElse() {
        List<String> lines = List.of("", "strace: Process 123 attached", "--- SIGCHLD ---",
                "% time     seconds  usecs/call     calls    errors syscall", "+++ exited with 0 +++");
        assertTrue(Profile.parseStrace(lines).isEmpty());
    }

    @Test
    void ioCallsIncludeTheOnesTheLabsCount() {
        assertTrue(Profile.IO_CALLS.containsAll(List.of("read", "write", "lseek")));
    }

    static final String T = "Buffering.main;Harness.run;Harness.timedRun;Buffering$$Lambda.0x0000000090040cc8.run;Buffering.lambda$main$0;";

    @Test
    void cpuProfileSharesKernelAndCopyFrames() {
        List<String> collapsed = List.of(
                T + "Buffering.directSeqRead;readBytes;__x64_sys_read_[k];copy_user_enhanced_fast_string_[k] 30",
                T + "Buffering.directSeqRead;readBytes;__x64_sys_read_[k];vfs_read_[k] 10",
                T + "Buffering.streamRead;java.io.BufferedInputStream.read 50",
                T + "Buffering.streamRead;java.io.BufferedInputStream.fill;__memmove_avx_unaligned_erms 10",
                "Buffering.main;Harness.run;Data.writeFile;java/io/FileOutputStream.write;copy_folio_from_iter_atomic_[k] 70",
                "Buffering.main;Harness.run;Buffering$$Lambda.0x0000000090040cc8.run;Buffering.streamRead 25",  // the untimed check run
                "C2CompilerThread0;C2Compiler::compile_method 20",
                "not a profile line");
        CpuProfile p = CpuProfile.fromCollapsed("java stream read seq", collapsed);
        assertEquals(100, p.samples(), "only the timed strategy's samples count");
        assertEquals(215, p.allSamples());
        assertEquals(40.0, p.kernelPct(), 1e-9);
        assertEquals(10.0, p.copyPct(), 1e-9, "memmove in libc copies in the program's space; copy_user is the kernel's, in its share only");
        assertEquals(50L, p.leaves().get("java.io.BufferedInputStream.read"));
    }

    @Test
    void theTimedCallCountsAtAnyDepth() {
        CpuProfile p = CpuProfile.fromCollapsed("x", List.of(
                "Thread.run;Harness.run;Harness$Team.inOrder;Harness.timedRun;X$$Lambda.run;X.read;readBytes 7",
                "Harness.timedRun;X.read 3",
                "Harness.run;NotHarness.timedRunner;X.read 5"));
        assertEquals(10, p.samples());
    }

    @Test
    void anEmptyProfileHasNoShares() {
        CpuProfile p = CpuProfile.fromCollapsed("x", List.of());
        assertEquals(0, p.samples());
        assertEquals(0.0, p.kernelPct());
    }

    @Test
    void theProfilersFileIsGivenFromTheRunFolderSoTheCoursesCommaNeverReachesItsOptions(@TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path course = java.nio.file.Files.createDirectories(tmp.resolve("it's,course"));
        java.nio.file.Files.createDirectories(course.resolve("labs/flamegraphs"));
        assertEquals("../../labs/flamegraphs/06-x.html", Profile.fromRunFolder(course.resolve("scratch"), course.resolve("labs/flamegraphs/06-x.html")));
        java.nio.file.Path outside = java.nio.file.Files.createDirectories(tmp.resolve("scratch,elsewhere"));
        Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Profile.fromRunFolder(outside, course.resolve("labs/flamegraphs/06-x.html")));
        assertTrue(e.getMessage().startsWith("its options cannot carry a path with a comma: ../../it's,course/"), e.getMessage());
    }

    @Test
    void fiosErrorIsItsOneLineThatSaysWhat() {
        String output = "fio sequential write failed:\n{\n  \"fio version\" : \"fio-3.33\",\nfio: pid=12, err=28/file:io_u.c:1889, func=io_u error, error=No space left on device\n}";
        assertEquals("fio: pid=12, err=28/file:io_u.c:1889, func=io_u error, error=No space left on device", Fio.error(output));
        assertEquals("something odd", Fio.error("fio x failed:\nsomething odd\n"));
    }

    @Test
    void fioRunsInAScratchFolderWhoseNameHoldsAColon(@TempDir java.nio.file.Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(course.record.Machine.onPath("fio") || "true".equals(System.getenv("CI")),
                "fio is not installed (apt-get install fio)");
        java.nio.file.Path scratch = dir.resolve("sftp:host=x,user=y").resolve("scratch");  // the shape of a GVFS mount's folder
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream shown = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(shown, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            Fio.crossCheck(new course.run.Runner(), scratch, 4 << 20, new Results(List.of()));
        } finally {
            System.setOut(out);
        }
        try (var left = java.nio.file.Files.list(dir)) {
            assertEquals(List.of("sftp:host=x,user=y"), left.map(p -> p.getFileName().toString()).toList(), "fio wrote nothing beside scratch");
        }
        try (var left = java.nio.file.Files.list(scratch)) {
            assertEquals(List.of(), left.toList(), "fio's folder is removed");
        }
        assertTrue(shown.toString().contains("sequential write, 1 MB blocks, into the page cache: fio "), shown.toString());
        assertFalse(shown.toString().contains("not available"), shown.toString());
    }
}
