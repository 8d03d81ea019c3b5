package course.record;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.base.Course;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The run record and the saved results, as data/results.schema.json defines them (JSON Schema 2020-12),
 * checked here against untrusted input: hand-ins, and every line a snippet prints. It knows the keywords
 * that file uses and refuses a schema with any other, so a keyword added there cannot pass unchecked;
 * tests/test_schema.py holds this checker and the jsonschema library to the same verdicts on one table
 * of documents.
 */
public final class Schema {
    /** Keywords that only describe (annotations); x-case, x-workload, x-name and x-method mark the case fields the kit lists. */
    private static final Set<String> ANNOTATIONS = Set.of("$schema", "$comment", "description", "x-case", "x-workload", "x-name", "x-method");
    private static final Set<String> CHECKED = Set.of("type", "enum", "const", "pattern", "minimum", "exclusiveMinimum", "maximum",
            "minItems", "items", "properties", "required", "additionalProperties", "dependentRequired", "$ref", "$defs");
    /** How much of an untrusted name or value a message repeats. */
    private static final int SHOWN = 40;

    private static Schema results;

    private final JsonObject root;
    /** Every field a run record may have, in the schema's order (asked for in every filter). */
    private final List<String> runFields;

    Schema(JsonObject root) {
        this.root = root;
        knowsEvery(root, "");
        runFields = root.has("$defs") ? List.copyOf(definition("run").getAsJsonObject("properties").keySet()) : List.of();
    }

