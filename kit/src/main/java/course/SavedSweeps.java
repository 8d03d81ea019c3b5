package course;

import course.record.Results;
import course.show.Notebook;
import course.show.RunsTable;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The sweeps a results file saved (COURSE_LOAD: a batch job's, another machine's), handed to a lab's cells one by one in
 * place of running them: each cell's sweep takes the file's next, which must be of the snippet the cell asks for.
 */
final class SavedSweeps {
    private final Path file;
    private final int saved;
    private final Deque<Results> left;

    SavedSweeps(Path file, List<Results> sweeps) {
        this.file = file;
        this.saved = sweeps.size();
        this.left = new ArrayDeque<>(sweeps);
    }

    Path file() {
        return file;
    }

    /** The next sweep of the file, shown as a run one is; the lab changed since it was saved if none is left or it is of another snippet. */
    Results next(String snippet) {
        int at = saved - left.size() + 1;
        Results next = left.poll();
        if (next == null) {
            throw new IllegalStateException("COURSE_LOAD=" + file + ": it saved " + saved + " sweeps and this cell asks for one more"
                    + " (the lab changed since): load results of this lab as it is now, or unset COURSE_LOAD");
        }
        String savedSnippet = next.typed().isEmpty() ? snippet : next.typed().get(0).snippet();
        if (!savedSnippet.equals(snippet)) {
            throw new IllegalStateException("COURSE_LOAD=" + file + ": sweep " + at + " saved runs of " + savedSnippet + " and this cell asks for "
                    + snippet + " (the lab changed since): load results of this lab as it is now, or unset COURSE_LOAD");
        }
        Notebook.html(RunsTable.html(next), next.toString());
        return next;
    }
}
