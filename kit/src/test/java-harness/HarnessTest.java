import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The snippets' shared harness (java-snippets/harness/, its rooms) and the raw_io strategies built on it. */
class HarnessTest {
    static final List<String> STRATEGIES = List.of("raw", "other");

    static Harness.Options parse(String... args) throws Harness.UsageError {
        return Flags.parse("raw_io", STRATEGIES, args);
    }

    static String rejected(String... args) {
        return assertThrows(Harness.UsageError.class, () -> parse(args)).getMessage();
    }

    /** raw_io's options as its flags give them (never the record's positional constructor: a new flag would touch every test). */
    static Harness.Options options(String op, String pattern, long fileSize, int opSize, Path file, long seed) {
        try {
            return parse("--op", op, "--pattern", pattern, "--file-size", String.valueOf(fileSize), "--op-size", String.valueOf(opSize),
                    "--file", file.toString(), "--seed", String.valueOf(seed), "--repeat", "1", "--warmup", "0");
        } catch (Harness.UsageError e) {
            throw new AssertionError(e.getMessage());
        }
    }

    // ---- threads ----------------------------------------------------------------------------

    @Nested
    class Threads {

        Harness.Options threaded(String... args) throws Harness.UsageError {
            return Flags.parse("shared_file", STRATEGIES, args);
        }

        @Test
        void flags() throws Exception {
            assertEquals(1, threaded().threads());
            assertEquals("none", threaded().lock());
            assertEquals(null, parse().lock(), "a snippet without threads says nothing about them");
            Harness.Options o = threaded("--threads", "3", "--lock", "region", "--file-size", "10k", "--op-size", "1k");
            assertEquals(3, o.threads());
            assertEquals("region", o.lock());
            assertTrue(assertThrows(Harness.UsageError.class, () -> threaded("--threads", "0")).getMessage().contains("--threads 0: must be a whole number between 1 and 256"));
            assertTrue(assertThrows(Harness.UsageError.class, () -> threaded("--lock", "all")).getMessage().contains("--lock all: must be one of none, region"));
            assertTrue(rejected("--threads", "2").contains("--threads is not used by raw_io"));
            assertTrue(assertThrows(Harness.UsageError.class, () -> threaded("--threads", "11", "--file-size", "10k", "--op-size", "1k"))
                    .getMessage().contains("--threads 11 is more than the file's 10 blocks of --op-size 1k"));
        }

        @Test
        void sharesAreWholeBlocksDisjointAndCoverTheFile() throws Exception {
            for (int threads = 1; threads <= 11; threads++) {
                Harness.Options o = threaded("--threads", String.valueOf(threads), "--file-size", "10001", "--op-size", "1000");
                long expectedFrom = 0;
                for (int t = 0; t < threads; t++) {
                    long[] share = Workers.share(o, t);
                    assertEquals(expectedFrom, share[0]);
                    assertTrue(share[1] > share[0]);
                    assertTrue(share[1] == o.fileSize() || share[1] % o.opSize() == 0);
                    expectedFrom = share[1];
                }
                assertEquals(o.fileSize(), expectedFrom);
            }
        }

        @Test
        void inThreadsTimesEveryThreadAndPassesOnTheFirstError() throws Exception {
            Harness.Options o = threaded("--threads", "4", "--file-size", "4k", "--op-size", "1k");
            Set<Integer> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            Workers.inThreads(o, seen::add);
            assertEquals(Set.of(0, 1, 2, 3), seen);
            assertEquals(4, Workers.ownNs.length);
            long longest = java.util.Arrays.stream(Workers.ownNs).max().orElseThrow();
            assertTrue(Workers.spanNs >= longest, "the span covers every thread");
            IOException e = assertThrows(IOException.class, () -> Workers.inThreads(o, t -> {
                if (t == 2) throw new IOException("disk on fire");
            }));
            assertEquals("disk on fire", e.getMessage());
        }

        /** The kernel's count: every task of the process's while the workers ran (the JVM's own too), none of them io-wq workers. */
        @Test
        void inThreadsCountsTheTasksTheKernelRan() throws Exception {
            org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
            Harness.Options o = threaded("--threads", "4", "--file-size", "4k", "--op-size", "1k");
            Workers.tasks = Workers.ioWorkers = -1;
            Workers.knownTasks.clear();
            Workers.inThreads(o, t -> { });
            assertTrue(Workers.tasks >= 4 + 1, "the workers and the measuring thread, at least: " + Workers.tasks);
            assertEquals(0, Workers.ioWorkers);
        }

