package course.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.base.Course;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaTest {
    /** tests/schema_cases.json: the table jsonschema is held to as well (tests/test_schema.py). */
    @Test
    void theKitAgreesWithJsonschemaOnEveryCaseOfTheTable() throws Exception {
        JsonObject table = JsonParser.parseString(Files.readString(Course.home().resolve("tests/schema_cases.json"))).getAsJsonObject();
        List<String> wrong = new ArrayList<>();
        for (JsonElement c : table.getAsJsonArray("cases")) {
            JsonObject testCase = c.getAsJsonObject();
            String problem = Schema.results().problem(changed(table.get("base"), testCase));
            if ((problem == null) != testCase.get("valid").getAsBoolean()) wrong.add(testCase.get("why").getAsString() + ": " + problem);
        }
        assertEquals(List.of(), wrong);
        assertTrue(table.getAsJsonArray("cases").size() >= 40, "the table holds what it held");
    }

    private static JsonElement changed(JsonElement base, JsonObject testCase) {
        JsonElement doc = base.deepCopy();
        JsonArray path = testCase.getAsJsonArray("path");
        if (path.isEmpty()) return testCase.has("set") ? testCase.get("set") : doc;
        JsonElement target = doc;
        for (int i = 0; i < path.size() - 1; i++) target = step(target, path.get(i));
        JsonElement last = path.get(path.size() - 1);
        if (target.isJsonArray()) {
            target.getAsJsonArray().set(last.getAsInt(), testCase.get("set"));
        } else if (testCase.has("remove")) {
            target.getAsJsonObject().remove(last.getAsString());
        } else {
            target.getAsJsonObject().add(last.getAsString(), testCase.get("set"));
        }
        return doc;
    }

    private static JsonElement step(JsonElement at, JsonElement key) {
        return at.isJsonArray() ? at.getAsJsonArray().get(key.getAsInt()) : at.getAsJsonObject().get(key.getAsString());
    }

    @Test
    void messagesNameThePlaceAndRepeatAtMostALittleOfWhatWasHandedIn() {
        JsonObject run = Runs.run("java", "read", 4096, 0, 1000);
        assertNull(Schema.results().runProblem(run));
        run.addProperty("elapsed_ns", 0);
        assertEquals("run.elapsed_ns is 0, not above 0", Schema.results().runProblem(run));
        run.addProperty("elapsed_ns", 5);
        run.addProperty("op", "x".repeat(500));
        String message = Schema.results().runProblem(run);
        assertTrue(message.startsWith("run.op is \"xxx") && message.endsWith(", not one of read, write") && message.length() < 100, message);
        run.addProperty("op", "read");
        run.addProperty("y".repeat(500), 1);
        message = Schema.results().runProblem(run);
        assertTrue(message.startsWith("run has a field the course does not write: yyy") && message.length() < 100, message);
    }

    @Test
    void aKeywordTheKitDoesNotCheckIsRefusedNotIgnored() {
        JsonObject schema = JsonParser.parseString("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\", \"maxLength\": 3}}}").getAsJsonObject();
        String m = assertThrows(IllegalArgumentException.class, () -> new Schema(schema)).getMessage();
        assertEquals("data/results.schema.json/properties/a: the kit does not check maxLength", m);
    }

    /** Run, the typed view, has one accessor per field of the run record, and no field has none. */
    @Test
    void runHasAnAccessorForEachFieldOfTheRecord() {
        List<String> accessors = Arrays.stream(Run.class.getRecordComponents()).map(c -> c.getName()).toList();
        List<String> methods = Arrays.stream(Run.class.getDeclaredMethods())
                .filter(m -> java.lang.reflect.Modifier.isPublic(m.getModifiers()) && m.getParameterCount() == 0)
                .map(java.lang.reflect.Method::getName).filter(n -> !accessors.contains(n) && !List.of("toString", "hashCode").contains(n)).sorted().toList();
        List<String> fields = Schema.results().runFields().stream().map(SchemaTest::camel).sorted().toList();
        assertEquals(fields, methods);
    }

    private static String camel(String field) {
        StringBuilder s = new StringBuilder();
        for (String part : field.split("_")) s.append(s.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        return s.toString();
    }

    @Test
    void theTypedViewReadsWhatTheHarnessWrote() {
        JsonObject json = Runs.run("c", "read", 4096, 2, 1000);
        json.addProperty("checksum", new java.math.BigInteger("18446744073709551615"));
        Run run = new Run(json);
        assertEquals(2, run.run());
        assertEquals(1000, run.elapsedNs());
        assertEquals("18446744073709551615", Long.toUnsignedString(run.checksum()), "unsigned, as C prints it");
        assertNull(run.misses());
        assertNull(run.residentPct());
        assertNull(run.threadNs());
        assertEquals(0, run.threads());
        assertEquals(0, run.round(), "before the kit adds it");
    }

    @Test
    void aTypoInAFieldNameIsOneLineNamingTheFields() {
        Results r = new Results(List.of(Runs.run("c", "read", 4096, 0, 1000)));
        String m = assertThrows(IllegalArgumentException.class, () -> r.where("langauge", "c")).getMessage();
        assertTrue(m.startsWith("a run has no field langauge; it has snippet, language, "), m);
    }
}
