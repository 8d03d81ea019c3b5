package course.record;

import com.google.gson.JsonObject;

/** Builds run records as the harnesses print them (data/results.schema.json's run: SchemaTest holds them to it). */
public final class Runs {
    private Runs() {
    }

    public static JsonObject run(String language, String op, String pattern, long fileSize, long opSize, int run,
                          long elapsedNs, long userNs, long sysNs) {
        JsonObject o = new JsonObject();
        o.addProperty("snippet", "raw_io");
        o.addProperty("language", language);
        o.addProperty("runtime", language.equals("java") ? "java 25.0.3" : "gcc 12.2.0");
        o.addProperty("strategy", "raw");
        o.addProperty("op", op);
        o.addProperty("pattern", pattern);
        o.addProperty("cache", "warm");
        o.add("resident_pct", com.google.gson.JsonNull.INSTANCE);
        o.addProperty("file_size", fileSize);
        o.addProperty("op_size", opSize);
        o.addProperty("buffer_size", 0);
        o.addProperty("run", run);
        long ops = pattern.equals("seq") ? (fileSize + opSize - 1) / opSize : fileSize / opSize;
        o.addProperty("bytes", pattern.equals("seq") ? fileSize : ops * opSize);
        o.addProperty("ops", ops);
        o.add("misses", com.google.gson.JsonNull.INSTANCE);
        o.addProperty("elapsed_ns", elapsedNs);
        o.addProperty("user_ns", userNs);
        o.addProperty("sys_ns", sysNs);
        o.addProperty("checksum", 123456789L);
        o.addProperty("seed", 42);
        return o;
    }

    public static JsonObject run(String language, String op, long fileSize, int run, long elapsedNs) {
        return run(language, op, "seq", fileSize, 1, run, elapsedNs, elapsedNs / 4, elapsedNs / 2);
    }
}
