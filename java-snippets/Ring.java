// Ring (lab 10): the least of io_uring a reader needs, from Java through the Foreign Function & Memory API
// (Java 22). It speaks the kernel's own interface, which the kernel keeps stable: the io_uring_setup and
// io_uring_enter system calls, and the layouts of io_uring_params, of a submission queue entry (SQE) and of a
// completion queue entry (CQE), as <linux/io_uring.h> defines them. It does not use liburing: liburing's calls
// that fill and reap the rings are inline functions in its header, which FFM cannot call, and its struct
// io_uring is a layout it does not promise to keep. Plumbing for small_reads' io-uring strategy, as
// BulkRandomAccessFile is for lab 06; its C twin is liburing itself (c-snippets/small_reads.c).
//
// Two rings of memory are shared with the kernel. The program writes SQEs and moves the submission ring's
// tail; the kernel moves its head as it takes them. The kernel writes CQEs and moves the completion ring's
// tail; the program moves its head as it takes them. Each side reads the other's index with acquire and
// writes its own with release ordering (VarHandle getAcquire / setRelease), as liburing does with
// io_uring_smp_load_acquire / io_uring_smp_store_release, so that an entry is whole before its index shows it.
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

final class Ring implements AutoCloseable {
    // system call numbers (the same on every Linux architecture since 5.1) and the constants of <linux/io_uring.h>
    static final long IO_URING_SETUP = 425, IO_URING_ENTER = 426;
    static final int IORING_OP_READ = 22, IORING_FEAT_SINGLE_MMAP = 1, IORING_ENTER_GETEVENTS = 1;
    static final long IORING_OFF_SQ_RING = 0, IORING_OFF_CQ_RING = 0x8000000L, IORING_OFF_SQES = 0x10000000L;
    static final int PROT_READ_WRITE = 1 | 2, MAP_SHARED_POPULATE = 0x01 | 0x8000;
    static final int PARAMS_SIZE = 120, SQE_SIZE = 64, CQE_SIZE = 16;

