package course.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine card's reading of a container's limits, on fake cgroup trees, and its warning. */
class MachineTest {
    static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    /** Each tool's install line names the package that gives it (setup/packages.tsv): bubblewrap, not "bwrap". */
    @Test
    void anInstallLineNamesThePackageNotTheCommand() {
        assertEquals("sudo apt-get install bubblewrap", Machine.installHint("bwrap"));
        assertEquals("sudo apt-get install openmpi-bin libopenmpi-dev", Machine.installHint("mpirun"));
        assertEquals("sudo apt-get install strace", Machine.installHint("strace"));
        for (String tool : Machine.OPTIONAL_TOOLS) assertTrue(Machine.installHint(tool).startsWith("sudo apt-get install "), tool);
        assertEquals(java.util.List.of("/usr/include/liburing.h", "/usr/local/include/liburing.h"), Machine.foundBy("liburing"),
                "the header where the set-up, the kit's compile and the tests all look");
    }

    @Test
    void cgroupV2TheTightestLevelWins(@TempDir Path dir) throws IOException {
        Path self = write(dir.resolve("proc/self/cgroup"), "0::/user.slice/lab\n");
        Path root = dir.resolve("sys/fs/cgroup");
        write(root.resolve("cgroup.controllers"), "cpu memory\n");
        write(root.resolve("user.slice/memory.max"), "2147483648\n");
        write(root.resolve("user.slice/lab/memory.max"), "max\n");  // the leaf sets none; its parent does
        write(root.resolve("user.slice/lab/cpu.max"), "150000 100000\n");
        Machine.Limits l = Machine.Limits.read(self, root);
        assertEquals(2L << 30, l.memoryBytes());
        assertEquals(1.5, l.cpus(), 1e-9);
        assertEquals("2.0 GiB memory, 1.5 CPUs (cgroup v2)", l.describe());
    }