        /**
         * An io-wq worker is a task named iou-wrk-…; one that has not yet run bears its maker's name, and is read again at
         * each look until it has named itself. The tasks at the gate are the run's own threads: their names are not read.
         */
        @Test
        void ioWorkersAreTheTasksNamedIouWrk(@TempDir Path dir) throws Exception {
            for (String[] task : new String[][] {{"101", "java"}, {"102", "small_reads-0"}, {"103", "small_reads-1"}}) {
                Files.createDirectories(dir.resolve(task[0]));
                Files.writeString(dir.resolve(task[0]).resolve("comm"), task[1] + "\n");
            }
            Workers.tasks = Workers.ioWorkers = -1;
            Workers.knownTasks.clear();
            assertTrue(Workers.sampleTasks(dir, true) >= 0);
            assertEquals(3, Workers.tasks);
            assertEquals(0, Workers.ioWorkers);
            Files.createDirectories(dir.resolve("104"));
            Files.writeString(dir.resolve("104/comm"), "small_reads-0\n");  // made for 102, not yet run
            for (int look = 0; look < 3; look++) Workers.sampleTasks(dir, false);
            assertEquals(4, Workers.tasks);
            assertEquals(0, Workers.ioWorkers);
            Files.writeString(dir.resolve("104/comm"), "iou-wrk-102\n");  // it ran, and named itself
            Files.createDirectories(dir.resolve("105"));
            Files.writeString(dir.resolve("105/comm"), "iou-wrk-102\n");
            Files.writeString(dir.resolve("103/comm"), "iou-wrk-1\n");  // a task at the gate is not read
            Workers.sampleTasks(dir, false);
            assertEquals(5, Workers.tasks);
            assertEquals(2, Workers.ioWorkers);
            Files.writeString(dir.resolve("104/comm"), "renamed\n");  // known: not read again
            Files.delete(dir.resolve("102/comm"));
            Files.delete(dir.resolve("102"));
            Workers.sampleTasks(dir, false);
            assertEquals(5, Workers.tasks, "the most at once");
            assertEquals(2, Workers.ioWorkers);
            Workers.tasks = Workers.ioWorkers = -1;
            Workers.sampleTasks(dir.resolve("gone"), false);
            assertEquals(-1, Workers.tasks, "no folder of tasks: nothing counted");
        }
    }

    // ---- CPU time ---------------------------------------------------------------------------

    @Nested
    class CpuTime {

        @Test
        void aRunShorterThanATickKeepsItsExactCpuTime() {
            // 3 ms of CPU between two readings with the same tick counts (10 ms ticks): not 0 ns, split as the thread's ticks so far
            long[] split = Harness.cpuSplit(new long[] {100_000_000, 2, 8}, new long[] {103_000_000, 2, 8});
            assertEquals(3_000_000, split[0] + split[1], "the exact total");
            assertEquals(600_000, split[0], "a fifth in user, as 2 ticks of 10 fell there");
        }

        @Test
        void aThreadWithNoTickYetCountsItAllAsUserTimeAsTheKernelDoes() {
            assertArrayEquals(new long[] {4_000_000, 0}, Harness.cpuSplit(new long[] {1_000_000, 0, 0}, new long[] {5_000_000, 0, 0}));
        }

        @Test
        void aLongRunSplitsAsItsOwnTicksFall() {
            // 1 s of CPU, its 100 ticks 10 in user and 90 in the kernel, after 1 s that was all user
            long[] split = Harness.cpuSplit(new long[] {1_000_000_000, 100, 0}, new long[] {2_000_000_000, 110, 90});
            assertEquals(2_000_000_000L * 110 / 200 - 1_000_000_000L, split[0]);
            assertEquals(1_000_000_000, split[0] + split[1]);
        }

        @Test
        void neitherPartGoesBelowZero() {
            // the ratio so far moved towards user more than this run's time can hold: all of it is user, none negative
            long[] split = Harness.cpuSplit(new long[] {1_000_000_000, 0, 100}, new long[] {1_001_000_000, 100, 100});
            assertArrayEquals(new long[] {1_000_000, 0}, split);
        }
    }

    @Nested
    class Processes {
        Harness.Options mpi(String... args) throws Harness.UsageError {
            return Flags.parse("mpi_file", STRATEGIES, args);
        }

        String refused(String... args) {
            return assertThrows(Harness.UsageError.class, () -> mpi(args)).getMessage();
        }

        @Test
        void procsIsCheckedAgainstTheTeamMpirunStarted() throws Exception {
            assertEquals(1, mpi().procs());
            assertEquals(0, parse().procs(), "a snippet without processes says nothing about them");
            assertEquals("--procs 0: must be a whole number between 1 and 256", refused("--procs", "0"));
            assertEquals("--procs -3: must be a whole number between 1 and 256", refused("--procs", "-3"));
            assertEquals("--procs 4, but mpirun started 1 process (start it with mpirun -np 4)",
                    refused("--procs", "4", "--file-size", "10k", "--op-size", "1k"), "alone, the harness is a team of one");
            assertTrue(refused("--procs", "11", "--file-size", "10k", "--op-size", "1k")
                    .startsWith("--procs 11 is more than the file's 10 blocks of --op-size 1k"));
        }

