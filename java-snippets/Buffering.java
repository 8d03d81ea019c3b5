///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 17
// buffering: one byte per operation, as in raw_io, but most operations are served from memory
// (Xu & Guo §4.3-4.4). Two ways to keep a buffer:
//   stream  the JDK's BufferedInputStream / BufferedOutputStream, read() and write(int) per byte;
//           --buffer-size sets their buffer, without it they use the JDK's default (8 KB)
//   direct  the program keeps its own byte[] and refills or flushes it itself with one system call
//           per buffer; random access keeps one window of the file, and a miss writes the window
//           back (if changed) and loads the window that holds the new position
// Java has no buffered random-access stream, so `stream` is sequential only. Twin: c-snippets/buffering.c.
//
// What you will see: sequentially, a buffer of a few KB cuts the system calls a thousandfold and the
// time by far more than the study's 25%; at random, a window is rarely hit again, so every miss moves
// a whole buffer and larger buffers only cost more, until the buffer holds the whole file.
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Arrays;
import java.util.List;

public class Buffering {
    static final List<Harness.Way<Harness.Strategy>> WAYS = List.of(
            new Harness.Way<>("stream", "write", "seq", Buffering::streamWrite),
            new Harness.Way<>("stream", "read", "seq", Buffering::streamRead),
            new Harness.Way<>("direct", "write", "seq", Buffering::directSeqWrite),
            new Harness.Way<>("direct", "read", "seq", Buffering::directSeqRead),
            new Harness.Way<>("direct", "write", "rand", Buffering::directRandWrite),
            new Harness.Way<>("direct", "read", "rand", Buffering::directRandRead));

    public static void main(String[] args) {
        Harness.run("buffering", WAYS, args, Buffering::check);
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        Flags.checkOperationFitsBuffer(o);
        if (o.opSize() != 1) {
            throw new Harness.UsageError("--op-size " + o.opSize() + ": buffering moves one byte per operation, as the study did (allowed: 1)");
        }
        if (o.strategy().equals("stream") && o.pattern().equals("rand")) {
            throw new Harness.UsageError("--strategy stream works only with --pattern seq (there is no buffered random-access stream)");
        }
        if (o.strategy().equals("direct") && o.bufferSize() == 0) {
            throw new Harness.UsageError("--strategy direct needs --buffer-size (the size of the program's own buffer)");
        }
    }

    static long streamWrite(Harness.Options o) throws IOException {
        var file = new FileOutputStream(o.file().toFile());
        try (var out = o.bufferSize() > 0 ? new BufferedOutputStream(file, o.bufferSize()) : new BufferedOutputStream(file)) {
            for (long pos = 0; pos < o.fileSize(); pos++) out.write(Data.at(pos));
        }
        return 0;
    }

    static long streamRead(Harness.Options o) throws IOException {
        long used = 0;
        var file = new FileInputStream(o.file().toFile());
        try (var in = o.bufferSize() > 0 ? new BufferedInputStream(file, o.bufferSize()) : new BufferedInputStream(file)) {
            for (int b; (b = in.read()) != -1; ) used += b;
        }
        return used;
    }

    /** Fills the buffer byte by byte; one write(2) per full buffer, and one for the rest at the end. */
    static long directSeqWrite(Harness.Options o) throws IOException {
        byte[] buffer = new byte[o.bufferSize()];
        int used = 0;
        Harness.misses = 0;
        try (var out = new FileOutputStream(o.file().toFile())) {
            for (long pos = 0; pos < o.fileSize(); pos++) {
                if (used == buffer.length) {  // full: flush it with one system call
                    out.write(buffer, 0, used);
                    used = 0;
                    Harness.misses++;
                }
                buffer[used++] = (byte) Data.at(pos);
            }
            out.write(buffer, 0, used);
        }
        return 0;
    }

    /** Takes bytes from the buffer; one read(2) per buffer when it runs dry. */
    static long directSeqRead(Harness.Options o) throws IOException {
        long used = 0;
        byte[] buffer = new byte[o.bufferSize()];
        int next = 0, filled = 0;
        Harness.misses = 0;
        try (var in = new FileInputStream(o.file().toFile())) {
            for (long pos = 0; pos < o.fileSize(); pos++) {
                if (next == filled) {  // empty: refill it with one system call
                    filled = in.read(buffer);
                    if (filled < 0) throw new IOException("file ended early");
                    next = 0;
                    Harness.misses++;
                }
                used += buffer[next++] & 0xFF;
            }
        }
        return used;
    }

    /**
     * The buffer holds one window of the file, aligned to the buffer size. A byte outside it is a miss:
     * write the window back if it was changed, then load the window that holds the byte (read first, so
     * that writing it back never clobbers bytes this run did not write).
     */
    static long directRandWrite(Harness.Options o) throws IOException {
        long start = 0;
        byte[] buffer = new byte[o.bufferSize()];
        int length = 0;
        boolean dirty = false;
        Prng random = new Prng(o.seed());
        Harness.misses = 0;
        try (var file = new RandomAccessFile(o.file().toFile(), "rw")) {
            for (long i = 0; i < o.fileSize(); i++) {
                long pos = random.below(o.fileSize());
                if (pos < start || pos >= start + length) {  // miss
                    if (dirty) {
                        file.seek(start);
                        file.write(buffer, 0, length);
                    }
                    start = pos - pos % buffer.length;
                    length = (int) Math.min(buffer.length, o.fileSize() - start);
                    file.seek(start);
                    Arrays.fill(buffer, Harness.readFully(file, buffer, length), length, (byte) 0);  // past the end: zeros
                    Harness.misses++;
                }
                buffer[(int) (pos - start)] = (byte) Data.at(pos);
                dirty = true;
            }
            if (dirty) {
                file.seek(start);
                file.write(buffer, 0, length);
            }
        }
        return 0;
    }

    static long directRandRead(Harness.Options o) throws IOException {
        long used = 0, start = 0;
        byte[] buffer = new byte[o.bufferSize()];
        int length = 0;
        Prng random = new Prng(o.seed());
        Harness.misses = 0;
        try (var file = new RandomAccessFile(o.file().toFile(), "r")) {
            for (long i = 0; i < o.fileSize(); i++) {
                long pos = random.below(o.fileSize());
                if (pos < start || pos >= start + length) {  // miss: load the window that holds pos
                    start = pos - pos % buffer.length;
                    length = (int) Math.min(buffer.length, o.fileSize() - start);
                    file.seek(start);
                    if (Harness.readFully(file, buffer, length) < length) throw new IOException("file ended early");
                    Harness.misses++;
                }
                used += buffer[(int) (pos - start)] & 0xFF;
            }
        }
        return used;
    }
}
