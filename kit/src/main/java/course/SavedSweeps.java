package course;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import course.record.Results;
import course.run.Runner;
import course.run.Sweep;
import course.show.Notebook;
import course.show.RunsTable;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The sweeps a results file saved (COURSE_LOAD: a batch job's, another machine's), handed to a lab's cells in place of
 * running them. A cell takes the sweep that is its own, known by what it ran, not by where it stands: the first not yet
 * taken whose runs are of the cell's cases (Runner.Invocation.caseFields), so a cell run twice, or a part skipped on one
 * machine and not the other, never hands one cell's runs to another. Where none is, the first not yet taken that holds
 * no runs (a sweep the saving machine could not run: there is nothing in it to misplace); else the cell is refused in
 * one line.
 */
final class SavedSweeps {
    private final Path file;
    private final List<Results> sweeps;
    private final boolean[] taken;

    SavedSweeps(Path file, List<Results> sweeps) {
        this.file = file;
        this.sweeps = List.copyOf(sweeps);
        this.taken = new boolean[sweeps.size()];
    }

    Path file() {
        return file;
    }

    /** The saved sweep of this cell's cases, shown as a run one is (see the class doc). */
    Results take(Sweep cell) {
        Set<Map<String, String>> cases = cell.invocations().stream().map(Runner.Invocation::caseFields).collect(Collectors.toSet());
        int at = first(i -> !sweeps.get(i).runs().isEmpty() && ofCases(sweeps.get(i), cases));
        if (at < 0) at = first(i -> sweeps.get(i).runs().isEmpty());
        if (at < 0) {
            throw new IllegalStateException("COURSE_LOAD=" + file + ": none of its " + sweeps.size() + " sweeps left is this cell's ("
                    + cell.snippet() + ", " + cases.size() + " case" + (cases.size() == 1 ? "" : "s") + " such as " + describe(cases)
                    + "): the lab changed since it was saved, or this cell ran twice; load results of this lab as it is now, or unset COURSE_LOAD");
        }
        taken[at] = true;
        Results sweep = sweeps.get(at);
        Notebook.html(RunsTable.html(sweep), sweep.toString());
        return sweep;
    }

    private int first(java.util.function.IntPredicate fits) {
        for (int i = 0; i < sweeps.size(); i++) if (!taken[i] && fits.test(i)) return i;
        return -1;
    }

    /** Whether every saved run is of one of the cases, and every case has runs. */
    private static boolean ofCases(Results saved, Set<Map<String, String>> cases) {
        Set<Map<String, String>> met = new HashSet<>();
        for (JsonObject run : saved.runs()) {
            Map<String, String> its = cases.stream().filter(c -> c.entrySet().stream().allMatch(f -> f.getValue().equals(text(run.get(f.getKey())))))
                    .findFirst().orElse(null);
            if (its == null) return false;
            met.add(its);
        }
        return met.equals(cases);
    }

    private static String text(JsonElement value) {
        if (value == null || value.isJsonNull()) return null;
        return value.getAsJsonPrimitive().isNumber() ? String.valueOf(value.getAsLong()) : value.getAsString();
    }

    /** One of the cases, in words ("file_size=131072 language=c op=read op_size=1 pattern=seq strategy=raw"). */
    private static String describe(Set<Map<String, String>> cases) {
        if (cases.isEmpty()) return "none";
        Map<String, String> one = new java.util.TreeMap<>(cases.iterator().next());
        one.remove("snippet");
        return one.entrySet().stream().map(field -> field.getKey() + "=" + field.getValue()).collect(Collectors.joining(" "));
    }

    /**
     * The one sweep of these whose runs hold exactly these values of each field named, "field=a,b" (its runs have a and b
     * there, and nothing else): found by what it is, not where it lies, so a lab whose cells ran in another order, or with
     * one more, hands each claim its own runs (ClaimsTest judges saved labs so). None or several such sweeps: an error
     * naming the fields.
     */
    static Results holding(List<Results> recorded, String... fields) {
        List<Results> found = new java.util.ArrayList<>();
        for (Results sweep : recorded) {
            boolean holds = true;
            for (String field : fields) {
                String name = field.substring(0, field.indexOf('='));
                Set<String> wanted = new java.util.TreeSet<>(List.of(field.substring(field.indexOf('=') + 1).split(",")));
                Set<String> there = new java.util.TreeSet<>();
                sweep.runs().forEach(run -> there.add(run.has(name) && !run.get(name).isJsonNull() ? run.get(name).getAsString() : ""));
                holds &= wanted.equals(there);
            }
            if (holds) found.add(sweep);
        }
        if (found.size() != 1) throw new IllegalArgumentException(found.size() + " of this lab's " + recorded.size() + " sweeps hold " + String.join(" ", fields));
        return found.get(0);
    }
}