        @Test
        void aTeamOfOneRunsItsPartBetweenBarriersAndRecordsItsTime() throws Exception {
            Harness.Options o = mpi("--file-size", "4k", "--op-size", "1k");
            Set<Integer> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            Workers.inProcesses(o, seen::add);
            assertEquals(Set.of(0), seen);
            assertEquals(1, Workers.ownNs.length);
            assertTrue(Workers.spanNs >= Workers.ownNs[0]);
            assertEquals(0, Workers.share(o, 0)[0]);
            assertEquals(4096, Workers.share(o, 0)[1]);
        }
    }

    // ---- flags ------------------------------------------------------------------------------

    @Nested
    class Parse {
        @Test
        void defaults() throws Exception {
            Harness.Options o = parse();
            assertEquals("raw_io", o.snippet());
            assertEquals("raw", o.strategy(), "the first strategy is the default");
            assertEquals("read", o.op());
            assertEquals("seq", o.pattern());
            assertEquals("warm", o.cache());
            assertEquals(1L << 20, o.fileSize());
            assertEquals(1, o.opSize());
            assertEquals(0, o.bufferSize());
            assertEquals(3, o.repeat());
            assertEquals(1, o.warmup());
            assertEquals(42, o.seed());
            assertFalse(o.keep());
            String name = o.file().getFileName().toString();
            assertTrue(name.startsWith("raw_io-") && name.endsWith(".dat"), name);
            assertTrue(name.contains(Long.toString(ProcessHandle.current().pid())), name);
        }

        @Test
        void flagSpaceValue() throws Exception {
            Harness.Options o = parse("--strategy", "other", "--op", "write", "--pattern", "rand", "--cache", "cold",
                    "--file-size", "64k", "--op-size", "4k", "--repeat", "7", "--warmup", "0", "--seed", "9",
                    "--file", "/tmp/x.dat", "--keep");
            assertEquals("other", o.strategy());
            assertEquals("write", o.op());
            assertEquals("rand", o.pattern());
            assertEquals("cold", o.cache());
            assertEquals(65536, o.fileSize());
            assertEquals(4096, o.opSize());
            assertEquals(7, o.repeat());
            assertEquals(0, o.warmup());
            assertEquals(9, o.seed());
            assertEquals(Path.of("/tmp/x.dat"), o.file());
            assertTrue(o.keep());
        }

        @Test
        void flagEqualsValue() throws Exception {
            Harness.Options o = parse("--op=write", "--pattern=rand", "--file-size=16m", "--op-size=512",
                    "--repeat=5", "--seed=123", "--file=/tmp/a=b.dat");
            assertEquals("write", o.op());
            assertEquals("rand", o.pattern());
            assertEquals(16L << 20, o.fileSize());
            assertEquals(512, o.opSize());
            assertEquals(5, o.repeat());
            assertEquals(123, o.seed());
            assertEquals(Path.of("/tmp/a=b.dat"), o.file(), "only the first = splits");
        }

        @Test
        void bothFormsMixed() throws Exception {
            Harness.Options o = parse("--file-size=1m", "--op-size", "8k");
            assertEquals(1L << 20, o.fileSize());
            assertEquals(8192, o.opSize());
        }

        @Test
        void bufferSizeWhenAllowed() throws Exception {
            Harness.Options o = Flags.parse("buffering", List.of("direct"), new String[] {"--buffer-size", "8k"});
            assertEquals(8192, o.bufferSize());
        }

        @Test
        void aValueAfterTheFirstEqualsSignAndKeepAlone() throws Exception {
            Harness.Options o = parse("--file=/tmp/a=b.dat", "--keep", "--strategy=raw");
            assertEquals("/tmp/a=b.dat", o.file().toString());
            assertTrue(o.keep());
            assertEquals("--keep takes no value", rejected("--keep=1"));
            assertEquals("unexpected argument 'plain=value' (flags start with --)", rejected("plain=value"));
        }
    }

    @Nested
    class Ways {
        static final List<Harness.Way<String>> TABLE = List.of(
                new Harness.Way<>("raw", "write", "seq", "a"),
                new Harness.Way<>("raw", Harness.ANY, Harness.ANY, "b"),
                new Harness.Way<>("other", "read", Harness.ANY, "c"),
                new Harness.Way<>("other", Harness.ANY, "rand", "d"));

        @Test
        void theStrategiesAreTheTablesEachOnceInItsOrder() {
            assertEquals(List.of("raw", "other"), Harness.wayStrategies(TABLE));
        }

