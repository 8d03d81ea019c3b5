package course.run;

import com.google.gson.JsonParser;
import course.base.Exec;
import course.base.Scratch;
import course.record.Run;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file for exercises that do their own I/O in the notebook, written by a C snippet (so its bytes
 * are exactly the harnesses'), with what that snippet reported: the checksum and, for text, the
 * number of lines (-1 for binary data). Use it in try-with-resources: closing removes the file.
 */
public record DataFile(Path path, long size, long checksum, long lines) implements AutoCloseable {
    /** The course's binary data, written by raw_io. */
    public static DataFile create(Build build, Path scratch, long size) {
        return write(build, scratch, "raw_io", List.of("--op", "write", "--file-size", String.valueOf(size),
                "--op-size", String.valueOf(Math.min(size, 1 << 20))), false);
    }

    /** The course's text of a kind (lf, crlf, cr, mixed, utf8), written and read once by text_lines. */
    public static DataFile text(Build build, Path scratch, long size, String kind) {
        return write(build, scratch, "text_lines", List.of("--op", "read", "--text", kind, "--file-size", String.valueOf(size)), true);
    }

    private static DataFile write(Build build, Path scratch, String snippet, List<String> flags, boolean text) {
        Scratch.createDirectories(scratch);
        Path path = scratch.resolve(Scratch.RUN_PREFIX + "exercise-" + System.nanoTime() + ".dat");  // swept if the kernel dies
        List<String> cmd = new ArrayList<>(build.command(snippet, "c"));
        cmd.addAll(flags);
        cmd.addAll(List.of("--repeat", "1", "--warmup", "0", "--file", path.toString(), "--keep"));
        try {
            var row = new Run(JsonParser.parseString(Exec.run(cmd, "writing the exercise file").strip()).getAsJsonObject());
            return new DataFile(path, row.fileSize(), row.checksum(), text ? row.ops() : -1);
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
