package course.base;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HtmlTest {
    @Test
    void everyTextIsEscapedAndOnlyRawMarkupPassesThrough() {
        String html = new Html.Table("a<b", "c").left(1).caption("x & y")
                .row("<script>alert(1)</script>", Html.raw("<b>bold</b>"))
                .row("it's", Html.coloured("holds", "#2b8a3e")).html();
        assertEquals("<table><caption>x &amp; y</caption><thead><tr><th>a&lt;b</th><th style='text-align:left'>c</th></tr></thead><tbody>"
                + "<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td style='text-align:left'><b>bold</b></td></tr>"
                + "<tr><td>it&#39;s</td><td style='text-align:left'><span style='color:#2b8a3e;font-weight:bold'>holds</span></td></tr>"
                + "</tbody></table>", html);
    }

    @Test
    void aKeyValueTableHasNoHeadingRowAndHeadsEachRow() {
        assertEquals("<table><tbody><tr><th>cores</th><td>2</td></tr></tbody></table>",
                new Html.Table().rowHeads().row("cores", "2").html());
    }
}
