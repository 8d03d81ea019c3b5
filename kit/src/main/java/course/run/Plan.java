package course.run;

import com.google.gson.JsonObject;
import course.base.Scratch;
import course.record.Results;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The quick preset planned in seconds: quick's sizes were set on the course's reference machine, and a machine whose
 * system calls cost several times more would wait several times longer. As a lab opens, a short probe measures what
 * this machine pays for a 1-byte read and a JVM start, and the lab's own model (labs/presets.json, its quick's
 * "seconds" on the reference machine: "fixed", what no size drives, which follows a JVM start; "judged", what the
 * sizes its verdicts rest on drive, and "work", what the sizes under "scale" drive, both following a read; "rounds",
 * what running its counts at their "fewest" saves, a share of fixed and judged) predicts its time here. The plan is the
 * first that fits the budget ("_plan"), in this order: the sizes under "scale" divided by 1, 2, 4 or 8 (each key says
 * the most it may be divided by); then, where even that is too long, the same with the counts at their fewest.
 *
 * <p>A cut never tilts a verdict: "judged_on" names the keys the lab's judged claims read (the sizes, counts and
 * warm-ups of the sweeps they are judged on), and a plan may neither scale one nor take it at its fewest (refused as
 * the lab opens). What is left to cut leaves every judged figure the same quantity: exercise, strace and profile
 * sizes, sweeps only charted, and round counts (fewer rounds widen the intervals, which stay honest: the interval
 * coverage test covers the fewest rounds too). Where that is not enough, the lab takes longer and its first line says so.
 *
 * <p>COURSE_PLAN sets it by hand: "off" keeps quick as the reference machine runs it; "1/2", "1/4" or "1/8" divide
 * the sizes; "fewest" (or "1/4+fewest") takes the fewest counts. A saved lab keeps its plan, so a pass on another
 * machine is compared knowing what it ran.
 */
public record Plan(int divisor, boolean fewestRounds, Costs here, Costs reference, double seconds, String source) {
    /** How far a probe's figure may stray from the reference machine's and still be taken as its (see Costs.against). */
    static final double PROBE_TOLERANCE = 0.15;

    /** The divisors a plan may take: each halves the work again. */
    static final List<Integer> DIVISORS = List.of(1, 2, 4, 8);

    /** What this machine pays: one 1-byte read() through FileInputStream (a system call and its JNI), and one JVM start. */
    public record Costs(double readNs, double jvmStartMs) {
        /** How many times the reference machine's costs this machine pays: per system call and per JVM start. */
        record Ratios(double perCall, double perJvmStart) {}

        /**
         * How many times the reference machine's costs these are, each taken as 1 within PROBE_TOLERANCE: the probe's own
         * spread from one lab's opening to the next on the reference machine, so that machine never cuts a lab for a slow
         * reading.
         */
        Ratios against(Costs reference) {
            return new Ratios(same(readNs / reference.readNs), same(jvmStartMs / reference.jvmStartMs));
        }

        private static double same(double ratio) {
            return Math.abs(ratio - 1) <= PROBE_TOLERANCE ? 1 : ratio;
        }

        /**
         * Measures both on this machine (well under a second here): seven passes of 1-byte reads over a 16 KiB file in
         * the scratch folder (the median pass per call), and five starts of `java -version` on this JDK (the quickest).
         */
        public static Costs probe(Path scratch) {
            return new Costs(measureReadNs(scratch), measureJvmStartMs());
        }

        static double measureReadNs(Path scratch) {
            Path file = null;
            try {
                Scratch.createDirectories(scratch);
                file = Files.createTempFile(scratch, "probe-", ".dat");
                Files.write(file, new byte[PROBE_BYTES]);
                List<Double> perCall = new ArrayList<>();
                for (int pass = 0; pass < 7; pass++) {
                    long start = System.nanoTime();
                    try (InputStream in = new FileInputStream(file.toFile())) {
                        while (in.read() >= 0) { }  // each read() is one read(2) of one byte
                    }
                    perCall.add((System.nanoTime() - start) / (double) (PROBE_BYTES + 1));
                }
                return Results.median(perCall);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot probe this machine's reads in " + scratch + ": " + e.getMessage(), e);
            } finally {
                if (file != null) Scratch.removeTree(file);
            }
        }

