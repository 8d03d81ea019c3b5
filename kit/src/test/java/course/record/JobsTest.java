package course.record;

import static course.record.Runs.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class JobsTest {
    static final long MB = 1L << 20;

    @Test
    void anMpiJobSaysWhereItsProcessesRan() {
        JsonObject one = job(1, "node-a").json(), four = job(4, "node-a", "node-b").json();
        Jobs jobs = Jobs.of(new Results(List.of(one, four, run("c", "read", MB, 0, 1_000_000))));
        assertEquals(List.of("node-a", "node-b"), jobs.hosts());
        assertEquals("4 processes on 2 nodes (node-a, node-b)", jobs.largest(), "runs saved before each host's processes were recorded");
        assertEquals("1 process on 1 node (node-a)", Jobs.of(new Results(List.of(one))).largest());
        four.remove("hosts");  // runs saved before hosts were recorded
        assertEquals("4 processes on one node (hosts not recorded)", Jobs.of(new Results(List.of(four))).largest());
        assertEquals("", Jobs.of(new Results(List.of(run("c", "read", MB, 0, 1_000_000)))).largest());
    }

    @Test
    void aJobOnSeveralNodesSaysHowManyProcessesEachHadAndWhatJoinedThem() {
        Jobs jobs = Jobs.of(new Results(List.of(job(4, "node-a", "node-b").with(new long[] {3, 1}, new long[] {8, 8}, "tcp").json())));
        assertEquals("4 processes on 2 nodes (3 on node-a, 1 on node-b) over TCP", jobs.largest());
        assertEquals(Map.of("mpi nodes", "2 (node-a: 3 processes on 8 cores; node-b: 1 process on 8 cores)", "mpi transport", "TCP"), jobs.card());
        assertEquals("4 processes on 2 nodes (2 on a, 2 on b) over no link the harness knows",
            Jobs.of(new Results(List.of(job(4, "a", "b").with(new long[] {2, 2}, new long[] {1, 1}).json()))).largest());
    }

    @Test
    void onSeveralNodesEachNodesCoresCountNotTheLabsOwn() {
        Run spread = new Run(job(16, "a", "b").with(new long[] {8, 8}, new long[] {8, 8}, "verbs").json());
        Run crowded = new Run(job(16, "a", "b").with(new long[] {12, 4}, new long[] {8, 8}, "verbs").json());
        assertTrue(spread.aCoreEach(2), "16 processes on two 8-core nodes have a core each, whatever the lab's machine has");
        assertFalse(crowded.aCoreEach(64), "12 processes on an 8-core node do not");
        assertTrue(new Run(job(2, "a").json()).aCoreEach(2) && !new Run(job(3, "a").json()).aCoreEach(2), "on one node, the lab's own cores");

        Jobs jobs = Jobs.of(new Results(List.of(job(2, "a").json(), spread.json(), job(32, "a", "b").with(new long[] {16, 16}, new long[] {8, 8}, "verbs").json())));
        assertEquals(16, jobs.mostWithACoreEach(List.of(1, 2, 16, 32), 2));
        assertEquals(16, jobs.cores(2), "the largest job's nodes' cores");
        assertEquals(4, Jobs.of(new Results(List.of(job(4, "a").json()))).mostWithACoreEach(List.of(1, 2, 4, 8), 4), "a count not yet run: the lab's cores");
        assertEquals(2, Jobs.of(new Results(List.of(job(4, "a").json()))).cores(2), "one node: the lab's cores");
        assertTrue(jobs.spansNodes());
        assertFalse(Jobs.of(new Results(List.of(job(4, "a", "b").json()))).spansNodes(), "two nodes saved before their cores were recorded");
        assertEquals(2, Jobs.of(new Results(List.of(job(4, "a", "b").json()))).cores(2), "and then the lab's own cores, not a sum");
        assertEquals(Map.of("mpi nodes", "1 (a)", "mpi-io", "ompio"), Jobs.of(new Results(List.of(job(4, "a").io("ompio")))).card());
    }

    /** A run record of an MPI job on these hosts, which the test fills in further. */
    private static Job job(int procs, String... hosts) {
        JsonObject o = run("c", "write", MB, 0, 1_000_000);
        o.addProperty("procs", procs);
        JsonArray names = new JsonArray();
        for (String h : hosts) names.add(h);
        o.add("hosts", names);
        return new Job(o);
    }

    private record Job(JsonObject json) {
        Job with(long[] procs, long[] cores, String... links) {
            json.add("host_procs", array(procs));
            json.add("host_cores", array(cores));
            JsonArray transport = new JsonArray();
            for (String l : links) transport.add(l);
            json.add("transport", transport);
            return this;
        }

        JsonObject io(String mpiIo) {
            json.addProperty("mpi_io", mpiIo);
            return json;
        }

        private static JsonArray array(long[] values) {
            JsonArray a = new JsonArray();
            for (long v : values) a.add(v);
            return a;
        }
    }
}
