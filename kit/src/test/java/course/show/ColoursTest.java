package course.show;

import static org.junit.jupiter.api.Assertions.assertTrue;

import course.judge.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every colour the kit draws text or marks in keeps WCAG 2.1 AA's contrast where it is drawn. */
class ColoursTest {
    /** WCAG's relative luminance of "#rrggbb". */
    static double luminance(String hex) {
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            double v = Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16) / 255.0;
            c[i] = v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        }
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    }

    static double contrast(String a, String b) {
        double la = luminance(a), lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    @Test
    void contrastIsWcags() {
        assertTrue(Math.abs(contrast("#000000", "#ffffff") - 21) < 1e-9);
        assertTrue(Math.abs(contrast("#777777", "#ffffff") - 4.48) < 0.01);
    }

    @Test
    void everyVerdictsWhiteWordStandsOutFromItsBadge() {
        for (String outcome : List.of("holds", "changed", "reversed", "too close to call", "not measured", "judged in paper")) {
            double ratio = contrast("#ffffff", Verdict.color(outcome));
            assertTrue(ratio >= 4.5, outcome + ": " + Verdict.color(outcome) + " under white is " + ratio + ":1, AA asks 4.5:1");
        }
    }

    @Test
    void everyMarkStandsOutFromTheChartsWhiteAndItsTextReadsOnIt() {
        List<String> marks = new ArrayList<>(Charts.PALETTE);
        marks.addAll(Charts.CACHE_COLOURS.values());
        marks.addAll(Charts.LANGUAGE_COLORS.get("range") instanceof List<?> range ? range.stream().map(String::valueOf).toList() : List.of());
        for (String colour : marks) {
            assertTrue(contrast(colour, "#ffffff") >= 3, colour + " on white is " + contrast(colour, "#ffffff") + ":1, WCAG 1.4.11 asks 3:1");
        }
        assertTrue(contrast(Charts.INK, "#ffffff") >= 4.5);
        assertTrue("white".equals(Charts.CONFIG.get("background")), "every chart on white, in either theme");
    }
}
