package course.claims;

import course.Guess;
import course.Lab;
import course.base.Course;
import course.base.Html;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.record.Results;
import course.record.Run;
import course.show.Notebook;
import course.show.ReferenceBars;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Lab 05's claims (Lord and Reddy: reading lines of text), judged at the white paper's 250 KB file on its steps
 * (`step1`: DataInputStream.readLine unbuffered; `steps`: each later step) and on what the readers made of a UTF-8
 * file (`kinds`).
 */
public final class Lab05 {
    private Lab05() {
    }

    /** Each later step (a method as the tables name it) and the white paper's series for it (its tables' row names). */
    private static final Map<String, String> STUDY_SERIES = Map.of("datainput-buffered 2k", "datainputstream-bufferedinputstream",
        "reader 1k", "bufferedreader-1024", "reader 8k", "bufferedreader-8192", "own-reader", "bufferedfilereader");
    private static final List<String> LATER_STEPS = List.of("datainput-buffered 2k", "reader 1k", "reader 8k", "own-reader", "chars");

    /**
     * One chart per file size: each later step's time over step 1's on this machine (bars, with intervals) and the white paper's
     * ratio for the same step from its tables (ticks); the hand-kept char[] loop has no table entry, so no tick.
     */
    public static void stepsBesideTheStudy(Lab lab, Results step1, Results steps) {
        for (long size : lab.preset().sizes("sizes")) {
            Results first = step1.where("file_size", size);
            List<Map<String, Object>> bars = new ArrayList<>(), ticks = new ArrayList<>();
            String kb = String.valueOf(size / 1024);
            var studyStepOne = lab.published().find("Lord & Reddy", "text-readline", "datainputstream-readline", kb);
            for (String method : LATER_STEPS) {
                Results mine = steps.where("file_size", size).method(method);
                bars.add(ReferenceBars.bar(method, Estimate.of(d -> d.from(mine).ratioTo(d.from(first)))));
                var study = lab.published().find("Lord & Reddy", "text-readline", STUDY_SERIES.getOrDefault(method, ""), kb);
                if (study != null && studyStepOne != null) ticks.add(ReferenceBars.mark(method, study.value() / studyStepOne.value(), "Lord & Reddy, " + study.where()));
            }
            lab.chart(ReferenceBars.logBars(bars, ticks, "time ÷ step 1's time", Course.formatBytes(size) + " file: each step against DataInputStream.readLine"));
        }
    }

    /** What each reader made of each kind of text: its lines and the sum of their characters, one row per run. */
    public static void linesAndCharacters(Results kinds) {
        Html.Table table = new Html.Table("language", "reader", "text", "lines", "sum of characters").left(0, 1, 2)
                .caption("What each reader made of each text: alike, or one of them is wrong");
        StringBuilder text = new StringBuilder();
        for (Run run : kinds.typed()) {
            table.row(run.language(), run.strategy(), run.text(), String.format(java.util.Locale.ROOT, "%,d", run.ops()), String.format(java.util.Locale.ROOT, "%,d", run.checksum()));
            text.append(String.format(java.util.Locale.ROOT, "%-5s %-20s %-6s %8d lines  sum of characters %,14d%n", run.language(), run.strategy(), run.text(), run.ops(), run.checksum()));
        }
        Notebook.html(table.html(), text.toString());
    }

    public static void judge(Lab lab, Results step1, Results steps, Results kinds) {
        lab.verdicts(Lab05.class, verdicts(lab, step1, steps, kinds));
    }

