package course.bench;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The same loop as RawIo's 1-byte sequential read (java-snippets/RawIo.java, seqRead): open the file,
 * FileInputStream.read() until it returns -1, close. One benchmark operation is one whole file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OneByteRead {
    /** Bytes in the file (CrossCheck passes the course's size). */
    @Param("262144")
    public int size;

    private Path file;

    @Setup
    public void writeFile() throws IOException {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) bytes[i] = (byte) (i * 31 + 7);
        Path scratch = Path.of(System.getProperty("course.scratch", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(scratch);
        file = Files.createTempFile(scratch, "jmh-", ".dat");
        Files.write(file, bytes);
    }

    @TearDown
    public void removeFile() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public long openReadClose() throws IOException {
        long used = 0;
        try (var in = new FileInputStream(file.toFile())) {
            for (int b; (b = in.read()) != -1; ) used += b;
        }
        return used;  // JMH consumes the result, so the loop cannot be removed
    }
}
