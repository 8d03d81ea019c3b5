package course.record;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * How runs of two Results are set side by side: a case's key over some of its fields, the fields that say what work was
 * done (less those that may differ), and the geometric mean of ratios over every pair of cases with one key.
 */
final class Matching {
    /** The fields that say what work was done, as opposed to how (x-workload in the schema): not the snippet, strategy, buffer, lock, JDK or compiler. */
    static final List<String> WORKLOAD = Schema.results().runFields("x-workload");

    private Matching() {
    }

    /**
     * The geometric mean of a / b over every pair of cases with the same key (positive values only). No pair at all
     * is a mistake of the caller's (thrown); pairs with no positive values (no CPU time registered) give NaN: not measured.
     */
    static double geometricMeanRatio(List<Map.Entry<String, Double>> a, List<Map.Entry<String, Double>> b, String noneMessage) {
        double logSum = 0;
        int pairs = 0, n = 0;
        for (var x : a) {
            for (var y : b) {
                if (!x.getKey().equals(y.getKey())) continue;
                pairs++;
                if (!(x.getValue() > 0) || !(y.getValue() > 0)) continue;
                logSum += Math.log(x.getValue() / y.getValue());
                n++;
            }
        }
        if (pairs == 0) throw new IllegalArgumentException(noneMessage);
        return n == 0 ? Double.NaN : Math.exp(logSum / n);
    }

    /** The fields that say what work was done, less those named in mayDiffer (each must be one of them). */
    static List<String> workload(String... mayDiffer) {
        List<String> differ = List.of(mayDiffer);
        for (String f : differ) {
            if (!WORKLOAD.contains(f)) throw new IllegalArgumentException(f + " is not one of " + WORKLOAD);
        }
        return WORKLOAD.stream().filter(f -> !differ.contains(f)).toList();
    }

    /** A summary row's key: its values of these fields, in order. */
    static String key(Map<String, Object> row, List<String> fields) {
        StringBuilder k = new StringBuilder();
        for (String field : fields) k.append(row.get(field)).append('|');
        return k.toString();
    }

    /** A run's key, the same as its summary row's (a missing or null field is empty). */
    static String key(JsonObject r, List<String> fields) {
        StringBuilder k = new StringBuilder();
        for (String field : fields) {
            JsonElement e = r.get(field);
            k.append(e == null || e.isJsonNull() ? "" : e.getAsJsonPrimitive().isNumber() ? (Object) e.getAsLong() : e.getAsString()).append('|');
        }
        return k.toString();
    }
}
