package course.claims;

import course.Lab;
import course.base.Course;
import course.base.Html;
import course.judge.JdkPair;
import course.judge.Verdict;
import course.judge.Why;
import course.record.Results;
import course.show.Notebook;
import java.util.List;

/**
 * Lab 09's claims (two changes to the JDK: JDK-8298639 for RandomAccessFile, JDK-8292698 for DataInputStream), each
 * judged between the oldest JDK before its change and the newest after it, on RandomAccessFile's readInt and writeInt
 * (`rafRead`, `rafWrite`) and on DataInputStream.readInt over a ByteArrayInputStream per block (`inMemory`, in blocks of
 * its runs' op size) of a file of `streamSize` bytes.
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

    /**
     * What this machine's JDKs can judge, said before anything runs: for each change, the two JDKs it will be judged
     * between, or why it cannot be and which JDK would judge it. JDK-8298639 goes by release (21); JDK-8292698 by what
     * each JDK's DataInputStream holds (javap), since JDK 17 updates carry its backport.
     */
    public static void jdksHere(Lab lab) {
        List<String> jdks = lab.jdkRuntimes();
        boolean before21 = jdks.stream().anyMatch(j -> Results.feature(j) < 21);
        String raf = JdkPair.around(jdks, 21).map(pair -> "judged here, between " + pair.before() + " and " + pair.after())
                .orElse("not judged here: it needs " + (before21 ? "a JDK from 21 on" : "a JDK before 21 (Debian: sudo apt-get install openjdk-17-jdk-headless)")
                        + " beside " + String.join(" and ", jdks));
        List<String> without = jdks.stream().filter(j -> Boolean.FALSE.equals(readsInOnce(lab, j))).toList();
        String dis = JdkPair.around(jdks, runtime -> readsInOnce(lab, runtime))
                .map(pair -> "judged here, between " + pair.before() + " (without it, javap says) and " + pair.after())
                .orElse("not judged here: " + (without.isEmpty()
                        ? String.join(" and ", jdks) + (jdks.size() == 1 ? " has" : jdks.size() == 2 ? " both have" : " all have")
                          + " it (javap: DataInputStream.readInt reads the field 'in' at most once). A JDK 17 update from before its backport (before 17.0.8; javap tells) would judge it"
                        : String.join(" and ", without) + " lack" + (without.size() == 1 ? "s" : "") + " it, and no newer JDK here has it"
                          + " (javap). JDK 20 or later, or a JDK 17 update from 17.0.8, would judge it"));
        String how = "To add a JDK, unpack it anywhere and list its home, with the others you want, in JAVA_HOMES (colon-separated)"
                + " in the shell that starts JupyterLab.";
        Notebook.html("<p>JDKs here: " + Html.escape(String.join(", ", jdks)) + ".</p><ul><li>JDK-8298639 (RandomAccessFile, JDK 21): "
                + Html.escape(raf) + ".</li><li>JDK-8292698 (DataInputStream, JDK 20): " + Html.escape(dis) + ".</li></ul><p><small>"
                + Html.escape(how) + "</small></p>",
                "JDKs here: " + String.join(", ", jdks) + "\nJDK-8298639 (RandomAccessFile, JDK 21): " + raf
                + ".\nJDK-8292698 (DataInputStream, JDK 20): " + dis + ".\n" + how);
    }

    /** The blocks the in-memory runs read the file in, by their own op size ("64 KB blocks"); "blocks" where they hold several sizes. */
    static String blocksOf(Results inMemory) {
        List<Long> sizes = inMemory.typed().stream().map(run -> run.opSize()).distinct().toList();
        return sizes.size() == 1 ? Course.formatBytes(sizes.get(0)) + " blocks" : "blocks";
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
                    Why.ifLower("Less than the benchmark's gain. The benchmark spent 80 ns an int before the change; divide this run's median time on the older JDK (the table above) by the file's ints, a quarter of its bytes: where the three reads of the field 'in' it removed (it reads it once, and kept the four read() calls) were already cheap, removing them buys little. The pair of JDKs also differs in more than this change, and may not straddle it at all (javap tells).")
                       .orIfHigher("More than the benchmark's gain: the pair of JDKs differs in more than this change (the JIT, the stream's locking, the later readFully form)."))
                .at(pair.before() + " over " + pair.after() + ", " + blocksOf(inMemory) + " of a " + Course.formatBytes(streamSize) + " file; change's benchmark: one 1 KB block in memory")));
    }
}
