package course;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import course.base.Course;
import course.judge.Context;
import course.judge.Estimate;
import course.judge.Verdict;
import course.record.NoiseFloor;
import course.record.Results;
import course.record.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A lab's results file (data/results/LAB-PRESET-STARTED.json, laid out as data/results.schema.json states it for every
 * reader, Python's too): what it holds, its one writer (whole files, under names no two labs share) and its one reader,
 * for a lab replayed or loaded, lab 00's newest on this machine, and a class's hand-ins.
 *
 * @param plan what Plan.toJson saved (null: quick as the reference machine ran it)
 * @param sweeps the runs of each sweep, in the order they ran
 * @param verdicts and thenAndHere: as saved, the course's text left out (see verdict, context)
 * @param bytecode javap's answers the lab asked for, so that a replay reads the same
 */
public record ResultsFile(String lab, String preset, String started, JsonObject plan, Map<String, String> machine,
        List<Results> sweeps, List<JsonObject> verdicts, List<JsonObject> thenAndHere, Map<String, List<String>> bytecode,
        String coldReading, NoiseFloor noiseFloor) {
    /** A results file larger than this is not a lab's (a lab's quick results are well under a megabyte): a class's view reads none. */
    public static final int MAX_BYTES = 16 << 20;

    /** Holds copies, so that what was written or read stays as it was. */
    public ResultsFile {
        machine = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(machine));  // as given: the card's order
        sweeps = List.copyOf(sweeps);
        verdicts = List.copyOf(verdicts);
        thenAndHere = List.copyOf(thenAndHere);
        bytecode = java.util.Collections.unmodifiableMap(new TreeMap<>(bytecode));
    }

    /** The file's name: the lab, its preset and when it opened (claim adds -2, -3… where that is taken). */
    public String name() {
        return lab + "-" + preset + "-" + started;
    }

    /** Every run of every sweep, as one Results. */
    public Results allRuns() {
        List<JsonObject> runs = new ArrayList<>();
        sweeps.forEach(s -> runs.addAll(s.runs()));
        return new Results(runs);
    }

    /** A verdict as saved: the claim, both figures, the outcome, its rule and the figure the rule judged. */
    public static JsonObject verdict(Verdict v) {
        JsonObject o = new JsonObject();
        o.addProperty("claim", v.claim().id());
        o.addProperty("published", v.claim().shown());
        o.addProperty("measured", v.measured());
        o.addProperty("verdict", v.outcome());
        o.addProperty("rule", v.rule());
        if (v.judged() != null && Double.isFinite(v.judged().value())) o.add("judged", judgedFigure(v.judged()));
        return o;
    }

    /** A then-and-here row as saved: the claim, the study's figure and this machine's. */
    public static JsonObject context(Context c) {
        JsonObject o = new JsonObject();
        o.addProperty("claim", c.claim().id());
        o.addProperty("published", c.claim().shown());
        o.addProperty("here", c.here());
        return o;
    }

    /** A verdict's figure on its rule's scale, and its interval where it has one (JSON has no NaN or infinity). */
    private static JsonObject judgedFigure(Estimate figure) {
        JsonObject o = new JsonObject();
        o.addProperty("value", figure.value());
        if (Double.isFinite(figure.low()) && Double.isFinite(figure.high())) {
            o.addProperty("low", figure.low());
            o.addProperty("high", figure.high());
        }
        return o;
    }

    /** The document, as the schema lays it out. */
    public JsonObject toJson() {
        JsonObject doc = new JsonObject();
        doc.addProperty("lab", lab);
        doc.addProperty("preset", preset);
        doc.addProperty("started", started);
        if (plan != null) doc.add("plan", plan);
        JsonObject env = new JsonObject();
        machine.forEach(env::addProperty);
        doc.add("machine", env);
        JsonArray runs = new JsonArray(), counts = new JsonArray();
        sweeps.forEach(r -> r.runs().forEach(runs::add));
        sweeps.forEach(r -> counts.add(r.runs().size()));
        doc.add("runs", runs);
        doc.add("sweeps", counts);
        JsonArray checked = new JsonArray();
        verdicts.forEach(checked::add);
        doc.add("verdicts", checked);
        if (!thenAndHere.isEmpty()) {
            JsonArray context = new JsonArray();
            thenAndHere.forEach(context::add);
            doc.add("then_and_here", context);
        }
        if (!bytecode.isEmpty()) doc.add("bytecode", new Gson().toJsonTree(bytecode));
        if (coldReading != null) doc.addProperty("cold_reading", coldReading);
        if (noiseFloor != null) {
            JsonObject floor = new JsonObject();
            floor.addProperty("case", noiseFloor.caseName());
            floor.addProperty("runs", noiseFloor.runs());
            floor.addProperty("pct", noiseFloor.pct());
            doc.add("noise_floor", floor);
        }
        return doc;
    }

    /** A file's bytes as checked: the document, or why it is not a lab's results (then doc is null). */
    public record Checked(JsonObject doc, String problem) {
    }

    /**
     * Reads a file's bytes (a learner's results, a hand-in's entry; at most MAX_BYTES + 1 of them are enough) as a lab's
     * results: no larger than MAX_BYTES, JSON, an object, and what problem(doc) asks.
     */
    public static Checked check(byte[] bytes) {
        if (bytes.length > MAX_BYTES) return new Checked(null, "larger than " + (MAX_BYTES >> 20) + " MB: not a lab's results");
        JsonElement parsed;
        try {
            parsed = JsonParser.parseString(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        } catch (com.google.gson.JsonParseException notJson) {
            return new Checked(null, "not JSON");
        }
        if (!parsed.isJsonObject()) return new Checked(null, "not a lab's results: JSON, but not an object");
        String problem = problem(parsed);
        return new Checked(problem == null ? parsed.getAsJsonObject() : null, problem);
    }

    /** Why a document is not a lab's results (data/results.schema.json, and a lab this course has), or null when it is one. */
    public static String problem(JsonElement doc) {
        String problem = Schema.results().problem(doc);
        if (problem != null) return "not a lab's results: " + problem;
        JsonObject o = doc.getAsJsonObject();
        long counted = 0;
        for (var count : o.has("sweeps") ? o.getAsJsonArray("sweeps") : new JsonArray()) counted += count.getAsLong();
        if (counted > o.getAsJsonArray("runs").size()) {
            return "not a lab's results: its sweeps count " + counted + " runs and it holds " + o.getAsJsonArray("runs").size();
        }
        String lab = o.get("lab").getAsString();
        return Files.exists(Course.home().resolve("labs").resolve(lab + ".ipynb")) ? null : "no such lab: " + lab;
    }

    /** A document problem() accepts. */
    public static ResultsFile of(JsonObject doc) {
        Map<String, String> machine = new TreeMap<>();
        doc.getAsJsonObject("machine").entrySet().forEach(e -> machine.put(e.getKey(), e.getValue().getAsString()));
        List<JsonObject> runs = new ArrayList<>();
        doc.getAsJsonArray("runs").forEach(r -> runs.add(r.getAsJsonObject()));
        List<Results> sweeps = new ArrayList<>();
        int from = 0;
        for (var count : doc.has("sweeps") ? doc.getAsJsonArray("sweeps") : new JsonArray()) {
            sweeps.add(new Results(runs.subList(from, from += count.getAsInt())));
        }
        if (from < runs.size()) sweeps.add(new Results(runs.subList(from, runs.size())));  // saved before sweeps were
        Map<String, List<String>> bytecode = new TreeMap<>();
        if (doc.has("bytecode")) bytecode.putAll(new Gson().<Map<String, List<String>>>fromJson(doc.get("bytecode"), new TypeToken<Map<String, List<String>>>() { }.getType()));
        NoiseFloor floor = null;
        if (doc.has("noise_floor")) {
            JsonObject f = doc.getAsJsonObject("noise_floor");
            floor = NoiseFloor.saved(f.get("case").getAsString(), f.get("runs").getAsInt(), f.get("pct").getAsDouble());
        }
        return new ResultsFile(doc.get("lab").getAsString(), doc.get("preset").getAsString(), doc.has("started") ? doc.get("started").getAsString() : "",
                doc.has("plan") ? doc.getAsJsonObject("plan") : null, machine, sweeps, objects(doc, "verdicts"), objects(doc, "then_and_here"),
                bytecode, doc.has("cold_reading") ? doc.get("cold_reading").getAsString() : null, floor);
    }

    private static List<JsonObject> objects(JsonObject doc, String key) {
        List<JsonObject> list = new ArrayList<>();
        if (doc.has(key)) doc.getAsJsonArray(key).forEach(e -> list.add(e.getAsJsonObject()));
        return list;
    }

    public static ResultsFile read(Path file) throws IOException {
        return of(JsonParser.parseString(Files.readString(file)).getAsJsonObject());
    }

    /** Writes the whole file at once (a temporary file moved over it): a reader never finds half a file, a failed write leaves none. */
    public void writeTo(Path file) {
        try {
            Files.createDirectories(file.getParent());  // removed while the lab was open: made again
            Path tmp = Files.createTempFile(file.getParent(), ".saving-", ".json");
            try {
                Files.writeString(tmp, new GsonBuilder().serializeNulls().setPrettyPrinting().create().toJson(toJson()));
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);  // after the move there is nothing to delete
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save results to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A new results file for this document, claimed in dir: NAME.json, or NAME-2.json, NAME-3.json… when another lab
     * opened in the same second (a second kernel, Lab.open run twice) has the name already. Created empty, at once,
     * so no two labs can take one name; every writeTo then replaces it whole.
     */
    public Path claim(Path dir) {
        try {
            Files.createDirectories(dir);
            for (int n = 1; ; n++) {
                try {
                    return Files.createFile(dir.resolve(name() + (n == 1 ? "" : "-" + n) + ".json"));
                } catch (FileAlreadyExistsException taken) {
                    // the next number
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save results to " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The newest results a lab saved in dir in a real preset (not smoke: its tiny files measure no disk), if any; a
     * file that cannot be read or parsed is an error naming it.
     */
    public static Optional<ResultsFile> newest(Path dir, String lab) {
        Path newest;
        try (var files = Files.list(dir)) {
            newest = files.filter(f -> f.getFileName().toString().startsWith(lab + "-") && f.getFileName().toString().endsWith(".json"))
                    .filter(f -> !f.getFileName().toString().startsWith(lab + "-smoke-"))
                    .max(Comparator.comparing(f -> f.toFile().lastModified())).orElse(null);
        } catch (NoSuchFileException none) {
            return Optional.empty();  // no results folder yet
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        if (newest == null) return Optional.empty();
        try {
            return Optional.of(read(newest));
        } catch (IOException | RuntimeException e) {
            String shown = "lab " + lab.substring(0, 2);
            throw new IllegalStateException(shown + "'s results " + newest + " cannot be read (" + e.getMessage() + "): run " + shown + " again to save new ones", e);
        }
    }
}
