package course.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The scratch folder's housekeeping: each run works in a folder of its own named after the kernel that
 * started it (RUN_PREFIX), so a later lab can stop and remove what a killed kernel left (sweepStale)
 * without touching a live kernel's.
 */
public final class Scratch {
    private Scratch() {
    }

    public static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A path as a child run in scratch reaches it from its working folder, a run folder straight under scratch (run). */
    public static String fromRunFolder(Path scratch, Path path) {
        createDirectories(scratch);
        try {
            return "../" + scratch.toRealPath().relativize(path.toAbsolutePath().getParent().toRealPath().resolve(path.getFileName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * run-PID-START-…: which kernel made a run folder (its process id and start time, so a reused id is
     * not taken for it), so that a later lab can remove what a killed kernel left without touching a live one's.
     */
    public static final String RUN_PREFIX = "run-" + ProcessHandle.current().pid() + "-" + startMillis(ProcessHandle.current()) + "-";
    private static final java.util.regex.Pattern RUN_FOLDER = java.util.regex.Pattern.compile("run-(\\d+)-(\\d+)-.*");

    static long startMillis(ProcessHandle process) {
        return process.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }

    /**
     * Removes the run folders under scratch whose kernel has ended (killed mid-run, it never removed them), and the
     * files its tools and exercises left there (named alike: fio's folder, strace's and a profiler's output, an
     * exercise's data), first stopping what still runs in them: a killed kernel's children and MPI ranks live on,
     * orphaned, in their run folder (their working folder). Returns how many it removed.
     */
    public static int sweepStale(Path scratch) {
        if (!Files.isDirectory(scratch)) return 0;
        List<Path> stale;
        try (Stream<Path> folders = Files.list(scratch)) {
            stale = folders.filter(f -> {
                var m = RUN_FOLDER.matcher(f.getFileName().toString());
                // a run's folder, or a tool's file or an exercise's data (named alike): never a link
                if (!m.matches() || Files.isSymbolicLink(f)) return false;
                long start = Long.parseLong(m.group(2));
                return ProcessHandle.of(Long.parseLong(m.group(1)))
                        .filter(owner -> owner.isAlive() && (start == 0 || startMillis(owner) == start)).isEmpty();
            }).toList();
        } catch (IOException e) {
            return 0;  // an unreadable scratch folder: the runs themselves will say so
        }
        if (!stale.isEmpty()) {
            List<Path> real = stale.stream().map(Scratch::realPath).toList();  // /proc shows links resolved
            List<ProcessHandle> orphans = ProcessHandle.allProcesses()
                    .filter(p -> workingFolder(p).map(cwd -> real.stream().anyMatch(cwd::startsWith)).orElse(false)).toList();
            orphans.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle orphan : orphans) {
                orphan.onExit().completeOnTimeout(orphan, 3, TimeUnit.SECONDS).join();
                forgetOpenMpiSession(orphan.pid());  // a killed mpirun's: it could not remove it
            }
        }
        stale.forEach(Scratch::removeTree);
        return stale.size();
    }

    private static Path realPath(Path folder) {
        try {
            return folder.toRealPath();
        } catch (IOException e) {
            return folder;
        }
    }

    /** A process's working folder, where Linux shows it (/proc/PID/cwd) and this user may see it. */
    static java.util.Optional<Path> workingFolder(ProcessHandle process) {
        try {
            return java.util.Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()), "cwd")));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * Removes the session folder Open MPI keeps for an mpirun (TMPDIR/ompi.HOST.UID/pid.PID), which an mpirun that
     * is stopped leaves behind, and its job's shared-memory files in /dev/shm; nothing where the process was no mpirun.
     */
    public static void forgetOpenMpiSession(long pid) {
        String tmp = System.getenv("TMPDIR");
        forgetOpenMpiSession(Path.of(tmp == null || tmp.isEmpty() ? "/tmp" : tmp), pid, Path.of("/dev/shm"));
    }

    static void forgetOpenMpiSession(Path tmp, long pid, Path shm) {
        try (var sessions = Files.newDirectoryStream(tmp, "ompi.*")) {
            for (Path session : sessions) {
                Path job = session.resolve("pid." + pid);
                if (!Files.isDirectory(job, LinkOption.NOFOLLOW_LINKS)) continue;
                forgetSharedMemory(job.resolve("contact.txt"), shm);
                removeTree(job);
            }
        } catch (IOException | RuntimeException e) {
            // a temporary folder this user cannot list: nothing of ours is there
        }
    }

    /**
     * The shared-memory files of a stopped job's processes, which only a job that ends by itself removes: Open MPI's
     * vader transport names them vader_segment.HOST.UID.JOB.RANK (JOB in hex), the job one of the family whose id the
     * mpirun's contact.txt starts with (its own: the family in the upper 16 bits). This user's alone, never a link.
     */
    static void forgetSharedMemory(Path contact, Path shm) throws IOException {
        if (!Files.isRegularFile(contact, LinkOption.NOFOLLOW_LINKS)) return;
        long family = Long.parseLong(Files.readString(contact).split("[.;]", 2)[0].strip()) >>> 16;
        Object me = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        try (var segments = Files.newDirectoryStream(shm, "vader_segment.*")) {
            for (Path segment : segments) {
                String[] part = segment.getFileName().toString().split("\\.");  // a host name may hold dots: read from the end
                if (part.length < 5 || !part[part.length - 3].equals(String.valueOf(me))) continue;
                boolean ours;
                try {
                    ours = Long.parseLong(part[part.length - 2], 16) >>> 16 == family;
                } catch (NumberFormatException e) {
                    continue;
                }
                if (ours && Files.isRegularFile(segment, LinkOption.NOFOLLOW_LINKS)
                        && me.equals(Files.getAttribute(segment, "unix:uid", LinkOption.NOFOLLOW_LINKS))) {
                    Files.deleteIfExists(segment);
                }
            }
        }
    }

    public static void removeTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // best effort (a walk reports a folder it cannot list, or one removed under it, unchecked, and this runs in
            // finally blocks, where a throw would hide the real error): a later cleanup or `make clean` removes what is left
        }
    }
}
