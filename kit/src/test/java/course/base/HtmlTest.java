package course.base;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HtmlTest {
    @Test
    void everyTextIsEscapedAndOnlyRawMarkupPassesThrough() {
        String html = new Html.Table("a<b", "c").left(1).caption("x & y")
                .row("<script>alert(1)</script>", Html.raw("<b>bold</b>"))
                .row("it's", Html.badge("holds", "#237a38")).html();
        assertEquals("<table><caption>x &amp; y</caption><thead><tr><th>a&lt;b</th><th style='text-align:left'>c</th></tr></thead><tbody>"
                + "<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td style='text-align:left'><b>bold</b></td></tr>"
                + "<tr><td>it&#39;s</td><td style='text-align:left'><span style='background:#237a38;color:#fff;font-weight:bold;padding:0 .3em;border-radius:3px;white-space:nowrap'>holds</span></td></tr>"
                + "</tbody></table>", html);
    }

    @Test
    void aKeyValueTableHasNoHeadingRowAndHeadsEachRow() {
        assertEquals("<table><tbody><tr><th>cores</th><td>2</td></tr></tbody></table>",
                new Html.Table().rowHeads().row("cores", "2").html());
    }

    @Test
    void foldsCodeAndWideTablesAreReachableAndNamed() {
        assertEquals("<details><summary style='padding:3px 0;cursor:pointer'>more</summary><p>x</p></details>", Html.fold("more", "<p>x</p>"));
        assertEquals("<pre tabindex='0' role='region' aria-label='a &lt;b&gt;' style='white-space:pre;overflow-x:auto;font-size:85%'>x &lt; y</pre>",
                Html.scrolling("a <b>", "x < y", "font-size:85%"));
        assertEquals("<div tabindex='0' role='region' aria-label='runs' style='overflow-x:auto'><table><tbody><tr><td>1</td></tr></tbody></table></div>",
                new Html.Table().scrolls("runs").row("1").html());
    }
}