        @Test
        void theFirstRowThatServesIsRun() throws Exception {
            assertEquals("a", Harness.findWay(TABLE, parse("--op", "write")).fn());
            assertEquals("b", Harness.findWay(TABLE, parse("--op", "read", "--pattern", "rand")).fn(), "ANY serves either");
            assertEquals("c", Harness.findWay(TABLE, parse("--strategy", "other", "--pattern", "rand")).fn());
            assertEquals("d", Harness.findWay(TABLE, parse("--strategy", "other", "--op", "write", "--pattern", "rand")).fn());
        }

        @Test
        void flagsNoRowServesAreOneLineNamingWhatTheStrategyServes() throws Exception {
            Harness.Options o = parse("--strategy", "other", "--op", "write", "--pattern", "seq");
            assertEquals("--strategy other --op write --pattern seq: no such way (other serves --op read; --pattern rand)",
                    assertThrows(Harness.UsageError.class, () -> Harness.findWay(TABLE, o)).getMessage());
        }
    }

    @Nested
    class Sizes {
        @ParameterizedTest
        @CsvSource({"1, 1", "4096, 4096", "4k, 4096", "4K, 4096", "16m, 16777216", "16M, 16777216",
                "1g, 1073741824", "64g, 68719476736", "0k, 0"})
        void parses(String text, long bytes) throws Exception {
            assertEquals(bytes, Flags.parseSize("--file-size", text, 0, Flags.MAX_FILE_SIZE));
        }

        @Test
        void fileSizeFlagUsesSizes() throws Exception {
            assertEquals(4096, parse("--file-size", "4k").fileSize());
            assertEquals(4096, parse("--file-size", "4K").fileSize());
            assertEquals(1L << 30, parse("--file-size", "1g").fileSize());
            assertEquals(Flags.MAX_FILE_SIZE, parse("--file-size", "64g").fileSize());
        }

        @Test
        void human() {
            assertEquals("1", Flags.human(1));
            assertEquals("1000", Flags.human(1000));
            assertEquals("4k", Flags.human(4096));
            assertEquals("1025", Flags.human(1025));
            assertEquals("64m", Flags.human(64L << 20));
            assertEquals("64g", Flags.human(64L << 30));
            assertEquals("1536k", Flags.human(1536L << 10));
        }

        @Test
        void hugeNumberClampsInsteadOfOverflowing() {
            Harness.UsageError e = assertThrows(Harness.UsageError.class,
                    () -> Flags.parseSize("--file-size", "999999999999g", 1, Flags.MAX_FILE_SIZE));
            assertTrue(e.getMessage().contains("must be between 1 and 64g"), e.getMessage());
        }
    }

    @Nested
    class Rejections {
        @Test
        void opSizeZero() {
            String m = rejected("--op-size", "0");
            assertTrue(m.contains("--op-size 0"), m);
            assertTrue(m.contains("between 1 and 64m"), m);
        }

        @Test
        void negativeFileSize() {
            String m = rejected("--file-size", "-1");
            assertTrue(m.contains("--file-size -1"), m);
            assertTrue(m.contains("not a size"), m);
        }

        @ParameterizedTest
        @ValueSource(strings = {"abc", "1.5m", "", "k", "4kb", "1234567890123"})
        void notASize(String value) {
            String m = rejected("--file-size", value);
            assertTrue(m.startsWith("--file-size " + value + ":"), m);
            assertTrue(m.contains("not a size"), m);
            assertTrue(m.contains("4k, 16m, 1g"), m);
        }

        @Test
        void fileSizeAboveMaximum() {
            String m = rejected("--file-size", "65g");
            assertTrue(m.contains("--file-size 65g"), m);
            assertTrue(m.contains("between 1 and 64g"), m);
        }

        @Test
        void opSizeAboveMaximum() {
            String m = rejected("--file-size", "1g", "--op-size", "65m");
            assertTrue(m.contains("--op-size 65m"), m);
            assertTrue(m.contains("between 1 and 64m"), m);
        }

        @Test
        void repeatZero() {
            String m = rejected("--repeat", "0");
            assertTrue(m.contains("--repeat 0"), m);
            assertTrue(m.contains("between 1 and 1000"), m);
        }

        @ParameterizedTest
        @ValueSource(strings = {"1001", "-3", "two", "1.0"})
        void repeatOutOfRangeOrNotANumber(String value) {
            String m = rejected("--repeat", value);
            assertTrue(m.contains("--repeat " + value), m);
            assertTrue(m.contains("whole number between 1 and 1000"), m);
        }

        @Test
        void warmupAboveMaximum() {
            String m = rejected("--warmup", "101");
            assertTrue(m.contains("--warmup 101"), m);
            assertTrue(m.contains("between 0 and 100"), m);
        }

