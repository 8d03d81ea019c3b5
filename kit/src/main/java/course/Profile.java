package course;

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
final class Profile {
    /** A row of `strace -c`: % time, seconds, usecs/call, calls, [errors], syscall. */
    static final Pattern STRACE_ROW = Pattern.compile("^\\s*[0-9.]+\\s+[0-9.]+\\s+\\d+\\s+(\\d+)\\s+(?:\\d+\\s+)?(\\w+)\\s*$");
    static final List<String> IO_CALLS = List.of("read", "write", "lseek", "pread64", "pwrite64", "openat", "close", "fsync");

    private Profile() {
    }

    static void syscalls(Lab lab, Sweep sweep) {
        if (!Machine.onPath("strace")) {
            unavailable("System-call counts", "strace is not installed (" + Machine.installHint("strace") + ")");
            return;
        }
        Map<String, Map<String, Long>> byInvocation = new LinkedHashMap<>();
        long bytes = Course.parseSize(sweep.invocations().get(0).flag("--file-size"));
        for (Runner.Invocation inv : sweep.invocations()) {
            Path out = tempFile("strace-", ".txt");
            try {
                lab.runner().run(inv, lab.scratch(), row -> { }, List.of("strace", "-c", "-f", "--seccomp-bpf",
                        "-e", "trace=" + String.join(",", IO_CALLS), "-o", out.toString()), Map.of());
                byInvocation.put(inv.caseName(), parseStrace(Files.readAllLines(out)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Runner.RunFailed e) {
                if (!e.getMessage().contains("ptrace")) throw e;
                unavailable("System-call counts", "strace may not trace here (" + e.getMessage().strip() + ")");
                return;
            } finally {
                out.toFile().delete();
            }
        }
        StringBuilder h = new StringBuilder("<table><thead><tr><th>run (whole process, start-up included)</th>");
        IO_CALLS.forEach(c -> h.append("<th>").append(c).append("</th>"));
        h.append("<th>I/O calls per byte moved</th></tr></thead><tbody>");
        StringBuilder t = new StringBuilder();
        byInvocation.forEach((name, counts) -> {
            h.append("<tr><td style='text-align:left'>").append(Notebook.escape(name)).append("</td>");
            IO_CALLS.forEach(c -> h.append("<td>").append(String.format(Locale.ROOT, "%,d", counts.getOrDefault(c, 0L))).append("</td>"));
            long moving = counts.getOrDefault("read", 0L) + counts.getOrDefault("write", 0L);
            h.append("<td>").append(String.format(Locale.ROOT, "%.2f", moving / (double) bytes)).append("</td></tr>");
            t.append(name).append(": ").append(counts).append('\n');
        });
        Notebook.html(h.append("</tbody></table>").toString(), t.toString());
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
    static List<CpuProfile> flameGraph(Lab lab, Sweep sweep) {
        List<CpuProfile> profiles = new ArrayList<>();
        Path agent = Course.build().resolve("tools/async-profiler/linux-" + (System.getProperty("os.arch").contains("aarch64") ? "arm64" : "x64")
                + "/libasyncProfiler.so");
        if (!Files.exists(agent)) {
            unavailable("CPU profile", "async-profiler is not set up (" + agent + " missing; run setup/setup.sh)");
            return profiles;
        }
        Path folder = Course.home().resolve("labs/flamegraphs");
        Runner.createDirectories(folder);
        for (Runner.Invocation inv : sweep.invocations()) {
            if (!inv.language().equals("java")) continue;
            String name = lab.id() + "-" + inv.snippet() + "-" + inv.caseName().replace(' ', '-');
            Path collapsed = tempFile("profile-", ".txt");
            Path html = folder.resolve(name + ".html");
            try {
                String event = profile(lab, inv, agent, collapsed, "collapsed");
                profile(lab, inv, agent, html, "flamegraph");
                CpuProfile p = CpuProfile.fromCollapsed(inv.caseName(), Files.readAllLines(collapsed));
                if (p.samples() == 0) {
                    unavailable("CPU profile of " + inv.caseName(), "the profiler took no samples inside the timed strategy (the run was too short)");
                    continue;
                }
                showHotFrames(p, event, html);
                profiles.add(p);
            } catch (Runner.RunFailed e) {
                unavailable("CPU profile", "async-profiler could not run here (" + e.getMessage().strip() + ")");
                return profiles;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                collapsed.toFile().delete();
            }
        }
        return profiles;
    }

    /** Tries hardware-independent cpu sampling first, then the interval timer; returns the event used. */
    private static String profile(Lab lab, Runner.Invocation inv, Path agent, Path out, String format) {
        Runner.RunFailed last = null;
        for (String event : List.of("cpu", "itimer")) {
            String options = "-agentpath:" + agent + "=start,event=" + event + ",interval=1ms," + format + ",file=" + out;
            try {
                lab.runner().run(inv, lab.scratch(), row -> { }, List.of(), Map.of("JDK_JAVA_OPTIONS", options));
                if (Files.exists(out)) return event;
            } catch (Runner.RunFailed e) {
                last = e;
            }
        }
        throw last != null ? last : new Runner.RunFailed("no profile written to " + out);
    }

    /** Shows the profile's kernel share, memory-copy share and hottest frames, with a link to its flame graph. */
    static void showHotFrames(CpuProfile p, String event, Path html) {
        List<Map.Entry<String, Long>> top = new ArrayList<>(p.leaves().entrySet());
        top.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT,
                "<p><b>%s</b> (%s sampling, %,d samples in the timed strategy of %,d in the whole process): "
                        + "<b>%.0f%%</b> of them were in the kernel, <b>%.0f%%</b> in frames that copy memory. "
                        + "Flame graph: <a href='flamegraphs/%s' target='_blank'>flamegraphs/%s</a> "
                        + "(open it from the file browser; JupyterLab asks you to trust it before it runs its script).</p>"
                        + "<table><thead><tr><th>hottest frames (self time)</th><th>share</th></tr></thead><tbody>",
                Notebook.escape(p.name()), event, p.samples(), p.allSamples(), p.kernelPct(), p.copyPct(), html.getFileName(), html.getFileName()));
        top.stream().limit(8).forEach(e -> h.append("<tr><td style='text-align:left'><code>").append(Notebook.escape(e.getKey()))
                .append("</code></td><td>").append(String.format(Locale.ROOT, "%.1f%%", 100.0 * e.getValue() / p.samples())).append("</td></tr>"));
        Notebook.html(h.append("</tbody></table>").toString(), String.format(Locale.ROOT,
                "%s: %.0f%% of %d samples in the kernel, %.0f%% copying memory", p.name(), p.kernelPct(), p.samples(), p.copyPct()));
    }

    /**
     * fio's view of the same ceiling: sequential 1 MB writes, then reads after fio drops the file from
     * the page cache (invalidate), as a cross-check of the C figures. Skipped with a reason without fio.
     */
    static void fio(Lab lab, long size) {
        if (!Machine.onPath("fio")) {
            unavailable("fio cross-check", "fio is not installed (" + Machine.installHint("fio") + ")");
            return;
        }
        Path dir = null;
        try {
            Runner.createDirectories(lab.scratch());
            dir = Files.createTempDirectory(lab.scratch(), "fio-");
            StringBuilder h = new StringBuilder("<table><thead><tr><th>fio job</th><th>MB per second</th></tr></thead><tbody>");
            StringBuilder t = new StringBuilder();
            for (String rw : List.of("write", "read")) {
                String json = Runner.exec(List.of("fio", "--name=ceiling", "--filename=" + dir.resolve("fio.dat"),
                        "--size=" + size, "--bs=1m", "--rw=" + rw, "--ioengine=psync", "--invalidate=1",
                        "--output-format=json"), "fio " + rw);
                var job = com.google.gson.JsonParser.parseString(json.substring(json.indexOf('{')))
                        .getAsJsonObject().getAsJsonArray("jobs").get(0).getAsJsonObject();
                double mbPerS = job.getAsJsonObject(rw).get("bw_bytes").getAsDouble() / (1 << 20);
                String name = "sequential " + rw + ", 1 MB blocks" + (rw.equals("read") ? ", cache dropped first" : "");
                h.append("<tr><td style='text-align:left'>").append(name).append("</td><td>")
                        .append(String.format(Locale.ROOT, "%,.0f", mbPerS)).append("</td></tr>");
                t.append(String.format(Locale.ROOT, "fio %s: %.0f MB/s%n", name, mbPerS));
            }
            Notebook.html(h.append("</tbody></table>").toString(), t.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) Runner.removeTree(dir);
        }
    }

    static void unavailable(String what, String why) {
        Notebook.html("<p><b>" + Notebook.escape(what) + "</b>: not available here because " + Notebook.escape(why) + ".</p>",
                what + ": not available here because " + why + ".");
    }

    private static Path tempFile(String prefix, String suffix) {
        try {
            Runner.createDirectories(Course.build());
            return Files.createTempFile(Course.build(), prefix, suffix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