    @Test
    void cgroupV1MemoryAndCpuQuota(@TempDir Path dir) throws IOException {
        Path self = write(dir.resolve("cgroup"), "4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/\n");
        Path root = dir.resolve("fs");
        write(root.resolve("unified/cgroup.procs"), "");  // a hybrid host: v2 present but without controllers
        write(root.resolve("memory/docker/abc/memory.limit_in_bytes"), "1073741824\n");
        write(root.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");  // v1's "no limit"
        write(root.resolve("cpu,cpuacct/docker/abc/cpu.cfs_quota_us"), "50000\n");
        write(root.resolve("cpu,cpuacct/docker/abc/cpu.cfs_period_us"), "100000\n");
        Machine.Limits l = Machine.Limits.read(self, root);
        assertEquals(1L << 30, l.memoryBytes());
        assertEquals(0.5, l.cpus(), 1e-9);
        assertEquals("cgroup v1", l.version());
    }

    @Test
    void noLimitsAnywhere(@TempDir Path dir) throws IOException {
        Path self = write(dir.resolve("cgroup"), "4:memory:/\n1:cpu:/\n0::/\n");
        Path root = dir.resolve("fs");
        write(root.resolve("memory/memory.limit_in_bytes"), "9223372036854771712\n");
        write(root.resolve("cpu/cpu.cfs_quota_us"), "-1\n");
        write(root.resolve("cpu/cpu.cfs_period_us"), "100000\n");
        Machine.Limits l = Machine.Limits.read(self, root);
        assertNull(l.memoryBytes());
        assertNull(l.cpus());
        assertEquals(Machine.NO_LIMITS, l.describe());
        assertEquals(Machine.NO_LIMITS, Machine.Limits.read(dir.resolve("missing"), root).describe(), "not Linux: no limits known");
    }

    @Test
    void loadAndStealFromProc(@TempDir Path dir) throws IOException {
        Path loadavg = write(dir.resolve("loadavg"), "0.00 0.10 0.20 1/90 123\n");
        Path stat = write(dir.resolve("stat"), "cpu  900 0 50 9000 0 0 0 50 0 0\ncpu0 1 2 3\n");
        Path self = write(dir.resolve("self"), "123 (java (kernel)) S 1 123 123 0 -1 4194560 0 0 0 0 40 10 0 0 20 0 30 0 5 0 0\n");
        assertEquals("load 0.00 per core (1 min), steal 0.5% of CPU time since boot", Machine.load(loadavg, stat, self, 0));
        assertEquals("load 0.00 per core (1 min), steal 0.5% of CPU time since boot", Machine.load(loadavg, stat, self, 1),
            "no tick passed in the window: nothing said about now");
    }

    @Test
    void otherWorkNowLeavesThisProcessOut() {
        // 2 cores for 300 ms: 60 ticks; 30 of them working (user 20, system 10), 12 of those this process's own
        String before = "cpu  1000 0 500 9000 100 0 0 50 0 0\n", after = "cpu  1020 0 510 9025 105 0 0 50 0 0\n";
        String selfBefore = "7 (a b) S 1 7 7 0 -1 0 0 0 0 0 100 50 0 0\n", selfAfter = "7 (a b) S 1 7 7 0 -1 0 0 0 0 0 110 52 0 0\n";
        assertEquals(18.0 / 60, Machine.otherWorkPerCore(before, selfBefore, after, selfAfter, java.util.Set.of()), 1e-9);
        assertTrue(Double.isNaN(Machine.otherWorkPerCore(before, selfBefore, before, selfBefore, java.util.Set.of())), "no tick passed");
    }

    @Test
    void otherWorkNowCountsOnlyTheCpusThisProcessMayUse() {
        // 4 CPUs, this process pinned to cpu2 and cpu3, both kept busy by others; cpu0 and cpu1 idle (30 ticks each)
        String before = "cpu  0 0 0 0 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0\ncpu2 0 0 0 0 0 0 0 0\ncpu3 0 0 0 0 0 0 0 0\n";
        String after = "cpu  60 0 0 60 0 0 0 0 0 0\ncpu0 0 0 0 30 0 0 0 0\ncpu1 0 0 0 30 0 0 0 0\ncpu2 30 0 0 0 0 0 0 0\ncpu3 30 0 0 0 0 0 0 0\n";
        String self = "7 (x) S 1 7 7 0 -1 0 0 0 0 0 0 0 0 0\n";
        assertEquals(1.0, Machine.otherWorkPerCore(before, self, after, self, java.util.Set.of(2, 3)), 1e-9, "its two CPUs are full");
        assertEquals(0.5, Machine.otherWorkPerCore(before, self, after, self, java.util.Set.of()), 1e-9, "the machine as a whole, half");
    }

    @Test
    void warnsOnlyOnAMachineThatIsSharedOrThrottled() {
        Map<String, String> quiet = new LinkedHashMap<>(Map.of("container limits", Machine.NO_LIMITS,
                "load", "load 0.10 per core (1 min), steal 0.0% of CPU time since boot"));
        assertEquals("", Machine.warning(quiet));
        Map<String, String> binder = new LinkedHashMap<>(quiet);
        binder.put("container limits", "2.0 GiB memory (cgroup v2)");
        assertTrue(Machine.warning(binder).contains("a container limits it (2.0 GiB memory (cgroup v2))"), Machine.warning(binder));
        Map<String, String> busy = new LinkedHashMap<>(quiet);
        busy.put("load", "load 1.20 per core (1 min), steal 6.0% of CPU time since boot");
        String w = Machine.warning(busy);
        assertTrue(w.startsWith("\n⚠ This machine is shared or throttled"), w);
        assertTrue(w.contains("other work keeps its cores busy") && w.contains("a hypervisor takes CPU time"), w);
        Map<String, String> afterALab = new LinkedHashMap<>(quiet);
        afterALab.put("load", "load 1.20 per core (1 min), 0.03 per core busy with other work now, steal 0.0% of CPU time since boot");
        assertEquals("", Machine.warning(afterALab), "a lab run a minute ago raised the load; nothing runs now");
        Map<String, String> busyNow = new LinkedHashMap<>(quiet);
        busyNow.put("load", "load 0.20 per core (1 min), 0.95 per core busy with other work now, steal 0.0% of CPU time since boot");
        assertTrue(Machine.warning(busyNow).contains("other work keeps its cores busy"), Machine.warning(busyNow));
        Map<String, String> inMemory = new LinkedHashMap<>(quiet);
        inMemory.put("filesystem", "tmpfs");
        assertTrue(Machine.warning(inMemory).startsWith("\n⚠ The scratch folder is on tmpfs, which keeps files in memory"), Machine.warning(inMemory));
        inMemory.put("filesystem", "ext4");
        assertEquals("", Machine.warning(inMemory), "a disk's file system: nothing to say");
        assertEquals("", Machine.warning(Map.of("cores", "2")), "a card saved by an older course, without those rows");
    }

    @Test
    void theSavedCardNamesNoFolderOfThisMachine() {
        Map<String, String> card = new java.util.LinkedHashMap<>(Map.of("cores", "2", "scratch", "/home/jane.doe/course/scratch",
                "jdk", "Eclipse Adoptium 25.0.3 (/home/jane.doe/.sdkman/candidates/java/25)"));
        Map<String, String> saved = Machine.toSave(card);
        assertEquals(Map.of("cores", "2", "jdk", "Eclipse Adoptium 25.0.3"), saved);
        assertTrue(card.containsKey("scratch"), "the card the lab shows keeps them");
    }

    @Test
    void theUsableCpusAreTheAffinityCutToTheQuota(@TempDir Path dir) throws IOException {
        Path status = write(dir.resolve("status"), "Name:\tjava\nCpus_allowed:\t3f\nCpus_allowed_list:\t0-3,8,10-11\n");
        Machine.Limits none = new Machine.Limits(null, null, "cgroup v2");
        assertEquals(7, Machine.usableCpus(status, none), "0-3, 8 and 10-11");
        assertEquals(2, Machine.usableCpus(status, new Machine.Limits(null, 1.5, "cgroup v2")), "a quota of 1.5 CPUs runs on 2 at a time");
        assertEquals(0, Machine.usableCpus(dir.resolve("missing"), none), "not Linux: no opinion");
        assertTrue(Machine.cores() >= 1 && Machine.cores() <= Runtime.getRuntime().availableProcessors());
    }

    @Test
    void theCardNamesEachMitigationTheKernelAppliesAndNothingElse(@TempDir Path dir) throws IOException {
        Path folder = dir.resolve("vulnerabilities");
        write(folder.resolve("spec_rstack_overflow"), "Mitigation: Safe RET\n");
        write(folder.resolve("spectre_v2"), "Mitigation: Retpolines; STIBP: disabled\n");
        write(folder.resolve("meltdown"), "Not affected\n");
        write(folder.resolve("retbleed"), "Vulnerable\n");
        assertEquals("spec_rstack_overflow: Safe RET; spectre_v2: Retpolines; STIBP: disabled", Machine.mitigations(folder));
        // a guard the kernel applies while it still calls the CPU vulnerable (a guest without the microcode): kept, in its words
        write(folder.resolve("spec_rstack_overflow"), "Vulnerable: Safe RET, no microcode\n");
        assertEquals("spec_rstack_overflow: Vulnerable: Safe RET, no microcode; spectre_v2: Retpolines; STIBP: disabled", Machine.mitigations(folder));
        write(folder.resolve("spec_rstack_overflow"), "Not affected\n");
        write(folder.resolve("spectre_v2"), "Not affected\n");
        assertEquals("none", Machine.mitigations(folder));
        assertTrue(Machine.mitigations(dir.resolve("absent")).startsWith("none listed ("), "not Linux, an old kernel");
    }

    @Test
    void aCardKeepsOnlyTheMountOptionsThatSayHowFilesAreCachedAndLocked() {
        assertEquals("rw,vers=3,noac,local_lock=none", Mount.told("rw,relatime,vers=3,addr=10.0.0.1,noac,clientaddr=10.0.0.2,local_lock=none"),
                "a server's address stays out of hand-ins");
        assertEquals("rw,data=ordered", Mount.told("rw,relatime,errors=remount-ro,data=ordered"));
    }
}
