package course.claims;

import course.Lab;
import course.base.Course;
import course.judge.Verdict;
import course.judge.Why;
import course.record.Results;
import java.util.List;

/**
 * Lab 09's claims (two changes to the JDK: JDK-8298639 for RandomAccessFile, JDK-8292698 for DataInputStream), each
 * judged between the oldest JDK before its change and the newest after it, on RandomAccessFile's readInt and writeInt
 * (`rafRead`, `rafWrite`) and on DataInputStream.readInt over a ByteArrayInputStream per 64 KB block (`inMemory`) of a
 * file of `streamSize` bytes.
 */
public final class Lab09 {
    private Lab09() {
    }

    public static void judge(Lab lab, Results rafRead, Results rafWrite, Results inMemory, long streamSize) {
        lab.verdicts(Lab09.class, verdicts(lab, rafRead, rafWrite, inMemory, streamSize));
    }

    /**
     * Whether a JDK's DataInputStream.readInt has JDK-8292698, by its bytecode: the change reads the field `in` once
     * per call (at most one getfield of it; a later form reads none, calling readFully), where before it read it for
     * each of its four read() calls. Null where javap cannot say. The version cannot tell: JDK 17 updates carry the
     * change's backport.
     */
    static Boolean readsInOnce(Lab lab, String runtime) {
        List<String> code = lab.bytecode(runtime, "java.io.DataInputStream", "readInt");
        return code.isEmpty() ? null : code.stream().filter(line -> line.contains("getfield") && line.contains("Field in:")).count() <= 1;
    }

    public static List<Verdict> verdicts(Lab lab, Results rafRead, Results rafWrite, Results inMemory, long streamSize) {
        return List.of(
            Verdict.acrossJdks(lab.claim("openjdk.jdk-8298639.raf-read-faster"), rafRead, 21, pair ->
                Verdict.above(lab.claim("openjdk.jdk-8298639.raf-read-faster"), pair.speedup(rafRead),
                    "RandomAccessFile.readInt took %s as long on " + pair.before() + " as on " + pair.after(),
                    Why.ifLower("The newer JDK was not faster here; the system-call counts above show whether its readInt makes one call per int."))),
            Verdict.acrossJdks(lab.claim("openjdk.jdk-8298639.raf-write-faster"), rafWrite, 21, pair ->
                Verdict.above(lab.claim("openjdk.jdk-8298639.raf-write-faster"), pair.speedup(rafWrite),
                    "RandomAccessFile.writeInt took %s as long on " + pair.before() + " as on " + pair.after(),
                    Why.ifLower("The newer JDK was not faster here: one write call per int still costs a system call each."))),
            Verdict.acrossJdks(lab.claim("openjdk.jdk-8292698.datainputstream-readint"), inMemory, runtime -> readsInOnce(lab, runtime), "JDK-8292698", pair ->
                Verdict.ratio(lab.claim("openjdk.jdk-8292698.datainputstream-readint"), pair.speedup(inMemory),
                    Why.ifLower("Less than the benchmark's gain. The benchmark spent 80 ns an int before the change; divide this run's median time on the older JDK (the table above) by the file's ints, a quarter of its bytes: where the reads of the field 'in' it removed (it kept the four read() calls) were already cheap, removing them buys little. The pair of JDKs also differs in more than this change, and may not straddle it at all (javap tells).")
                       .orIfHigher("More than the benchmark's gain: the pair of JDKs differs in more than this change (the JIT, the stream's locking, the later readFully form)."))
                .at(pair.before() + " over " + pair.after() + ", 64 KB blocks of a " + Course.formatBytes(streamSize) + " file; change's benchmark: one 1 KB block in memory")));
    }
}