    /** data/results.schema.json, read once. */
    public static synchronized Schema results() {
        if (results == null) {
            var file = Course.home().resolve("data/results.schema.json");
            try {
                results = new Schema(JsonParser.parseString(Files.readString(file)).getAsJsonObject());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return results;
    }

    /** Why a saved lab's results (a hand-in) are not what the schema says, or null when they are. */
    public String problem(JsonElement doc) {
        return check(root, doc, "");
    }

    /** Why one run record (a line a harness printed, or one in saved results) is not one, or null. */
    public String runProblem(JsonElement run) {
        return check(definition("run"), run, "run");
    }

    /** The run record's fields that carry an annotation (x-case, x-workload, x-name, x-method), in the schema's order. */
    public List<String> runFields(String annotation) {
        List<String> fields = new ArrayList<>();
        for (var e : definition("run").getAsJsonObject("properties").entrySet()) {
            JsonElement mark = e.getValue().getAsJsonObject().get(annotation);
            if (mark != null && mark.getAsBoolean()) fields.add(e.getKey());
        }
        return List.copyOf(fields);
    }

    /** Whether a run record's field holds a whole number (a size, a count) rather than a word. */
    public boolean runFieldIsInteger(String field) {
        JsonElement property = definition("run").getAsJsonObject("properties").get(field);
        JsonElement type = property == null ? null : property.getAsJsonObject().get("type");
        return type != null && type.isJsonPrimitive() && type.getAsString().equals("integer");
    }

    /** Every field a run record may have, in the schema's order. */
    List<String> runFields() {
        return runFields;
    }

    private JsonObject definition(String name) {
        return root.getAsJsonObject("$defs").getAsJsonObject(name);
    }

    private static void knowsEvery(JsonObject schema, String where) {
        for (var e : schema.entrySet()) {
            String key = e.getKey();
            if (ANNOTATIONS.contains(key)) continue;
            if (!CHECKED.contains(key)) throw new IllegalArgumentException("data/results.schema.json" + where + ": the kit does not check " + key);
            JsonElement value = e.getValue();
            switch (key) {
                case "items" -> knowsEvery(value.getAsJsonObject(), where + "/items");
                case "additionalProperties" -> {
                    if (value.isJsonObject()) knowsEvery(value.getAsJsonObject(), where + "/additionalProperties");
                }
                case "properties", "$defs" -> {
                    for (var p : value.getAsJsonObject().entrySet()) knowsEvery(p.getValue().getAsJsonObject(), where + "/" + key + "/" + p.getKey());
                }
                default -> { }
            }
        }
    }

    private String check(JsonObject schema, JsonElement value, String path) {
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").getAsString();
            if (!ref.startsWith("#/$defs/")) throw new IllegalArgumentException("the kit follows only #/$defs/ references, not " + ref);
            return check(definition(ref.substring("#/$defs/".length())), value, path);
        }
        String at = path.isEmpty() ? "the document" : path;
        if (schema.has("type") && !typeFits(schema.get("type"), value)) return at + " is " + kind(value) + ", not " + types(schema.get("type"));
        if (schema.has("const") && !schema.get("const").equals(value)) return at + " is not " + schema.get("const");
        if (schema.has("enum") && !schema.getAsJsonArray("enum").contains(value)) {
            return at + " is " + shown(value) + ", not one of " + String.join(", ", schema.getAsJsonArray("enum").asList().stream().map(JsonElement::getAsString).toList());
        }
        if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString() && schema.has("pattern")
            && !Pattern.compile(schema.get("pattern").getAsString()).matcher(value.getAsString()).find()) {
            return at + " is " + shown(value) + ", which is not " + schema.get("pattern").getAsString();
        }
        if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()) {
            BigDecimal n = value.getAsBigDecimal();
            if (schema.has("minimum") && n.compareTo(schema.get("minimum").getAsBigDecimal()) < 0) return at + " is " + shown(value) + ", below " + schema.get("minimum");
            if (schema.has("exclusiveMinimum") && n.compareTo(schema.get("exclusiveMinimum").getAsBigDecimal()) <= 0) {
                return at + " is " + shown(value) + ", not above " + schema.get("exclusiveMinimum");
            }
            if (schema.has("maximum") && n.compareTo(schema.get("maximum").getAsBigDecimal()) > 0) return at + " is " + shown(value) + ", above " + schema.get("maximum");
        }
        if (value.isJsonArray()) {
            JsonArray items = value.getAsJsonArray();
            if (schema.has("minItems") && items.size() < schema.get("minItems").getAsInt()) return at + " has " + items.size() + " items, fewer than " + schema.get("minItems");
            if (schema.has("items")) {
                for (int i = 0; i < items.size(); i++) {
                    String problem = check(schema.getAsJsonObject("items"), items.get(i), path + "[" + i + "]");
                    if (problem != null) return problem;
                }
            }
        }
        return value.isJsonObject() ? checkObject(schema, value.getAsJsonObject(), path) : null;
    }

    private String checkObject(JsonObject schema, JsonObject object, String path) {
        String in = path.isEmpty() ? "" : path + " ";
        if (schema.has("required")) {
            for (JsonElement field : schema.getAsJsonArray("required")) {
                if (!object.has(field.getAsString())) return (path.isEmpty() ? "no " : path + " has no ") + field.getAsString();
            }
        }
        if (schema.has("dependentRequired")) {
            for (var e : schema.getAsJsonObject("dependentRequired").entrySet()) {
                if (!object.has(e.getKey())) continue;
                for (JsonElement needed : e.getValue().getAsJsonArray()) {
                    if (!object.has(needed.getAsString())) return in + "has " + e.getKey() + " but no " + needed.getAsString();
                }
            }
        }
        JsonObject properties = schema.has("properties") ? schema.getAsJsonObject("properties") : new JsonObject();
        for (var e : object.entrySet()) {
            String field = path.isEmpty() ? cut(e.getKey()) : path + "." + cut(e.getKey());
            JsonObject rule = properties.has(e.getKey()) ? properties.getAsJsonObject(e.getKey()) : null;
            if (rule == null && schema.has("additionalProperties")) {
                JsonElement other = schema.get("additionalProperties");
                if (other.isJsonPrimitive() && !other.getAsBoolean()) return in + "has a field the course does not write: " + cut(e.getKey());
                if (other.isJsonObject()) rule = other.getAsJsonObject();
            }
            if (rule != null) {
                String problem = check(rule, e.getValue(), field);
                if (problem != null) return problem;
            }
        }
        return null;
    }

    private static boolean typeFits(JsonElement type, JsonElement value) {
        if (type.isJsonArray()) return type.getAsJsonArray().asList().stream().anyMatch(t -> typeFits(t, value));
        return switch (type.getAsString()) {
            case "null" -> value.isJsonNull();
            case "object" -> value.isJsonObject();
            case "array" -> value.isJsonArray();
            case "boolean" -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean();
            case "string" -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isString();
            case "number" -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber();
            case "integer" -> value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()
                              && value.getAsBigDecimal().stripTrailingZeros().scale() <= 0;
            default -> throw new IllegalArgumentException("the kit does not know the type " + type.getAsString());
        };
    }

    private static String types(JsonElement type) {
        if (type.isJsonArray()) return String.join(" or ", type.getAsJsonArray().asList().stream().map(Schema::types).toList());
        return switch (type.getAsString()) {
            case "null" -> "null";
            case "integer" -> "a whole number";
            case "string" -> "text";
            default -> "a" + (type.getAsString().equals("object") || type.getAsString().equals("array") ? "n " : " ") + type.getAsString();
        };
    }

    private static String kind(JsonElement value) {
        if (value.isJsonNull()) return "null";
        if (value.isJsonObject()) return "an object";
        if (value.isJsonArray()) return "a list";
        if (value.getAsJsonPrimitive().isBoolean()) return "true or false";
        if (value.getAsJsonPrimitive().isString()) return "text";
        return shown(value);
    }

    private static String shown(JsonElement value) {
        return cut(value.toString());
    }

    private static String cut(String text) {
        return text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "…";
    }
}
