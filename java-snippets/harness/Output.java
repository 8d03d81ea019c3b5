// What a run says: one JSON run record a measured run, and one line on a failure, in the words C gives. Twin:
// c-snippets/harness/output.c. See Harness.java for the rooms.
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

final class Output {
    /**
     * One run record, the line data/results.schema.json defines (the kit checks every line against it).
     * resident: percent of the file in the page cache when a cold run's clock started; null for warm runs and writes.
     */
    static void emit(Harness.Options o, int run, long elapsedNs, long userNs, long sysNs, Double resident, long checksum) {
        System.out.printf(Locale.ROOT, "{\"snippet\":\"%s\",\"language\":\"java\",\"runtime\":\"java %s\",\"strategy\":\"%s\",\"op\":\"%s\","
                        + "\"pattern\":\"%s\",\"cache\":\"%s\",\"resident_pct\":%s,%s\"file_size\":%d,\"op_size\":%d,\"buffer_size\":%d,"
                        + "\"run\":%d,\"bytes\":%d,\"ops\":%d,\"misses\":%s,\"elapsed_ns\":%d,\"user_ns\":%d,\"sys_ns\":%d,%s"
                        + "\"checksum\":%s,\"seed\":%d}%n",
                o.snippet(), System.getProperty("java.version"), o.strategy(), o.op(), o.pattern(), o.cache(),
                resident == null ? "null" : String.format(Locale.ROOT, "%.1f", resident),
                (o.text() == null ? "" : "\"text\":\"" + o.text() + "\",") + (o.type() == null ? "" : "\"type\":\"" + o.type() + "\",")
                        + (o.procs() > 0 ? "\"procs\":" + o.procs() + "," + Job.fields : "")
                        + (o.threads() > 0 ? "\"threads\":" + o.threads() + "," : "") + (o.depth() > 0 ? "\"depth\":" + o.depth() + "," : "") + (o.lock() == null ? "" : "\"lock\":\"" + o.lock() + "\","),
                o.fileSize(), o.opSize(), o.bufferSize(),
                run, o.bytes(), Harness.operationsDone >= 0 ? Harness.operationsDone : o.operations(), Harness.misses < 0 ? "null" : String.valueOf(Harness.misses), elapsedNs, userNs, sysNs,
                Workers.ownNs == null ? "" : (o.procs() > 0 ? "\"proc_ns\":" : "\"thread_ns\":")
                        + java.util.Arrays.toString(Workers.ownNs).replace(" ", "") + ",\"span_ns\":" + Workers.spanNs + ","
                        + (Workers.platformThreads < 0 ? "" : "\"platform_threads\":" + Workers.platformThreads + ",")
                        + (Workers.tasks < 0 ? "" : "\"tasks\":" + Workers.tasks + ",\"io_workers\":" + Workers.ioWorkers + ","),
                Long.toUnsignedString(checksum), o.seed());  // unsigned, as C prints it
        System.out.flush();
    }

    /** What went wrong in the words C's strerror gives for the same failure, so both languages say one line alike. */
    static String describe(Exception e) {
        if (e instanceof UncheckedIOException u) return describe(u.getCause());
        if (e instanceof NoSuchFileException) return "No such file or directory";
        if (e instanceof AccessDeniedException) return "Permission denied";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();  // the JDK puts strerror there
        if (e instanceof java.io.EOFException) return "file ended early";  // as C says it (harness_io_fail_because)
        if (e instanceof FileNotFoundException && e.getMessage() != null && e.getMessage().contains("(")) {
            String m = e.getMessage();
            return m.substring(m.lastIndexOf('(') + 1, m.length() - 1);
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    static void fail(String snippet, String message, int status) {
        System.err.println(snippet + ": " + message);
        System.exit(status);
    }
}