        /** The quickest of five starts: a start is never faster than the machine allows, and often slower when something else runs. */
        static double measureJvmStartMs() {
            String java = Build.javaHome().resolve("bin/java").toString();  // the JDK the snippets run on
            double quickest = Double.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                course.base.Exec.run(List.of(java, "-XX:-UsePerfData", "-version"), "java -version");
                quickest = Math.min(quickest, (System.nanoTime() - start) / 1e6);
            }
            return quickest;
        }
    }

    static final int PROBE_BYTES = 16 << 10;

    /** Prints this machine's probe as JSON ({"read_ns": …, "jvm_start_ms": …}): tools/plan_model.py reads it. */
    public static void main(String[] args) {
        Costs here = Costs.probe(course.base.Course.scratch());
        System.out.printf(Locale.ROOT, "{\"read_ns\": %.0f, \"jvm_start_ms\": %.0f}%n", here.readNs(), here.jvmStartMs());
    }

    /** quick as the reference machine runs it: nothing divided (a preset with no "scale", smoke, paper, COURSE_PLAN=off). */
    static Plan none(String source) {
        return new Plan(1, false, null, null, Double.NaN, source);
    }

    /**
     * The plan a lab's preset values get here: COURSE_PLAN's, else the probe's fit to the budget the planner's settings
     * (presets.json's "_plan") give; only presets with a "scale" (quick) are planned.
     */
    static Plan choose(JsonObject values, JsonObject settings, Path scratch) {
        if (!values.has("scale")) return none("unplanned");
        refuseCutsOfJudgedKeys(values);
        return chosen(System.getenv("COURSE_PLAN")).orElseGet(() -> fit(values, Costs.probe(scratch), referenceCosts(settings), budgetSeconds(settings)));
    }

    /** The plan COURSE_PLAN sets by hand, if it sets one ("auto" or unset: none, the probe decides); a bad value refused in one line. */
    static java.util.Optional<Plan> chosen(String setting) {
        if (setting == null || setting.isEmpty() || setting.equals("auto")) return java.util.Optional.empty();
        if (setting.equals("off")) return java.util.Optional.of(none("COURSE_PLAN=off"));
        boolean fewest = setting.equals("fewest") || setting.endsWith("+fewest");
        String share = setting.equals("fewest") ? "1/1" : setting.replace("+fewest", "");
        int divisor = DIVISORS.stream().filter(d -> share.equals("1/" + d) && (d > 1 || fewest)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "COURSE_PLAN=" + setting + ": use auto, off, 1/2, 1/4, 1/8 (the share of quick's listed sizes to run), fewest (its fewest rounds) or both, as 1/4+fewest"));
        return java.util.Optional.of(new Plan(divisor, fewest, null, null, Double.NaN, "COURSE_PLAN=" + setting));
    }

    /**
     * The first plan whose predicted seconds fit the budget (the last there is when none does): what no size drives
     * scales with a JVM start here, what the sizes drive with a read here; the fewest counts keep a share of the first
     * two, and only the listed sizes are divided.
     */
    static Plan fit(JsonObject quick, Costs here, Costs reference, double budget) {
        JsonObject model = quick.getAsJsonObject("seconds");
        double fixed = model.get("fixed").getAsDouble(), judged = model.get("judged").getAsDouble(), work = model.get("work").getAsDouble();
        double kept = quick.has("fewest") ? 1 - model.get("rounds").getAsDouble() / (fixed + judged) : 1;
        Costs.Ratios times = here.against(reference);
        double perStart = times.perJvmStart(), perCall = Math.max(1, times.perCall());  // a faster machine keeps quick's sizes
        Plan last = null;
        for (boolean fewest : quick.has("fewest") ? List.of(false, true) : List.of(false)) {
            for (int divisor : DIVISORS) {
                double seconds = (fixed * perStart + judged * perCall) * (fewest ? kept : 1) + work * perCall / divisor;
                last = new Plan(divisor, fewest, here, reference, seconds, "probe");
                if (seconds <= budget) return last;
            }
        }
        return last;
    }

    /** The keys the lab's judged claims read (quick's "judged_on"), which no plan cuts. */
    static java.util.Set<String> judgedOn(JsonObject quick) {
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        if (quick.has("judged_on")) quick.getAsJsonArray("judged_on").forEach(k -> keys.add(k.getAsString()));
        return keys;
    }

    /** A preset whose "scale" or "fewest" lists a key its judged claims read is refused in one line: such a cut could tilt a verdict. */
    static void refuseCutsOfJudgedKeys(JsonObject quick) {
        java.util.Set<String> judged = judgedOn(quick);
        for (String list : List.of("scale", "fewest")) {
            if (!quick.has(list)) continue;
            for (String key : quick.getAsJsonObject(list).keySet()) {
                if (judged.contains(key)) throw new IllegalStateException("labs/presets.json: quick's " + list + " lists " + key
                        + ", which a judged claim reads (judged_on): a plan may cut only what no verdict rests on; take it out of " + list);
            }
        }
    }

    /** The value a preset key takes under this plan: divided where "scale" lists it (never more than it allows there). */
    long scaled(JsonObject quick, String key, long value) {
        if (divisor == 1 || !quick.has("scale") || !quick.getAsJsonObject("scale").has(key) || judgedOn(quick).contains(key)) return value;
        return Math.max(1, value / Math.min(divisor, quick.getAsJsonObject("scale").get(key).getAsInt()));
    }

    /** A count under this plan: a count "fewest" lists at its fewest, when the plan takes them; any other as written. */
    int counted(JsonObject quick, String key, int value) {
        if (!fewestRounds || !quick.has("fewest") || !quick.getAsJsonObject("fewest").has(key) || judgedOn(quick).contains(key)) return value;
        return Math.min(value, quick.getAsJsonObject("fewest").get(key).getAsInt());
    }

    /** One line for the lab's first line: what was fitted and why, in the learner's terms ("" when quick runs as written). */
    public String line(JsonObject quick) {
        List<String> cuts = new ArrayList<>();
        if (divisor > 1) cuts.add(keys(quick, "scale") + " at 1/" + divisor + " of quick's size (the sizes the verdicts rest on are kept)");
        if (fewestRounds && quick.has("fewest")) cuts.add(keys(quick, "fewest") + " at their fewest (" + fewest(quick) + "), so its intervals are wider");
        String what = String.join("; ", cuts);
        if (here == null) return what.isEmpty() ? "" : source + ": " + what;
        String costs = String.format(Locale.ROOT, "a 1-byte read costs %.0f ns here, %.1f× the course's reference machine; a JVM starts in %.0f ms, %.1f×",
                here.readNs, here.readNs / reference.readNs, here.jvmStartMs, here.jvmStartMs / reference.jvmStartMs);
        return what.isEmpty() ? costs : String.format(Locale.ROOT, "%s. To keep the lab to about %.0f s here: %s", costs, seconds, what);
    }

    private static String keys(JsonObject quick, String list) {
        return String.join(", ", quick.getAsJsonObject(list).keySet().stream().map(k -> k.replace('_', ' ')).toList());
    }

    private static String fewest(JsonObject quick) {
        return String.join(", ", quick.getAsJsonObject("fewest").entrySet().stream()
                .map(e -> e.getValue().getAsInt() + " of " + quick.get(e.getKey()).getAsInt()).toList());
    }

    /** What the saved results keep of the plan. */
    public JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("divisor", divisor);
        o.addProperty("fewest_rounds", fewestRounds);
        o.addProperty("source", source);
        if (here != null) {
            o.addProperty("read_ns", here.readNs);
            o.addProperty("jvm_start_ms", here.jvmStartMs);
            o.addProperty("reference_read_ns", reference.readNs);
            o.addProperty("reference_jvm_start_ms", reference.jvmStartMs);
            o.addProperty("predicted_s", seconds);
        }
        return o;
    }

    /** A saved plan, to judge its runs again on the sizes and rounds they ran (no plan saved: quick as the reference ran it). */
    public static Plan saved(JsonObject doc) {
        if (doc == null) return none("saved");
        return new Plan(doc.get("divisor").getAsInt(), doc.has("fewest_rounds") && doc.get("fewest_rounds").getAsBoolean(), null, null, Double.NaN, "saved");
    }

    static double budgetSeconds(JsonObject settings) {
        return settings.get("budget_s").getAsDouble();
    }

    static Costs referenceCosts(JsonObject settings) {
        JsonObject r = settings.getAsJsonObject("reference");
        return new Costs(r.get("read_ns").getAsDouble(), r.get("jvm_start_ms").getAsDouble());
    }
}
