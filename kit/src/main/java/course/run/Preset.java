package course.run;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import course.base.Course;
import course.record.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One lab's sizes in one preset, read from labs/presets.json (never retyped in a notebook). Every size
 * (a key with "size" in its name) is capped at sizeCap, a quarter of the memory this machine or its
 * container allows as a power of two, so a warm file stays in the page cache and mapped or shared
 * arrays fit (on a 2 GiB Binder: 512m). 0 means no cap.
 */
public record Preset(String lab, String name, JsonObject values, long sizeCap, Plan plan) {
    public Preset(String lab, String name, JsonObject values) {
        this(lab, name, values, 0, Plan.none("unplanned"));
    }

    public Preset(String lab, String name, JsonObject values, long sizeCap) {
        this(lab, name, values, sizeCap, Plan.none("unplanned"));
    }

    /** The same preset under a plan (Plan: quick's work fitted to this machine). */
    public Preset planned(Plan chosen) {
        return new Preset(lab, name, values, sizeCap, chosen);
    }

    /** The same preset under the plan this machine gets (Plan.choose: probed with a file in scratch), or COURSE_PLAN's. */
    public Preset plannedHere(Path scratch) {
        return planned(Plan.choose(values, table().getAsJsonObject("_plan"), scratch));
    }

    /** The cap for a machine (or container) allowing this much memory: the largest power of two within a quarter of it. */
    static long capFor(long memoryBytes) {
        return Long.highestOneBit(Math.max(1, memoryBytes / 4));
    }

    public long size(String key) {
        return capped(key, plan.scaled(values, key, Course.parseSize(get(key).getAsString())));
    }

    public List<Long> sizes(String key) {
        List<Long> out = new ArrayList<>();
        for (JsonElement e : get(key).getAsJsonArray()) out.add(capped(key, plan.scaled(values, key, Course.parseSize(e.getAsString()))));
        return out;
    }

    public long smallest(String key) {
        return java.util.Collections.min(sizes(key));
    }

    public long largest(String key) {
        return java.util.Collections.max(sizes(key));
    }

    /** The largest of the sizes under key that is at most limit (the study's size, or the nearest the preset runs below it). */
    public long largestUpTo(String key, long limit) {
        return sizes(key).stream().filter(s -> s <= limit).max(Long::compare)
                .orElseThrow(() -> new IllegalArgumentException("preset " + name + " of lab " + lab + " has no " + key + " at or below " + limit));
    }

    /** The largest of the sizes under key that is smaller than limit (the step before it, a buffer smaller than the file). */
    public long largestBelow(String key, long limit) {
        return largestUpTo(key, limit - 1);
    }

    private long capped(String key, long value) {
        return isSize(key) && sizeCap > 0 ? Math.min(value, sizeCap) : value;
    }

    public int count(String key) {
        return plan.counted(values, key, get(key).getAsInt());
    }

    /** A list of counts (threads to try, say). */
    public List<Integer> counts(String key) {
        List<Integer> out = new ArrayList<>();
        for (JsonElement e : get(key).getAsJsonArray()) out.add(e.getAsInt());
        return out;
    }

    /**
     * How long the preset takes on the course's reference machine, in minutes: quick's seconds (fixed, judged and work
     * together: the plan's model, its one statement of quick's time), else the minutes smoke and paper state.
     */
    public double minutes() {
        if (!values.has("seconds")) return get("minutes").getAsDouble();
        JsonObject seconds = values.getAsJsonObject("seconds");
        return (seconds.get("fixed").getAsDouble() + seconds.get("judged").getAsDouble() + seconds.get("work").getAsDouble()) / 60;
    }

    /**
     * What a lab says as it opens, before anything is written: its preset, how long it should take here (the plan's
     * prediction, else the preset's minutes), its sizes, the machine (machineLine) and, on a second line, what the plan cut.
     */
    public String openingLine(String machineLine) {
        boolean cut = plan.divisor() > 1 || plan.fewestRounds();  // by hand (COURSE_PLAN): less than quick's whole time, not predicted
        String time = !Double.isNaN(plan.seconds()) ? String.format(Locale.ROOT, "about %.0f s", plan.seconds())
                : String.format(Locale.ROOT, "%s %.1f min", cut ? "under" : "about", minutes());
        String fitted = plan.line(values);
        return String.format(Locale.ROOT, "Lab %s · preset %s (%s here; %s) · %s%s", lab, name, time, sizesLine(), machineLine,
                fitted.isEmpty() ? "" : "\n" + fitted);
    }

