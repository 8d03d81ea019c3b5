package course;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.base.Course;
import course.base.Html;
import course.show.Notebook;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * What a learner keeps, hands in and compares: their notebooks and results in one zip, laid out one way (lab.keep()'s
 * download, since Binder deletes a session's files after it idles; make handin's hand-in, checked), and the course's
 * answers to a lab's exercises, folded, for after trying.
 */
final class Learner {
    /** The download's name, beside the notebooks (JupyterLab serves files only from the folder it opened). */
    static final String KEEP = "my-work.zip";

    private Learner() {
    }

    /**
     * Packs the notebooks in `notebooks` (at the zip's top) and every results file in `results` (under results/, as a
     * hand-in holds them) into notebooks/my-work.zip, written whole or not at all. Returns it, with how much it holds.
     */
    static Kept pack(Path notebooks, Path results) throws IOException {
        return write(notebooks.resolve(KEEP), list(notebooks, "*.ipynb"), list(results, "*.json"), null);
    }

    /**
     * make handin: the learner's copies of the course's labs (in notebooks; no other notebook) and every results file
     * their labs saved (in results), each one a lab's results (ResultsFile.problem), laid out as pack lays them out, with
     * learner.txt naming the learner, in outDir/handin-LEARNER.zip. A file that is not a lab's results stops it in one
     * line (IllegalArgumentException), and no zip is left.
     */
    static Kept handin(String learner, Path results, Path notebooks, Path outDir) throws IOException {
        List<Path> saved = list(results, "*.json");
        if (saved.isEmpty()) throw new IllegalArgumentException("no results in " + results + " (run a lab first; each saves its results there)");
        for (Path file : saved) {
            String problem;
            try (InputStream in = Files.newInputStream(file)) {
                problem = ResultsFile.check(in.readNBytes(ResultsFile.MAX_BYTES + 1)).problem();  // as the class's view will read it
            }
            if (problem != null) throw new IllegalArgumentException(file + ": " + problem);
        }
        List<String> labs = list(Course.home().resolve("labs"), "[0-9][0-9]-*.ipynb").stream().map(p -> p.getFileName().toString()).toList();
        List<Path> pages = list(notebooks, "*.ipynb").stream().filter(p -> labs.contains(p.getFileName().toString())).toList();
        Files.createDirectories(outDir);
        return write(outDir.resolve("handin-" + learner + ".zip"), pages, saved, learner);
    }

    /** `handin ID RESULTS NOTEBOOKS OUT` (tools/classroom_handin.py): handin, said in one line; a refusal in one line on stderr, exit 2. */
    public static void main(String[] args) throws IOException {
        try {
            if (args.length != 5 || !args[0].equals("handin")) throw new IllegalArgumentException("usage: course.Learner handin ID RESULTS NOTEBOOKS OUT");
            Kept k = handin(args[1], Path.of(args[2]), Path.of(args[3]), Path.of(args[4]));
            System.out.println("hand in this file: " + k.zip() + " (" + k.notebooks() + " notebooks, " + k.results() + " results)");
        } catch (IllegalArgumentException refused) {
            System.err.println("classroom: " + refused.getMessage());
            System.exit(2);
        }
    }

    /** Notebooks at the zip's top, results under results/, and learner.txt where a learner is named: written whole or not at all. */
    private static Kept write(Path zip, List<Path> pages, List<Path> saved, String learner) throws IOException {
        Path partial = Files.createTempFile(zip.getParent(), "." + zip.getFileName() + "-", ".partial");
        try {
            try (OutputStream out = Files.newOutputStream(partial); ZipOutputStream z = new ZipOutputStream(out)) {
                if (learner != null) {
                    z.putNextEntry(new ZipEntry("learner.txt"));
                    z.write((learner + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    z.closeEntry();
                }
                for (Path p : pages) add(z, p, p.getFileName().toString());
                for (Path p : saved) add(z, p, "results/" + p.getFileName());
            }
            Files.move(partial, zip, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
        return new Kept(zip, pages.size(), saved.size(), Files.size(zip));
    }

    record Kept(Path zip, int notebooks, int results, long bytes) {
    }

    /** The files of a folder matching a glob, by name, leaving out hidden ones (a save under way is .saving-*). */
    private static List<Path> list(Path folder, String glob) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(folder)) return out;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, glob)) {
            for (Path p : files) if (Files.isRegularFile(p) && !p.getFileName().toString().startsWith(".")) out.add(p);
        }
        out.sort(null);
        return out;
    }

    private static void add(ZipOutputStream z, Path file, String name) throws IOException {
        z.putNextEntry(new ZipEntry(name));
        Files.copy(file, z);
        z.closeEntry();
    }

