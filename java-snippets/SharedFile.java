///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java BulkRandomAccessFile.java
//JAVAC_OPTIONS --release 17
// shared_file: threads writing and reading one shared file (Awan, Ayub, Shafi & Lee §IV-V, Figs 5-6).
// The program holds one int[] as large as --file-size. --threads threads each move their own share of
// it (whole --op-size blocks, disjoint, see Workers.share) to the same place in one file, or in a read
// run back from it. The file is big-endian, as Java's data streams write it. The main thread creates
// the file; each thread then opens it itself, as each of the study's processes did, and every write
// ends by forcing the thread's data to the disk, as the study's did. The strategies:
//   view-heap    FileChannel, a heap ByteBuffer and its asIntBuffer() view: a bulk put, then a positional write, per block
//   view-direct  the same with a direct (off-heap) ByteBuffer
//   mapped       a MappedByteBuffer per block and its asIntBuffer() view: no write call at all, force() instead
//   bulk         BulkRandomAccessFile (lab 06): seek to the share, then writeArray / readArray per block
//   raf          RandomAccessFile.writeInt / readInt, one int per call: the study's "extremely inefficient" reference
// With --lock region each thread holds a FileLock on its share while it moves it (exclusive to write,
// shared to read). A read hands the array to Harness.use once the threads have finished; its checksum
// is the sum of the array's ints as unsigned numbers (from the untimed check run), a write's the sum of
// its file's bytes. Twin: c-snippets/shared_file.c (pwrite, mmap).
//
// What you will see: reads from the page cache gain from threads until the cores run out; writes
// forced to disk gain little, and mapped writes trail (a page fault per page, then force).
import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

public class SharedFile {
    static final List<Harness.Way<Share>> WAYS = List.of(
            new Harness.Way<>("view-heap", Harness.ANY, "seq", SharedFile::view),
            new Harness.Way<>("view-direct", Harness.ANY, "seq", SharedFile::view),
            new Harness.Way<>("mapped", Harness.ANY, "seq", SharedFile::mapped),
            new Harness.Way<>("bulk", Harness.ANY, "seq", SharedFile::bulk),
            new Harness.Way<>("raf", Harness.ANY, "seq", SharedFile::raf));

    /** What a way does: one thread's share of the file (in mpi_file, one process's), as the functions below describe. */
    @FunctionalInterface
    interface Share {
        void run(Harness.Options o, int[] ints, long base, long from, long to, boolean write) throws IOException;
    }

    /** The shared array: made before the first run and kept, as the study's program kept its array. */
    static int[] shared;

    public static void main(String[] args) {
        Harness.run("shared_file", WAYS, args, SharedFile::check, SharedFile::prepare, SharedFile::frame);
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        Flags.checkIntShares(o, o.strategy().equals("mapped"));
    }

    static void prepare(Harness.Options o) {
        shared = o.op().equals("write") ? Data.ints(0, o.fileSize()) : new int[(int) (o.fileSize() / 4)];  // typed_arrays' ints
    }

    /** What every way shares, timed whole: the file made for a write, then the threads, each moving its share. */
    static long frame(Harness.Options o, Share fn) throws IOException {
        boolean write = o.op().equals("write");
        if (write) create(o);
        Workers.inThreads(o, thread -> {
            long[] share = Workers.share(o, thread);
            fn.run(o, shared, 0, share[0], share[1], write);
        });
        return write ? 0 : Harness.use(shared, 0, shared.length);
    }

    /** Makes the file the workers write into: empty, or at its full size for the mapped strategy, since a mapping cannot grow a file safely from many threads or processes. */
    static void create(Harness.Options o) throws IOException {
        try (var file = new RandomAccessFile(o.file().toFile(), "rw")) {
            if (o.strategy().equals("mapped")) file.setLength(o.fileSize());
        }
    }

    // The strategies move the file's bytes [from, to) to or from ints, where ints[i] is the file's int at byte base + 4i.