        @Test
        void unknownFlag() {
            String m = rejected("--bogus", "1");
            assertTrue(m.contains("unknown flag --bogus"), m);
            assertTrue(m.contains("--file-size") && m.contains("--op-size") && m.contains("--keep"), m);
            assertFalse(m.contains("--buffer-size"), "not allowed for this snippet: " + m);
        }

        @Test
        void unknownFlagListsTheFlagsThisSnippetTakes() {
            String m = assertThrows(Harness.UsageError.class, () -> Flags.parse("buffering", List.of("direct"),
                    new String[] {"--bogus=1"})).getMessage();
            assertTrue(m.contains("unknown flag --bogus"), m);
            assertTrue(m.contains("--buffer-size"), m);
        }

        @Test
        void bufferSizeWhereTheSnippetDoesNotTakeIt() {
            String m = rejected("--buffer-size", "8k");
            assertTrue(m.contains("--buffer-size"), m);
            assertTrue(m.contains("not used by raw_io"), m);
        }

        @Test
        void opSizeLargerThanFileSize() {
            String m = rejected("--file-size", "4k", "--op-size", "8k");
            assertTrue(m.contains("--op-size 8192"), m);
            assertTrue(m.contains("--file-size 4096"), m);
            assertTrue(m.contains("larger than"), m);
        }

        @Test
        void opSizeEqualToFileSizeIsFine() throws Exception {
            assertEquals(4096, parse("--file-size", "4k", "--op-size", "4k").opSize());
        }

        @Test
        void badOp() {
            String m = rejected("--op", "append");
            assertTrue(m.contains("--op append"), m);
            assertTrue(m.contains("must be one of read, write"), m);
        }

        @Test
        void badPatternCacheStrategy() {
            assertTrue(rejected("--pattern", "random").contains("--pattern random: must be one of seq, rand"));
            assertTrue(rejected("--cache", "hot").contains("--cache hot: must be one of warm, cold"));
            assertTrue(rejected("--strategy", "fast").contains("--strategy fast: must be one of raw, other"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"--file-size", "--op", "--seed", "--file"})
        void flagMissingItsValue(String flag) {
            String m = rejected("--repeat", "2", flag);
            assertTrue(m.contains(flag + " needs a value"), m);
        }

        @Test
        void bareArgument() {
            String m = rejected("read");
            assertTrue(m.contains("unexpected argument 'read'"), m);
        }
    }

    // ---- data and random offsets ------------------------------------------------------------

    @Nested
    class Random {
        @Test
        void splitMix64KnownAnswers() {
            Prng p = new Prng(0);
            assertEquals(0xE220A8397B1DCDAFL, p.next());
            assertEquals(0x6E789E6AA1B965F4L, p.next());
            assertEquals(0x06C45D188009454FL, p.next());
        }

        @Test
        void sameSeedSameSequenceOtherSeedOther() {
            Prng a = new Prng(42), b = new Prng(42), c = new Prng(43);
            long[] x = new long[16], y = new long[16], z = new long[16];
            for (int i = 0; i < 16; i++) {
                x[i] = a.next();
                y[i] = b.next();
                z[i] = c.next();
            }
            assertArrayEquals(x, y);
            assertFalse(java.util.Arrays.equals(x, z));
        }

        @Test
        void belowIsUnsignedRemainder() {
            Prng p = new Prng(7), q = new Prng(7);
            boolean sawNegative = false;
            for (long n : new long[] {1, 2, 3, 10, 1000, 65536, 1L << 40, Long.MAX_VALUE}) {
                for (int i = 0; i < 200; i++) {
                    long raw = q.next();
                    sawNegative |= raw < 0;
                    long slot = p.below(n);
                    assertEquals(Long.remainderUnsigned(raw, n), slot);
                    assertTrue(slot >= 0 && slot < n, slot + " not in [0, " + n + ")");
                }
            }
            assertTrue(sawNegative, "the check must cover outputs with the top bit set");
        }

        @Test
        void belowCoversAllSlots() {
            Prng p = new Prng(42);
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 1000; i++) seen.add(p.below(16));
            assertEquals(16, seen.size());
        }
    }

    @Nested
    class DataPattern {
        @Test
        void atIsTheGoldenRatioTable() {
            for (long pos : new long[] {0, 1, 2, 255, 65535, 65536, 65537, 1L << 33}) {
                int j = (int) (pos & 0xFFFF);
                int expected = (int) ((j * 0x9E3779B97F4A7C15L) >>> 56);
                assertEquals(expected, Data.at(pos), "at(" + pos + ")");
            }
            assertEquals(0, Data.at(0));
            assertEquals(0x9E, Data.at(1));
        }