    /** lab.keep(): the pack, shown as a link to download; one line, never an exception, where it cannot be made. */
    static void keep(Path notebooks, Path results, Path sources) {
        if (notebooks.equals(sources)) {
            System.out.println("lab.keep() packs your own copies of the labs (make lab opens them, in my-labs/); "
                    + "this notebook is the course's source in " + sources + ", so nothing was packed.");
            return;
        }
        try {
            Kept k = pack(notebooks, results);
            String line = String.format(Locale.ROOT, "%s: %d notebook(s) as last saved and %d results file(s), %s.", KEEP, k.notebooks(),
                    k.results(), Course.formatBytes(k.bytes()));
            Notebook.html("<p><a href='" + KEEP + "' download='" + KEEP + "' style='text-decoration:underline'><b>Download " + KEEP + "</b></a>: " + Html.escape(line)
                    + " Save the notebook first (Ctrl+S) for its latest state. To pick up later, upload the notebook "
                    + "(and the results, into <code>data/results/</code>) to a new session.</p>", line);
        } catch (IOException | RuntimeException e) {
            System.out.println("Could not write " + notebooks.resolve(KEEP) + " (" + e.getMessage() + "); "
                    + "from a terminal, make handin ID=<your id> packs the same.");
        }
    }

    /** The teacher's switch for the answers (the course hub sets it): on, or off for an assessed class. */
    static final String ANSWERS = "COURSE_ANSWERS";

    /**
     * lab.answers(): the course's answer to each exercise of the lab, read from its source notebook, each folded; unless
     * the teacher turned them off (switch: the value of COURSE_ANSWERS, null when unset).
     */
    static void answers(Path source, String switchValue) {
        if ("off".equals(switchValue)) {
            System.out.println("Your teacher has turned the course's answers off for this class while it is assessed: "
                    + "ask them when they will be open again.");
            return;
        }
        if (switchValue != null && !switchValue.isEmpty() && !switchValue.equals("on")) {
            System.out.println(ANSWERS + "=" + switchValue + " is neither on nor off, so the answers stay closed: your teacher can set it right.");
            return;
        }
        if (!Files.isReadable(source)) {
            System.out.println("The course's answers are not available here (" + source + " cannot be read).");
            return;
        }
        String markdown;
        try {
            markdown = answersMarkdown(JsonParser.parseString(Files.readString(source)).getAsJsonObject());
        } catch (IOException | RuntimeException e) {
            System.out.println("The course's answers could not be read from " + source + " (" + e.getMessage() + ").");
            return;
        }
        var d = new org.dflib.jjava.jupyter.kernel.display.DisplayData();
        d.putMarkdown(markdown);
        d.putText(markdown);
        Notebook.show(d, null);
    }

    /** The solution cells of an nbgrader source notebook, each in a folded block named after its exercise. */
    static String answersMarkdown(JsonObject notebook) {
        StringBuilder out = new StringBuilder();
        for (JsonElement e : notebook.getAsJsonArray("cells")) {
            JsonObject cell = e.getAsJsonObject();
            JsonObject meta = cell.has("metadata") ? cell.getAsJsonObject("metadata") : new JsonObject();
            JsonObject grading = meta.has("nbgrader") ? meta.getAsJsonObject("nbgrader") : null;
            if (grading == null || !grading.has("solution") || !grading.get("solution").getAsBoolean()) continue;
            String text = source(cell);
            String id = grading.has("grade_id") ? grading.get("grade_id").getAsString() : "an exercise";
            out.append("<details><summary style='padding:3px 0'>The course's answer to <code>").append(Html.escape(id)).append("</code></summary>\n\n");
            if ("code".equals(cell.get("cell_type").getAsString())) {
                out.append("```java\n").append(text.lines().filter(l -> !l.contains("BEGIN SOLUTION") && !l.contains("END SOLUTION"))
                        .reduce("", (a, b) -> a + b + "\n")).append("```\n");
            } else {
                out.append(text.replace("<details>", "").replace("</details>", "").replaceFirst("<summary>[^<]*</summary>", "")).append('\n');
            }
            out.append("\n</details>\n\n");
        }
        return out.isEmpty() ? "This lab has no exercise with an answer to show." : out.toString();
    }

    private static String source(JsonObject cell) {
        JsonElement s = cell.get("source");
        if (s.isJsonPrimitive()) return s.getAsString();
        StringBuilder b = new StringBuilder();
        s.getAsJsonArray().forEach(line -> b.append(line.getAsString()));
        return b.toString();
    }
}
