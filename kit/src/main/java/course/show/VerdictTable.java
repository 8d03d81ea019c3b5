package course.show;

import course.base.Html;
import course.judge.Context;
import course.judge.Published;
import course.judge.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** A lab's verdicts as a learner reads them: the table, the course's readings and what is left unjudged; the then-and-here table. */
public final class VerdictTable {
    private VerdictTable() {
    }

    /** The verdict table, the readings of the studies' words folded under it, and the statements of this lab not judged, with why. */
    public static void show(List<Verdict> list, List<Published.NotJudged> left) {
        Html.Table table = new Html.Table("claim", "where", "published", "measured here [95% interval]", "verdict", "rule", "why").left(0, 5, 6)
                .caption("The studies' claims this lab judges, each against this machine's runs").scrolls("the verdicts");
        StringBuilder t = new StringBuilder();
        for (Verdict v : list) {
            table.row(v.claim().statement(), v.claim().citation(), v.claim().shown(), v.measured(), Html.badge(v.outcome(), Verdict.color(v.outcome())),
                    Html.raw("<small>" + Html.escape(v.rule()) + "</small>"), v.why());
            t.append(String.format(Locale.ROOT, "%-9s %s | published %s | measured %s%n", v.outcome(), v.claim().id(),
                    v.claim().shown(), v.measured()));
        }
        StringBuilder h = new StringBuilder(table.html());
        List<Verdict> read = list.stream().filter(v -> !v.reading().isEmpty()).toList();
        if (!read.isEmpty()) {
            Html.Table readings = new Html.Table("claim", "the course's reading").left(0, 1)
                    .caption("Where a study's words leave room, how the course reads them");
            t.append("How this lab reads the studies' words:").append(System.lineSeparator());
            for (Verdict v : read) {
                readings.row(v.claim().statement(), v.reading());
                t.append("  ").append(v.claim().id()).append(": ").append(v.reading()).append(System.lineSeparator());
            }
            h.append(Html.fold("How this lab reads the studies' words (" + read.size() + (read.size() == 1 ? " row)" : " rows)"), readings.html()));
        }
        if (!left.isEmpty()) {
            Html.Table notJudged = new Html.Table("statement", "where", "why it is not judged here").left(0, 2)
                    .caption("Statements of the studies that belong to this lab, left unjudged");
            left.forEach(n -> notJudged.row(n.claim().statement(), n.claim().citation(), n.reason()));
            h.append(Html.fold(left.size() + " more statements of the studies belong to this lab but are not judged here, and why", notJudged.html()));
            t.append(left.size()).append(" more statements not judged here (see data/not-judged.csv)").append(System.lineSeparator());
        }
        Notebook.html(h.toString(), t.toString());
    }

    /**
     * The judging class's source (a class of course.claims, at `file` under the course), folded: what each row
     * compares, for a reader who wants the detail. Nothing where the course has no sources (grading reads the built kit only).
     */
    public static void judgedBy(Path home, String file) {
        Path source = home.resolve(file);
        if (!Files.isReadable(source)) return;
        try {
            String code = Files.readString(source);
            code = code.substring(code.indexOf("/**"));  // from the class's own comment: no package line, no imports
            Notebook.html(Html.fold("How each row is judged: " + Html.escape(file), Html.scrolling(file, code, "font-size:85%")), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The studies' absolute figures beside this machine's, with no outcome: hardware moved on, so the course judges ratios and shapes. */
    public static void thenAndHere(List<Context> list) {
        Html.Table table = new Html.Table("figure", "where", "then (the study's machine)", "here", "what differs").left(0, 4)
                .caption("The studies' own figures beside this machine's (not judged: the hardware moved on)").scrolls("then and here");
        StringBuilder t = new StringBuilder();
        for (Context c : list) {
            table.row(c.claim().statement(), c.claim().citation(), c.claim().shown(), c.here(), c.note());
            t.append(String.format(Locale.ROOT, "then %s | here %s | %s%n", c.claim().shown(), c.here(), c.claim().id()));
        }
        Notebook.html(table.html(), t.toString());
    }
}
