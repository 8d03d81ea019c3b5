package course.show;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RunsTableTest {
    /** The columns come from the schema's case fields and marks: the tables keep the columns and the order they always had. */
    @Test
    void theCaseColumnsAreTheSchemasInTheTablesOrder() {
        assertEquals(java.util.List.of("language", "runtime", "method", "op", "pattern", "cache", "text", "type", "threads", "depth", "procs",
                "file_size", "op_size"), RunsTable.SHOWN_CASE);
    }

    @Test
    void aCountIsShownWhole() {
        assertEquals("7", RunsTable.format("platform_threads", 7.0));
        assertEquals("7.5", RunsTable.format("tasks", 7.5), "the median of an even number of runs");
        assertEquals("1,024", RunsTable.format("tasks", 1024.0));
        assertEquals("7.00", RunsTable.format("median_ms", 7.0), "a time keeps its three figures");
    }
}
