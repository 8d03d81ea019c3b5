///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 22
// mapped_file (lab 10): reading a file through memory mappings, the old way and the new. A run maps the
// file one --op-size block at a time, read-only, copies the block into the program's own buffer (where
// read() would have put it) and hands that to Harness.use; so the clock holds the mapping, its page
// faults, the copy and, where the strategy can, the unmapping.
//   buffer        FileChannel.map → a MappedByteBuffer (lab 07's way). Java has no call to unmap it: the
//                 garbage collector does, some time after the buffer is unreachable, outside this clock.
//                 One mapping holds at most 2 GB (a buffer's index is an int).
//   segment       FileChannel.map(…, arena) → a MemorySegment (Java 22): unmapped when its arena closes, at
//                 the end of each block, inside the clock; one mapping can hold the whole file, any size.
//   segment-load  the same with MemorySegment.load() first, which asks the kernel for the block's pages
//                 (madvise MADV_WILLNEED) and then touches each page, so they are in before the copy.
// Java 22 or later only (compiled --release 22). Twin: c-snippets/mapped_file.c (mmap, mmap-load).
//
// What you will see: from a warm page cache every way costs a page fault per page and a copy; the
// segment pays for its unmapping where you can see it. From a cold cache, load() decides how the disk is asked.
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;

public class MappedFile {
    static final List<Harness.Way<Harness.Strategy>> WAYS = List.of(
            new Harness.Way<>("buffer", "read", "seq", MappedFile::buffers),
            new Harness.Way<>("segment", "read", "seq", MappedFile::segments),
            new Harness.Way<>("segment-load", "read", "seq", MappedFile::segments));

    public static void main(String[] args) {
        Harness.run("mapped_file", WAYS, args, MappedFile::check);
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (!o.op().equals("read")) throw new Harness.UsageError("--op " + o.op() + ": mapped_file reads (allowed: read; lab 07 measures mapped writes)");
        if (!o.pattern().equals("seq")) throw new Harness.UsageError("--pattern " + o.pattern() + ": mapped_file maps the file in order (allowed: seq)");
    }

    /** Each block mapped as a MappedByteBuffer; the buffers are left to the garbage collector. */
    static long buffers(Harness.Options o) throws IOException {
        byte[] buf = new byte[o.opSize()];
        long used = 0;
        try (var channel = FileChannel.open(o.file(), StandardOpenOption.READ)) {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = (int) Math.min(o.opSize(), o.fileSize() - pos);
                MappedByteBuffer block = channel.map(FileChannel.MapMode.READ_ONLY, pos, n);
                block.get(0, buf, 0, n);
                used += Harness.use(buf, 0, n);
            }
        }
        return used;
    }

    /** Each block mapped as a MemorySegment in an arena of its own, unmapped as the arena closes; segment-load loads it first. */
    static long segments(Harness.Options o) throws IOException {
        boolean load = o.strategy().equals("segment-load");
        byte[] buf = new byte[o.opSize()];
        long used = 0;
        try (var channel = FileChannel.open(o.file(), StandardOpenOption.READ)) {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = (int) Math.min(o.opSize(), o.fileSize() - pos);
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment block = channel.map(FileChannel.MapMode.READ_ONLY, pos, n, arena);
                    if (load) block.load();
                    MemorySegment.copy(block, ValueLayout.JAVA_BYTE, 0, buf, 0, n);
                }
                used += Harness.use(buf, 0, n);
            }
        }
        return used;
    }
}
