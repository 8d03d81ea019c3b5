package course.record;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One case's summary row (Results.summary): its case fields, the median time of its runs with their spread, and the
 * rates, CPU shares and counts worked out from them.
 */
final class CaseRow {
    private CaseRow() {
    }

    /** The row of one case's runs (all of one case, in the order they ran), named by its case fields and its way of doing the work. */
    static Map<String, Object> of(List<JsonObject> group, List<String> caseFields, String method) {
        Run first = new Run(group.get(0));
        Map<String, Object> row = new LinkedHashMap<>();
        for (String field : caseFields) {
            JsonElement e = first.json().get(field);  // runtime is missing from results saved before it was recorded
            row.put(field, e == null || e.isJsonNull() ? "" : e.getAsJsonPrimitive().isNumber() ? (Object) e.getAsLong() : e.getAsString());
        }
        // reads waiting at once: one per worker thread, times the reads each keeps in flight (small_reads' io-uring)
        row.put("in_flight", (long) Math.max(1, first.threads()) * Math.max(1, first.depth()));
        List<Double> ns = values(group, "elapsed_ns");
        double median = median(ns);
        row.put("runs", group.size());
        row.put("median_ms", median / 1e6);
        row.put("min_ms", Collections.min(ns) / 1e6);
        row.put("max_ms", Collections.max(ns) / 1e6);
        double mb = first.bytes() / (double) (1 << 20);
        row.put("mb_per_s", mb / (median / 1e9));
        row.put("ms_per_mb", median / 1e6 / mb);
        row.put("ops_per_s", first.ops() / (median / 1e9));
        List<Double> userNs = values(group, "user_ns"), sysNs = values(group, "sys_ns");
        // The kernel splits CPU time between user and system by sampling at each timer tick, so a run of a few ticks
        // often has none in the system: the share pools the case's runs (a median of runs would often read 0%).
        double userAll = userNs.stream().mapToDouble(Double::doubleValue).sum(), sysAll = sysNs.stream().mapToDouble(Double::doubleValue).sum();
        // The same for CPU time per operation: the runs' CPU time over all their operations. None registered: null, not 0 ns.
        boolean registered = userAll + sysAll > 0;
        double opsAll = values(group, "ops").stream().mapToDouble(Double::doubleValue).sum();
        row.put("sys_share_pct", registered ? 100 * sysAll / (userAll + sysAll) : null);
        row.put("cpu_ms", (userAll + sysAll) / 1e6);
        row.put("cpu_ns_per_op", registered ? (userAll + sysAll) / opsAll : null);
        row.put("sys_ns_per_op", registered ? sysAll / opsAll : null);
        Long misses = first.misses();  // counted only by strategies that keep their own buffer
        row.put("hit_ratio_pct", misses == null ? null : 100 * (1 - misses / (double) first.ops()));
        row.put("method", method);
        row.put("spread_pct", 100 * (Collections.max(ns) - Collections.min(ns)) / median);
        // a cold case: the most of its file any run still found in the page cache (the harness measured it, mincore)
        List<Double> resident = group.stream().map(r -> new Run(r).residentPct()).filter(java.util.Objects::nonNull).toList();
        row.put("resident_pct", resident.isEmpty() ? null : Collections.max(resident));
        // threads: the most platform threads each run had at once (the harness counted them), their median
        List<Double> platform = group.stream().map(r -> new Run(r).platformThreads()).filter(java.util.Objects::nonNull).map(Long::doubleValue).toList();
        if (platform.isEmpty()) row.put("platform_threads", null);
        else row.put("platform_threads", median(platform));
        // and the most tasks the kernel ran for the process at once, io_uring's io-wq workers among them (the harness looked)
        List<Double> tasks = group.stream().map(r -> new Run(r).tasks()).filter(java.util.Objects::nonNull).map(Long::doubleValue).toList();
        List<Double> io = group.stream().map(r -> new Run(r).ioWorkers()).filter(java.util.Objects::nonNull).map(Long::doubleValue).toList();
        row.put("tasks", tasks.isEmpty() ? null : median(tasks));
        row.put("io_workers", io.isEmpty() ? null : median(io));
        if (first.spanNs() != null) {
            // threads or processes: the study's aggregate (bytes over the mean of their own times) and the wall-clock one
            List<Run> typed = group.stream().map(Run::new).toList();
            row.put("study_mb_per_s", median(typed.stream().map(r -> mb / (mean(r.threadNs() != null ? r.threadNs() : r.procNs()) / 1e9)).toList()));
            row.put("wall_mb_per_s", median(typed.stream().map(r -> mb / (r.spanNs() / 1e9)).toList()));
        }
        return row;
    }

    private static List<Double> values(List<JsonObject> group, String field) {
        return group.stream().map(r -> r.get(field).getAsDouble()).toList();
    }

    private static double mean(long[] values) {
        return java.util.Arrays.stream(values).average().orElseThrow();
    }

    static double median(List<Double> values) {
        return median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The median of these values (sorted in place); NaN for none (a part this machine could not run). */
    static double median(double[] values) {
        java.util.Arrays.sort(values);
        int n = values.length;
        if (n == 0) return Double.NaN;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