    /** The preset's file and operation sizes as a learner reads them: "size 128m · map sizes 16k, 256k, 4m, 64m" (and any cap). */
    public String sizesLine() {
        List<String> parts = new ArrayList<>();
        boolean anyCapped = false;
        for (var e : values.entrySet()) {
            if (!isSize(e.getKey())) continue;
            List<JsonElement> given = new ArrayList<>();
            if (e.getValue().isJsonArray()) e.getValue().getAsJsonArray().forEach(given::add);
            else given.add(e.getValue());
            List<String> shown = new ArrayList<>();
            for (JsonElement v : given) {
                long size = plan.scaled(values, e.getKey(), Course.parseSize(v.getAsString()));
                boolean cut = capped(e.getKey(), size) < size;
                anyCapped |= cut;
                shown.add(cut ? Course.formatSize(sizeCap) + " (not " + Course.formatSize(size) + ")" : Course.formatSize(size));
            }
            parts.add(e.getKey().replace('_', ' ') + " " + String.join(", ", shown));
        }
        String line = String.join(" · ", parts);
        return anyCapped ? line + " · sizes capped at " + Course.formatSize(sizeCap) + ", a quarter of the memory allowed here" : line;
    }

    private JsonElement get(String key) {
        if (!values.has(key)) throw new IllegalArgumentException("preset " + name + " of lab " + lab + " has no '" + key + "'");
        return values.get(key);
    }

    /** The preset a lab runs in: COURSE_PRESET if set (tests and the report set it), else quick. */
    public static String chosenName() {
        String env = System.getenv("COURSE_PRESET");
        return env == null || env.isEmpty() ? "quick" : env;
    }

    /** The course's table of presets, labs/presets.json (with "_about" and the planner's "_plan"). */
    public static JsonObject table() {
        try {
            return new Gson().fromJson(Files.readString(Course.home().resolve("labs/presets.json")), JsonObject.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The largest size (a key with "size" in its name) any lab's preset of this name lists, as written, not capped: what
     * grading sizes its sandbox's memory by. 0 where no lab has that preset.
     */
    public static long largestSize(String presetName) {
        long largest = 0;
        for (var lab : table().entrySet()) {
            if (lab.getKey().startsWith("_") || !lab.getValue().getAsJsonObject().has(presetName)) continue;
            Preset asWritten = new Preset(lab.getKey(), presetName, lab.getValue().getAsJsonObject().getAsJsonObject(presetName));
            for (var e : asWritten.values().entrySet()) {
                if (isSize(e.getKey())) largest = Math.max(largest, e.getValue().isJsonArray() ? asWritten.largest(e.getKey()) : asWritten.size(e.getKey()));
            }
        }
        return largest;
    }

    /** A key that holds a size (or a list of sizes): its name says so. */
    static boolean isSize(String key) {
        return key.contains("size");
    }

    /** `largest-size PRESET` prints largestSize in bytes, for the classroom tool (tools/classroom_grade.py). */
    public static void main(String[] args) {
        if (args.length != 2 || !args[0].equals("largest-size")) throw new IllegalArgumentException("usage: course.run.Preset largest-size PRESET");
        System.out.println(largestSize(args[1]));
    }

    /** A lab's preset from the course's table (labs/presets.json), sizes capped to the memory allowed here, not yet planned. */
    public static Preset of(String lab, String name) {
        JsonObject all = table();
        if (!all.has(lab)) throw new IllegalArgumentException("no presets for lab " + lab + " in labs/presets.json");
        JsonObject presets = all.getAsJsonObject(lab);
        if (!presets.has(name)) {
            throw new IllegalArgumentException("preset " + name + ": lab " + lab + " has " + String.join(", ", presets.keySet()));
        }
        return new Preset(lab, name, presets.getAsJsonObject(name), Preset.capFor(Machine.memoryAllowed()), Plan.none("unplanned"));
    }
}
