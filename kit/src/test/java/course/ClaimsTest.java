package course;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import course.record.Run;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each lab's judging (course.claims) on a real run of that lab in quick, saved as the lab saved it
 * (src/test/resources/runs/LAB.json.gz, made by `make report` and copied from data/results): its sweeps taken apart as
 * the notebook made them, each found by what its runs hold (Lab.sweepHolding), not by where it lies; every claim must
 * be judged to the same outcome and the same measured figure as the lab's own verdict table did. A change to a rule, an estimate or a sweep shows here first; after a deliberate one, run the lab
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
            case "01-raw-io" -> Lab01.verdicts(lab, lab.sweepHolding("pattern=seq"), lab.sweepHolding("pattern=rand"));
            case "02-buffering" -> Lab02.verdicts(lab, lab.sweepHolding("snippet=raw_io"), lab.sweepHolding("strategy=stream"),
                    lab.sweepHolding("strategy=direct", "pattern=seq", "buffer_size=1024"), lab.sweepHolding("strategy=direct", "buffer_size=1,256,1024,4096,65536"),
                    lab.sweepHolding("strategy=direct", "pattern=rand"), List.of());
            case "03-operation-size" -> Lab03.verdicts(lab, lab.sweepHolding("pattern=seq"), lab.sweepHolding("pattern=rand"));
            case "04-typed-arrays" -> {
                Results modern = lab.sweepHolding("strategy=bytebuffer,bytebuffer-direct,bytes,encode,native,varhandle");
                Results c = lab.sweepHolding("language=c", "type=int");
                Results all = lab.sweepHolding("strategy=data", "type=int").and(lab.sweepHolding("strategy=data-buffered,data-bytearray")).and(modern).and(c);
                String kernelJdk = modern.runs().get(0).get("runtime").getAsString();  // "modern" runs on this kernel's JDK alone
                yield Lab04.verdicts(lab, all.where("runtime", kernelJdk), c, lab.sweepHolding("strategy=data-buffered", "type=int"));
            }
            case "05-text-lines" -> {
                String everyText = "text=cr,crlf,lf,mixed,utf8";
                yield Lab05.verdicts(lab, lab.sweepHolding("strategy=datainput"), lab.sweepHolding("strategy=datainput-buffered", "text=lf")
                                .and(lab.sweepHolding("strategy=reader", "text=lf")).and(lab.sweepHolding("strategy=chars,own-reader")),
                        lab.sweepHolding("strategy=reader", everyText).and(lab.sweepHolding("strategy=datainput-buffered", everyText))
                                .and(lab.sweepHolding("strategy=getline", everyText)));
            }
            case "06-bulk-jni" -> Lab06.verdicts(lab, lab.sweepHolding("snippet=typed_arrays", "language=java"), lab.sweepHolding("snippet=typed_arrays", "language=c"),
                    lab.sweepHolding("snippet=jni_ops", "language=java").and(lab.sweepHolding("snippet=jni_ops", "language=c")));
            case "07-nio-threads" -> Lab07.verdicts(lab, lab.sweepHolding("language=java", "threads=1,2,4"), lab.sweepHolding("strategy=mapped,view-direct", "op=read", "cache=warm"),
                    lab.sweepHolding("strategy=bulk,raf,view-direct"), Lab07.SecondLock.THREW);
            case "08-mpi-processes" -> lab08Verdicts(lab);
            case "09-jdk-against-jdk" -> {
                Results perInt = lab.sweepHolding("strategy=data").and(lab.sweepHolding("strategy=data-buffered,data-bytearray"));
                yield Lab09.verdicts(lab, perInt.where("strategy", "data").where("op", "read"), perInt.where("strategy", "data").where("op", "write"),
                        perInt.where("strategy", "data-bytearray").where("op", "read"), lab.preset().size("stream_size"));
            }
            case "10-past-the-page-cache" -> Lab10.verdicts(lab, lab.sweepHolding("snippet=small_reads", "language=java", "cache=cold", "strategy=platform,virtual")
                    .and(lab.sweepHolding("snippet=small_reads", "language=c", "cache=cold", "strategy=platform", "pattern=rand"))
                    .and(lab.sweepHolding("strategy=io-uring", "cache=cold", "pattern=rand")));
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

    @Test
    void aSweepAskedForByWhatItHoldsIsOneOrRefused(@TempDir Path dir) throws IOException {
        Path saved = dir.resolve("01-raw-io.json");
        try (InputStream in = new GZIPInputStream(ClaimsTest.class.getResourceAsStream("/runs/01-raw-io.json.gz"))) {
            Files.copy(in, saved);
        }
        Lab lab = Lab.replay(saved);
        assertEquals(Set.of("rand"), lab.sweepHolding("pattern=rand").typed().stream().map(Run::pattern).collect(Collectors.toSet()));
        var both = assertThrows(IllegalArgumentException.class, () -> lab.sweepHolding("snippet=raw_io"));
        assertEquals("2 of this lab's 2 sweeps hold snippet=raw_io", both.getMessage());
        var none = assertThrows(IllegalArgumentException.class, () -> lab.sweepHolding("pattern=seq,rand"));
        assertEquals("0 of this lab's 2 sweeps hold pattern=seq,rand", none.getMessage());
    }

    /** Lab 08's verdicts on a replay of its saved run, its sweeps taken apart as the notebook made them. */
    static List<Verdict> lab08Verdicts(Lab lab) {
        Results scaling = lab.sweepHolding("language=java", "cache=warm", "lock=none");
        List<Integer> procs = scaling.typed().stream().map(r -> (int) r.procs()).distinct().sorted().toList();
        return Lab08.verdicts(lab, scaling, lab.sweepHolding("language=java", "cache=cold").and(lab.sweepHolding("language=c", "cache=cold")), procs);
    }
}