    /** The study's Fig 2: the ints go into the buffer through its int view, the buffer to the file through the channel. */
    static void view(Harness.Options o, int[] ints, long base, long from, long to, boolean write) throws IOException {
        ByteBuffer buffer = o.strategy().equals("view-direct") ? ByteBuffer.allocateDirect(o.opSize()) : ByteBuffer.allocate(o.opSize());
        try (var channel = FileChannel.open(o.file(), write ? WRITE : READ); var lock = Workers.lockShare(o, channel, from, to, write)) {
            for (long pos = from; pos < to; pos += o.opSize()) {
                int first = (int) ((pos - base) / 4), n = (int) Math.min(o.opSize(), to - pos) / 4;
                buffer.clear().limit(4 * n);
                if (write) {
                    buffer.asIntBuffer().put(ints, first, n);
                    while (buffer.hasRemaining()) channel.write(buffer, pos + buffer.position());
                } else {
                    while (buffer.hasRemaining()) {
                        if (channel.read(buffer, pos + buffer.position()) < 0) throw new EOFException();
                    }
                    buffer.flip().asIntBuffer().get(ints, first, n);
                }
            }
            if (write) channel.force(true);
        }
    }

    /** The study's Fig 3: each block of the file mapped into memory; the ints go in and out through its int view. */
    static void mapped(Harness.Options o, int[] ints, long base, long from, long to, boolean write) throws IOException {
        try (var channel = write ? FileChannel.open(o.file(), READ, WRITE) : FileChannel.open(o.file(), READ);
             var lock = Workers.lockShare(o, channel, from, to, write)) {
            long size = channel.size();
            for (long pos = from; pos < to; pos += o.opSize()) {
                int first = (int) ((pos - base) / 4), n = (int) Math.min(o.opSize(), to - pos) / 4;
                if (pos + 4L * n > size) throw new EOFException();  // mapping past the end would grow the file, not fail
                java.nio.MappedByteBuffer block;
                try {
                    block = channel.map(write ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, pos, 4L * n);
                } catch (IOException e) {  // cut short by another program since we looked
                    if (pos + 4L * n > channel.size()) throw new EOFException();
                    throw e;
                }
                if (write) {
                    block.asIntBuffer().put(ints, first, n);
                    block.force();
                } else {
                    block.asIntBuffer().get(ints, first, n);
                }
            }
        }
    }

    /** The study's Fig 4: the bulk extension moves an int[] range in one call (in Bonachea et al.'s design, as the class they downloaded). */
    static void bulk(Harness.Options o, int[] ints, long base, long from, long to, boolean write) throws IOException {
        // its byte[] kept between calls (Bonachea et al.'s own proposal, §8): in these short runs a new array per call
        // would mostly measure the kernel's first touch of fresh heap pages (lab 06 shows that cost)
        try (var file = new BulkRandomAccessFile(o.file().toFile(), write ? "rw" : "r").reuse(true);
             var lock = Workers.lockShare(o, file.getChannel(), from, to, write)) {
            file.seek(from);
            for (long pos = from; pos < to; pos += o.opSize()) {
                int first = (int) ((pos - base) / 4), n = (int) Math.min(o.opSize(), to - pos) / 4;
                if (write) file.writeArray(ints, first, n);
                else file.readArray(ints, first, n);
            }
            if (write) file.getChannel().force(true);
        }
    }

    /** One system call per int. */
    static void raf(Harness.Options o, int[] ints, long base, long from, long to, boolean write) throws IOException {
        try (var file = new RandomAccessFile(o.file().toFile(), write ? "rw" : "r");
             var lock = Workers.lockShare(o, file.getChannel(), from, to, write)) {
            file.seek(from);
            for (int i = (int) ((from - base) / 4); i < (to - base) / 4; i++) {
                if (write) file.writeInt(ints[i]);
                else ints[i] = file.readInt();
            }
            if (write) file.getChannel().force(true);
        }
    }
}
