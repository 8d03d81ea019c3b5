///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 17
// raw_io: one system call per operation and no buffer anywhere (Xu & Guo §3.2.1 and §3.2.4).
// Sequential access uses FileInputStream / FileOutputStream; random access uses RandomAccessFile
// with seek, because streams cannot seek. With --op-size 1 every call moves one byte through
// read() / write(int): the study's "raw Java I/O" baseline. Larger --op-size values move a byte[]
// per call (lab 03). Twin: c-snippets/raw_io.c.
//
// Writes take their bytes straight from the course's pattern (Data.source, laid out before the clock
// starts); reads hand each buffer to Harness.use, which touches one byte of it (the check run, off the
// clock, sums them all). So the clock holds the calls and nothing else.
//
// --strategy o-direct (lab 10) makes the same calls past the page cache: a FileChannel opened with
// ExtendedOpenOption.DIRECT (O_DIRECT), one --op-size block per call into a buffer aligned to the file
// system's block size (ByteBuffer.alignedSlice). Direct I/O moves whole blocks at whole-block offsets,
// so --op-size must be a multiple of 4 KiB and --file-size a multiple of --op-size.
//
// What you will see: with 1-byte operations every byte costs a trip into the kernel, so the rate
// is a few million bytes per second whatever the file size, in Java and in C alike.
import com.sun.nio.file.ExtendedOpenOption;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;

public class RawIo {
    /** Direct I/O's unit: a multiple of the block size of every file system Linux does direct I/O on. */
    static final int DIRECT_UNIT = 4096;

    static final List<Harness.Way<Harness.Strategy>> WAYS = List.of(
            new Harness.Way<>("raw", "write", "seq", RawIo::seqWrite),
            new Harness.Way<>("raw", "read", "seq", RawIo::seqRead),
            new Harness.Way<>("raw", "write", "rand", RawIo::randWrite),
            new Harness.Way<>("raw", "read", "rand", RawIo::randRead),
            new Harness.Way<>("o-direct", Harness.ANY, Harness.ANY, RawIo::direct));

    public static void main(String[] args) {
        Harness.run("raw_io", WAYS, args, RawIo::check);
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (!o.strategy().equals("o-direct")) return;
        if (o.opSize() % DIRECT_UNIT != 0 || o.fileSize() % o.opSize() != 0) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " and --file-size " + o.fileSize()
                    + ": direct I/O moves whole blocks (--op-size a multiple of 4096, --file-size a multiple of --op-size)");
        }
    }

    static long seqWrite(Harness.Options o) throws IOException {
        try (var out = new FileOutputStream(o.file().toFile())) {
            if (o.opSize() == 1) {
                for (long pos = 0; pos < o.fileSize(); pos++) out.write(Data.at(pos));
            } else {
                for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                    out.write(Data.source, Data.offset(pos), (int) Math.min(o.opSize(), o.fileSize() - pos));
                }
            }
        }
        return 0;
    }

    static long seqRead(Harness.Options o) throws IOException {
        long used = 0;
        try (var in = new FileInputStream(o.file().toFile())) {
            if (o.opSize() == 1) {
                for (int b; (b = in.read()) != -1; ) used += b;
            } else {
                byte[] buf = new byte[o.opSize()];
                for (int n; (n = in.read(buf)) != -1; ) used += Harness.use(buf, 0, n);
            }
        }
        return used;
    }

    /** As many operations as the file has slots, each at a random slot: seek, then write. */
    static long randWrite(Harness.Options o) throws IOException {
        long slots = o.fileSize() / o.opSize();
        Prng random = new Prng(o.seed());
        try (var file = new RandomAccessFile(o.file().toFile(), "rw")) {
            for (long i = 0; i < slots; i++) {
                long pos = random.below(slots) * o.opSize();
                file.seek(pos);
                if (o.opSize() == 1) file.write(Data.at(pos));
                else file.write(Data.source, Data.offset(pos), o.opSize());
            }
        }
        return 0;
    }

    static long randRead(Harness.Options o) throws IOException {
        long used = 0, slots = o.fileSize() / o.opSize();
        Prng random = new Prng(o.seed());
        byte[] buf = new byte[o.opSize()];
        try (var file = new RandomAccessFile(o.file().toFile(), "r")) {
            for (long i = 0; i < slots; i++) {
                file.seek(random.below(slots) * o.opSize());
                if (o.opSize() == 1) {
                    used += file.read();
                } else {
                    file.readFully(buf);
                    used += Harness.use(buf, 0, buf.length);
                }
            }
        }
        return used;
    }

    /**
     * Past the page cache: each operation moves one --op-size block between the disk and a buffer aligned
     * to the file system's block size, at a whole-block offset (in order, or a random slot).
     */
    static long direct(Harness.Options o) throws IOException {
        boolean write = o.op().equals("write");
        long slots = o.fileSize() / o.opSize(), used = 0;
        Prng random = new Prng(o.seed());
        try (var channel = openDirect(o, write)) {  // first: a write makes the file, whose file store gives the block size
            int block = (int) Files.getFileStore(o.file()).getBlockSize();
            // alignedSlice starts on a block and ends on one: two blocks to spare leave room for --op-size past the start
            ByteBuffer buf = ByteBuffer.allocateDirect(o.opSize() + 2 * block).alignedSlice(block).slice(0, o.opSize());
            for (long i = 0; i < slots; i++) {
                long pos = (o.pattern().equals("seq") ? i : random.below(slots)) * o.opSize();
                buf.clear();
                if (write) {
                    buf.put(Data.source, Data.offset(pos), o.opSize()).flip();
                    if (channel.write(buf, pos) != o.opSize()) throw new IOException("a direct write moved part of a block");
                } else {
                    if (channel.read(buf, pos) != o.opSize()) throw new EOFException();
                    used += Harness.use(buf, o.opSize());
                }
            }
        }
        return used;
    }

    /** The file opened for direct I/O, or an error that says so where the file system refuses it (tmpfs did before Linux 6.6). */
    static FileChannel openDirect(Harness.Options o, boolean write) throws IOException {
        try {
            return write ? FileChannel.open(o.file(), StandardOpenOption.CREATE, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)
                    : FileChannel.open(o.file(), StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        } catch (java.nio.file.FileSystemException e) {
            if (!"Invalid argument".equals(e.getReason())) throw e;
            throw new Harness.Unsupported("this file system refuses direct I/O (O_DIRECT); put the scratch folder on a disk (COURSE_SCRATCH)");
        }
    }
}
