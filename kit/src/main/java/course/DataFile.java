package course;

import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of the course's data pattern for exercises that do their own I/O in the notebook, written by
 * the C snippet raw_io (so its bytes are exactly the harnesses'), with the checksum raw_io reported.
 * Use it in try-with-resources: closing removes the file.
 */
public record DataFile(Path path, long size, long checksum) implements AutoCloseable {
    static DataFile create(Lab lab, long size) {
        Runner.createDirectories(lab.scratch());
        Path path = lab.scratch().resolve("exercise-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".dat");
        List<String> cmd = new ArrayList<>(lab.runner().command("raw_io", "c"));
        cmd.addAll(List.of("--op", "write", "--file-size", String.valueOf(size), "--op-size", String.valueOf(Math.min(size, 1 << 20)),
                "--repeat", "1", "--warmup", "0", "--file", path.toString(), "--keep"));
        try {
            String out = Runner.exec(cmd, "writing the exercise file");
            return new DataFile(path, size, JsonParser.parseString(out.strip()).getAsJsonObject().get("checksum").getAsLong());
        } catch (RuntimeException e) {
            path.toFile().delete();  // --keep keeps the file even when the run fails: never leave half of one
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
