package course.show;

import java.util.Locale;

/**
 * One line under a long cell saying what it is doing and how far it is, replaced in place as it goes: the sweeps
 * have their own (with runs and time left); this is for the rest (strace, JFR, profiles, fio).
 */
public final class Progress {
    private final String id = "progress-" + System.nanoTime();
    private final String what;
    private final int steps;
    private final long start = System.nanoTime();
    private int step;

    public Progress(String what, int steps) {
        this.what = what;
        this.steps = steps;
    }

    /** The next step of the whole has begun. */
    public void next(String doing) {
        show(String.format(Locale.ROOT, "▶ %s · %d of %d: %s · %.0f s elapsed", what, ++step, steps, doing, seconds()));
    }

    /** The whole has ended: the line says so and how long it took. */
    public void done() {
        show(String.format(Locale.ROOT, "done: %s, %d step%s, %.1f s", what, steps, steps == 1 ? "" : "s", seconds()));
    }

    /** Runs work with a line saying what it does under the cell, gone once it ends (a compile: worth saying, not keeping). */
    public static <T> T during(String doing, java.util.function.Supplier<T> work) {
        if (Notebook.kernel() == null) return work.get();  // pre-compiling from a terminal says what it built itself
        String id = "during-" + System.nanoTime();
        Notebook.status("▶ " + doing, id);
        try {
            return work.get();
        } finally {
            Notebook.show(Notebook.data("", ""), id);
        }
    }

    private double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }

    private void show(String text) {
        Notebook.status(text, id);
    }
}