        @Test
        void periodic() {
            for (long pos = 0; pos < 300; pos++) {
                assertEquals(Data.at(pos), Data.at(pos + Data.PERIOD));
                assertEquals(Data.at(pos), Data.at(pos + 5L * Data.PERIOD));
            }
            assertEquals(65536, Data.PERIOD);
        }

        @Test
        void notConstant() {
            Set<Integer> values = new HashSet<>();
            for (long pos = 0; pos < Data.PERIOD; pos++) values.add(Data.at(pos));
            assertTrue(values.size() > 200, "the pattern should use most byte values: " + values.size());
        }

        @ParameterizedTest
        @CsvSource({"0, 100", "65500, 100", "65535, 2", "1, 65536", "100, 200000", "4294967000, 70000"})
        void fillMatchesAt(long pos, int len) {
            byte[] buf = new byte[len + 3];
            buf[len] = 11;
            buf[len + 1] = 22;
            buf[len + 2] = 33;
            Data.fill(buf, len, pos);
            for (int i = 0; i < len; i++) assertEquals(Data.at(pos + i), buf[i] & 0xFF, "offset " + (pos + i));
            assertEquals(11, buf[len], "fill must stop at len");
            assertEquals(22, buf[len + 1]);
            assertEquals(33, buf[len + 2]);
        }

        @Test
        void sumIsUnsigned() {
            byte[] buf = {(byte) 0xFF, 1, (byte) 0x80, 0, 7};
            assertEquals(255 + 1 + 128 + 0 + 7, Data.sum(buf, 0, 5));
            assertEquals(1 + 128, Data.sum(buf, 1, 2));
            assertEquals(0, Data.sum(buf, 2, 0));
        }

