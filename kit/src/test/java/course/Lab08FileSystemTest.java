package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.judge.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lab 08's saved quick run (ClaimsTest's) judged as if its shared file had been on another file system: which claims it judges there. */
class Lab08FileSystemTest {
    static final List<String> ABOUT_A_SHARED_FILE_SYSTEM = List.of("awan.mpi-processes.write-scaling-start",
            "awan.mpi-processes.write-drop-beyond-8", "awan.mpi-processes.read-trend-like-write");

    /** The saved quick run of lab 08 (ClaimsTest's), its machine card saying the shared file was on filesystem. */
    static List<Verdict> verdictsOn(String filesystem, Path dir) throws IOException {
        return verdictsOn(filesystem, dir, false);
    }

    /** The same; onTwoNodes: each job of several processes as if spread over two nodes of two cores (as the kit records a cluster's). */
    static List<Verdict> verdictsOn(String filesystem, Path dir, boolean onTwoNodes) throws IOException {
        JsonObject doc;
        try (InputStream in = new GZIPInputStream(Lab08FileSystemTest.class.getResourceAsStream("/runs/08-mpi-processes.json.gz"))) {
            doc = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject();
        }
        doc.getAsJsonObject("machine").addProperty("filesystem", filesystem);
        for (var element : onTwoNodes ? doc.getAsJsonArray("runs") : new com.google.gson.JsonArray()) {
            JsonObject run = element.getAsJsonObject();
            int procs = run.has("procs") && !run.get("procs").isJsonNull() ? run.get("procs").getAsInt() : 1;
            if (procs < 2) continue;
            run.add("hosts", JsonParser.parseString("[\"vm\", \"vm2\"]"));
            run.add("host_procs", JsonParser.parseString("[" + (procs - procs / 2) + ", " + procs / 2 + "]"));
            run.add("host_cores", JsonParser.parseString("[2, 2]"));
        }
        Path saved = Files.writeString(dir.resolve("08-mpi-processes.json"), doc.toString());
        return ClaimsTest.lab08Verdicts(Lab.replay(saved));
    }

    static Verdict row(List<Verdict> verdicts, String claim) {
        return verdicts.stream().filter(v -> v.claim().id().equals(claim)).findFirst().orElseThrow();
    }

    @Test
    void onOneMachinesDiskTheSharedFileSystemsClaimsAreNotMeasuredAndSayWhy(@TempDir Path dir) throws IOException {
        List<Verdict> verdicts = verdictsOn("ext4", dir);
        for (String claim : ABOUT_A_SHARED_FILE_SYSTEM) {
            Verdict v = row(verdicts, claim);
            assertEquals("not measured", v.outcome(), claim);
            assertTrue(v.why().contains("ext4") && v.why().contains("COURSE_SCRATCH"), v.why());
        }
        assertNotEquals("not measured", row(verdicts, "awan.mpi-processes.read-above-write").outcome(), "reads against writes: one machine can test it");
    }

    @Test
    void onNfsFromOneMachineTheyAreNotMeasuredForItIsOneClient(@TempDir Path dir) throws IOException {
        List<Verdict> verdicts = verdictsOn("nfs4", dir);
        for (String claim : ABOUT_A_SHARED_FILE_SYSTEM) {
            Verdict v = row(verdicts, claim);
            assertEquals("not measured", v.outcome(), claim);
            assertTrue(v.why().contains("one client") && v.why().contains("several nodes"), v.why());
        }
    }

    @Test
    void onNfsFromSeveralNodesTheyAreJudgedAsFarAsTheCoresAllow(@TempDir Path dir) throws IOException {
        List<Verdict> verdicts = verdictsOn("nfs4", dir, true);
        Verdict trend = row(verdicts, "awan.mpi-processes.read-trend-like-write");  // needs 2 processes with a core each: the saved run had them
        assertNotEquals("not measured", trend.outcome(), trend.why());
        Verdict drop = row(verdicts, "awan.mpi-processes.write-drop-beyond-8");  // needs 9
        assertEquals("not measured", drop.outcome());
        assertTrue(drop.why().contains("cores") || drop.why().contains("core each"), "on NFS it is the cores that are missing: " + drop.why());
    }
}
