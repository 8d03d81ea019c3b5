package course.profile;

import course.base.Course;
import course.base.Exec;
import course.base.Html;
import course.base.Scratch;
import course.record.Machine;
import course.record.Results;
import course.record.Run;
import course.run.Build;
import course.run.Runner;
import course.run.Sweep;
import course.show.Notebook;
import course.show.Progress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where the time goes: system-call counts (strace -c) and CPU profiles (async-profiler). */
public final class Profile {
    /** A row of `strace -c`: % time, seconds, usecs/call, calls, [errors], syscall. */
    static final Pattern STRACE_ROW = Pattern.compile("^\\s*[0-9.]+\\s+[0-9.]+\\s+\\d+\\s+(\\d+)\\s+(?:\\d+\\s+)?(\\w+)\\s*$");
    /** The calls among IO_CALLS that move bytes (the table's "bytes of the file per call that moves bytes"). */
    static final List<String> MOVING_CALLS = List.of("read", "write", "pread64", "pwrite64", "copy_file_range", "sendfile");
    static final List<String> IO_CALLS = List.of("read", "write", "lseek", "pread64", "pwrite64", "copy_file_range", "sendfile", "openat", "close", "fsync");

    private Profile() {
    }

    /** Counts the I/O calls of each run, and the calls named in also (mmap, say), which the table always shows. */
    public static void syscalls(Runner runner, Path scratch, Sweep sweep, List<String> also) {
        if (!Machine.onPath("strace")) {
            Notebook.unavailable("System-call counts", "strace is not installed (" + Machine.installHint("strace") + ")");
            return;
        }
        Map<String, Map<String, Long>> byInvocation = new LinkedHashMap<>();
        long bytes = Course.parseSize(sweep.invocations().get(0).flag("--file-size"));
        List<String> traced = java.util.stream.Stream.concat(IO_CALLS.stream(), also.stream()).distinct().toList();
        Progress progress = new Progress("counting system calls with strace", sweep.invocations().size());
        for (Runner.Invocation inv : sweep.invocations()) {
            progress.next(inv.label());
            Path out = tempFile(scratch, "strace-", ".txt");
            try {
                runner.run(inv, scratch, row -> { }, List.of("strace", "-c", "-f", "--seccomp-bpf",
                        "-e", "trace=" + String.join(",", traced), "-o", out.toString()), Map.of());
                byInvocation.put(inv.caseName(), parseStrace(Files.readAllLines(out)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exec.RunFailed e) {
                if (!e.getMessage().contains("ptrace")) throw e;
                Notebook.unavailable("System-call counts", "strace may not trace here (" + e.getMessage().strip() + ")");
                return;
            } finally {
                out.toFile().delete();
            }
        }
        progress.done();
        // read, write and the calls asked for always, the other calls where some run made them
        List<String> shown = traced.stream().filter(c -> c.equals("read") || c.equals("write") || also.contains(c)
                || byInvocation.values().stream().anyMatch(counts -> counts.getOrDefault(c, 0L) > 0)).toList();
        showCounts(byInvocation, shown, "bytes of the file per call that moves bytes", counts -> bytesPerMovingCall(counts, bytes));
    }

    /** The file's size over the calls that move bytes: per call rather than per byte, so that a buffer's 8 KB a call reads as 8,192, not 0.00. */
    static String bytesPerMovingCall(Map<String, Long> counts, long bytes) {
        long calls = MOVING_CALLS.stream().mapToLong(c -> counts.getOrDefault(c, 0L)).sum();
        return calls == 0 ? "no such call" : String.format(Locale.ROOT, "%,.0f", bytes / (double) calls);
    }

    /**
     * Counts as a table: a row per run (the whole process, start-up included), a column per counted name,
     * and a last column computed from the row where lastTitle is not null.
     */
    private static void showCounts(Map<String, Map<String, Long>> byInvocation, List<String> columns, String lastTitle,
                                   java.util.function.Function<Map<String, Long>, String> last) {
        List<String> header = new ArrayList<>(List.of("run (whole process, start-up included)"));
        header.addAll(columns);
        if (lastTitle != null) header.add(lastTitle);
        Html.Table table = new Html.Table(header.toArray(String[]::new)).left(0);
        StringBuilder t = new StringBuilder();
        byInvocation.forEach((name, counts) -> {
            List<Object> row = new ArrayList<>(List.of(name));
            columns.forEach(c -> row.add(String.format(Locale.ROOT, "%,d", counts.getOrDefault(c, 0L))));
            if (lastTitle != null) row.add(last.apply(counts));
            table.row(row);
            t.append(name).append(": ").append(counts).append('\n');
        });
        Notebook.html(table.html(), t.toString());
    }

    /** The events JDK Flight Recorder records for file I/O (JDK 11+), in the order the table shows them. */
    static final List<String> FILE_EVENTS = List.of("jdk.FileRead", "jdk.FileWrite", "jdk.FileForce");
    /** A row of `jfr summary`: event type, count, size in bytes. */
    static final Pattern JFR_ROW = Pattern.compile("^\\s*(jdk\\.\\w+)\\s+(\\d+)\\s+\\d+\\s*$");

    /**
     * Runs each Java invocation with JDK Flight Recorder on and shows how many file reads, writes and forces
     * the JDK itself recorded (every one: no threshold, no throttle), beside strace's count of system calls:
     * the JDK's own view of the same run, with no root and no agent. Never timed: recording costs time.
     */
    public static void fileEvents(Runner runner, Path scratch, Sweep sweep) {
        Map<String, Map<String, Long>> byInvocation = new LinkedHashMap<>();
        List<Runner.Invocation> javaRuns = javaInvocations(sweep);
        Progress progress = new Progress("recording file events with JDK Flight Recorder", javaRuns.size());
        for (Runner.Invocation inv : javaRuns) {
            progress.next(inv.label());
            Path recording = tempFile(scratch, "file-events-", ".jfr");
            try {
                Files.delete(recording);  // the JVM writes it; a name that exists would be taken as a folder's
                String settings = FILE_EVENTS.stream().map(e -> e + "#threshold=0ms," + e + "#throttle=off").collect(java.util.stream.Collectors.joining(","));
                // -Xlog keeps JFR's start-up lines off stdout, where the harness's JSON lines go
                String options = "-Xlog:jfr+startup=warning \"-XX:StartFlightRecording=filename=" + fromRunFolder(scratch, recording) + "," + settings + "\"";
                runner.run(inv, scratch, row -> { }, List.of(), Map.of("JDK_JAVA_OPTIONS", options));
                Path jfr = (inv.javaHome() != null ? Path.of(inv.javaHome()) : Build.javaHome()).resolve("bin/jfr");
                byInvocation.put(inv.caseName(), parseJfrSummary(Exec.run(List.of(jfr.toString(), "summary", recording.toString()), "jfr summary").lines().toList()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exec.RunFailed e) {
                Notebook.unavailable("JDK Flight Recorder's file events", "the recording could not be made (" + e.getMessage().strip() + ")");
                return;
            } finally {
                recording.toFile().delete();
            }
        }
        progress.done();
        showCounts(byInvocation, FILE_EVENTS, null, null);
    }

    /** Event counts from `jfr summary`, by event type. */
    static Map<String, Long> parseJfrSummary(List<String> lines) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : lines) {
            Matcher m = JFR_ROW.matcher(line);
            if (m.matches()) counts.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return counts;
    }

    static Map<String, Long> parseStrace(List<String> lines) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : lines) {
            Matcher m = STRACE_ROW.matcher(line);
            if (m.matches() && !m.group(2).equals("total")) counts.put(m.group(2), Long.parseLong(m.group(1)));
        }
        return counts;
    }

    /**
     * Runs each Java invocation under async-profiler twice: once for a collapsed profile the kit reads
     * (share of samples in the kernel, hottest frames), once for the flame graph saved for the browser.
     */
    public static List<CpuProfile> flameGraph(Runner runner, Path scratch, String labId, Sweep sweep) {
        List<CpuProfile> profiles = new ArrayList<>();
        Path agent = Course.build().resolve("tools/async-profiler/linux-" + (System.getProperty("os.arch").contains("aarch64") ? "arm64" : "x64")
                + "/libasyncProfiler.so");
        if (!Files.exists(agent)) {
            Notebook.unavailable("CPU profile", "async-profiler is not set up (" + agent + " missing; run setup/setup.sh)");
            return profiles;
        }
        Path folder = Course.flameGraphs();
        Scratch.createDirectories(folder);
        List<Runner.Invocation> javaRuns = javaInvocations(sweep);
        Progress progress = new Progress("profiling with async-profiler (each case twice: a profile, a flame graph)", javaRuns.size());
        for (Runner.Invocation inv : javaRuns) {
            progress.next(inv.label());
            String name = labId + "-" + inv.snippet() + "-" + inv.caseName().replace(' ', '-');
            Path collapsed = tempFile(scratch, "profile-", ".txt");
            Path html = folder.resolve(name + ".html");
            try {
                String event = profile(runner, scratch, inv, agent, collapsed, "collapsed");
                profile(runner, scratch, inv, agent, html, "flamegraph");
                CpuProfile p = CpuProfile.fromCollapsed(inv.caseName(), Files.readAllLines(collapsed));
                if (p.samples() == 0) {
                    Notebook.unavailable("CPU profile of " + inv.caseName(), "the profiler took no samples inside the timed strategy (the run was too short)");
                    continue;
                }
                showHotFrames(p, event, html);
                profiles.add(p);
            } catch (Exec.RunFailed e) {
                Notebook.unavailable("CPU profile", "async-profiler could not run here (" + e.getMessage().strip() + ")");
                return profiles;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                collapsed.toFile().delete();
            }
        }
        progress.done();
        return profiles;
    }

    /** Tries hardware-independent cpu sampling first, then the interval timer; returns the event used. */
    private static String profile(Runner runner, Path scratch, Runner.Invocation inv, Path agent, Path out, String format) {
        String file = fromRunFolder(scratch, out);
        Exec.RunFailed last = null;
        for (String event : List.of("cpu", "itimer")) {
            // in double quotes: the launcher reads quotes in JDK_JAVA_OPTIONS (setup refuses a course folder holding ")
            String options = "\"-agentpath:" + agent + "=start,event=" + event + ",interval=1ms," + format + ",file=" + file + "\"";
            try {
                runner.run(inv, scratch, row -> { }, List.of(), Map.of("JDK_JAVA_OPTIONS", options));
                if (Files.exists(out)) return event;
            } catch (Exec.RunFailed e) {
                last = e;
            }
        }
        throw last != null ? last : new Exec.RunFailed("no profile written to " + out);
    }

    /**
     * out as the profiled JVM finds it from its working folder: async-profiler splits its options at commas,
     * so a comma in the course's path must not reach them.
     */
    static String fromRunFolder(Path scratch, Path out) {
        String relative = Scratch.fromRunFolder(scratch, out);
        if (relative.contains(",")) throw new Exec.RunFailed("its options cannot carry a path with a comma: " + relative);
        return relative;
    }

    /** Shows the profile's kernel share, memory-copy share and hottest frames, with a link to its flame graph. */
    static void showHotFrames(CpuProfile p, String event, Path html) {
        List<Map.Entry<String, Long>> top = new ArrayList<>(p.leaves().entrySet());
        top.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        String intro = String.format(Locale.ROOT,
                "<p><b>%s</b> (%s sampling, %,d samples in the timed strategy of %,d in the whole process): "
                        + "<b>%.0f%%</b> of them were in the kernel, <b>%.0f%%</b> in frames that copy memory. "
                        + "Flame graph: <a href='flamegraphs/%s' target='_blank'>flamegraphs/%s</a> "
                        + "(open it from the file browser; JupyterLab asks you to trust it before it runs its script).</p>",
                Html.escape(p.name()), event, p.samples(), p.allSamples(), p.kernelPct(), p.copyPct(),
                Html.escape(html.getFileName()), Html.escape(html.getFileName()));
        Html.Table table = new Html.Table("hottest frames (self time)", "share").left(0);
        top.stream().limit(8).forEach(e -> table.row(Html.raw("<code>" + Html.escape(e.getKey()) + "</code>"),
                String.format(Locale.ROOT, "%.1f%%", 100.0 * e.getValue() / p.samples())));
        Notebook.html(intro + table.html(), String.format(Locale.ROOT,
                "%s: %.0f%% of %d samples in the kernel, %.0f%% copying memory", p.name(), p.kernelPct(), p.samples(), p.copyPct()));
    }

    /** fio's jobs: what the row says, fio's rw, its invalidate and direct settings, and the course's C runs of the same (op, cache, strategy). */
    record FioJob(String label, String rw, int invalidate, int direct, String op, String cache, String strategy) {}

    static final List<FioJob> FIO_JOBS = List.of(
            new FioJob("sequential write, 1 MB blocks, into the page cache", "write", 0, 0, "write", "warm", "raw"),
            new FioJob("sequential read, 1 MB blocks, warm page cache", "read", 0, 0, "read", "warm", "raw"),
            new FioJob("sequential read, 1 MB blocks, cache dropped first", "read", 1, 0, "read", "cold", "raw"),
            new FioJob("sequential read, 1 MB blocks, page cache bypassed (O_DIRECT)", "read", 0, 1, "read", "warm", "o-direct"));

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
    public static void fio(Runner runner, Path scratch, long size, Results course) {
        if (!Machine.onPath("fio")) {
            Notebook.unavailable("fio cross-check", "fio is not installed (" + Machine.installHint("fio") + ")");
            return;
        }
        Scratch.createDirectories(scratch);
        long free = scratch.toFile().getUsableSpace();
        if (free < size + FIO_MARGIN) {
            Notebook.unavailable("fio cross-check", "its " + Course.formatBytes(size) + " file needs room: " + Course.formatBytes(free)
                    + " free in " + scratch);
            return;
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory(scratch, Scratch.RUN_PREFIX + "fio-");
            Html.Table table = new Html.Table("job", "fio MB/s (slowest–fastest run)", "course (C) MB/s (slowest–fastest run)", "course ÷ fio (medians)").left(0);
            StringBuilder t = new StringBuilder();
            Path file = dir.resolve("fio.dat");
            Progress progress = new Progress("fio, " + FIO_RUNS + " runs of each job on a " + Course.formatBytes(size) + " file", FIO_JOBS.size() * FIO_RUNS);
            for (FioJob job : FIO_JOBS) {
                List<Double> runs = new java.util.ArrayList<>();
                String refused = null;
                for (int run = 0; run < FIO_RUNS && refused == null; run++) {  // as the course's runs: a new file for each write, a flushed one for each cold read
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
                            Notebook.unavailable("fio cross-check", "fio failed on " + job.label() + ": " + fioError(e.getMessage()));
                            return;
                        }
                        refused = "refused by this file system (" + Machine.filesystem(scratch) + ")";
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
    static final int FIO_RUNS = 3;
    /** Room kept free beside fio's file (its own files, the system's). */
    static final long FIO_MARGIN = 64L << 20;

    /** The line of fio's output that says what went wrong (fio: …, err=…), else its first line. */
    static String fioError(String output) {
        List<String> lines = output.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.endsWith("failed:")).toList();
        return lines.stream().filter(l -> l.startsWith("fio:") || l.contains("err=")).findFirst()
                .orElse(lines.isEmpty() ? "no output" : lines.get(0));
    }

    /** Slower than this many times the warm read, a cold read is taken to have reached a slower device. */
    static final double COLD_REACHES_DEVICE = 1.5;

    /**
     * One sentence on what "cold" means on this machine: how much of each file the harness found still
     * cached when a cold run's clock started (it measures it, mincore), and whether cold reads were
     * slower than warm ones, i.e. whether they reach a slower device at all.
     */
    public static String coldReading(Results warm, Results cold) {
        double warmMbPerS = warm.where("op", "read").median("mb_per_s", r -> true), coldMbPerS = cold.where("op", "read").median("mb_per_s", r -> true);
        // cold writes record no residency (nothing was read): only the reads say how cold the file was
        double resident = cold.typed().stream().map(Run::residentPct).filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).max().orElse(0);
        double slower = warmMbPerS / coldMbPerS;
        if (resident > Results.EVICTION_FAILED_PCT) {
            return String.format(Locale.ROOT, "Cold runs still found up to %.0f%% of the file in the page cache: eviction does not work on this "
                    + "file system (tmpfs, say), so \"cold\" figures here are warm ones.", resident);
        }
        if (slower < COLD_REACHES_DEVICE) {
            return String.format(Locale.ROOT, "Cold runs found at most %.1f%% of the file cached, yet read at %.1f× the warm speed: this "
                    + "machine's disk answers almost from memory (a virtual disk the host caches, say), so cold and warm figures here "
                    + "hardly differ.", resident, 1 / slower);
        }
        return String.format(Locale.ROOT, "Cold runs found at most %.1f%% of the file cached and read %.1f× slower than warm ones: on this "
                + "machine cold reads reach the device.", resident, slower);
    }

    /**
     * How cold each case's cold runs were: the most of its file a run still found cached (the harness measured it,
     * mincore). Where some cases stayed cached and others did not, eviction worked and something held those
     * cases' pages: the course's eviction (posix_fadvise) leaves pages a process still maps (a MappedByteBuffer the
     * garbage collector has not yet unmapped, say), so their "cold" figures are warm ones.
     */
    public static String coldness(Results cold) {
        Map<String, Double> byCase = residentByCase(cold);
        List<String> cached = held(byCase);
        String each = byCase.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
        String line = "Still in the page cache when a cold run's clock started (the most of any run): " + each + ".";
        if (cached.isEmpty()) return line + " Every cold run began cold.";
        if (cached.size() == byCase.size()) return line + " Eviction did not work here (tmpfs, say): every \"cold\" figure is a warm one.";
        return line + " Eviction worked for the others, so the pages of " + String.join(", ", cached) + " were held: the course's eviction"
                + " (posix_fadvise) leaves pages a process still maps, so those \"cold\" figures are warm ones.";
    }

    /**
     * How many times longer cold reads took than the same reads warm: each cold case (language and way) over the same
     * case warm, then the geometric mean over the cases whose file eviction reached; the cases whose pages were held
     * (coldness) are named and left out.
     */
    public static String coldCost(Results cold, Results warm) {
        List<String> held = held(residentByCase(cold));
        Results evicted = cold.where(r -> !held.contains(caseOf(r)));
        String without = held.isEmpty() ? "" : "; without " + String.join(", ", held) + ", whose pages stayed cached";
        double logSum = 0;
        int cases = 0;
        for (String c : residentByCase(evicted).keySet()) {  // like with like: a way's cold runs over its own warm ones
            Results mine = evicted.where(r -> caseOf(r).equals(c));
            Results same = warm.where(r -> caseOf(r).equals(c));
            if (same.runs().isEmpty()) continue;
            logSum += Math.log(mine.ratioTo(same, "median_ms", "cache"));
            cases++;
        }
        if (cases == 0) return "No cold run here found its file evicted and read warm too, so cold and warm reads cannot be told apart on this machine.";
        return String.format(Locale.ROOT, "Cold reads took %.1f× the time of the same reads from the page cache (geometric mean over %d way%s%s).",
                Math.exp(logSum / cases), cases, cases == 1 ? "" : "s", without);
    }

    /** Each cold case (language and way) and the most of its file any of its runs still found cached, in percent. */
    private static Map<String, Double> residentByCase(Results cold) {
        Map<String, Double> byCase = new LinkedHashMap<>();
        for (Map<String, Object> row : cold.summary()) {
            byCase.merge(caseOf(row.get("language"), row.get("method")), row.get("resident_pct") == null ? 0 : (Double) row.get("resident_pct"), Math::max);
        }
        return byCase;
    }

    /** The cases whose pages eviction did not reach: more than Results.EVICTION_FAILED_PCT of the file still cached. */
    private static List<String> held(Map<String, Double> residentByCase) {
        return residentByCase.keySet().stream().filter(c -> residentByCase.get(c) > Results.EVICTION_FAILED_PCT).toList();
    }

    private static String caseOf(Object language, Object method) {
        return language + " " + method;
    }

    /** A run's case: its language and way. */
    private static String caseOf(com.google.gson.JsonObject run) {
        return caseOf(run.get("language").getAsString(), Results.method(run));
    }

    /** A sweep's Java invocations (JFR and async-profiler see only the JVM). */
    private static List<Runner.Invocation> javaInvocations(Sweep sweep) {
        return sweep.invocations().stream().filter(inv -> inv.language().equals("java")).toList();
    }

    /** A file for a tool's output, in the lab's scratch folder: the one place a lab may write, graded in a sandbox too. */
    private static Path tempFile(Path scratch, String prefix, String suffix) {
        try {
            Scratch.createDirectories(scratch);
            return Files.createTempFile(scratch, Scratch.RUN_PREFIX + prefix, suffix);  // swept if the kernel dies (Scratch.sweepStale)
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
