package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunnerTest {
    static Process sh(String script) throws Exception {
        return new ProcessBuilder("sh", "-c", script).start();
    }

    @Test
    void rowsArriveInOrderAndStrayLinesAreSkipped() throws Exception {
        List<JsonObject> seen = new ArrayList<>();
        List<JsonObject> rows = Runner.collect(sh("echo '{\"run\":0}'; echo 'Profiling started'; echo '{\"run\":1}'"), "raw_io", seen::add);
        assertEquals(2, rows.size());
        assertEquals(rows, seen, "each row is handed on as it arrives");
        assertEquals(1, rows.get(1).get("run").getAsInt());
    }

    @Test
    void aChildThatFailsSilentlySaysItsStatus() throws Exception {
        Runner.RunFailed e = assertThrows(Runner.RunFailed.class, () -> Runner.collect(sh("exit 3"), "java raw_io", row -> { }));
        assertEquals("java raw_io exited with status 3", e.getMessage());
    }

    @Test
    void aChildThatFailsSaysWhatItSaidOnceWithNothingHidden() throws Exception {
        Runner.RunFailed e = assertThrows(Runner.RunFailed.class, () -> Runner.collect(
                sh("echo '{\"run\":0}'; echo 'raw_io: --op-size: 0 is not allowed' >&2; echo 'raw_io: --op-size: 0 is not allowed' >&2; exit 2"),
                "c raw_io", row -> { }));
        assertEquals("raw_io: --op-size: 0 is not allowed", e.getMessage(), "every MPI process may say it: once is enough");
        assertFalse(e.getMessage().contains("\u0000"), "no end-of-stream marker leaks into the message");
    }

    @Test
    void manyLinesOnBothStreamsAreAllKept() throws Exception {
        Runner.RunFailed e = assertThrows(Runner.RunFailed.class, () -> Runner.collect(
                sh("for i in $(seq 1 2000); do echo \"err $i\" >&2; echo \"out $i\"; done; exit 1"), "x", row -> { }));
        List<String> lines = e.getMessage().lines().toList();
        assertEquals(4000, lines.size(), "stderr and stray stdout, gathered from two threads without losing a line");
        assertTrue(lines.contains("err 2000") && lines.contains("out 2000"));
    }
}
