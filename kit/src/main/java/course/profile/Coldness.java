package course.profile;

import course.record.Results;
import course.record.Run;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What cold runs found here: whether they reached a slower device, how much of each file was still cached, and what cold cost. */
public final class Coldness {
    private Coldness() {
    }

    /** Slower than this many times the warm read, a cold read is taken to have reached a slower device. */
    static final double REACHES_DEVICE = 1.5;

    /**
     * One sentence on what "cold" means on this machine: how much of each file the harness found still
     * cached when a cold run's clock started (it measures it, mincore), and whether cold reads were
     * slower than warm ones, i.e. whether they reach a slower device at all.
     */
    public static String reading(Results warm, Results cold) {
        double warmMbPerS = warm.where("op", "read").median("mb_per_s", r -> true), coldMbPerS = cold.where("op", "read").median("mb_per_s", r -> true);
        // cold writes record no residency (nothing was read): only the reads say how cold the file was
        double resident = cold.typed().stream().map(Run::residentPct).filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).max().orElse(0);
        double slower = warmMbPerS / coldMbPerS;
        if (resident > Results.EVICTION_FAILED_PCT) {
            return String.format(Locale.ROOT, "Cold runs still found up to %.0f%% of the file in the page cache: eviction does not work on this "
                    + "file system (tmpfs, say), so \"cold\" figures here are warm ones.", resident);
        }
        if (slower < REACHES_DEVICE) {
            return String.format(Locale.ROOT, "Cold runs found at most %.1f%% of the file cached, yet read at %.1f× the warm speed: this "
                    + "machine's disk answers almost from memory (a virtual disk the host caches, say), so cold and warm figures here "
                    + "hardly differ.", resident, 1 / slower);
        }
        return String.format(Locale.ROOT, "Cold runs found at most %.1f%% of the file cached and read %.1f× slower than warm ones: on this "
                + "machine cold reads reach the device.", resident, slower);
    }

    /**
     * How cold each case's cold runs were: the most of its file a run still found cached (the harness measured it,
     * mincore). Where some cases stayed cached and others did not, eviction worked and something held those
     * cases' pages: the course's eviction (posix_fadvise) leaves pages a process still maps (a MappedByteBuffer the
     * garbage collector has not yet unmapped, say), so their "cold" figures are warm ones.
     */
    public static String ofCases(Results cold) {
        Map<String, Double> byCase = residentByCase(cold);
        List<String> cached = held(byCase);
        String each = byCase.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
        String line = "Still in the page cache when a cold run's clock started (the most of any run): " + each + ".";
        if (cached.isEmpty()) return line + " Every cold run began cold.";
        if (cached.size() == byCase.size()) return line + " Eviction did not work here (tmpfs, say): every \"cold\" figure is a warm one.";
        return line + " Eviction worked for the others, so the pages of " + String.join(", ", cached) + " were held: the course's eviction"
                + " (posix_fadvise) leaves pages a process still maps, so those \"cold\" figures are warm ones.";
    }

    /**
     * How many times longer cold reads took than the same reads warm: each cold case (language and way) over the same
     * case warm, then the geometric mean over the cases whose file eviction reached; the cases whose pages were held
     * (ofCases) are named and left out.
     */
    public static String cost(Results cold, Results warm) {
        List<String> held = held(residentByCase(cold));
        Results evicted = cold.where(r -> !held.contains(caseOf(r)));
        String without = held.isEmpty() ? "" : "; without " + String.join(", ", held) + ", whose pages stayed cached";
        double logSum = 0;
        int cases = 0;
        for (String c : residentByCase(evicted).keySet()) {  // like with like: a way's cold runs over its own warm ones
            Results mine = evicted.where(r -> caseOf(r).equals(c));
            Results same = warm.where(r -> caseOf(r).equals(c));
            if (same.runs().isEmpty()) continue;
            logSum += Math.log(mine.ratioTo(same, "median_ms", "cache"));
            cases++;
        }
        if (cases == 0) return "No cold run here found its file evicted and read warm too, so cold and warm reads cannot be told apart on this machine.";
        return String.format(Locale.ROOT, "Cold reads took %.1f× the time of the same reads from the page cache (geometric mean over %d way%s%s).",
                Math.exp(logSum / cases), cases, cases == 1 ? "" : "s", without);
    }

    /** Each cold case (language and way) and the most of its file any of its runs still found cached, in percent. */
    private static Map<String, Double> residentByCase(Results cold) {
        Map<String, Double> byCase = new LinkedHashMap<>();
        for (Map<String, Object> row : cold.summary()) {
            byCase.merge(caseOf(row.get("language"), row.get("method")), row.get("resident_pct") == null ? 0 : (Double) row.get("resident_pct"), Math::max);
        }
        return byCase;
    }

    /** The cases whose pages eviction did not reach: more than Results.EVICTION_FAILED_PCT of the file still cached. */
    private static List<String> held(Map<String, Double> residentByCase) {
        return residentByCase.keySet().stream().filter(c -> residentByCase.get(c) > Results.EVICTION_FAILED_PCT).toList();
    }

    private static String caseOf(Object language, Object method) {
        return language + " " + method;
    }

    /** A run's case: its language and way. */
    private static String caseOf(com.google.gson.JsonObject run) {
        return caseOf(run.get("language").getAsString(), Results.method(run));
    }
}
