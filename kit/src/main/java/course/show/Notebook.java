package course.show;

import course.base.Html;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.kernel.JavaKernel;
import org.dflib.jjava.kernel.JavaNotebookStatics;

/** Where the kit's output goes: the notebook when it runs inside the Java kernel, stdout otherwise. */
public final class Notebook {
    public static final String VEGA_LITE = "application/vnd.vegalite.v5+json";

    private static final Set<String> SHOWN = ConcurrentHashMap.newKeySet();

    private Notebook() {
    }

    /** The running kernel, or null outside one (unit tests, plain java). */
    static JavaKernel kernel() {
        try {
            return JavaNotebookStatics.kernel();
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    public static void html(String html, String text) {
        show(data(html, text), null);
    }

    /**
     * A chart, and under it its figures as a table, folded (where the chart names its columns: ChartTable.tabled). The
     * chart comes without vega-embed's menu of actions, whose button has no name a screen reader could say; the table
     * and the report's images give what it offered.
     */
    public static void chart(Map<String, Object> spec, String text) {
        DisplayData d = new DisplayData();
        d.putData(VEGA_LITE, spec);
        d.putMetaData(VEGA_LITE, Map.of("embed_options", Map.of("actions", false)));
        d.putText(text);
        show(d, null);
        String figures = ChartTable.figures(spec);
        if (!figures.isEmpty()) html(figures, "");
    }

    public static DisplayData data(String html, String text) {
        DisplayData d = new DisplayData();
        d.putHTML(html);
        d.putText(text);
        return d;
    }

    /** Shows d; with an id, the first call creates the output and later calls replace it in place. */
    public static void show(DisplayData d, String id) {
        JavaKernel k = kernel();
        if (k == null) {
            System.out.println(d.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.TEXT_PLAIN));
            return;
        }
        if (id == null) {
            k.display(d);
        } else if (!SHOWN.add(id)) {
            k.getIO().display.updateDisplay(id, d);
        } else {
            d.setDisplayId(id);
            k.display(d);
        }
    }


    /** A one-line status under a cell (what a long step is doing), shown or replaced in place under its id. */
    public static void status(String text, String id) {
        show(data("<small><code>" + Html.escape(text) + "</code></small>", text), id);
    }

    /** One line saying a tool or a way of doing it cannot run here, and why (the lab goes on without it). */
    public static void unavailable(String what, String why) {
        html("<p><b>" + Html.escape(what) + "</b>: not available here because " + Html.escape(why) + ".</p>",
                what + ": not available here because " + why + ".");
    }
}
