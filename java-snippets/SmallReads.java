///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES Harness.java
//JAVAC_OPTIONS --release 21
// small_reads (lab 09): many small reads of one file by --threads workers at once. Each worker takes the
// next block from a shared counter and reads it with one positional read (FileChannel.read at an offset;
// C: pread) into its own buffer: the blocks in order, or with --pattern rand the slots raw_io's random
// reads visit (the list made before the clock starts). The workers start together behind a barrier, and
// each line records the most platform threads the process had at once (platform_threads).
//   platform  each worker is a platform thread: an OS thread of its own
//   virtual   each worker is a virtual thread (Java 21): the JDK runs virtual threads on a few carrier
//             threads, one per core, and a virtual thread blocked in a file read holds its carrier (a file
//             read cannot unmount it), so the JDK lends the pool another carrier for the while
// The same workers in both, so only the kind of thread differs; the usual way with virtual threads is a
// thread per task, which lab 09's "go further" suggests. Java 21 or later. Twin: c-snippets/small_reads.c
// (platform, io-uring). Java has no io-uring: liburing's calls that fill and reap the rings (io_uring_prep_read,
// io_uring_wait_cqe, io_uring_cqe_seen) are inline functions in its header, which FFM cannot call, and doing
// their work from Java means copying liburing's struct io_uring (a layout it does not promise to keep) and
// ordering the ring's indices against the kernel by hand, in memory the kernel writes into: a mistake there
// corrupts the JVM instead of throwing.
//
// What you will see: from the page cache, no read waits, so virtual threads save nothing; cold, every
// blocked read holds a carrier, and the platform threads climb toward the workers' number anyway.
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

public class SmallReads {
    /** Each read's offset, in the order the workers take them: made before the first run, never timed. */
    static long[] offsets;

    public static void main(String[] args) {
        Harness.run("small_reads", List.of("platform", "virtual"), args, SmallReads::check, SmallReads::plan, o -> {
            ThreadFactory kind = o.strategy().equals("virtual") ? Thread.ofVirtual().factory() : Thread.ofPlatform().factory();
            AtomicLong next = new AtomicLong(), used = new AtomicLong();
            try (var channel = FileChannel.open(o.file(), StandardOpenOption.READ)) {
                Harness.inThreads(o, kind, worker -> {
                    ByteBuffer buf = ByteBuffer.allocate(o.opSize());
                    long mine = 0;
                    for (long i; (i = next.getAndIncrement()) < offsets.length; ) {
                        long pos = offsets[(int) i];
                        buf.clear().limit((int) Math.min(o.opSize(), o.fileSize() - pos));
                        while (buf.hasRemaining()) {
                            if (channel.read(buf, pos + buf.position()) < 0) throw new EOFException();
                        }
                        mine += Harness.use(buf.array(), 0, buf.limit());
                    }
                    used.addAndGet(mine);
                });
            }
            return used.get();
        });
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (!o.op().equals("read")) throw new Harness.UsageError("--op " + o.op() + ": small_reads reads (allowed: read)");
        if (o.depth() > 1) {
            throw new Harness.UsageError("--depth " + o.depth() + ": a " + o.strategy() + " worker reads one block at a time (allowed: 1; C's io-uring keeps more in flight)");
        }
    }

    /** In order, every block; at random, as many slots as the file has whole blocks, drawn as raw_io draws them. */
    static void plan(Harness.Options o) {
        boolean seq = o.pattern().equals("seq");
        long slots = o.fileSize() / o.opSize();
        offsets = new long[(int) (seq ? (o.fileSize() + o.opSize() - 1) / o.opSize() : slots)];
        Prng random = new Prng(o.seed());
        for (int i = 0; i < offsets.length; i++) offsets[i] = (seq ? i : random.below(slots)) * o.opSize();
    }
}
