package course.profile;

import course.base.Course;
import course.base.Exec;
import course.base.Html;
import course.base.Scratch;
import course.record.Machine;
import course.record.Mount;
import course.record.Results;
import course.run.Runner;
import course.show.Notebook;
import course.show.Progress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** fio, the disk benchmark people trust, beside the course's C figures for the same jobs: how close the course's clock comes. */
public final class Fio {
    private Fio() {
    }

    /** fio's jobs: what the row says, fio's rw, its invalidate and direct settings, and the course's C runs of the same (op, cache, strategy). */
    record Job(String label, String rw, int invalidate, int direct, String op, String cache, String strategy) {}

    static final List<Job> JOBS = List.of(
            new Job("sequential write, 1 MB blocks, into the page cache", "write", 0, 0, "write", "warm", "raw"),
            new Job("sequential read, 1 MB blocks, warm page cache", "read", 0, 0, "read", "warm", "raw"),
            new Job("sequential read, 1 MB blocks, cache dropped first", "read", 1, 0, "read", "cold", "raw"),
            new Job("sequential read, 1 MB blocks, page cache bypassed (O_DIRECT)", "read", 0, 1, "read", "warm", "o-direct"));

    /**
     * fio, the disk benchmark people trust, on the jobs of the course's ceiling (course: C's runs of
     * them), side by side with the course's figures and their ratio. fio's read job drops the file from
     * the page cache itself (invalidate=1) for the cold figure and keeps it (0) for the warm one; both
     * use plain read/write calls (psync), as the C snippet does, into a page-aligned buffer (mem=mmap),
     * as the C harness gives its snippets: with fio's default (mem=malloc, 16 bytes past a page) warm
     * reads ran 4× slower on a test VM, a difference of buffers, not of the disk. fio's write does not
     * preallocate (fallocate=none) nor alter its buffer before each call (scramble_buffers=0: that is
     * data-making work the course keeps off its clock), as the C snippet's does neither; before the cold
     * read the file is flushed (the course's eviction helper: fsync, then drop), since fio's own drop
     * leaves pages still waiting to be written. A last job reads with O_DIRECT, past the page cache
     * altogether: the device's own speed, beside raw_io's o-direct strategy, where the file system allows it
     * (tmpfs did not before Linux 6.6; the row says so).
     * Skipped with a reason without fio.
     */
    public static void crossCheck(Runner runner, Path scratch, long size, Results course) {
        if (!Machine.onPath("fio")) {
            Notebook.unavailable("fio cross-check", "fio is not installed (" + Machine.installHint("fio") + ")");
            return;
        }
        Scratch.createDirectories(scratch);
        long free = scratch.toFile().getUsableSpace();
        if (free < size + MARGIN) {
            Notebook.unavailable("fio cross-check", "its " + Course.formatBytes(size) + " file needs room: " + Course.formatBytes(free)
                    + " free in " + scratch);
            return;
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory(scratch, Scratch.RUN_PREFIX + "fio-");
            Html.Table table = new Html.Table("job", "fio MB/s (slowest–fastest run)", "course (C) MB/s (slowest–fastest run)", "course ÷ fio (medians)").left(0)
                    .caption("fio beside the course's C harness, the same jobs on the same file");
            StringBuilder t = new StringBuilder();
            Path file = dir.resolve("fio.dat");
            Progress progress = new Progress("fio, " + RUNS + " runs of each job on a " + Course.formatBytes(size) + " file", JOBS.size() * RUNS);
            for (Job job : JOBS) {
                List<Double> runs = new java.util.ArrayList<>();
                String refused = null;
                for (int run = 0; run < RUNS && refused == null; run++) {  // as the course's runs: a new file for each write, a flushed one for each cold read
                    progress.next(job.label() + ", run " + (run + 1));
                    if (job.rw().equals("write")) Files.deleteIfExists(file);
                    if ("cold".equals(job.cache())) Exec.run(List.of(runner.build().evictHelper().toString(), file.toString()), "evict");
                    // fio reads a colon in --filename as a list of files (a GVFS mount's folder holds them): escaped, it is one
                    List<String> cmd = List.of("fio", "--name=ceiling", "--filename=" + file.toString().replace(":", "\\:"), "--size=" + size, "--bs=1m", "--rw=" + job.rw(),
                            "--ioengine=psync", "--mem=mmap", "--fallocate=none", "--scramble_buffers=0",
                            "--invalidate=" + job.invalidate(), "--direct=" + job.direct(), "--output-format=json");
                    try {
                        String json = Exec.run(cmd, "fio " + job.label());
                        var result = com.google.gson.JsonParser.parseString(json.substring(json.indexOf('{')))
                                .getAsJsonObject().getAsJsonArray("jobs").get(0).getAsJsonObject();
                        runs.add(result.getAsJsonObject(job.rw()).get("bw_bytes").getAsDouble() / (1 << 20));
                    } catch (Exec.RunFailed e) {
                        if (job.direct() == 0) {  // fio's whole output (its JSON too) would bury the reason: its first error line
                            progress.done();
                            Notebook.unavailable("fio cross-check", "fio failed on " + job.label() + ": " + error(e.getMessage()));
                            return;
                        }
                        refused = "refused by this file system (" + Mount.filesystem(scratch) + ")";
                    }
                }
                double fioMbPerS = refused != null ? Double.NaN : Results.median(runs);
                String fioShown = refused != null ? refused : String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", fioMbPerS,
                        java.util.Collections.min(runs), java.util.Collections.max(runs));
                Results ours = course.where(r -> r.get("op").getAsString().equals(job.op()) && r.get("cache").getAsString().equals(job.cache())
                        && r.get("language").getAsString().equals("c") && r.get("strategy").getAsString().equals(job.strategy()));
                Map<String, Object> courseRow = ours.runs().isEmpty() ? null : ours.summary().get(0);
                Double courseMbPerS = courseRow == null ? null : (Double) courseRow.get("mb_per_s");
                String ratio = courseMbPerS == null || refused != null ? "n/a" : String.format(Locale.ROOT, "%.2f", courseMbPerS / fioMbPerS);
                // the slowest run's MB/s from its longest time, the fastest's from its shortest
                String courseShown = courseRow == null ? "n/a" : String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", courseMbPerS,
                        courseMbPerS * (Double) courseRow.get("median_ms") / (Double) courseRow.get("max_ms"),
                        courseMbPerS * (Double) courseRow.get("median_ms") / (Double) courseRow.get("min_ms"));
                table.row(job.label(), fioShown, courseShown, ratio);
                t.append(String.format(Locale.ROOT, "%s: fio %s, course %s, course/fio %s%n", job.label(),
                        refused != null ? fioShown : fioShown + " MB/s", courseRow == null ? "n/a" : courseShown + " MB/s", ratio));
            }
            progress.done();
            Notebook.html(table.html(), t.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) Scratch.removeTree(dir);
        }
    }

    /** fio's runs of each job: the median is shown, as the course shows its own runs' median. */
    static final int RUNS = 3;
    /** Room kept free beside fio's file (its own files, the system's). */
    static final long MARGIN = 64L << 20;

    /** The line of fio's output that says what went wrong (fio: …, err=…), else its first line. */
    static String error(String output) {
        List<String> lines = output.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.endsWith("failed:")).toList();
        return lines.stream().filter(l -> l.startsWith("fio:") || l.contains("err=")).findFirst()
                .orElse(lines.isEmpty() ? "no output" : lines.get(0));
    }
}
