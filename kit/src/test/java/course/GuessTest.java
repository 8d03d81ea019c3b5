package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GuessTest {
    @Test
    void guessesAreSaidBackInTheirFormat() {
        assertEquals("You guessed 2.0× (sequential) and 4.0× (random)", Guess.said("%.1f× (sequential) and %.1f× (random)", 2.0, 4.0));
        assertEquals("You guessed 85%, a knee at 1k", Guess.said("%.0f%%, a knee at %s", 85.0, "1k"));
    }

    @Test
    void aMissingGuessIsSaidAsNoGuessWhateverItsFormat() {
        assertEquals("You guessed 2.0× (sequential) and no guess (random)", Guess.said("%.1f× (sequential) and %.1f× (random)", 2.0, null));
        assertEquals("You guessed no guess, a knee at 1k", Guess.said("%.0f%%, a knee at %s", Double.NaN, "1k"));
        assertEquals("You guessed 85%, a knee at no guess", Guess.said("%.0f%%, a knee at %s", 85.0, "  "));
        assertEquals("You guessed no guess and 1.5×", Guess.said("%.1f\u00a0GB/s and %.1f×", null, 1.5));
        assertEquals("You guessed 5.0\u00a0GB/s and no guess", Guess.said("%.1f\u00a0GB/s and %.1f×", 5.0, Double.NaN));
    }

    @Test
    void noGuessAtAllSaysSo() {
        assertEquals("You made no guess", Guess.said("%.1f× and %.1f×", null, null));
        assertEquals("You made no guess", Guess.said("%.0f%% and %s", Double.NaN, ""));
    }

    @Test
    void specifiersAndGuessesMustPair() {
        assertThrows(IllegalArgumentException.class, () -> Guess.said("%.1f× and %.1f×", 1.0));
        assertThrows(IllegalArgumentException.class, () -> Guess.said("%.1f×", 1.0, 2.0));
        assertThrows(IllegalArgumentException.class, () -> Guess.said("%2$s %1$s", "a", "b"));
    }
}
