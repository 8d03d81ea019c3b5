package course.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Class-data sharing for the Java snippets: a JVM start parses and links a few hundred classes before the harness's
 * first line (JMX for the thread CPU clock, NIO, the snippet's own), and a sweep starts hundreds of JVMs. A snippet's
 * first run on the course's JDK dumps the classes it loaded into an archive (-XX:ArchiveClassesAtExit, after the
 * program ends); every later run maps them from it (-XX:SharedArchiveFile). Only class loading changes: the same
 * bytecode runs and the JIT compiles it as before (no ahead-of-time profiles). One archive per snippet build and JDK
 * (build/cds/NAME-KEY.jsa, the key Build gives the jar), moved into place whole, so two kernels never read half of
 * one. An MPI job of several ranks never makes one (they would write one file at once), nor a run under strace or a profiler,
 * nor a course folder this user may not write (a grading sandbox). A JVM that cannot use an archive (another JDK's, a changed jar) says so on
 * stderr and runs without it.
 */
final class SharedClasses {
    /** What a run adds to the JVM's options, and what to do once it has ended well (put its new archive into place). */
    record Use(List<String> options, Path made, Path archive) {
        static final Use NONE = new Use(List.of(), null, null);

        /** After the run ended with status 0: its archive into place; after any other end: its partial file removed. */
        void finish(boolean ok) {
            if (made == null) return;
            try {
                if (ok && Files.size(made) > 0) Files.move(made, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                // no archive this time: the next run makes one
            } finally {
                try {
                    Files.deleteIfExists(made);
                } catch (IOException ignored) {
                    // a temporary file in build/cds; `make clean` removes the folder
                }
            }
        }
    }

    /**
     * The JVM's class-sharing messages kept off stderr (its other warnings stay): JDK 25 reports, at level error, that
     * a snippet given --enable-native-access differs from the JDK's own base archive, then uses the archive all the same.
     */
    static final String QUIET = "-Xlog:cds=off:stderr";

    private SharedClasses() {
    }

    /**
     * The options for a run of the snippet whose archive is archive: use it, or make it where this run may (not where
     * it is watched or shared: an MPI job of several ranks, a run under strace or a profiler, whose counts would take in the dump's writes).
     */
    static Use forRun(Path archive, boolean watchedOrShared) {
        if (Files.isRegularFile(archive)) return new Use(List.of("-XX:SharedArchiveFile=" + archive, QUIET), null, null);
        if (watchedOrShared) return Use.NONE;
        try {
            Files.createDirectories(archive.getParent());
            Path made = Files.createTempFile(archive.getParent(), ".making-", ".jsa");
            Files.delete(made);  // the JVM writes it whole at exit
            return new Use(List.of("-XX:ArchiveClassesAtExit=" + made, QUIET), made, archive);
        } catch (IOException | UnsupportedOperationException e) {
            return Use.NONE;  // a folder this user may not write: run without sharing
        }
    }

    /** The command with the options among the JVM's own, last before the class path (after the course's -Xlog settings, which they refine). */
    static List<String> around(List<String> javaCommand, Use use) {
        if (use.options().isEmpty()) return javaCommand;
        int at = javaCommand.indexOf("-cp");
        List<String> out = new ArrayList<>(javaCommand.subList(0, at));
        out.addAll(use.options());
        out.addAll(javaCommand.subList(at, javaCommand.size()));
        return out;
    }
}
