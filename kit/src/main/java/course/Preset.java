package course;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** One lab's sizes in one preset, read from labs/presets.json (never retyped in a notebook). */
public record Preset(String lab, String name, JsonObject values) {
    public long size(String key) {
        return Course.parseSize(get(key).getAsString());
    }

    public List<Long> sizes(String key) {
        List<Long> out = new ArrayList<>();
        for (JsonElement e : get(key).getAsJsonArray()) out.add(Course.parseSize(e.getAsString()));
        return out;
    }

    public int count(String key) {
        return get(key).getAsInt();
    }

    public double minutes() {
        return get("minutes").getAsDouble();
    }

    /** The preset's file and operation sizes as a learner reads them: "size 128m · map_sizes 16k, 256k, 4m, 64m". */
    public String sizesLine() {
        List<String> parts = new ArrayList<>();
        for (var e : values.entrySet()) {
            if (!e.getKey().contains("size")) continue;
            List<String> shown = new ArrayList<>();
            if (e.getValue().isJsonArray()) e.getValue().getAsJsonArray().forEach(v -> shown.add(v.getAsString()));
            else shown.add(e.getValue().getAsString());
            parts.add(e.getKey().replace('_', ' ') + " " + String.join(", ", shown));
        }
        return String.join(" · ", parts);
    }

    private JsonElement get(String key) {
        if (!values.has(key)) throw new IllegalArgumentException("preset " + name + " of lab " + lab + " has no '" + key + "'");
        return values.get(key);
    }
}