    // syscall(2) is variadic after the number; every argument here fits a long
    static final MethodHandle SYSCALL = TypedFfm.downcall("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), TypedFfm.ERRNO, java.lang.foreign.Linker.Option.firstVariadicArg(1));
    static final MethodHandle MMAP = TypedFfm.downcall("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_LONG), TypedFfm.ERRNO);
    static final MethodHandle MUNMAP = TypedFfm.downcall("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    static final VarHandle INT = JAVA_INT.varHandle();

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment errno = arena.allocate(java.lang.foreign.Linker.Option.captureStateLayout());
    private final int fd;
    private final MemorySegment rings, cqRing, sqes;
    private final long ringsSize, cqRingSize, sqesSize;
    private final long sqHead, sqTail, sqMask, sqArray, cqHead, cqTail, cqMask, cqes;
    private int queued;  // SQEs written since the last enter
    private int pending;  // reads queued whose completion has not been taken

    /** A ring of entries SQEs, or Harness.Unsupported where the kernel refuses io_uring (a seccomp profile, a sysctl). */
    Ring(int entries) throws IOException {
        MemorySegment params = arena.allocate(PARAMS_SIZE, 8);
        long got = call(IO_URING_SETUP, entries, params.address(), 0, 0, 0, 0);
        if (got < 0) {
            arena.close();
            throw new Harness.Unsupported("this kernel refuses io_uring (io_uring_setup: " + TypedFfm.strerror(errnoValue())
                    + "): a container's default seccomp profile blocks it, and a kernel may turn it off (sysctl kernel.io_uring_disabled)");
        }
        fd = (int) got;
        int sqEntries = params.get(JAVA_INT, 0), cqEntries = params.get(JAVA_INT, 4), features = params.get(JAVA_INT, 20);
        // io_sqring_offsets at 40: head, tail, ring_mask, ring_entries, flags, dropped, array; io_cqring_offsets at 80: ..., cqes at +20
        sqHead = params.get(JAVA_INT, 40);
        sqTail = params.get(JAVA_INT, 44);
        sqMask = params.get(JAVA_INT, 48);
        sqArray = params.get(JAVA_INT, 64);
        cqHead = params.get(JAVA_INT, 80);
        cqTail = params.get(JAVA_INT, 84);
        cqMask = params.get(JAVA_INT, 88);
        cqes = params.get(JAVA_INT, 100);
        long sqSize = sqArray + 4L * sqEntries, cqSize = cqes + (long) CQE_SIZE * cqEntries;
        boolean single = (features & IORING_FEAT_SINGLE_MMAP) != 0;  // both rings in one mapping (Linux 5.4 on)
        ringsSize = single ? Math.max(sqSize, cqSize) : sqSize;
        rings = map(ringsSize, IORING_OFF_SQ_RING);
        cqRingSize = single ? 0 : cqSize;
        cqRing = single ? rings : map(cqSize, IORING_OFF_CQ_RING);
        sqesSize = (long) SQE_SIZE * sqEntries;
        sqes = map(sqesSize, IORING_OFF_SQES);
    }

    /** Queues a read of len bytes at offset of the file fd into buf, tagged: the caller keeps at most entries in flight. */
    public void read(int file, MemorySegment buf, long len, long offset, long tag) {
        int tail = (int) INT.getAcquire(rings, sqTail), index = tail & rings.get(JAVA_INT, sqMask);
        MemorySegment sqe = sqes.asSlice((long) index * SQE_SIZE, SQE_SIZE).fill((byte) 0);
        sqe.set(JAVA_BYTE, 0, (byte) IORING_OP_READ);
        sqe.set(JAVA_INT, 4, file);
        sqe.set(JAVA_LONG, 8, offset);
        sqe.set(JAVA_LONG, 16, buf.address());
        sqe.set(JAVA_INT, 24, (int) len);
        sqe.set(JAVA_LONG, 32, tag);
        rings.set(JAVA_INT, sqArray + 4L * index, index);
        INT.setRelease(rings, sqTail, tail + 1);  // the entry is whole before the kernel can see it
        queued++;
        pending++;
    }

    /** Hands the queued reads to the kernel and waits until at least one has completed. */
    public void submitAndWait() throws IOException {
        long got;
        do {
            got = call(IO_URING_ENTER, fd, queued, 1, IORING_ENTER_GETEVENTS, 0, 0);
        } while (got < 0 && errnoValue() == 4);  // EINTR: a signal arrived while waiting
        if (got < 0) throw new IOException("io_uring_enter: " + TypedFfm.strerror(errnoValue()));
        queued -= (int) got;
    }

    /** The next completion, {tag, result}, or null when none is waiting; result is the bytes read, or −errno. */
    public long[] next() {
        int head = cqRing.get(JAVA_INT, cqHead);
        if (head == (int) INT.getAcquire(cqRing, cqTail)) return null;
        MemorySegment cqe = cqRing.asSlice(cqes + (long) (head & cqRing.get(JAVA_INT, cqMask)) * CQE_SIZE, CQE_SIZE);
        long[] done = {cqe.get(JAVA_LONG, 0), cqe.get(JAVA_INT, 8)};
        INT.setRelease(cqRing, cqHead, head + 1);  // the entry is read before the kernel may reuse it
        pending--;
        return done;
    }

    /** Waits for every read still in flight (an error cut the worker short), so that none outlives its buffer; then unmaps. */
    @Override
    public void close() throws IOException {
        while (pending > 0) {
            submitAndWait();
            while (next() != null) { }
        }
        unmap(sqes, sqesSize);
        if (cqRingSize > 0) unmap(cqRing, cqRingSize);
        unmap(rings, ringsSize);
        TypedFfm.close(fd);
        arena.close();
    }

    private MemorySegment map(long size, long offset) throws IOException {
        try {
            MemorySegment at = (MemorySegment) MMAP.invokeExact(errno, MemorySegment.NULL, size, PROT_READ_WRITE, MAP_SHARED_POPULATE, fd, offset);
            if (at.address() == -1) throw new IOException("mmap of an io_uring ring: " + TypedFfm.strerror(errnoValue()));
            return at.reinterpret(size);
        } catch (Throwable t) {
            throw TypedFfm.rethrow(t);
        }
    }

    private static void unmap(MemorySegment at, long size) throws IOException {
        try {
            if ((int) MUNMAP.invokeExact(at, size) != 0) throw new IOException("munmap of an io_uring ring failed");
        } catch (Throwable t) {
            throw TypedFfm.rethrow(t);
        }
    }

    private long call(long number, long a, long b, long c, long d, long e, long f) throws IOException {
        try {
            return (long) SYSCALL.invokeExact(errno, number, a, b, c, d, e, f);
        } catch (Throwable t) {
            throw TypedFfm.rethrow(t);
        }
    }

    private int errnoValue() {
        return (int) TypedFfm.ERRNO_VALUE.get(errno, 0L);
    }
}
