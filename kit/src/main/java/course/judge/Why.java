package course.judge;

/**
 * What a verdict row says when a figure misses the study's: one text for each way it can miss, so the
 * explanation never contradicts the figure beside it. "Higher" means the measured figure (the ratio, the
 * speed-up, the share, the time after over the time before) is larger than the study's. A way left without
 * a text gets a plain statement of the fact instead of a guess.
 *
 * <pre>
 * Why.ifLower("The JIT closed the gap.").orIfHigher("The JDK's native path copies twice.")
 * </pre>
 */
public record Why(String ifLower, String ifHigher) {
    public static Why ifLower(String text) {
        return new Why(text, null);
    }

    public static Why ifHigher(String text) {
        return new Why(null, text);
    }

    /** A text true whichever way the figure missed (the measure differs from the study's, say). */
    public static Why either(String text) {
        return new Why(text, text);
    }

    public Why orIfHigher(String text) {
        return new Why(ifLower, text);
    }

    public Why orIfLower(String text) {
        return new Why(text, ifHigher);
    }

    /** The text for a figure that missed this way. */
    String text(boolean higher) {
        String text = higher ? ifHigher : ifLower;
        return text != null ? text : "The figure came out " + (higher ? "higher" : "lower")
                + " than the study's, a way this lab's notes do not explain: see the chart and the runs above.";
    }
}