    public static List<Verdict> verdicts(Lab lab, Results step1, Results steps, Results kinds) {
        Results at250 = at250(lab, step1, steps);
        Results utf8 = kinds.where("text", "utf8");
        List<Long> sizes = lab.preset().sizes("sizes");
        Results chained = step1.and(steps).where("text", "lf");
        boolean mangled = utf8.where("strategy", "datainput-buffered").typed().get(0).checksum() != utf8.where("strategy", "reader").typed().get(0).checksum();
        String smallStep = "a step this small between reads of about a millisecond is within how far one process's runs can land from the next's (see the noise"
            + " floor above); paper keeps each process reading for about 100 ms.";
        return List.of(
            Verdict.change(lab.claim("lord-reddy.text-readline.datainputstream-bufferedinputstream-seq-change.250kb"),
                bufferingChange(at250),
                Why.ifLower("One system call per byte costs even more next to today's fast line handling: buffering removes nearly all of the time.")),
            Verdict.inPaper(lab.preset().name(), Verdict.change(lab.claim("lord-reddy.text-readline.bufferedreader-1024-seq-change.250kb"),
                Estimate.ofChange(d -> d.from(at250).strategies("reader").where("buffer_size", "1024").percentChange(d.from(at250).strategies("datainput-buffered").where("buffer_size", "2048"))),
                Why.ifHigher("DataInputStream.readLine no longer costs more than BufferedReader, which also decodes bytes into chars: the JIT compiles both to tight loops.")
                   .orIfLower("DataInputStream.readLine still calls the buffered stream's read() once per byte, each call taking the stream's lock, while BufferedReader scans its char array in one loop: the gap grew.")),
                "between reads of about a millisecond this step's figure lies close to the edge of the range where the claim holds, and a quick pass's"
                    + " interval can reach across it even with five rounds; like the smaller steps at 250 KB."),
            Verdict.inPaper(lab.preset().name(), Verdict.change(lab.claim("lord-reddy.text-readline.bufferedreader-8192-seq-change.250kb"),
                Estimate.ofChange(d -> d.from(at250).strategies("reader").where("buffer_size", "8192").percentChange(d.from(at250).strategies("reader").where("buffer_size", "1024"))),
                Why.ifHigher("A refill of a 1024-character buffer is a page-cache copy costing far less than the lines it holds.")), smallStep),
            Verdict.inPaper(lab.preset().name(), Verdict.change(lab.claim("lord-reddy.text-readline.bufferedfilereader-seq-change.250kb"),
                Estimate.ofChange(d -> d.from(at250).strategies("own-reader").where("buffer_size", "0").percentChange(d.from(at250).strategies("reader").where("buffer_size", "8192"))),
                Why.ifHigher("Today's BufferedReader and String constructors are already well tuned: one copy fewer hardly shows.")), smallStep),
            Verdict.cut(lab.claim("lord-reddy.text-readline.stream-chaining-average-reduction"),
                Estimate.ofCut(d -> sizes.stream().mapToDouble(size -> d.from(chained).where("file_size", size).strategies("reader").where("buffer_size", "8192")
                    .cut(d.from(chained).where("file_size", size).strategies("datainput").where("buffer_size", "0"))).average().orElse(Double.NaN)),
                Why.ifHigher("One system call per byte costs even more next to today's fast line handling: chaining a buffer removes nearly all of the time."))
                .withReading("\"Increased an average of 97%\" as 97% less time, averaged over the files: BufferedReader (8,192) against plain DataInputStream.")
                .at("mean over " + sizes.size() + " files of " + sizes.stream().map(Course::formatBytes).collect(java.util.stream.Collectors.joining(", "))
                    + "; study: 100, 250 and 500 KB"),
            Verdict.cut(lab.claim("lord-reddy.text-readline.summary-bufferedfilereader-further-reduction.250kb"),
                Estimate.ofCut(d -> d.from(at250).strategies("own-reader").where("buffer_size", "0").cut(d.from(at250).strategies("datainput-buffered").where("buffer_size", "2048"))),
                Why.ifLower("DataInputStream.readLine over a buffered stream is not the cost it was: the JIT compiles its byte loop, so a hand-made reader saves less.")
                   .orIfHigher("DataInputStream.readLine still takes the buffered stream's lock once per byte; a hand-made reader over a char array saves more than it did."))
                .withReading("\"Cuts performance time by another 75%\" as 75% of the buffered DataInputStream's time, at 250 KB."),
            Verdict.ratio(lab.claim("lord-reddy.text-readline.bufferedfilereader-over-datainputstream"),
                Estimate.of(d -> d.from(at250).strategies("datainput").where("buffer_size", "0").median("median_ms") / d.from(at250).strategies("own-reader").where("buffer_size", "0").median("median_ms")),
                Why.ifHigher("Step 1's system call per byte weighs more next to the rest than on the white paper's SPARCstation 5: line handling got faster than entering the kernel.")
                   .orIfLower("Step 1's system call per byte weighs less next to the rest than on the white paper's SPARCstation 5."))
                .withReading("\"As much as 45 times faster\", the white paper's largest over its three files, judged at 250 KB: plain DataInputStream's time over BufferedFileReader's."),
            Verdict.ratio(lab.claim("lord-reddy.text-readline.char-arrays-over-bufferedfilereader"),
                stringCost(at250),
                Why.ifLower("Allocating a short-lived String is cheap for today's garbage collectors: the char[] loop saves less."))
                .withReading("\"As much as 3 times faster\", the largest over the three files, judged at 250 KB: BufferedFileReader's time over the char[] loop's."),
            Verdict.inPaper(lab.preset().name(), Verdict.cut(lab.claim("lord-reddy.buffer-size.larger-buffer-gain.high"),
                Estimate.ofCut(d -> d.from(steps).where("strategy", "reader").where("buffer_size", "8192").cut(d.from(steps).where("strategy", "reader").where("buffer_size", "1024"))),
                Why.ifLower("Refilling a small buffer costs little on a fast page cache.")), smallStep)
                .withReading("\"Improvements ranging from 3% to 13%\": the top, 13%, as the time an 8,192-character buffer saves over a 1,024-character one, over all the files."),
            Verdict.claim(lab.claim("lord-reddy.text-readline.readline-deprecated"), mangled ? Verdict.Seen.AS_CLAIMED : Verdict.Seen.OPPOSITE,
                mangled ? "on the utf8 file, readLine's characters summed differently from BufferedReader's (same line count)"
                    : "on the utf8 file, readLine's characters summed as BufferedReader's",
                "holds when DataInputStream.readLine's characters differ from BufferedReader's on the utf8 file (its lines hold non-ASCII"
                    + " characters); reversed when they are the same",
                "readLine decoded the non-ASCII characters as BufferedReader did: this JDK's readLine converts bytes to characters properly.")
                .withReading("\"Does not properly handle Unicode\" as: on a UTF-8 file with non-ASCII characters, readLine's characters differ from BufferedReader's."));
    }

