package course.record;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * One run record, typed: an accessor per field of data/results.schema.json's run (RunTest holds the two
 * to one list). Fields only some snippets write read as null (text, lock, times per worker) or 0
 * (threads, procs; round and order before the kit adds them).
 */
public record Run(JsonObject json) {
    public String snippet() { return text("snippet"); }
    public String language() { return text("language"); }
    /** The JDK ("java 25.0.3") or the compiler ("gcc 12.2.0"). */
    public String runtime() { return text("runtime"); }
    public String strategy() { return text("strategy"); }
    public String op() { return text("op"); }
    public String pattern() { return text("pattern"); }
    public String cache() { return text("cache"); }
    /** A cold run's share of the file still cached when its clock started; null for warm runs and writes. */
    public Double residentPct() { return present("resident_pct") ? json.get("resident_pct").getAsDouble() : null; }
    public String text() { return text("text"); }
    public String type() { return text("type"); }
    public int procs() { return whole("procs"); }
    /** An MPI job's hosts, each once, in rank order; empty where the run had none or predates them. */
    public java.util.List<String> hosts() {
        return present("hosts") ? json.getAsJsonArray("hosts").asList().stream().map(JsonElement::getAsString).toList() : java.util.List.of();
    }
    /** The processes each of hosts ran, in its order; null where the run predates the field. */
    public long[] hostProcs() { return times("host_procs"); }
    /** The CPUs the processes on each of hosts could run on (their affinity), in its order; null where the run predates the field. */
    public long[] hostCores() { return times("host_cores"); }
    /** The links a job on several hosts held to other nodes ("tcp", "verbs"); empty where it held none known, ran on one host or predates the field. */
    public java.util.List<String> transport() {
        return present("transport") ? json.getAsJsonArray("transport").asList().stream().map(JsonElement::getAsString).toList() : java.util.List.of();
    }
    /**
     * Whether each process had a core of its own: on every host of a job on several, no more processes than that host's
     * cores; on one host (or where hosts' processes are not recorded), no more than localCores, the lab's own count,
     * which also follows a container's CPU quota.
     */
    public boolean aCoreEach(int localCores) {
        long[] procs = hostProcs(), cores = hostCores();
        if (hosts().size() < 2 || procs == null || cores == null) return procs() <= localCores;
        for (int h = 0; h < procs.length; h++) if (procs[h] > cores[h]) return false;
        return true;
    }
    /** The MPI-IO implementation an MPI-IO run's file went through ("ompio", "romio"); null where the run made no MPI-IO call or predates the field. */
    public String mpiIo() { return text("mpi_io"); }
    public int threads() { return whole("threads"); }
    public int depth() { return whole("depth"); }
    public String lock() { return text("lock"); }
    public long fileSize() { return number("file_size"); }
    public long opSize() { return number("op_size"); }
    /** The program's own buffer; 0 where it keeps none. */
    public long bufferSize() { return number("buffer_size"); }
    /** The run's index within its process, from 0. */
    public int run() { return whole("run"); }
    public long bytes() { return number("bytes"); }
    /** Operations (lines, for text_lines). */
    public long ops() { return number("ops"); }
    /** Operations a hand-kept buffer could not serve; null where a library hides them. */
    public Long misses() { return present("misses") ? number("misses") : null; }
    public long elapsedNs() { return number("elapsed_ns"); }
    public long userNs() { return number("user_ns"); }
    public long sysNs() { return number("sys_ns"); }
    public long[] threadNs() { return times("thread_ns"); }
    public long[] procNs() { return times("proc_ns"); }
    public Long spanNs() { return present("span_ns") ? number("span_ns") : null; }
    public Long platformThreads() { return present("platform_threads") ? number("platform_threads") : null; }
    /** The most tasks the kernel ran for the process at once (the JVM's own threads and io-wq workers included); null where not counted. */
    public Long tasks() { return present("tasks") ? number("tasks") : null; }
    /** Of those, the most that were io_uring's io-wq workers (iou-wrk-…). */
    public Long ioWorkers() { return present("io_workers") ? number("io_workers") : null; }
    /** Unsigned 64 bits, as both harnesses print it (Long.toUnsignedString to show it). */
    public long checksum() { return json.get("checksum").getAsBigInteger().longValue(); }
    public long seed() { return number("seed"); }
    /** The sweep's round this run's process belonged to (added by the kit). */
    public int round() { return whole("round"); }
    /** The place of this run's process in its sweep (added by the kit). */
    public int order() { return whole("order"); }
    /** The class-data sharing a Java run's JVM was given (added by the kit): none, archive or cache; null for C and runs saved before. */
    public String classSharing() { return text("class_sharing"); }

    private boolean present(String field) {
        JsonElement e = json.get(field);
        return e != null && !e.isJsonNull();
    }

    private String text(String field) {
        return present(field) ? json.get(field).getAsString() : null;
    }

    private long number(String field) {
        return json.get(field).getAsLong();
    }

    private int whole(String field) {
        return present(field) ? json.get(field).getAsInt() : 0;
    }

    private long[] times(String field) {
        return present(field) ? json.getAsJsonArray(field).asList().stream().mapToLong(JsonElement::getAsLong).toArray() : null;
    }
}
