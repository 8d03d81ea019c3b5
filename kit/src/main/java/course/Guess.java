package course;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A learner's predictions, said back beside what the machine measured. Predictions start empty (null) so
 * that nobody copies a number they did not think of; a lab run without them still completes, and the
 * line says which guesses were not made instead of failing.
 *
 * <pre>
 * Guess.said("%.1f× (sequential) and %.1f× (random)", myGuessSequential, myGuessRandom)
 *   → "You guessed 2.0× (sequential) and 4.0× (random)"
 *   → "You guessed 2.0× (sequential) and no guess (random)"   (myGuessRandom still null)
 *   → "You made no guess"                                       (both null)
 * </pre>
 */
public final class Guess {
    private Guess() {}

    /** A format specifier of java.util.Formatter (a literal %% or %n included, which take no argument). */
    private static final Pattern SPECIFIER = Pattern.compile("%(\\d+\\$)?[-#+ 0,(<]*\\d*(\\.\\d+)?([tT])?[a-zA-Z%]");

    /**
     * "You guessed " and format filled with the guesses, in order; a missing one (null, NaN, blank) is said
     * as "no guess", its unit with it (what is written against the specifier up to a space, comma,
     * semicolon or parenthesis: join a unit with a no-break space, "%.0f\u00a0MB/s"); "You made no guess"
     * when all are missing.
     */
    public static String said(String format, Object... guesses) {
        List<Object> args = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        Matcher m = SPECIFIER.matcher(format);
        int next = 0, at = 0;
        while (m.find()) {
            out.append(format, at, m.start());
            at = m.end();
            String spec = m.group();
            if (m.group(1) != null) throw new IllegalArgumentException("Guess.said takes its guesses in order, not by index: " + spec);
            if (spec.equals("%%") || spec.equals("%n")) {
                out.append(spec);
                continue;
            }
            if (next >= guesses.length) throw new IllegalArgumentException("more specifiers than guesses in: " + format);
            Object guess = guesses[next++];
            if (missing(guess)) {
                out.append("%s");
                args.add("no guess");
                while (at < format.length() && " ,;)".indexOf(format.charAt(at)) < 0) at++;  // and its unit: "%.1f×", "%.0f%%"
                m.region(at, format.length());
            } else {
                out.append(spec);
                args.add(guess);
            }
        }
        out.append(format.substring(at));
        if (next != guesses.length) throw new IllegalArgumentException(guesses.length + " guesses for " + next + " specifiers in: " + format);
        if (guesses.length == 0 || java.util.Arrays.stream(guesses).allMatch(Guess::missing)) return "You made no guess";
        return "You guessed " + String.format(Locale.ROOT, out.toString(), args.toArray());
    }

    private static boolean missing(Object guess) {
        return guess == null
            || (guess instanceof Double d && d.isNaN())
            || (guess instanceof String s && s.isBlank());
    }
}
