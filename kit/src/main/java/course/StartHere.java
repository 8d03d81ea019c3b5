package course;

import course.base.Course;
import course.base.Html;
import course.record.Results;
import course.show.Notebook;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/** What lab 00 found on this machine, for the labs after it: its page-cache ceiling and its sentence on cold reads. */
public final class StartHere {
    static final String LAB = "00-start-here";

    private StartHere() {
    }

    /** The page-cache ceiling rule, the one place it is stated: the median MB/s of lab 00's C warm-cache runs of op. */
    public static OptionalDouble ceilingOf(Results startHere, String op) {
        Results warm = startHere.where("language", "c").where("cache", "warm").where("op", op);
        return warm.runs().isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(warm.median("mb_per_s", r -> true));
    }

    /**
     * This machine's page-cache ceiling for an operation ("read" or "write") from the newest results lab 00 saved here
     * in a real preset, shown in a line; NaN, with a note, when lab 00 has not been run yet or its results cannot be read.
     */
    static double ceiling(String op) {
        Optional<ResultsFile> saved;
        try {
            saved = ResultsFile.newest(Course.results(), LAB);
        } catch (IllegalStateException | UncheckedIOException unreadable) {
            Notebook.html("<small>No ceiling: " + Html.escape(unreadable.getMessage()) + "</small>", "no ceiling: " + unreadable.getMessage());
            return Double.NaN;
        }
        OptionalDouble ceiling = saved.map(s -> ceilingOf(s.allRuns(), op)).orElse(OptionalDouble.empty());
        if (ceiling.isEmpty()) {
            Notebook.html("<small>No ceiling yet: run lab 00 once on this machine to see your page-cache ceiling here.</small>",
                    "no ceiling: run lab 00 first");
            return Double.NaN;
        }
        double mbPerS = ceiling.getAsDouble();
        Notebook.html(String.format(Locale.ROOT, "<small>Page-cache ceiling from lab 00 (%s.json): C %s, warm cache, %,.0f MB/s</small>",
                Html.escape(saved.get().name()), op, mbPerS), "ceiling " + op + " " + mbPerS);
        return mbPerS;
    }

    /** Repeats lab 00's sentence on whether cold reads reach a slower device here (labs with cold runs show it beside them). */
    static void showColdReading() {
        String line;
        try {
            line = ResultsFile.newest(Course.results(), LAB).filter(s -> s.coldReading() != null)
                    .map(s -> "Lab 00 found on this machine: " + s.coldReading())
                    .orElse("Run lab 00 once on this machine to learn whether its cold reads reach a slower device.");
        } catch (IllegalStateException | UncheckedIOException unreadable) {
            line = unreadable.getMessage();
        }
        Notebook.html("<p><small>" + Html.escape(line) + "</small></p>", line);
    }
}
