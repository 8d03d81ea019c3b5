// Memory and scratch space: what a run may hold, whether its folder has room, the file it makes (never through a
// link, never another's removed), a copy's source, and the page cache a cold run empties. Twin:
// c-snippets/harness/space.c. See Harness.java for the rooms.
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

final class Space {
    /** The free space a run leaves beside its file unless COURSE_SCRATCH_MARGIN says otherwise, and the most it may say. */
    static final long DEFAULT_MARGIN = 256L << 20;
    static final long MAX_MARGIN = 1L << 50;

    static String defaultScratch() {
        String dir = System.getenv("COURSE_SCRATCH");
        return dir == null || dir.isEmpty() ? "." : dir;
    }

    /** The most a snippet may hold in memory: half of the heap this JVM may grow to (C: half of a quarter of RAM, the JVM's default). */
    static long memoryLimit() {
        return Runtime.getRuntime().maxMemory() / 2;
    }

    /**
     * Memory the system could give now without swapping (MemAvailable in /proc/meminfo), and no more than
     * this process's container has left (its cgroup's limit less its use); unknown: Long.MAX_VALUE.
     */
    static long availableMemory() {
        long available = Long.MAX_VALUE;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) available = Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
            }
        } catch (IOException | RuntimeException notLinux) {
            // no such file outside Linux: no bound
        }
        long[] container = containerMemory();
        return container == null ? available : Math.min(available, Math.max(0, container[0] - container[1]));
    }

    /**
     * {limit, in use} of this process's cgroup (v2 memory.max and memory.current, else v1's
     * memory.limit_in_bytes and memory.usage_in_bytes); null where no limit is set (C: container_memory).
     */
    static long[] containerMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                String[] f = line.split(":", 3);
                boolean v2 = f.length == 3 && f[1].isEmpty(), v1 = f.length == 3 && List.of(f[1].split(",")).contains("memory");
                if (!v2 && !v1) continue;
                Path dir = Path.of(v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", f[2]);
                Path limit = dir.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"), used = dir.resolve(v2 ? "memory.current" : "memory.usage_in_bytes");
                if (!Files.isReadable(limit) || !Files.isReadable(used)) continue;
                String text = Files.readString(limit).strip();
                if (text.equals("max") || Long.parseLong(text) >= 1L << 62) continue;  // v1 writes "none" as a huge number
                return new long[] {Long.parseLong(text), Long.parseLong(Files.readString(used).strip())};
            }
        } catch (IOException | RuntimeException notLinux) {
            // no cgroups: no container bound
        }
        return null;
    }

    /** A buffer, and an operation's array, may each take at most memoryLimit() (past it Java would end in an OutOfMemoryError). */
    static void checkMemory(Harness.Options o) throws Harness.UsageError {
        long limit = memoryLimit();
        for (var buffer : List.of(Map.entry("--buffer-size", (long) o.bufferSize()), Map.entry("--op-size", (long) o.opSize()))) {
            if (buffer.getValue() > limit) {
                throw new Harness.UsageError(buffer.getKey() + " " + Flags.human(buffer.getValue()) + ": larger than memory allows here (at most "
                        + (limit >> 20) + "m, half of the JVM's heap limit; raise it with -Xmx)");
            }
        }
    }

    /** The file must be new (the harness removes what it creates; a link, even to nowhere, counts as there) and its folder must have room. */
    static void checkScratch(Harness.Options o) throws Harness.UsageError {
        Path dir = o.file().toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) throw new Harness.UsageError("scratch folder " + dir + " does not exist");
        if (!Files.isWritable(dir)) throw new Harness.UsageError("scratch folder " + dir + " is not writable");
        if (Files.exists(o.file(), LinkOption.NOFOLLOW_LINKS)) {
            throw new Harness.UsageError("--file " + o.file() + " already exists (the harness only writes files it creates)");
        }
        String marginText = System.getenv("COURSE_SCRATCH_MARGIN");
        // set but empty counts as unset, as a shell's `COURSE_SCRATCH_MARGIN= make lab` means
        long margin = marginText == null || marginText.isEmpty() ? DEFAULT_MARGIN : Flags.parseSize("COURSE_SCRATCH_MARGIN", marginText, 0, MAX_MARGIN);
        long free;
        try {
            free = Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw new Harness.UsageError("cannot read the free space of " + dir + ": " + Output.describe(e));
        }
        if (o.fileSize() + margin > free) {
            throw new Harness.UsageError("not enough free space in " + dir + ": the run needs " + Flags.human(o.fileSize())
                    + " plus a margin of " + Flags.human(margin) + ", but only " + free + " bytes are free");
        }
    }

    /**
     * Drops the file from the page cache (fsync, then posix_fadvise DONTNEED) through the C helper, and
     * returns the percentage of its pages still resident afterwards (mincore), as the helper measured it.
     */
    static double evict(Path file) throws IOException, Harness.UsageError {
        String helper = System.getenv("COURSE_EVICT");
        if (helper == null || helper.isEmpty()) {
            throw new Harness.UsageError("--cache cold needs the eviction helper: set COURSE_EVICT to c-snippets' evict binary");
        }
        Process p = new ProcessBuilder(helper, file.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String resident = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() != 0) throw new IOException("eviction helper " + helper + " failed");
            return Double.parseDouble(resident);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while evicting " + file);
        } catch (NumberFormatException e) {
            throw new IOException("eviction helper " + helper + " did not say how much stayed resident");
        }
    }

    /** Linux's PATH_MAX, as the C twin's: a longer --file is refused rather than cut short. */
    static final int MAX_PATH = 4096;
    /**
     * The identities (device and inode) of the files this process made: the run's file and a copy's source,
     * so a file someone else put at either path since is never removed.
     */
    static volatile Object createdKey, sourceKey;

    /** The file a copy reads (file_copy, lab 10): --file's name plus ".source", made by writeSource. */
    static Path source(Harness.Options o) {
        return Path.of(o.file() + ".source");
    }

    /** Makes the copy's source where none was (not through a link either) and fills it with the course's data; it goes with the run's file. */
    static void writeSource(Harness.Options o) throws IOException {
        sourceKey = claim(source(o));
        Data.writeFile(source(o), o.fileSize());
    }

    /** Makes the file, empty, where none was (CREATE_NEW: not through a link either), and returns which it is (fileKey). */
    static Object claim(Path file) throws IOException {
        Files.createFile(file);
        return fileKey(file);
    }

    static Object fileKey(Path file) throws IOException {
        return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
    }

    /** Removes what the run made: its file and, where it made one, a copy's source. */
    static void removeMade(Harness.Options o) {
        removeQuietly(o.file(), createdKey);
        if (sourceKey != null) removeQuietly(source(o), sourceKey);
    }

    /** Removes a file: a regular one, and the very one this process made (key) when it made one. */
    static void removeQuietly(Path file, Object key) {
        try {
            var now = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!now.isRegularFile() || (key != null && !key.equals(now.fileKey()))) return;
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // gone already, or best effort on the way out; the kit also removes its whole scratch folder
        }
    }
}