    /** The learner's guesses beside this run: step 2's saving at 250 KB, a String per line, and the best Java reader over C's getline (big file). */
    public static void againstYourGuesses(Lab lab, Results step1, Results steps, Results big, double bufferingCut, double stringCost, double javaOverC) {
        Results at250 = at250(lab, step1, steps);
        Results javaWays = big.strategies("reader", "own-reader", "chars", "files-lines", "files-readalllines", "files-reader", "files-readstring");
        System.out.println(String.format(Locale.ROOT, "%s; here buffering saved %s of step 1's time, a String per line took %s the time of chars,"
                + " and the best Java reader %s C getline's time.",
            Guess.said("%.0f%%, %.1f× and %.1f×", bufferingCut, stringCost, javaOverC),
            bufferingChange(at250).map(change -> -change).format("%.0f%%"),  // the time saved: a change of −92% saved 92%
            stringCost(at250).format("%.2f×"),
            Estimate.of(d -> d.from(javaWays).lowestStrategyMedian("median_ms") / d.from(big).where("strategy", "getline").median("median_ms", r -> true))
                .format("%.2f×")));  // the fastest Java way's median time over C's
    }

    /** The runs of the steps on the preset's verdict-size file (the white paper's 250 KB). */
    static Results at250(Lab lab, Results step1, Results steps) {
        return step1.and(steps).where("file_size", String.valueOf(lab.preset().size("verdict_size")));
    }

    /** Step 2 against step 1: the change in time, in percent, when a 2 KB BufferedInputStream comes under readLine. */
    static Estimate bufferingChange(Results at250) {
        return Estimate.ofChange(d -> d.from(at250).strategies("datainput-buffered").where("buffer_size", "2048").percentChange(d.from(at250).strategies("datainput").where("buffer_size", "0")));
    }

    /** What a String per line costs: our own reader's time over the char[] loop's, which makes none. */
    static Estimate stringCost(Results at250) {
        return Estimate.of(d -> d.from(at250).strategies("own-reader").where("buffer_size", "0").median("median_ms") / d.from(at250).strategies("chars").where("buffer_size", "0").median("median_ms"));
    }
}
