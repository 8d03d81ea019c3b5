package course.bench;

import course.base.Course;
import course.run.Preset;
import course.run.Runner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * make bench: the course's stopwatch beside JMH on the same 1-byte FileInputStream.read loop, on a file
 * of lab 00's size. The course times each whole run with System.nanoTime in a fresh JVM after warm-up
 * runs; JMH runs the loop for seconds in a forked JVM and reports the mean with its 99.9% interval.
 */
public final class CrossCheck {
    /** The course's figure should be within this fraction of JMH's. */
    static final double TARGET = 0.10;

    public static void main(String[] args) throws Exception {
        long size = Preset.of("00-start-here", Preset.chosenName()).size("first_size");
        Path scratch = Course.scratch();

        List<String> flags = List.of("--op", "read", "--pattern", "seq", "--file-size", Course.formatSize(size), "--op-size", "1",
                "--cache", "warm", "--repeat", "10", "--warmup", "3");
        List<Double> perByte = new ArrayList<>();
        new Runner().run(new Runner.Invocation("raw_io", "java", flags), scratch, row -> { })
                .forEach(row -> perByte.add(row.get("elapsed_ns").getAsDouble() / size));
        Collections.sort(perByte);
        double course = perByte.get(perByte.size() / 2);

        RunResult jmh = new org.openjdk.jmh.runner.Runner(new OptionsBuilder()
                .include(OneByteRead.class.getName()).param("size", String.valueOf(size))
                .forks(1).warmupIterations(5).warmupTime(TimeValue.seconds(1))
                .measurementIterations(10).measurementTime(TimeValue.seconds(2))
                .jvmArgsAppend("-Dcourse.scratch=" + scratch).build()).runSingle();
        double mean = jmh.getPrimaryResult().getScore() / size, error = jmh.getPrimaryResult().getScoreError() / size;

        double ratio = course / mean;
        System.out.println();
        System.out.printf(Locale.ROOT, "1-byte FileInputStream.read of a %s file, open to close:%n", Course.formatSize(size));
        System.out.printf(Locale.ROOT, "  course harness  %.1f ns per byte (median of 10 runs, %.1f to %.1f)%n", course,
                perByte.get(0), perByte.get(perByte.size() - 1));
        System.out.printf(Locale.ROOT, "  JMH 1.37        %.1f ± %.1f ns per byte (mean, 99.9%% interval)%n", mean, error);
        System.out.printf(Locale.ROOT, "  course / JMH    %.2f (%s the target of %.0f%%; the course's median is %s JMH's interval)%n", ratio,
                Math.abs(ratio - 1) <= TARGET ? "within" : "OUTSIDE", 100 * TARGET,
                Math.abs(course - mean) <= error ? "inside" : "outside");
        System.out.println("JMH measures a warmed-up loop over seconds in one JVM and guards against dead code; it does not"
                + " see the first runs of a JVM or the disk (the file is in the page cache). The course times each run"
                + " whole, in a fresh process, as the labs do. fio (lab 00) checks the large operations.");
    }
}
