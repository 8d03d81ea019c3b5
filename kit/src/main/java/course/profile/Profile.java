package course.profile;

import course.base.Course;
import course.base.Exec;
import course.base.Html;
import course.base.Scratch;
import course.record.Machine;
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
        Map<Runner.Invocation, String> names = Runner.Invocation.names(sweep.invocations());
        Progress progress = new Progress("counting system calls with strace", sweep.invocations().size());
        for (Runner.Invocation inv : sweep.invocations()) {
            progress.next(inv.label());
            Path out = tempFile(scratch, "strace-", ".txt");
            try {
                runner.run(inv, scratch, row -> { }, List.of("strace", "-c", "-f", "--seccomp-bpf",
                        "-e", "trace=" + String.join(",", traced), "-o", out.toString()), Map.of());
                byInvocation.put(names.get(inv), parseStrace(Files.readAllLines(out)));
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
        Html.Table table = new Html.Table(header.toArray(String[]::new)).left(0).caption("System calls counted by strace, a row per run").scrolls("system calls");
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
        Map<Runner.Invocation, String> names = Runner.Invocation.names(javaRuns);
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
                byInvocation.put(names.get(inv), parseJfrSummary(Exec.run(List.of(jfr.toString(), "summary", recording.toString()), "jfr summary").lines().toList()));
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
        Map<Runner.Invocation, String> names = Runner.Invocation.names(javaRuns);
        Progress progress = new Progress("profiling with async-profiler (each case twice: a profile, a flame graph)", javaRuns.size());
        for (Runner.Invocation inv : javaRuns) {
            progress.next(inv.label());
            String name = labId + "-" + inv.snippet() + "-" + names.get(inv).replace(' ', '-');
            Path collapsed = tempFile(scratch, "profile-", ".txt");
            Path html = folder.resolve(name + ".html");
            try {
                String event = profile(runner, scratch, inv, agent, collapsed, "collapsed");
                profile(runner, scratch, inv, agent, html, "flamegraph");
                CpuProfile p = CpuProfile.fromCollapsed(names.get(inv), Files.readAllLines(collapsed));
                if (p.samples() == 0) {
                    Notebook.unavailable("CPU profile of " + names.get(inv), "the profiler took no samples inside the timed strategy (the run was too short)");
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
                        + "Flame graph: <a href='flamegraphs/%s' target='_blank' style='text-decoration:underline'>flamegraphs/%s</a> "
                        + "(open it from the file browser; JupyterLab asks you to trust it before it runs its script).</p>",
                Html.escape(p.name()), event, p.samples(), p.allSamples(), p.kernelPct(), p.copyPct(),
                Html.escape(html.getFileName()), Html.escape(html.getFileName()));
        Html.Table table = new Html.Table("hottest frames (self time)", "share").left(0).caption("Where the CPU time went: the frames that spent it themselves");
        top.stream().limit(8).forEach(e -> table.row(Html.raw("<code>" + Html.escape(e.getKey()) + "</code>"),
                String.format(Locale.ROOT, "%.1f%%", 100.0 * e.getValue() / p.samples())));
        Notebook.html(intro + table.html(), String.format(Locale.ROOT,
                "%s: %.0f%% of %d samples in the kernel, %.0f%% copying memory", p.name(), p.kernelPct(), p.samples(), p.copyPct()));
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
