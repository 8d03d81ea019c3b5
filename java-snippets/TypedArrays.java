///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java BulkRandomAccessFile.java
//JAVAC_OPTIONS --release 17
// typed_arrays: getting an int[] (or, with --type double, a double[]) to disk and back (Bonachea,
// Dickens & Thakur §3-4; today's JDK). The program holds an array of --op-size bytes and writes it
// block after block until --file-size bytes are on disk (as each of the study's processes wrote its
// array again and again), then reads the blocks back into the array. The file is big-endian, as
// Java's data streams write it, except for `native`. The strategies:
//   data               RandomAccessFile.writeInt / readInt (writeDouble / readDouble), one element per call
//   data-buffered      DataOutputStream over BufferedOutputStream over the file's descriptor (getFD);
//                      --buffer-size sets the buffer (default: the JDK's 8 KB)
//   data-bytearray     DataOutputStream over a ByteArrayOutputStream, then one write per block
//   encode             shifting each element's bytes into a byte[] by hand, then one write per block
//   bytes              the data already in bytes: one write of a byte[] per block, no conversion
//   bytebuffer         a heap ByteBuffer's asIntBuffer() (asDoubleBuffer()) view, through a FileChannel
//   bytebuffer-direct  the same with a direct (off-heap) ByteBuffer
//   varhandle          a VarHandle that views the byte[] as big-endian ints (doubles)
//   native             a direct ByteBuffer in the machine's own byte order (little-endian on x86)
//   jni-convert        BulkRandomAccessFile (lab 06) as the study built it: per block, native code converts
//                      the array into a new byte[] and RandomAccessFile's own write / read move the bytes;
//                      jni-convert-reuse: the same keeping one byte[] for every block (the study's future work)
//   jni-critical       BulkRandomAccessFile's direct design (the one the study declined): one native call per
//                      block does the I/O itself, the array reached with GetPrimitiveArrayCritical;
//                      jni-elements: the same with Get<Type>ArrayElements
// The array is made before the clock starts. A read hands each block's elements to Harness.use, which
// touches one of them; the checksum (from the untimed check run) is the sum of the elements' bit patterns
// (unsigned, wrapping at 64 bits), except for `bytes`, which moves bytes and sums them. A write's checksum
// is the sum of its file's bytes. Encoding and decoding are the strategies' own work and stay timed. Twin: c-snippets/typed_arrays.c (`big`, `native`).
//
// What you will see: one call per element costs hundreds of times more than one call per block;
// everything that moves whole blocks runs within a small factor of the bytes themselves.
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

