///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 17
// file_copy (lab 10): copying a file. Before any run the harness makes the source beside --file (its name
// plus ".source", filled with the course's data) and, as for every write, removes --file before each run;
// a strategy makes --file anew and copies the whole source into it, and the harness sums the copy after the clock stops.
//   loop        FileInputStream.read / FileOutputStream.write of one --op-size buffer: the copy a program writes by hand
//   transfer    FileChannel.transferTo: the JDK picks the system call (on Linux, copy_file_range where it can)
//   files-copy  Files.copy(source, target, REPLACE_EXISTING): the one-line way; it makes --file anew
// Twin: c-snippets/file_copy.c (loop, copy-file-range, sendfile).
//
// What you will see: the loop moves every byte through the program's buffer, twice across the kernel's
// boundary; the others ask the kernel to copy inside itself. On a file system that can share blocks
// (Btrfs, XFS with reflink) copy_file_range may clone instead: no bytes move, and MB/s stops meaning much.
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

public class FileCopy {
    static final List<Harness.Way<Harness.Strategy>> WAYS = List.of(
            new Harness.Way<>("loop", "write", "seq", FileCopy::loop),
            new Harness.Way<>("transfer", "write", "seq", FileCopy::transfer),
            new Harness.Way<>("files-copy", "write", "seq", FileCopy::filesCopy));

    public static void main(String[] args) {
        Harness.run("file_copy", WAYS, args, FileCopy::check, Space::writeSource);
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (!o.op().equals("write")) throw new Harness.UsageError("--op " + o.op() + ": file_copy writes a copy (allowed: write)");
        if (!o.pattern().equals("seq")) throw new Harness.UsageError("--pattern " + o.pattern() + ": file_copy copies in order (allowed: seq)");
        if (Files.exists(Space.source(o), LinkOption.NOFOLLOW_LINKS)) {
            throw new Harness.UsageError("--file " + o.file() + ": " + Space.source(o) + " already exists (file_copy makes its source there and overwrites nothing)");
        }
    }

    static long loop(Harness.Options o) throws IOException {
        byte[] buf = new byte[o.opSize()];
        try (var in = new FileInputStream(Space.source(o).toFile()); var out = new FileOutputStream(o.file().toFile())) {
            for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
        }
        return 0;
    }

    static long transfer(Harness.Options o) throws IOException {
        try (var in = FileChannel.open(Space.source(o), StandardOpenOption.READ);
             var out = FileChannel.open(o.file(), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long done = 0, size = in.size(); done < size; ) done += in.transferTo(done, size - done, out);
        }
        return 0;
    }

    static long filesCopy(Harness.Options o) throws IOException {
        Files.copy(Space.source(o), o.file(), StandardCopyOption.REPLACE_EXISTING);
        return 0;
    }
}
