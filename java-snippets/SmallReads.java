///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java TypedFfm.java Ring.java
//JAVAC_OPTIONS --release 22
// small_reads (lab 10): many small reads of one file by --threads workers at once. Each worker takes the
// next block from a shared counter and reads it with one positional read (FileChannel.read at an offset;
// C: pread) into its own buffer: the blocks in order, or with --pattern rand the slots raw_io's random
// reads visit (the list made before the clock starts). The workers start together behind a barrier, and
// each line records the most platform threads the process had at once (platform_threads).
//   platform  each worker is a platform thread: an OS thread of its own
//   virtual   each worker is a virtual thread (Java 21): the JDK runs virtual threads on a few carrier
//             threads, one per core, and a virtual thread blocked in a file read holds its carrier (a file
//             read cannot unmount it); since JDK 23 no carrier is added for the while (JDK-8329593)
//   io-uring  each worker (a platform thread) keeps --depth reads in flight through an io_uring of its own
//             (Ring.java: the kernel's interface through the Foreign Function & Memory API): it queues them,
//             the kernel works on all of them, and the worker takes each completion and queues the next
//             block in its place. Where the kernel refuses io_uring (containers' default seccomp profiles do),
//             the run says so before any run (status 3).
// The same workers in platform and virtual, so only the kind of thread differs; the usual way with virtual
// threads is a thread per task, which lab 10's "go further" suggests. Java 22 or later (FFM). Twin:
// c-snippets/small_reads.c (platform, io-uring through liburing).
//
// What you will see: from the page cache, no read waits, so virtual threads save nothing; cold, every
// blocked read holds a carrier, and one io_uring keeps as many reads waiting as a thread per read.
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

public class SmallReads {
    static final List<Harness.Way<Worker>> WAYS = List.of(
            new Harness.Way<>("platform", "read", Harness.ANY, SmallReads::worker),
            new Harness.Way<>("virtual", "read", Harness.ANY, SmallReads::worker),
            new Harness.Way<>("io-uring", "read", Harness.ANY, SmallReads::ringWorker));

    /** Each read's offset, in the order the workers take them: made before the first run, never timed. */
    static long[] offsets;

    /** The next block to read, shared by all workers; the file, as each run's frame opened it for the workers. */
    static AtomicLong next;
    static FileChannel channel;  // platform, virtual
    static int fd;  // io-uring: the ring reads through a file descriptor

    public static void main(String[] args) {
        Harness.run("small_reads", WAYS, args, SmallReads::check, SmallReads::plan, SmallReads::frame);
    }

    /** One worker: takes blocks until none is left; returns what Harness.use returned for them. */
    @FunctionalInterface
    interface Worker {
        long run(Harness.Options o) throws IOException;
    }

    /**
     * Timed whole: opens the file, starts --threads workers of the strategy's kind of thread together, and closes
     * the file when all are done. The ring's workers read through a file descriptor, the others through a FileChannel.
     */
    static long frame(Harness.Options o, Worker fn) throws IOException {
        AtomicLong used = new AtomicLong();
        next = new AtomicLong();
        if (o.strategy().equals("io-uring")) {
            try (Arena arena = Arena.ofShared()) {
                fd = TypedFfm.open(o, arena, TypedFfm.O_RDONLY, arena.allocate(Linker.Option.captureStateLayout()));
                try {
                    Workers.inThreads(o, worker -> used.addAndGet(fn.run(o)));
                } finally {
                    TypedFfm.close(fd);
                }
            }
            return used.get();
        }
        ThreadFactory kind = o.strategy().equals("virtual") ? Thread.ofVirtual().factory() : Thread.ofPlatform().factory();
        try (var file = FileChannel.open(o.file(), StandardOpenOption.READ)) {
            channel = file;
            Workers.inThreads(o, kind, worker -> used.addAndGet(fn.run(o)));
        }
        return used.get();
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (!o.op().equals("read")) throw new Harness.UsageError("--op " + o.op() + ": small_reads reads (allowed: read)");
        if (o.depth() > 1 && !o.strategy().equals("io-uring")) {
            throw new Harness.UsageError("--depth " + o.depth() + ": a " + o.strategy() + " worker reads one block at a time (allowed: 1; io-uring keeps more in flight)");
        }
    }

    /** In order, every block; at random, as many slots as the file has whole blocks, drawn as raw_io draws them. */
    static void plan(Harness.Options o) throws IOException {
        if (o.strategy().equals("io-uring")) new Ring(1).close();  // a kernel that refuses io_uring says so before any run
        boolean seq = o.pattern().equals("seq");
        long slots = o.fileSize() / o.opSize();
        offsets = new long[(int) (seq ? (o.fileSize() + o.opSize() - 1) / o.opSize() : slots)];
        Prng random = new Prng(o.seed());
        for (int i = 0; i < offsets.length; i++) offsets[i] = (seq ? i : random.below(slots)) * o.opSize();
    }

    /** One block at a time: take the next, read it with positional reads until it is whole, hand it over. */
    static long worker(Harness.Options o) throws IOException {
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
        return mine;
    }

    /** --depth reads in flight through one ring: entry k holds one block (its buffer, offset, length, bytes done). */
    static long ringWorker(Harness.Options o) throws IOException {
        int depth = o.depth(), inFlight = 0;
        long[] pos = new long[depth], len = new long[depth], done = new long[depth];
        long mine = 0;
        try (Arena arena = Arena.ofConfined(); Ring ring = new Ring(depth)) {  // the ring closes first, after every read in flight
            MemorySegment bufs = arena.allocate((long) depth * o.opSize(), 4096);
            for (int k = 0; k < depth; k++, inFlight++) {
                long i = next.getAndIncrement();
                if (i >= offsets.length) break;
                pos[k] = offsets[(int) i];
                len[k] = Math.min(o.opSize(), o.fileSize() - pos[k]);
                done[k] = 0;
                ring.read(fd, bufs.asSlice((long) k * o.opSize()), len[k], pos[k], k);
            }
            while (inFlight > 0) {
                ring.submitAndWait();
                for (long[] completion; (completion = ring.next()) != null; ) {
                    int k = (int) completion[0];
                    long got = completion[1];
                    if (got < 0) throw new IOException(TypedFfm.strerror((int) -got));
                    if (got == 0) throw new EOFException();
                    MemorySegment buf = bufs.asSlice((long) k * o.opSize(), o.opSize());
                    if ((done[k] += got) < len[k]) {  // a short read: queue the rest
                        ring.read(fd, buf.asSlice(done[k]), len[k] - done[k], pos[k] + done[k], k);
                        continue;
                    }
                    mine += Harness.use(buf.asByteBuffer(), (int) len[k]);
                    long i = next.getAndIncrement();
                    if (i >= offsets.length) {
                        inFlight--;
                        continue;
                    }
                    pos[k] = offsets[(int) i];
                    len[k] = Math.min(o.opSize(), o.fileSize() - pos[k]);
                    done[k] = 0;
                    ring.read(fd, buf, len[k], pos[k], k);
                }
            }
        }
        return mine;
    }
}