public class TypedArrays {
    static final List<Harness.Way<FileWay>> WAYS = List.of(
            new Harness.Way<>("data", "write", "seq", TypedArrays::dataWrite),
            new Harness.Way<>("data", "read", "seq", TypedArrays::dataRead),
            new Harness.Way<>("data-buffered", "write", "seq", TypedArrays::dataBufferedWrite),
            new Harness.Way<>("data-buffered", "read", "seq", TypedArrays::dataBufferedRead),
            new Harness.Way<>("data-bytearray", "write", "seq", TypedArrays::dataByteArrayWrite),
            new Harness.Way<>("data-bytearray", "read", "seq", TypedArrays::dataByteArrayRead),
            new Harness.Way<>("encode", "write", "seq", TypedArrays::encodeWrite),
            new Harness.Way<>("encode", "read", "seq", TypedArrays::encodeRead),
            new Harness.Way<>("bytes", "write", "seq", TypedArrays::bytesWrite),
            new Harness.Way<>("bytes", "read", "seq", TypedArrays::bytesRead),
            new Harness.Way<>("bytebuffer", "write", "seq", TypedArrays::bufferWrite),
            new Harness.Way<>("bytebuffer", "read", "seq", TypedArrays::bufferRead),
            new Harness.Way<>("bytebuffer-direct", "write", "seq", TypedArrays::bufferWrite),
            new Harness.Way<>("bytebuffer-direct", "read", "seq", TypedArrays::bufferRead),
            new Harness.Way<>("varhandle", "write", "seq", TypedArrays::varHandleWrite),
            new Harness.Way<>("varhandle", "read", "seq", TypedArrays::varHandleRead),
            new Harness.Way<>("native", "write", "seq", TypedArrays::bufferWrite),
            new Harness.Way<>("native", "read", "seq", TypedArrays::bufferRead),
            new Harness.Way<>("jni-convert", "write", "seq", TypedArrays::jniWrite),
            new Harness.Way<>("jni-convert", "read", "seq", TypedArrays::jniRead),
            new Harness.Way<>("jni-convert-reuse", "write", "seq", TypedArrays::jniWrite),
            new Harness.Way<>("jni-convert-reuse", "read", "seq", TypedArrays::jniRead),
            new Harness.Way<>("jni-critical", "write", "seq", TypedArrays::jniWrite),
            new Harness.Way<>("jni-critical", "read", "seq", TypedArrays::jniRead),
            new Harness.Way<>("jni-elements", "write", "seq", TypedArrays::jniWrite),
            new Harness.Way<>("jni-elements", "read", "seq", TypedArrays::jniRead));
    static final VarHandle BIG_ENDIAN_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle BIG_ENDIAN_DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);

    public static void main(String[] args) {
        Harness.run("typed_arrays", WAYS, args, TypedArrays::check, TypedArrays::prepare, TypedArrays::frame);
    }

    /** A way's work on the file its frame opened. */
    @FunctionalInterface
    interface FileWay {
        long run(Harness.Options o, RandomAccessFile file) throws IOException;
    }

    /** Opens the one file every way works on, on the clock; the jni ways need a BulkRandomAccessFile for its bulk calls. */
    static long frame(Harness.Options o, FileWay way) throws IOException {
        boolean write = o.op().equals("write");
        boolean jni = o.strategy().startsWith("jni");
        try (var file = jni ? new BulkRandomAccessFile(o.file().toFile(), write ? "rw" : "r")
                : new RandomAccessFile(o.file().toFile(), write ? "rw" : "r")) {
            return way.run(o, file);
        }
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        int width = width(o);
        if (o.opSize() % width != 0 || o.fileSize() % width != 0) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " and --file-size " + o.fileSize()
                    + " must be multiples of " + width + " (whole " + o.type() + "s)");
        }
        if (o.pattern().equals("rand")) throw new Harness.UsageError("--pattern rand: typed_arrays moves its blocks in order (allowed: seq)");
        if (o.bufferSize() > 0 && !o.strategy().equals("data-buffered")) {
            throw new Harness.UsageError("--buffer-size is used only by --strategy data-buffered");
        }
    }

    static int width(Harness.Options o) {
        return o.type().equals("int") ? 4 : 8;
    }

    /** The program's array: ints or doubles, element i a fixed function of i, the same in C (array). */
    record Elements(int[] ints, double[] doubles) {
        static Elements empty(Harness.Options o) {
            int n = o.opSize() / width(o);
            return o.type().equals("int") ? new Elements(new int[n], null) : new Elements(null, new double[n]);
        }

        static Elements of(Harness.Options o) {
            Elements e = empty(o);
            for (int i = 0; i < o.opSize() / width(o); i++) {
                int v = Data.intAt(i);
                if (e.ints != null) e.ints[i] = v;
                else e.doubles[i] = v / 1024.0;  // exact: the same bits in C
            }
            return e;
        }

        /** Hands the first n elements to the harness (Harness.use): their bit patterns, as unsigned numbers. */
        long use(int n) {
            return ints != null ? Harness.use(ints, 0, n) : Harness.use(doubles, 0, n);
        }
    }

    /** The program's array, made before the first run and kept: the elements to write, or the array reads fill. */
    static Elements held;

    static void prepare(Harness.Options o) {
        held = o.op().equals("write") ? Elements.of(o) : Elements.empty(o);
        if (o.op().equals("write") && o.strategy().equals("bytes")) {
            ByteBuffer bytes = ByteBuffer.allocate(o.opSize());
            if (held.ints() != null) bytes.asIntBuffer().put(held.ints());
            else bytes.asDoubleBuffer().put(held.doubles());
            encoded = bytes.array();
        }
    }

    /** Elements in the block that starts at byte pos (the last block may be short). */
    static int count(Harness.Options o, long pos) {
        return (int) (Math.min(o.opSize(), o.fileSize() - pos) / width(o));
    }

    static long dataWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) for (int i = 0; i < n; i++) file.writeInt(e.ints()[i]);
            else for (int i = 0; i < n; i++) file.writeDouble(e.doubles()[i]);
        }
        return 0;
    }

    static long dataRead(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) for (int i = 0; i < n; i++) e.ints()[i] = file.readInt();
            else for (int i = 0; i < n; i++) e.doubles()[i] = file.readDouble();
            used += e.use(n);
        }
        return used;
    }

    /** The study's chain: RandomAccessFile → its FileDescriptor → FileOutputStream → buffer → data stream. */
    static long dataBufferedWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        var buffered = o.bufferSize() > 0 ? new BufferedOutputStream(new FileOutputStream(file.getFD()), o.bufferSize())
                : new BufferedOutputStream(new FileOutputStream(file.getFD()));
        var out = new DataOutputStream(buffered);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) for (int i = 0; i < n; i++) out.writeInt(e.ints()[i]);
            else for (int i = 0; i < n; i++) out.writeDouble(e.doubles()[i]);
        }
        out.flush();  // not close(): the RandomAccessFile owns the descriptor
        return 0;
    }

    static long dataBufferedRead(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        long used = 0;
        var buffered = o.bufferSize() > 0 ? new BufferedInputStream(new FileInputStream(file.getFD()), o.bufferSize())
                : new BufferedInputStream(new FileInputStream(file.getFD()));
        var in = new DataInputStream(buffered);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) for (int i = 0; i < n; i++) e.ints()[i] = in.readInt();
            else for (int i = 0; i < n; i++) e.doubles()[i] = in.readDouble();
            used += e.use(n);
        }
        return used;
    }

    /** Each block goes through a DataOutputStream into memory, then to the file in one call. */
    static long dataByteArrayWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        var bytes = new ByteArrayOutputStream(o.opSize());  // sized up front: no regrowing
        var out = new DataOutputStream(bytes);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            bytes.reset();
            if (e.ints() != null) for (int i = 0; i < n; i++) out.writeInt(e.ints()[i]);
            else for (int i = 0; i < n; i++) out.writeDouble(e.doubles()[i]);
            file.write(bytes.toByteArray());  // toByteArray copies the block once more
        }
        return 0;
    }

    static long dataByteArrayRead(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        byte[] block = new byte[o.opSize()];
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            file.readFully(block, 0, n * width(o));
            var in = new DataInputStream(new ByteArrayInputStream(block, 0, n * width(o)));
            if (e.ints() != null) for (int i = 0; i < n; i++) e.ints()[i] = in.readInt();
            else for (int i = 0; i < n; i++) e.doubles()[i] = in.readDouble();
            used += e.use(n);
        }
        return used;
    }

    /** Encode by hand: shift each element's bytes into place, most significant first (a double's via its bits). */
    static long encodeWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        byte[] block = new byte[o.opSize()];
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) {
                if (e.ints() != null) {
                    int v = e.ints()[i];
                    block[4 * i] = (byte) (v >>> 24);
                    block[4 * i + 1] = (byte) (v >>> 16);
                    block[4 * i + 2] = (byte) (v >>> 8);
                    block[4 * i + 3] = (byte) v;
                } else {
                    long bits = Double.doubleToRawLongBits(e.doubles()[i]);
                    for (int k = 0; k < 8; k++) block[8 * i + k] = (byte) (bits >>> (56 - 8 * k));
                }
            }
            file.write(block, 0, n * width(o));
        }
        return 0;
    }

    /** Decode by hand: & 0xFF undoes the sign extension of each byte before it is shifted into place. */
    static long encodeRead(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        byte[] block = new byte[o.opSize()];
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            file.readFully(block, 0, n * width(o));
            for (int i = 0; i < n; i++) {
                if (e.ints() != null) {
                    e.ints()[i] = (block[4 * i] & 0xFF) << 24 | (block[4 * i + 1] & 0xFF) << 16
                            | (block[4 * i + 2] & 0xFF) << 8 | (block[4 * i + 3] & 0xFF);
                } else {
                    long bits = 0;
                    for (int k = 0; k < 8; k++) bits = bits << 8 | (block[8 * i + k] & 0xFF);
                    e.doubles()[i] = Double.longBitsToDouble(bits);
                }
            }
            used += e.use(n);
        }
        return used;
    }

    /** The array as big-endian bytes, for `bytes` (made by prepare, before the first run). */
    static byte[] encoded;

    /** The data is already in bytes: the I/O alone. */
    static long bytesWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int length = count(o, pos) * width(o);
            file.write(encoded, 0, length);
        }
        return 0;
    }

    static long bytesRead(Harness.Options o, RandomAccessFile file) throws IOException {
        byte[] block = new byte[o.opSize()];
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int length = count(o, pos) * width(o);
            file.readFully(block, 0, length);
            used += Harness.use(block, 0, length);
        }
        return used;
    }

    static long varHandleWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        byte[] block = new byte[o.opSize()];
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) for (int i = 0; i < n; i++) BIG_ENDIAN_INT.set(block, 4 * i, e.ints()[i]);
            else for (int i = 0; i < n; i++) BIG_ENDIAN_DOUBLE.set(block, 8 * i, e.doubles()[i]);
            file.write(block, 0, n * width(o));
        }
        return 0;
    }

    static long varHandleRead(Harness.Options o, RandomAccessFile file) throws IOException {
        Elements e = held;
        byte[] block = new byte[o.opSize()];
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            file.readFully(block, 0, n * width(o));
            if (e.ints() != null) for (int i = 0; i < n; i++) e.ints()[i] = (int) BIG_ENDIAN_INT.get(block, 4 * i);
            else for (int i = 0; i < n; i++) e.doubles()[i] = (double) BIG_ENDIAN_DOUBLE.get(block, 8 * i);
            used += e.use(n);
        }
        return used;
    }

    /** bytebuffer: heap, big-endian; bytebuffer-direct: off-heap, big-endian; native: off-heap, the machine's order. */
    static ByteBuffer buffer(Harness.Options o) {
        return switch (o.strategy()) {
            case "bytebuffer" -> ByteBuffer.allocate(o.opSize());
            case "bytebuffer-direct" -> ByteBuffer.allocateDirect(o.opSize());
            default -> ByteBuffer.allocateDirect(o.opSize()).order(ByteOrder.nativeOrder());
        };
    }

    /** The typed view puts the whole array into the buffer in one call; the channel writes the buffer. */
    static long bufferWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        ByteBuffer buffer = buffer(o);
        Elements e = held;
        var channel = file.getChannel();
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            buffer.clear().limit(n * width(o));
            if (e.ints() != null) buffer.asIntBuffer().put(e.ints(), 0, n);
            else buffer.asDoubleBuffer().put(e.doubles(), 0, n);
            while (buffer.hasRemaining()) channel.write(buffer);
        }
        return 0;
    }

    static long bufferRead(Harness.Options o, RandomAccessFile file) throws IOException {
        ByteBuffer buffer = buffer(o);
        Elements e = held;
        var channel = file.getChannel();
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            buffer.clear().limit(n * width(o));
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) throw new IOException("file ended early");
            }
            buffer.flip();
            if (e.ints() != null) buffer.asIntBuffer().get(e.ints(), 0, n);
            else buffer.asDoubleBuffer().get(e.doubles(), 0, n);
            used += e.use(n);
        }
        return used;
    }

    /** One bulk call per block: BulkRandomAccessFile in the strategy's design (c-snippets/jni/bulkraf.c). */
    static long jniWrite(Harness.Options o, RandomAccessFile opened) throws IOException {
        var file = (BulkRandomAccessFile) opened;  // the frame opens a BulkRandomAccessFile for every jni strategy
        Elements e = held;
        design(o, file);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) file.writeArray(e.ints(), 0, n);
            else file.writeArray(e.doubles(), 0, n);
        }
        return 0;
    }

    static long jniRead(Harness.Options o, RandomAccessFile opened) throws IOException {
        var file = (BulkRandomAccessFile) opened;
        Elements e = held;
        design(o, file);
        long used = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            if (e.ints() != null) file.readArray(e.ints(), 0, n);
            else file.readArray(e.doubles(), 0, n);
            used += e.use(n);
        }
        return used;
    }

    /** jni-convert(-reuse): the study's design; jni-critical and jni-elements: the direct one, reaching the array two ways. */
    static void design(Harness.Options o, BulkRandomAccessFile file) {
        file.direct(!o.strategy().startsWith("jni-convert")).reuse(o.strategy().equals("jni-convert-reuse"))
                .critical(!o.strategy().equals("jni-elements"));
    }
}
