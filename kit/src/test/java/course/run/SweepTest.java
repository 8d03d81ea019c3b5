package course.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.Lab;
import course.base.Exec;
import course.record.NoiseFloor;
import course.record.Results;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepTest {
    static final Lab LAB = Lab.open("01-raw-io", "smoke");

    @Test
    void aRunThisMachineRefusesIsToldApartFromAFault() throws Exception {
        for (int status : new int[] {Runner.UNSUPPORTED, 1}) {
            Process child = new ProcessBuilder("sh", "-c", "echo 'raw_io: this file system refuses direct I/O (O_DIRECT)' >&2; exit " + status).start();
            Exec.RunFailed e = assertThrows(Exec.RunFailed.class, () -> Runner.collect(child, "raw_io", row -> { }));
            assertEquals("raw_io: this file system refuses direct I/O (O_DIRECT)", e.getMessage());
            assertEquals(status == Runner.UNSUPPORTED, e.unsupported(), "status " + status);
        }
        assertTrue(Double.isNaN(Results.median(List.of())), "no runs: no median, and no exception for a part that was skipped");
    }

    @Test
    void strategiesAndBufferSizesArePassedOnlyWhenSet() {
        List<Runner.Invocation> plain = LAB.sweep("raw_io").languages("c").ops("read").invocations();
        assertEquals(1, plain.size());
        assertFalse(plain.get(0).flags().contains("--strategy"));
        assertFalse(plain.get(0).flags().contains("--buffer-size"));
        assertEquals("c read seq", plain.get(0).caseName());
    }

    @Test
    void aBufferSizeOfZeroMeansTheLibraryDefault() {
        List<Runner.Invocation> all = LAB.sweep("buffering").strategies("stream").bufferSizes(List.of(1024L, 0L))
                .languages("java").ops("write").invocations();
        assertEquals(2, all.size());
        assertEquals("1k", all.get(0).flag("--buffer-size"));
        assertFalse(all.get(1).flags().contains("--buffer-size"));
        assertEquals("java stream 1k write seq", all.get(0).caseName());
        assertEquals("java stream write seq", all.get(1).caseName());
    }

    @Test
    void everyCombinationInOrder() {
        List<Runner.Invocation> all = LAB.sweep("buffering").strategies("stream", "direct").bufferSize(4096).patterns("seq")
                .invocations();
        assertEquals(2 * 2 * 2, all.size(), "strategies × ops × languages");
        assertEquals(List.of("java stream 4k write seq", "c stream 4k write seq", "java stream 4k read seq", "c stream 4k read seq",
                "java direct 4k write seq"), all.subList(0, 5).stream().map(Runner.Invocation::caseName).toList());
    }

    @Test
    void operationsSizeEachFileByItsOperationSize() {
        List<Runner.Invocation> all = LAB.sweep("raw_io").languages("c").ops("read").opSizes(List.of(1L, 64L, 4096L, 1L << 20))
                .operations(1000, 1L << 20).invocations();
        assertEquals(List.of("1000", "64000", "1m", "1m"), all.stream().map(i -> i.flag("--file-size")).toList(),
                "op size × 1000, capped at 1 MB, never below one operation");
        List<Runner.Invocation> paper = LAB.sweep("raw_io").languages("c").ops("read").opSizes(List.of(1L, 4096L))
                .operations(100L << 20, 100L << 20).invocations();
        assertEquals(List.of("100m", "100m"), paper.stream().map(i -> i.flag("--file-size")).toList(), "the study's one file size");
    }

    @Test
    void javaCasesRunOnEachJdkAndCOnce() {
        List<Runner.Invocation> all = LAB.sweep("typed_arrays").strategies("data").opSize(4096).ops("read")
                .alsoOn(List.of("/usr/lib/jvm/jdk-17")).invocations();
        assertEquals(3, all.size(), "java on the course's JDK, java on JDK 17, c");
        assertEquals(java.util.Arrays.asList(Build.javaHome().toString(), "/usr/lib/jvm/jdk-17", null), all.stream().map(Runner.Invocation::javaHome).toList(),
                "the course's JDK named too: JDKs compared run alike, none with a class cache");
        assertEquals(List.of("java data read seq", "java data read seq on jdk-17"), Runner.Invocation.names(all.subList(0, 2)).values().stream().toList());
        assertEquals(java.util.Collections.singletonList(null), LAB.sweep("typed_arrays").strategies("data").opSize(4096).ops("read").languages("java")
                .alsoOn(List.of()).invocations().stream().map(Runner.Invocation::javaHome).toList(), "no other JDK: the course's, with its cache");
    }

    /**
     * The profile-key rule: strace tables and profiles key their rows by case name, so two runs of one sweep that
     * differ in any case field (data/results.schema.json's x-case) must get two names, or one row would silently
     * take the other's place. This sweep varies every case field the schema has, the cache across two sweeps.
     */
    @Test
    void everyCaseFieldThatTellsTwoRunsApartTellsTheirProfileRowsApart() {
        Sweep sweep = LAB.sweep("every_field").languages("java", "c").ops("read", "write").patterns("seq", "rand")
                .fileSizes(List.of(1L << 20, 2L << 20)).opSizes(List.of(1L, 4096L)).bufferSizes(List.of(1024L, 8192L))
                .strategies("a", "b").texts("lf", "crlf").types("int", "double").threads(List.of(1, 2)).depths(List.of(1, 8))
                .procs(List.of(1, 2)).locks("none", "region").alsoOn(List.of("/usr/lib/jvm/jdk-17", "/usr/lib/jvm/jdk-21"));
        List<Runner.Invocation> all = new java.util.ArrayList<>(sweep.cache("warm").invocations());
        all.addAll(sweep.cache("cold").invocations());
        for (String field : course.record.Schema.results().runFields("x-case")) {
            if (List.of("snippet", "language", "runtime").contains(field)) continue;  // the sweep's, the language, the JDK: not flags
            String flag = Runner.flagOf(field);
            assertTrue(all.stream().map(i -> i.flags().contains(flag) ? i.flag(flag) : "").distinct().count() > 1,
                    "this test varies " + field + " (a case field added to the schema belongs in this sweep)");
        }
        java.util.Map<Runner.Invocation, String> names = Runner.Invocation.names(all);
        assertEquals(all.size(), new java.util.HashSet<>(names.values()).size(), "one name per case");
        assertEquals(List.of("java stream 1k read seq", "c stream 1k read seq"), Runner.Invocation.names(
                LAB.sweep("buffering").strategies("stream").bufferSize(1024).ops("read").invocations()).values().stream().toList(),
                "fields the runs share and no x-name marks are left out of the name");
    }

    @Test
    void threadsAndLocksArePassedOnlyWhenSet() {
        List<Runner.Invocation> all = LAB.sweep("shared_file").strategies("view-direct").threads(WorkerCounts.threadCounts(4)).locks("none", "region")
                .languages("java").ops("write").invocations();
        assertEquals(6, all.size());
        assertEquals(List.of("1", "1", "2", "2", "4", "4"), all.stream().map(i -> i.flag("--threads")).toList());
        assertEquals(List.of("none", "region"), all.subList(0, 2).stream().map(i -> i.flag("--lock")).toList());
        assertFalse(LAB.sweep("raw_io").invocations().get(0).flags().contains("--threads"));
    }

    @Test
    void processCountsArePassedAndStartedByMpirun() {
        List<Runner.Invocation> all = LAB.sweep("mpi_file").strategies("view-direct").procs(List.of(1, 2, 4))
                .languages("java").ops("read").invocations();
        assertEquals(List.of("1", "2", "4"), all.stream().map(i -> i.flag("--procs")).toList());
        assertFalse(LAB.sweep("shared_file").invocations().get(0).flags().contains("--procs"));
        if (!MpiRun.available() || System.getenv("SLURM_JOB_ID") != null) return;  // without MPI the launcher says how to install it; Slurm's is srun
        List<String> launcher = MpiRun.launcher(all.get(2).flags());
        assertEquals("mpirun", launcher.get(0));
        assertEquals("4", launcher.get(launcher.indexOf("-np") + 1));
        assertEquals("root".equals(System.getProperty("user.name")), launcher.contains("--allow-run-as-root"));
        boolean oneMachine = System.getenv("COURSE_MPI_ARGS") == null && System.getenv("OMPI_MCA_pml") == null;
        assertEquals(oneMachine, String.join(" ", launcher).contains("--mca pml ob1"), "one machine: the layer that starts fastest");
        assertEquals(List.of(), MpiRun.launcher(LAB.sweep("raw_io").invocations().get(0).flags()), "other snippets start alone");
    }

    @Test
    void aLauncherNotOfferedIsOneLineNamingIt() {
        MpiRun.checkLauncher(null);
        MpiRun.checkLauncher("srun");
        MpiRun.checkLauncher("mpirun");
        assertEquals("COURSE_MPI_LAUNCHER mpiexec: must be srun (where Slurm offers PMIx, the default) or mpirun",
            assertThrows(IllegalArgumentException.class, () -> MpiRun.checkLauncher("mpiexec")).getMessage());
    }

    @Test
    void aSweepThatPlansNoRunSaysWhichListWasEmpty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LAB.sweep("raw_io").fileSizes(List.of()).opSizes(List.of()).run());
        assertEquals("this sweep of raw_io plans no run: opSizes, fileSizes given empty; give each at least one value", e.getMessage(),
                "once an IndexOutOfBoundsException from the empty plan");
        IllegalArgumentException noise = assertThrows(IllegalArgumentException.class,
                () -> LAB.sweep("raw_io").strategies().noisePlan());
        assertEquals("this sweep of raw_io plans no run: strategies given empty; give each at least one value", noise.getMessage(),
                "the noise floor's plan too (lab.noiseFloor on an empty sweep)");
    }

    @Test
    void processCountsOutsideOneTo256AreRefused() {
        for (int bad : new int[] {0, -1, 257}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LAB.sweep("mpi_file").procs(bad));
            assertEquals("procs " + bad + ": must be a whole number between 1 and 256", e.getMessage());
        }
    }

    @Test
    void workerCountsStopAtTheCapTheBlocksAndTheMemory() {
        assertEquals(List.of(1, 2, 4), WorkerCounts.counts(2, 2, 64, 0), "2 per core on 2 cores");
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64), WorkerCounts.counts(128, 2, 1 << 20, 0), "never more than WorkerCounts.MOST");
        assertEquals(List.of(1, 2, 4, 8, 16, 32), WorkerCounts.counts(64, 2, 32, 0), "no more workers than blocks of the file");
        assertEquals(List.of(1, 2, 4, 8), WorkerCounts.counts(64, 2, 64, 2L << 30), "a 2 GiB container holds 8 JVMs at 256 MB");
        assertEquals(List.of(1), WorkerCounts.counts(2, 2, 64, 100L << 20), "always at least one");
    }

    @Test
    void threadCountsDoubleUpToTheMaximum() {
        assertEquals(List.of(1), WorkerCounts.threadCounts(1));
        assertEquals(List.of(1, 2, 4), WorkerCounts.threadCounts(4));
        assertEquals(List.of(1, 2, 4, 6), WorkerCounts.threadCounts(6));
    }

    @Test
    void againNeedsASweepFirst() {
        String m = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> Lab.open("01-raw-io", "smoke").again()).getMessage();
        org.junit.jupiter.api.Assertions.assertTrue(m.contains("run one first"), m);
    }

    @Test
    void roundsRunEveryCaseOncePerRoundInTheSameOrder() {
        List<Sweep.Round> plan = LAB.sweep("raw_io").languages("java", "c").ops("read").repeat(3).rounds(2).schedule();
        assertEquals(List.of("java read seq", "c read seq", "java read seq", "c read seq"),
                plan.stream().map(r -> r.invocation().caseName()).toList(), "A B, A B");
        assertEquals(List.of(1, 1, 2, 2), plan.stream().map(Sweep.Round::round).toList());
        assertEquals(List.of("2", "2", "1", "1"), plan.stream().map(r -> r.invocation().flag("--repeat")).toList(),
                "3 repeats in 2 rounds: 2, then 1");
        assertTrue(plan.stream().allMatch(r -> r.invocation().flag("--warmup").equals("0")), "each process keeps its own warm-up");
        assertEquals(List.of("3"), LAB.sweep("raw_io").languages("c").ops("read").repeat(3).invocations().stream()
                .map(i -> i.flag("--repeat")).toList(), "invocations: one process per case with every repeat, to rerun by hand");
    }

    @Test
    void shortCasesRunLongerInLaterRounds() {
        assertEquals(3, Sweep.runsFor(3, 500, 50), "a 500 ms run already fills the round: as planned");
        assertEquals(25, Sweep.runsFor(3, 2, 50), "2 ms runs: 25 fill 50 ms");
        assertEquals(30, Sweep.runsFor(3, 0.01, 50), "at most STRETCH times the plan");
        assertEquals(30, Sweep.runsFor(3, 0, 50), "a run too short for the clock: the most");
        Results results = LAB.sweep("raw_io").languages("c").ops("read").fileSize(64 << 10).opSize(4096).repeat(2).rounds(2).roundMs(1000).run();
        assertEquals(List.of(1L, (long) Sweep.STRETCH), List.of(results.where("round", 1).runs().size() + 0L, results.where("round", 2).runs().size() + 0L),
                "a 16-operation read takes microseconds: round 2 runs STRETCH times its one planned run");
        assertEquals(List.of(1 + Sweep.STRETCH), results.summary().stream().map(r -> r.get("runs")).toList());
    }

    @Test
    void neverMoreRoundsThanRepeats() {
        List<Sweep.Round> plan = LAB.sweep("raw_io").languages("c").ops("read").repeat(2).rounds(5).schedule();
        assertEquals(List.of(1, 2), plan.stream().map(Sweep.Round::round).toList());
        assertEquals(List.of(2, 2), plan.stream().map(Sweep.Round::of).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LAB.sweep("raw_io").rounds(0));
        assertEquals("rounds must be 1 or more, not 0", e.getMessage());
    }

    @Test
    void aRealSweepRecordsEachRunsRoundAndOrder() {
        Results results = LAB.sweep("raw_io").languages("c").fileSize(64 << 10).opSize(4096).repeat(2).rounds(2).run();
        assertEquals(List.of("write 1 1", "read 1 2", "write 2 3", "read 2 4"), results.runs().stream()
                .map(r -> r.get("op").getAsString() + " " + r.get("round").getAsInt() + " " + r.get("order").getAsInt()).toList());
        assertEquals(List.of(2, 2), results.summary().stream().map(r -> r.get("runs")).toList(), "a case's runs from every round, together");
    }

    @Test
    void aNoiseFloorRunsOneCaseAsTwoInterleaved() {
        Lab lab = Lab.open("01-raw-io", "smoke");
        assertThrows(IllegalStateException.class, lab::noiseFloor, "not measured yet");
        lab.noiseFloor(lab.sweep("raw_io").languages("c").ops("read").fileSize(64 << 10).opSize(4096).repeat(2));
        NoiseFloor floor = lab.noiseFloor();
        assertEquals("raw_io c read seq, 64k file, 4k operations", floor.caseName());
        assertEquals(2, floor.runs(), "every repeat for each twin, over two rounds");
        assertTrue(floor.pct() >= 0);
    }

    @Test
    void theNoiseFloorWidensGradedFactors() {
        NoiseFloor floor = new NoiseFloor("c read seq", 3, 100, 120);
        assertEquals(20, floor.pct(), 1e-9, "the slower twin over the faster");
        assertEquals(20, new NoiseFloor("c read seq", 3, 120, 100).pct(), 1e-9, "whichever ran slower");
        assertEquals(1.4, floor.widen(1.25), 1e-9, "twice the floor where that is wider");
        assertEquals(1.5, floor.widen(1.5), 1e-9, "the stated factor where it is wider");
        assertTrue(floor.line().contains("20.0% apart"), floor.line());
    }
}
