package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.claims.Lab01;
import course.claims.Lab02;
import course.claims.Lab03;
import course.claims.Lab04;
import course.claims.Lab05;
import course.claims.Lab06;
import course.claims.Lab07;
import course.claims.Lab08;
import course.claims.Lab09;
import course.claims.Lab10;
import course.judge.Verdict;
import course.record.Results;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each lab's judging (course.claims) on a real run of that lab in quick, saved as the lab saved it
 * (src/test/resources/runs/LAB.json.gz, made by `make report` and copied from data/results): its sweeps taken apart as
 * the notebook made them, every claim must be judged to the same outcome and the same measured figure as the lab's own
 * verdict table did. A change to a rule, an estimate or a sweep shows here first; after a deliberate one, run the lab
 * again and save its results here.
 *
 * <p>What it holds is sameness, not rightness: the verdicts it compares against were made by this same code when the
 * runs were saved, so it pins today's judging to yesterday's. Whether a rule is right is for VerdictTest (each rule on
 * figures made for it), EstimateTest (intervals that cover a known ratio as often as they claim) and the labs' readings.
 */
class ClaimsTest {
    /** Rows judged from what no run record holds (CPU profiles), which a replay cannot judge. */
    static final List<String> FROM_PROFILES = List.of("xu-guo.buffering.read-syscall-cpu-share", "xu-guo.buffering.write-syscall-cpu-share",
            "xu-guo.buffering.memcpy-cpu-share-bufferedstream", "xu-guo.buffering.memcpy-cpu-share-direct");

    @ParameterizedTest
    @ValueSource(strings = {"01-raw-io", "02-buffering", "03-operation-size", "04-typed-arrays", "05-text-lines", "06-bulk-jni",
            "07-nio-threads", "08-mpi-processes", "09-jdk-against-jdk", "10-past-the-page-cache"})
    void judgesASavedRunAsTheLabDid(String id, @TempDir Path dir) throws IOException {
        Path saved = dir.resolve(id + ".json");
        try (InputStream in = new GZIPInputStream(ClaimsTest.class.getResourceAsStream("/runs/" + id + ".json.gz"))) {
            Files.copy(in, saved);
        }
        Lab lab = Lab.replay(saved);
        List<Verdict> judged = switch (id) {
            case "01-raw-io" -> Lab01.verdicts(lab, lab.sweep(0), lab.sweep(1));
            case "02-buffering" -> Lab02.verdicts(lab, lab.sweep(0), lab.sweep(1), lab.sweep(2), lab.sweep(3), lab.sweep(4), List.of());
            case "03-operation-size" -> Lab03.verdicts(lab, lab.sweep(0), lab.sweep(1));
            case "04-typed-arrays" -> {
                Results all = lab.sweep(0).and(lab.sweep(1)).and(lab.sweep(2)).and(lab.sweep(3));
                String kernelJdk = lab.sweep(2).runs().get(0).get("runtime").getAsString();  // "modern" runs on this kernel's JDK alone
                yield Lab04.verdicts(lab, all.where("runtime", kernelJdk), lab.sweep(3), lab.sweep(4));
            }
            case "05-text-lines" -> Lab05.verdicts(lab, lab.sweep(0), lab.sweep(1).and(lab.sweep(2)).and(lab.sweep(3)),
                    lab.sweep(8).and(lab.sweep(9)).and(lab.sweep(10)));
            case "06-bulk-jni" -> Lab06.verdicts(lab, lab.sweep(0), lab.sweep(1), lab.sweep(3).and(lab.sweep(4)));
            case "07-nio-threads" -> Lab07.verdicts(lab, lab.sweep(0), lab.sweep(5), lab.sweep(4), Lab07.SecondLock.THREW);
            case "08-mpi-processes" -> lab08Verdicts(lab);
            case "09-jdk-against-jdk" -> {
                Results perInt = lab.sweep(0).and(lab.sweep(1));
                yield Lab09.verdicts(lab, perInt.where("strategy", "data").where("op", "read"), perInt.where("strategy", "data").where("op", "write"),
                        perInt.where("strategy", "data-bytearray").where("op", "read"), lab.preset().size("stream_size"));
            }
            // sweeps: cached, cold, direct; mappings warm (Java, C) and cold; copies (Java, C); readers warm (Java, C, io_uring), cold
            case "10-past-the-page-cache" -> Lab10.verdicts(lab, lab.sweep(12).and(lab.sweep(13)).and(lab.sweep(14)));
            default -> throw new IllegalArgumentException(id);
        };
        JsonObject doc = JsonParser.parseString(Files.readString(saved)).getAsJsonObject();
        List<String> expected = new ArrayList<>(), got = new ArrayList<>();
        doc.getAsJsonArray("verdicts").forEach(v -> {
            JsonObject o = v.getAsJsonObject();
            if (!FROM_PROFILES.contains(o.get("claim").getAsString())) {
                expected.add(o.get("claim").getAsString() + ": " + o.get("verdict").getAsString() + ", " + o.get("measured").getAsString());
            }
        });
        judged.stream().filter(v -> !FROM_PROFILES.contains(v.claim().id()))
                .forEach(v -> got.add(v.claim().id() + ": " + v.outcome() + ", " + v.measured()));
        assertFalse(expected.isEmpty(), "the saved run holds the lab's verdicts");
        assertEquals(String.join("\n", expected), String.join("\n", got));
    }

    /** Lab 08's verdicts on a replay of its saved run, its sweeps taken apart as the notebook made them. */
    static List<Verdict> lab08Verdicts(Lab lab) {
        List<Integer> procs = lab.sweep(0).typed().stream().map(r -> (int) r.procs()).distinct().sorted().toList();
        return Lab08.verdicts(lab, lab.sweep(0), lab.sweep(4).and(lab.sweep(5)), procs);
    }
}
