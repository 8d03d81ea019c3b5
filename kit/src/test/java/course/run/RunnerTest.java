package course.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import course.base.Course;
import course.base.Exec;
import course.base.Scratch;
import course.record.Runs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerTest {
    static Process sh(String script) throws Exception {
        return new ProcessBuilder("sh", "-c", script).start();
    }

    @Test
    void rowsArriveInOrderAndStrayLinesAreSkipped() throws Exception {
        List<JsonObject> seen = new ArrayList<>();
        List<JsonObject> rows = Runner.collect(sh("echo '" + Runs.run("c", "read", 4096, 0, 1000) + "'; echo 'Profiling started'; echo '"
                + Runs.run("c", "read", 4096, 1, 1000) + "'"), "raw_io", seen::add);
        assertEquals(2, rows.size());
        assertEquals(rows, seen, "each row is handed on as it arrives");
        assertEquals(1, rows.get(1).get("run").getAsInt());
    }

    @Test
    void aRowThatIsNotARunRecordFailsTheRunNamingItsField() throws Exception {
        JsonObject drifted = Runs.run("c", "read", 4096, 0, 1000);
        drifted.remove("elapsed_ns");
        drifted.addProperty("elapsed", 1000);
        Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Runner.collect(sh("echo '" + Runs.run("c", "read", 4096, 0, 1000)
                + "'; echo '" + drifted + "'"), "c raw_io", row -> { }));
        assertTrue(e.getMessage().startsWith("c raw_io printed a line that is not a run record (run has no elapsed_ns): {"), e.getMessage());
    }

    @Test
    void aChildThatFailsSilentlySaysItsStatus() throws Exception {
        Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Runner.collect(sh("exit 3"), "java raw_io", row -> { }));
        assertEquals("java raw_io exited with status 3", e.getMessage());
    }

    @Test
    void aChildThatFailsSaysWhatItSaidOnceWithNothingHidden() throws Exception {
        Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Runner.collect(
                sh("echo '{\"run\":0}'; echo 'raw_io: --op-size: 0 is not allowed' >&2; echo 'raw_io: --op-size: 0 is not allowed' >&2; exit 2"),
                "c raw_io", row -> { }));
        assertEquals("raw_io: --op-size: 0 is not allowed", e.getMessage(), "every MPI process may say it: once is enough");
        assertFalse(e.getMessage().contains("\u0000"), "no end-of-stream marker leaks into the message");
    }

    @Test
    void manyLinesOnBothStreamsAreAllKept() throws Exception {
        Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Runner.collect(
                sh("for i in $(seq 1 2000); do echo \"err $i\" >&2; echo \"out $i\"; done; exit 1"), "x", row -> { }));
        List<String> lines = e.getMessage().lines().toList();
        assertEquals(4000, lines.size(), "stderr and stray stdout, gathered from two threads without losing a line");
        assertTrue(lines.contains("err 2000") && lines.contains("out 2000"));
    }

    @Test
    void aBuildAppearsWholeOrNotAtAll(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("bin/tool");
        Build.buildAtomically(target, out -> List.of("sh", "-c", "printf built > '" + out + "'"), "building tool");
        assertEquals("built", Files.readString(target));
        Path failed = dir.resolve("bin/broken");
        Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Build.buildAtomically(failed,
                out -> List.of("sh", "-c", "printf half > '" + out + "'; echo 'error: no' ; exit 1"), "building broken"));
        assertEquals("building broken failed:\nerror: no\n", e.getMessage());
        try (var left = Files.list(dir.resolve("bin"))) {
            assertEquals(List.of(target), left.toList(), "a failed build leaves neither the target nor its half-written temporary");
        }
    }

    @Test
    void anAtomicWriteReplacesTheWholeFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("records/one");
        Build.writeAtomically(file, "first\nsecond\n");
        Build.writeAtomically(file, "third\n");
        assertEquals(List.of("third"), Build.readLines(file));
        try (var left = Files.list(file.getParent())) {
            assertEquals(List.of(file), left.toList());
        }
    }

    @Test
    void aSweepRemovesOnlyTheFoldersOfKernelsThatHaveEnded(@TempDir Path scratch) throws Exception {
        Process ended = sh("true");
        ended.waitFor();
        long me = ProcessHandle.current().pid();
        Path dead = Files.createDirectories(scratch.resolve("run-" + ended.pid() + "-" + 1 + "-123/inside"));
        Path reused = Files.createDirectories(scratch.resolve("run-" + me + "-" + 1 + "-456"));  // my id, another start: not mine
        Path live = Files.createDirectories(scratch.resolve(Scratch.RUN_PREFIX + "789"));
        Path older = Files.createDirectories(scratch.resolve("run-12345"));  // no owner in its name: left alone
        Files.writeString(scratch.resolve("notes.txt"), "mine");
        Path deadTool = Files.writeString(scratch.resolve("run-" + ended.pid() + "-1-strace-99.txt"), "a dead kernel's strace output");
        Path liveTool = Files.writeString(scratch.resolve(Scratch.RUN_PREFIX + "exercise-1.dat"), "mine, live");
        assertEquals(3, Scratch.sweepStale(scratch));
        assertFalse(Files.exists(dead.getParent()) || Files.exists(reused) || Files.exists(deadTool));
        assertTrue(Files.exists(liveTool));
        assertTrue(Files.isDirectory(live) && Files.isDirectory(older) && Files.exists(scratch.resolve("notes.txt")));
        assertEquals(0, Scratch.sweepStale(scratch.resolve("none")), "no scratch folder yet: nothing to do");
    }

    @Test
    void aSweepStopsWhatAKilledKernelLeftRunningInItsFolder(@TempDir Path scratch) throws Exception {
        Process ended = sh("true");
        ended.waitFor();
        Path stale = Files.createDirectories(scratch.resolve("run-" + ended.pid() + "-1-abc"));
        Process orphan = new ProcessBuilder("sleep", "60").directory(stale.toFile()).start();  // a child that outlived its kernel
        assertEquals(1, Scratch.sweepStale(scratch));
        assertTrue(orphan.waitFor(5, java.util.concurrent.TimeUnit.SECONDS), "the orphan was stopped");
        assertFalse(Files.exists(stale));
    }

    @Test
    void jbangsAnswerIsRecordedAndARecordNotOfThisCourseIsIgnored() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Course.build().resolve("tools/jbang/jbang")), "jbang is set up by setup/setup.sh");
        Build build = new Build();
        List<String> command = build.command("raw_io", "java");
        String key = Build.hash(Build.javaSources(build.javaSource("raw_io")), Build.javaHome().toString());
        Path record = Course.build().resolve("jbang-built/RawIo-" + key);
        List<String> recorded = Build.readLines(record);
        assertEquals(command.get(command.size() - 1), recorded.get(0), "the main class, then the class path");
        assertTrue(command.contains(String.join(":", recorded.subList(1, recorded.size()))));
        Build.writeAtomically(record, "RawIo\n/elsewhere/RawIo.jar\n");  // a copied course's record, say
        assertEquals(command, new Build().command("raw_io", "java"), "jbang was asked again");
        assertEquals(recorded, Build.readLines(record), "and its answer recorded anew");
    }

    @Test
    void aFailedRunSaysTheCommandThatRunsItAgain() {
        String line = Runner.reproduce(List.of("java", "-cp", "a b.jar", "Raw", "--op", "read", "--file", "/s/run-1-2-x/raw_io-x.dat"),
                java.util.Map.of("COURSE_EVICT", "/c/evict"), Path.of("/s"));
        assertEquals("COURSE_EVICT=/c/evict java -cp 'a b.jar' Raw --op read --file /s/raw_io-x.dat", line);
    }

    /**
     * Open MPI names a semaphore for the whole machine after an MPI job's file name (/dev/shm/sem.OMPIO_NAME); where
     * that name is held by what this user cannot open (another user's job; here a folder stands for it), a job on a
     * file of that name cannot open its file. Each run's file has a name of its own, so the course's runs never meet it.
     */
    @Test
    void anMpiRunIsNotStoppedByAnotherJobsSemaphore(@TempDir Path scratch) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(MpiRun.available(), "needs MPI");
        Path squatter = Path.of("/dev/shm/sem.OMPIO_mpi_file.dat");  // the name every run's file once had
        boolean made = !Files.exists(squatter, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (made) Files.createDirectory(squatter);
        try {
            Runner.Invocation two = new Runner.Invocation("mpi_file", "c", List.of("--procs", "2", "--strategy", "independent", "--op", "read",
                    "--lock", "region", "--file-size", "64k", "--op-size", "16k", "--repeat", "2", "--warmup", "0"));
            assertEquals(2, new Runner().run(two, scratch, row -> { }).size());
        } finally {
            if (made) Files.delete(squatter);
        }
    }

    /** Open MPI's mpirun rewrites the class path of a program named java; started through env, a Java rank maps its snippet's class archive. */
    @Test
    void aJavaRankUnderMpirunMapsItsClassArchive(@TempDir Path scratch) {
        org.junit.jupiter.api.Assumptions.assumeTrue(MpiRun.available() && Files.isExecutable(Course.build().resolve("tools/jbang/jbang")),
                "needs MPI and jbang (setup/setup.sh)");
        Runner runner = new Runner();
        Runner.Invocation one = new Runner.Invocation("mpi_file", "java", List.of("--procs", "1", "--strategy", "view-direct", "--op", "read",
                "--file-size", "64k", "--op-size", "16k", "--repeat", "1", "--warmup", "0"));
        List<com.google.gson.JsonObject> rows = runner.run(one, scratch, row -> { });  // a throwaway run of one process first makes the archive where there was none
        String command = runner.lastCommand();
        assertEquals(SharedClasses.AHEAD_OF_TIME ? "cache" : "archive", rows.get(0).get("class_sharing").getAsString(), "its record says what it mapped");
        assertTrue(command.contains(" env " + Build.javaHome().resolve("bin/java")), command);
        assertTrue(command.contains(SharedClasses.AHEAD_OF_TIME ? "-XX:AOTCache=" : "-XX:SharedArchiveFile="), "the run maps the archive: " + command);
        assertFalse(command.contains("AOTMode=record") || command.contains("ArchiveClassesAtExit"), "a measured run never records: " + command);
    }
}
