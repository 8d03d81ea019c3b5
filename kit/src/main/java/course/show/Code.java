package course.show;

import course.base.Html;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** The course's own source shown in a lab: a function read from its file (never copied), alone or beside its twin. */
public final class Code {
    private Code() {
    }

    /** A Java method and its C twin side by side, where both fit. */
    public static void pair(Path javaFile, String javaMethod, Path cFile, String cFunction) {
        String java = extract(javaFile, javaMethod), c = extract(cFile, cFunction);
        String html = "<div style='display:flex;flex-wrap:wrap;gap:1em'>" + box(javaFile.getFileName() + " · " + javaMethod, java)
                + box(cFile.getFileName() + " · " + cFunction, c) + "</div>";
        Notebook.html(html, java + "\n" + c);
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
                + "<pre style='font-size:inherit;font-family:inherit;white-space:pre;overflow-x:auto'>" + Html.escape(code) + "</pre></div>";
    }

    /** A static method or function's source: from the line that declares it to the closing brace at its indentation. */
    public static String extract(Path file, String name) {
        Pattern declaration = Pattern.compile("\\s*(static|JNIEXPORT|public|private)\\b[^(=]*[\\s*]" + Pattern.quote(name) + "\\(.*");
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
}