        @Test
        void writeFileHoldsThePattern(@TempDir Path dir) throws IOException {
            Path file = dir.resolve("d.dat");
            long size = (1 << 20) + 12345;  // more than one of writeFile's blocks
            Data.writeFile(file, size);
            byte[] bytes = Files.readAllBytes(file);
            assertEquals(size, bytes.length);
            for (int i = 0; i < bytes.length; i++) {
                if ((bytes[i] & 0xFF) != Data.at(i)) throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    @Nested
    class Counts {
        @Test
        void sequentialCoversTheFileWithAShortLastOperation() {
            Harness.Options o = options("read", "seq", 10001, 4096, Path.of("x"), 1);
            assertEquals(3, o.operations());
            assertEquals(10001, o.bytes());
            assertEquals(10001, options("read", "seq", 10001, 1, Path.of("x"), 1).operations());
            assertEquals(2, options("read", "seq", 8192, 4096, Path.of("x"), 1).operations());
            assertEquals(8192, options("read", "seq", 8192, 4096, Path.of("x"), 1).bytes());
            assertEquals(1429, options("write", "seq", 10001, 7, Path.of("x"), 1).operations());
        }

        @Test
        void randomUsesWholeSlotsOnly() {
            Harness.Options o = options("read", "rand", 10001, 4096, Path.of("x"), 1);
            assertEquals(2, o.operations());
            assertEquals(8192, o.bytes());
            Harness.Options p = options("write", "rand", 10001, 7, Path.of("x"), 1);
            assertEquals(1428, p.operations());
            assertEquals(9996, p.bytes());
        }
    }

    // ---- the clock holds the strategy, and validation stays outside it -------------------------

    /** What a read reports in its check run: what it returned plus what use() summed besides. */
    static long checked(Harness.Strategy read, Harness.Options o) throws IOException {
        Harness.checking = true;
        Harness.unseen.set(0);
        try {
            return read.run(o) + Harness.unseen.get();
        } finally {
            Harness.checking = false;
        }
    }

    /** Runs Harness.run in this JVM with a clock that ticks once per reading; returns its JSON lines. */
    static List<String> runWithClock(java.util.function.LongSupplier clock, Harness.Strategy strategy, String... args) {
        var lines = new java.io.ByteArrayOutputStream();
        var out = System.out;
        System.setOut(new java.io.PrintStream(lines, true));
        Harness.clock = clock;
        try {
            Harness.run("raw_io", List.of(new Harness.Way<>("raw", Harness.ANY, Harness.ANY, strategy)), args, o -> { });
        } finally {
            Harness.clock = System::nanoTime;
            System.setOut(out);
        }
        return lines.toString().lines().toList();
    }

    @Nested
    class Clock {
        @Test
        void aWritesFileIsSummedAfterTheClockStops(@TempDir Path dir) {
            Path file = dir.resolve("w.dat");
            int[] ticks = {0}, calls = {0};
            // every second reading stops the clock; then a byte of 7 is added to the file, which the checksum must see
            List<String> lines = runWithClock(() -> {
                if (++ticks[0] % 2 == 0) {
                    try {
                        Files.write(file, new byte[] {7}, java.nio.file.StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                return ticks[0];
            }, o -> {
                calls[0]++;
                return RawIo.seqWrite(o);
            }, "--op", "write", "--file-size", "1000", "--op-size", "100", "--repeat", "2", "--warmup", "1", "--file", file.toString());
            assertEquals(2, lines.size());
            assertEquals(3, calls[0], "one warm-up and two measured runs, no check run for a write");
            assertEquals(6, ticks[0], "two readings of the clock per run");
            long pattern = 0;
            for (int i = 0; i < 1000; i++) pattern += Data.at(i);
            for (String line : lines) {
                assertTrue(line.contains("\"checksum\":" + (pattern + 7) + ","), line);
                assertTrue(line.contains("\"elapsed_ns\":1,"), "the clock was read just around the strategy: " + line);
            }
        }

        @Test
        void aReadIsSummedOnlyInTheUntimedCheckRun(@TempDir Path dir) {
            int[] ticks = {0}, calls = {0};
            long[] charsSeenTimed = {0}, charsSeenUntimed = {0};
            String line = "every character of this line counts";
            // a line that counts which characters were looked at, and whether the clock was running then
            CharSequence watched = new CharSequence() {
                public int length() { return line.length(); }
                public char charAt(int i) {
                    if (ticks[0] % 2 == 1) charsSeenTimed[0]++;
                    else charsSeenUntimed[0]++;
                    return line.charAt(i);
                }
                public CharSequence subSequence(int a, int b) { return line.subSequence(a, b); }
            };
            List<String> lines = runWithClock(() -> ++ticks[0], o -> {
                calls[0]++;
                return Harness.use(watched);
            }, "--op", "read", "--file-size", "100", "--repeat", "3", "--warmup", "1", "--file", dir.resolve("r.dat").toString());
            assertEquals(5, calls[0], "the check run, one warm-up and three measured runs");
            assertEquals(8, ticks[0], "no clock around the check run");
            assertEquals(4, charsSeenTimed[0], "a timed run touches one character");
            assertEquals(line.length(), charsSeenUntimed[0], "the check run sums them all, off the clock");
            long sum = line.chars().sum();
            assertEquals(3, lines.size());
            for (String l : lines) assertTrue(l.contains("\"checksum\":" + sum + ","), l);
        }

        @Test
        void useTouchesOneValueOutsideTheCheckRun() throws IOException {
            byte[] bytes = {1, 2, (byte) 200};
            Harness.unseen.set(0);
            assertEquals(200, Harness.use(bytes, 0, 3));
            assertEquals(0, Harness.use(bytes, 0, 0));
            assertEquals(0, Harness.unseen.get(), "nothing summed in a timed run");
            assertEquals(0xFFFFFFFFL, Harness.use(new int[] {5, -1}, 0, 2), "ints as unsigned numbers");
            assertEquals(Double.doubleToRawLongBits(2.5), Harness.use(new double[] {1.0, 2.5}, 0, 2));
            assertEquals(0, Harness.unseen.get());
            assertEquals(1 + 2 + 200, checked(o -> Harness.use(bytes, 0, 3), null));
            assertEquals(5 + 0xFFFFFFFFL + 7, checked(o -> Harness.use(new int[] {5, -1, 7}, 0, 3), null));
        }

        @Test
        void aReadThatDiffersFromItsCheckRunFails(@TempDir Path dir) throws Exception {
            // the harness ends the JVM on failure, so this runs a child JVM on the compiled classes
            Path classes = Path.of(Harness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classes.toString(),
                    "HarnessTest$Flaky", "--op", "read", "--file-size", "100", "--repeat", "1", "--warmup", "0",
                    "--file", dir.resolve("f.dat").toString()).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            assertEquals(1, p.waitFor(), output);
            assertTrue(output.contains("run 0 read other bytes than the check run"), output);
            assertFalse(Files.exists(dir.resolve("f.dat")), "the file is removed");
        }
    }

    /** A read that returns something else each time. */
    static final class Flaky {
        static int calls;

        public static void main(String[] args) {
            Harness.run("raw_io", List.of(new Harness.Way<Harness.Strategy>("raw", Harness.ANY, Harness.ANY, o -> ++calls)), args, o -> { });
        }
    }

    // ---- the raw_io strategies --------------------------------------------------------------

    @Nested
    class RawIoStrategies {
        @ParameterizedTest
        @CsvSource({"1, 10001", "7, 10001", "4096, 10001", "4096, 8192", "7, 7", "1, 70000"})
        void seqWriteThenSeqRead(int opSize, long fileSize, @TempDir Path dir) throws IOException {
            Path file = dir.resolve("seq.dat");
            Data.prepareSource(opSize);
            assertEquals(0, RawIo.seqWrite(options("write", "seq", fileSize, opSize, file, 42)), "a write returns 0: its file is checked");
            assertEquals(fileSize, Files.size(file));
            byte[] bytes = Files.readAllBytes(file);
            for (int i = 0; i < bytes.length; i++) assertEquals(Data.at(i), bytes[i] & 0xFF, "byte " + i);
            assertEquals(Data.sumFile(file), checked(RawIo::seqRead, options("read", "seq", fileSize, opSize, file, 42)));
        }

        @Test
        void seqReadOfOtherOpSizesAgrees(@TempDir Path dir) throws IOException {
            Path file = dir.resolve("seq.dat");
            Data.writeFile(file, 10001);
            long one = checked(RawIo::seqRead, options("read", "seq", 10001, 1, file, 42));
            assertEquals(one, checked(RawIo::seqRead, options("read", "seq", 10001, 7, file, 42)));
            assertEquals(one, checked(RawIo::seqRead, options("read", "seq", 10001, 4096, file, 42)));
            assertEquals(Data.sum(Files.readAllBytes(file), 0, 10001), one);
        }

        @ParameterizedTest
        @CsvSource({"1, 5000", "7, 10001", "4096, 40000"})
        void randWriteFillsWrittenSlotsWithThePattern(int opSize, long fileSize, @TempDir Path dir) throws IOException {
            Path file = dir.resolve("rand.dat");
            Data.prepareSource(opSize);
            RawIo.randWrite(options("write", "rand", fileSize, opSize, file, 42));

            long slots = fileSize / opSize;
            Prng replay = new Prng(42);
            Set<Long> written = new HashSet<>();
            for (long i = 0; i < slots; i++) written.add(replay.below(slots));
            assertTrue(written.size() < slots, "some slots are picked twice, so some are never written");

            byte[] bytes = Files.readAllBytes(file);
            long last = java.util.Collections.max(written);
            assertEquals((last + 1) * opSize, bytes.length, "the file ends after the highest slot written");
            for (long slot : written) {
                for (int k = 0; k < opSize; k++) {
                    long pos = slot * opSize + k;
                    assertEquals(Data.at(pos), bytes[(int) pos] & 0xFF, "slot " + slot + " byte " + k);
                }
            }
            for (long slot = 0; slot <= last; slot++) {
                if (written.contains(slot)) continue;
                for (int k = 0; k < opSize; k++) assertEquals(0, bytes[(int) (slot * opSize + k)], "unwritten slot " + slot);
            }
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 7, 4096})
        void randReadSumsTheSlotsItsSeedVisits(int opSize, @TempDir Path dir) throws IOException {
            Path file = dir.resolve("rand.dat");
            long fileSize = 20000, slots = fileSize / opSize;
            Data.writeFile(file, fileSize);
            Prng replay = new Prng(5);
            long expected = 0;
            for (long i = 0; i < slots; i++) {
                long slot = replay.below(slots);
                for (int k = 0; k < opSize; k++) expected += Data.at(slot * opSize + k);
            }
            long read = checked(RawIo::randRead, options("read", "rand", fileSize, opSize, file, 5));
            assertEquals(expected, read, "every operation counts, repeats included");
            assertNotEquals(read, checked(RawIo::randRead, options("read", "rand", fileSize, opSize, file, 6)),
                    "another seed visits other slots");
        }
    }

    // ---- scratch checks ---------------------------------------------------------------------

    @Nested
    class Scratch {
        @Test
        void acceptsANewFileInAnExistingFolder(@TempDir Path dir) throws Exception {
            Space.checkScratch(options("read", "seq", 4096, 1, dir.resolve("new.dat"), 42));
        }

        @Test
        void rejectsAnExistingFile(@TempDir Path dir) throws IOException {
            Path file = Files.writeString(dir.resolve("there.dat"), "keep me");
            String m = assertThrows(Harness.UsageError.class,
                    () -> Space.checkScratch(options("read", "seq", 4096, 1, file, 42))).getMessage();
            assertTrue(m.contains("already exists"), m);
            assertTrue(m.contains(file.toString()), m);
            assertEquals("keep me", Files.readString(file), "an existing file is left alone");
        }

        @Test
        void rejectsAMissingFolder(@TempDir Path dir) {
            Path missing = dir.resolve("no-such-folder");
            String m = assertThrows(Harness.UsageError.class,
                    () -> Space.checkScratch(options("read", "seq", 4096, 1, missing.resolve("f.dat"), 42))).getMessage();
            assertTrue(m.contains("does not exist"), m);
            assertTrue(m.contains(missing.toString()), m);
            assertFalse(Files.exists(missing));
        }
        // a file larger than the free space: tests/test_bad_input.py's test_not_enough_free_space, in both languages
        // (the flags cannot ask for more than 64g, which fits on many disks; a margin of 100000g, from the environment, cannot)
    }
}
