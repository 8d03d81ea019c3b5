///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 22
// typed_ffm: lab 06's bulk I/O without a line of C, through the Foreign Function & Memory API
// (java.lang.foreign, final in Java 22). Java calls libc's open, read, write and close itself
// (Linker downcalls), on the same blocks as typed_arrays:
//   ffm         the array is copied into native memory (an Arena's MemorySegment) as big-endian elements
//               (the copy swaps), then one write(2) per block: the file of typed_arrays' big strategies
//   ffm-native  the same copy in the machine's own order (a plain copy, no swap): typed_arrays' native file
//   ffm-heap    a hazard, shown to be understood: the Java array itself handed to write(2) as a heap
//               segment, which only the critical linker option allows. The Javadoc keeps critical for
//               functions that return at once, like an empty one: while the call runs, the thread cannot
//               stop for the garbage collector, so a write of megabytes, or a read from a slow disk or a
//               network file system, holds every other thread's collection (and any safepoint) until it
//               returns. No copy, no swap: typed_arrays' native file.
// Java 22 or later only (compiled --release 22; the kit skips it on an older JDK). Its C twin is
// typed_arrays.c: the same files, byte for byte.
//
// What you will see: the copy into native memory costs little beside the write; ffm-heap saves it, at that price.
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

public class TypedFfm {
    static final Linker LINKER = Linker.nativeLinker();
    static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    static final VarHandle ERRNO_VALUE = Linker.Option.captureStateLayout().varHandle(MemoryLayout.PathElement.groupElement("errno"));
    // open is variadic (the mode is the first variadic argument); write and read return ssize_t
    static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            ERRNO, Linker.Option.firstVariadicArg(2));
    static final MethodHandle WRITE = downcall("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO);
    static final MethodHandle WRITE_HEAP = downcall("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
            Linker.Option.critical(true));
    static final MethodHandle READ = downcall("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO);
    static final MethodHandle READ_HEAP = downcall("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
            Linker.Option.critical(true));
    static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    static final MethodHandle STRERROR = downcall("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    static final int O_RDONLY = 0, O_WRONLY_CREAT_TRUNC = 01 | 0100 | 01000;  // Linux values of the open(2) flags

    static final List<Harness.Way<ArenaWay>> WAYS = List.of(
            new Harness.Way<>("ffm", "write", "seq", TypedFfm::ffmWrite),
            new Harness.Way<>("ffm", "read", "seq", TypedFfm::ffmRead),
            new Harness.Way<>("ffm-native", "write", "seq", TypedFfm::ffmWrite),
            new Harness.Way<>("ffm-native", "read", "seq", TypedFfm::ffmRead),
            new Harness.Way<>("ffm-heap", "write", "seq", TypedFfm::heapWrite),
            new Harness.Way<>("ffm-heap", "read", "seq", TypedFfm::heapRead));

    public static void main(String[] args) {
        Harness.run("typed_ffm", WAYS, args, TypedFfm::check, TypedFfm::prepare, TypedFfm::frame);
    }

    /** One strategy: its native memory (the block, the file's name, errno's slot) comes from arena. */
    @FunctionalInterface
    interface ArenaWay {
        long run(Harness.Options o, Arena arena) throws IOException;
    }

    /** Every way's native memory lives for one run, freed when it ends, inside the clock. */
    static long frame(Harness.Options o, ArenaWay fn) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return fn.run(o, arena);
        }
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        int width = width(o);
        if (o.opSize() % width != 0 || o.fileSize() % width != 0) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " and --file-size " + o.fileSize()
                    + " must be multiples of " + width + " (whole " + o.type() + "s)");
        }
        if (o.pattern().equals("rand")) throw new Harness.UsageError("--pattern rand: typed_ffm moves its blocks in order (allowed: seq)");
    }

    static int width(Harness.Options o) {
        return o.type().equals("int") ? 4 : 8;
    }

    /** The layout of one element in the file: big-endian, as Java's data streams write it. */
    static ValueLayout bigEndian(Harness.Options o) {
        return o.type().equals("int") ? JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN) : JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    }

    /** The layout of one element in the machine's own order (little-endian on x86): typed_arrays' native file. */
    static ValueLayout machineOrder(Harness.Options o) {
        return o.type().equals("int") ? JAVA_INT_UNALIGNED : JAVA_DOUBLE_UNALIGNED;
    }

    /** The file's layout as the strategy keeps it: ffm big-endian, ffm-native the machine's own order. */
    static ValueLayout fileLayout(Harness.Options o) {
        return o.strategy().equals("ffm-native") ? machineOrder(o) : bigEndian(o);
    }

    /** The program's array, as typed_arrays makes it: element i a fixed function of i. */
    static Object array(Harness.Options o) {
        int n = o.opSize() / width(o);
        int[] ints = o.type().equals("int") ? new int[n] : null;
        double[] doubles = ints == null ? new double[n] : null;
        for (int i = 0; i < n; i++) {
            int v = Data.intAt(i);
            if (ints != null) ints[i] = v;
            else doubles[i] = v / 1024.0;
        }
        return ints != null ? ints : doubles;
    }

    /** Hands the first n elements to the harness (Harness.use), as typed_arrays does. */
    static long use(Object array, int n) {
        return array instanceof int[] ints ? Harness.use(ints, 0, n) : Harness.use((double[]) array, 0, n);
    }

    /** The program's array, made before the first run and kept: the elements to write, or the array reads fill. */
    static Object held;

    static void prepare(Harness.Options o) {
        held = o.op().equals("write") ? array(o) : o.type().equals("int") ? new int[o.opSize() / 4] : new double[o.opSize() / 8];
    }

    static int count(Harness.Options o, long pos) {
        return (int) (Math.min(o.opSize(), o.fileSize() - pos) / width(o));
    }

    /**
     * Copy into native memory as elements of the file's layout (ffm's big-endian: the copy swaps; ffm-native's: a plain
     * copy), then one write(2) per block.
     */
    static long ffmWrite(Harness.Options o, Arena arena) throws IOException {
        ValueLayout onDisk = fileLayout(o);
        Object values = held;
        MemorySegment block = arena.allocate(o.opSize()), errno = arena.allocate(Linker.Option.captureStateLayout());
        int fd = open(o, arena, O_WRONLY_CREAT_TRUNC, errno);
        try {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = count(o, pos);
                MemorySegment.copy(values, 0, block, onDisk, 0, n);  // a big-endian layout swaps on a little-endian machine
                long done = 0, bytes = (long) n * width(o);
                while (done < bytes) done += check(o, (long) WRITE.invokeExact(errno, fd, block.asSlice(done), bytes - done), errno);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            close(fd);
        }
        return 0;
    }

    static long ffmRead(Harness.Options o, Arena arena) throws IOException {
        ValueLayout onDisk = fileLayout(o);
        Object values = held;
        MemorySegment block = arena.allocate(o.opSize()), errno = arena.allocate(Linker.Option.captureStateLayout());
        int fd = open(o, arena, O_RDONLY, errno);
        long used = 0;
        try {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = count(o, pos);
                long done = 0, bytes = (long) n * width(o);
                while (done < bytes) {
                    long got = check(o, (long) READ.invokeExact(errno, fd, block.asSlice(done), bytes - done), errno);
                    if (got == 0) throw new IOException("file ended early");
                    done += got;
                }
                MemorySegment.copy(block, onDisk, 0, values, 0, n);
                used += use(values, n);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            close(fd);
        }
        return used;
    }

    /**
     * The hazard: the Java array itself goes to write(2), a heap segment in the machine's byte order, through a
     * critical downcall (see the top of this file: fine for a call as short as an empty function, not for I/O).
     */
    static long heapWrite(Harness.Options o, Arena arena) throws IOException {
        Object values = held;
        MemorySegment heap = values instanceof int[] ints ? MemorySegment.ofArray(ints) : MemorySegment.ofArray((double[]) values);
        int fd = open(o, arena, O_WRONLY_CREAT_TRUNC, arena.allocate(Linker.Option.captureStateLayout()));
        try {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = count(o, pos);
                long done = 0, bytes = (long) n * width(o);
                while (done < bytes) done += checkHeap(o, (long) WRITE_HEAP.invokeExact(fd, heap.asSlice(done), bytes - done));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            close(fd);
        }
        return 0;
    }

    static long heapRead(Harness.Options o, Arena arena) throws IOException {
        Object values = held;
        MemorySegment heap = values instanceof int[] ints ? MemorySegment.ofArray(ints) : MemorySegment.ofArray((double[]) values);
        int fd = open(o, arena, O_RDONLY, arena.allocate(Linker.Option.captureStateLayout()));
        long used = 0;
        try {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = count(o, pos);
                long done = 0, bytes = (long) n * width(o);
                while (done < bytes) {
                    long got = checkHeap(o, (long) READ_HEAP.invokeExact(fd, heap.asSlice(done), bytes - done));
                    if (got == 0) throw new IOException("file ended early");
                    done += got;
                }
                used += use(values, n);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            close(fd);
        }
        return used;
    }

    // ---- plumbing: libc through the Linker, errno into IOException ----------------------------

    static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    static int open(Harness.Options o, Arena arena, int flags, MemorySegment errno) throws IOException {
        try {
            int fd = (int) OPEN.invokeExact(errno, arena.allocateFrom(o.file().toString()), flags, 0644);
            if (fd < 0) throw new IOException(strerror((int) ERRNO_VALUE.get(errno, 0L)));
            return fd;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long check(Harness.Options o, long result, MemorySegment errno) throws IOException {  // errno: the captured state
        if (result < 0) throw new IOException(strerror((int) ERRNO_VALUE.get(errno, 0L)));
        return result;
    }

    /** Critical downcalls cannot capture errno; a failure there is reported without it. */
    static long checkHeap(Harness.Options o, long result) throws IOException {
        if (result < 0) throw new IOException("read or write failed");
        return result;
    }

    static void close(int fd) throws IOException {
        try {
            if ((int) CLOSE.invokeExact(fd) != 0) throw new IOException("close failed");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The OS's message for an errno, as C's strerror gives it. */
    static String strerror(int errno) {
        try {
            return ((MemorySegment) STRERROR.invokeExact(errno)).reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    static IOException rethrow(Throwable t) {
        if (t instanceof IOException io) return io;
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        return new IOException(t);
    }
}
