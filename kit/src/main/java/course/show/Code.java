package course.show;

import course.base.Html;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The course's own source shown in a lab: a function read from its file (never copied), alone or beside its twin. */
public final class Code {
    private Code() {
    }

    /** A function of a course file: the file it is in and its name. */
    public record Function(Path file, String name) {
        String code() {
            return extract(file, name);
        }
    }

    /** A row of a snippet's table of ways, as either harness declares it (Harness.Way, struct way). */
    private static final Pattern JAVA_WAY = Pattern.compile(
            "new Harness\\.Way<>\\(\"([^\"]+)\", (Harness\\.ANY|\"[a-z]+\"), (Harness\\.ANY|\"[a-z]+\"), (\\w+)::(\\w+)\\)");
    private static final Pattern C_WAY = Pattern.compile(
            "\\{\"([^\"]+)\", (ANY|\"[a-z]+\"), (ANY|\"[a-z]+\"), \\{\\.(?:whole|share|part) = (\\w+)\\}\\}");

    /**
     * The function a snippet's harness runs for these flags: the first row of its table of ways that serves them (the
     * harness's own rule). A Java row may name a method of another snippet's class (MpiFile's SharedFile::view).
     */
    public static Function way(Path snippet, String strategy, String op, String pattern) {
        boolean java = snippet.toString().endsWith(".java");
        Matcher row = (java ? JAVA_WAY : C_WAY).matcher(read(snippet));
        List<String> ways = new ArrayList<>();
        while (row.find()) {
            String rowOp = any(row.group(2)), rowPattern = any(row.group(3));
            ways.add(row.group(1) + " " + (rowOp == null ? "any" : rowOp) + " " + (rowPattern == null ? "any" : rowPattern));
            if (!row.group(1).equals(strategy) || rowOp != null && !rowOp.equals(op) || rowPattern != null && !rowPattern.equals(pattern)) continue;
            return java ? new Function(snippet.resolveSibling(row.group(4) + ".java"), row.group(5)) : new Function(snippet, row.group(4));
        }
        throw new IllegalArgumentException(snippet.getFileName() + " has no way " + strategy + " " + op + " " + pattern
                + " (its ways: " + String.join(", ", ways) + ")");
    }

    /** A row's operation or pattern: null where it serves any. */
    private static String any(String cell) {
        return cell.startsWith("\"") ? cell.substring(1, cell.length() - 1) : null;
    }

    /** A Java method and its C twin side by side, where both fit. */
    public static void pair(Function java, Function c) {
        String javaCode = java.code(), cCode = c.code();
        String html = "<div style='display:flex;flex-wrap:wrap;gap:1em'>" + box(java.file().getFileName() + " · " + java.name(), javaCode)
                + box(c.file().getFileName() + " · " + c.name(), cCode) + "</div>";
        Notebook.html(html, javaCode + "\n" + cCode);
    }

    /** One function or method of a file, titled with the name the learner knows it by (say "c-snippets/jni/bulkraf.c"). */
    public static void one(Path file, String title, String name) {
        String code = extract(file, name);
        Notebook.html(box(title + " · " + name, code), code);
    }

    /**
     * A snippet's code, as wide as its longest line: side by side with its twin where both fit, one above the other
     * where they do not (a clipped line hides the strategy), scrolling sideways only on a screen narrower than one line.
     * The box takes the code's font so that its width in ch is the code's own.
     */
    private static String box(String title, String code) {
        int widest = code.lines().mapToInt(String::length).max().orElse(0);
        return "<div style='flex:1 1 " + (widest + 4) + "ch;min-width:0;font-family:var(--jp-code-font-family,monospace);font-size:85%'>"
                + "<b style='font-family:var(--jp-content-font-family,system-ui,sans-serif);font-size:117.6%'>" + Html.escape(title) + "</b>"
                + Html.scrolling(title, code, "font-size:inherit;font-family:inherit") + "</div>";
    }

    /** A static method or function's source: from the line that declares it to the closing brace at its indentation. */
    public static String extract(Path file, String name) {
        Pattern declaration = Pattern.compile("\\s*(static|JNIEXPORT|public|private)\\b[^(=]*[\\s*]" + Pattern.quote(name) + "\\(.*");
        List<String> lines = read(file).lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!declaration.matcher(line).matches() || line.strip().endsWith(";")) continue;  // not a prototype
            String indent = line.substring(0, line.indexOf(line.strip()));
            StringBuilder out = new StringBuilder();
            for (int j = i; j < lines.size(); j++) {
                out.append(lines.get(j).startsWith(indent) ? lines.get(j).substring(indent.length()) : lines.get(j)).append('\n');
                if (j > i && lines.get(j).equals(indent + "}")) return out.toString();
            }
        }
        throw new IllegalArgumentException("static " + name + "(...) not found in " + file);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
