///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES Harness.java
//JAVAC_OPTIONS --release 17
// typed_arrays: getting an int[] to disk and back (Bonachea, Dickens & Thakur §3-4; today's JDK).
// The program holds an int[] of --op-size bytes and writes it block after block until --file-size
// bytes are on disk (as each of the study's processes wrote its array again and again), then reads
// the blocks back into the array. The file is big-endian, as Java's data streams write it, except
// for `native`. The strategies:
//   data               RandomAccessFile.writeInt / readInt, one element per call
//   data-buffered      DataOutputStream over BufferedOutputStream over the file's descriptor (getFD);
//                      --buffer-size sets the buffer (default: the JDK's 8 KB)
//   data-bytearray     DataOutputStream over a ByteArrayOutputStream, then one write per block
//   encode             shifting each int into a byte[] by hand, then one write per block
//   bytes              the data already in bytes: one write of a byte[] per block, no conversion
//   bytebuffer         a heap ByteBuffer's asIntBuffer() view, written through a FileChannel
//   bytebuffer-direct  the same with a direct (off-heap) ByteBuffer
//   varhandle          a VarHandle that views the byte[] as big-endian ints
//   native             a direct ByteBuffer in the machine's own byte order (little-endian on x86)
// The checksum is the sum of the elements moved (each as an unsigned 32-bit value), except for
// `bytes`, which moves bytes and sums them. Twin: c-snippets/typed_arrays.c (`big`, `native`).
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
    static final List<String> STRATEGIES = List.of("data", "data-buffered", "data-bytearray", "encode", "bytes",
            "bytebuffer", "bytebuffer-direct", "varhandle", "native");
    static final VarHandle BIG_ENDIAN_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    public static void main(String[] args) {
        Harness.run("typed_arrays", STRATEGIES, List.of("--buffer-size"), args, TypedArrays::check, o -> {
            boolean write = o.op().equals("write");
            try (var file = new RandomAccessFile(o.file().toFile(), write ? "rw" : "r")) {
                return switch (o.strategy()) {
                    case "data" -> write ? dataWrite(o, file) : dataRead(o, file);
                    case "data-buffered" -> write ? dataBufferedWrite(o, file) : dataBufferedRead(o, file);
                    case "data-bytearray" -> write ? dataByteArrayWrite(o, file) : dataByteArrayRead(o, file);
                    case "encode" -> write ? encodeWrite(o, file) : encodeRead(o, file);
                    case "bytes" -> write ? bytesWrite(o, file) : bytesRead(o, file);
                    case "varhandle" -> write ? varHandleWrite(o, file) : varHandleRead(o, file);
                    default -> write ? bufferWrite(o, file, buffer(o)) : bufferRead(o, file, buffer(o));
                };
            }
        });
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (o.opSize() % 4 != 0 || o.fileSize() % 4 != 0) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " and --file-size " + o.fileSize()
                    + " must be multiples of 4 (whole ints)");
        }
        if (o.pattern().equals("rand")) throw new Harness.UsageError("--pattern rand: typed_arrays moves its blocks in order (allowed: seq)");
        if (o.bufferSize() > 0 && !o.strategy().equals("data-buffered")) {
            throw new Harness.UsageError("--buffer-size is used only by --strategy data-buffered");
        }
    }

    /** The program's array: element i is a fixed function of i, the same in C (value). */
    static int[] array(Harness.Options o) {
        int[] values = new int[o.opSize() / 4];
        for (int i = 0; i < values.length; i++) values[i] = (int) ((i * 0x9E3779B97F4A7C15L) >>> 32);
        return values;
    }

    /** Elements in the block that starts at byte pos (the last block may be short). */
    static int count(Harness.Options o, long pos) {
        return (int) (Math.min(o.opSize(), o.fileSize() - pos) / 4);
    }

    static long sum(int[] values, int count) {
        long sum = 0;
        for (int i = 0; i < count; i++) sum += values[i] & 0xFFFFFFFFL;
        return sum;
    }

    static long dataWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = array(o);
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) file.writeInt(values[i]);
            sum += sum(values, n);
        }
        return sum;
    }

    static long dataRead(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = new int[o.opSize() / 4];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) values[i] = file.readInt();
            sum += sum(values, n);
        }
        return sum;
    }

    /** The study's chain: RandomAccessFile → its FileDescriptor → FileOutputStream → buffer → data stream. */
    static long dataBufferedWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = array(o);
        long sum = 0;
        var buffered = o.bufferSize() > 0 ? new BufferedOutputStream(new FileOutputStream(file.getFD()), o.bufferSize())
                : new BufferedOutputStream(new FileOutputStream(file.getFD()));
        var out = new DataOutputStream(buffered);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) out.writeInt(values[i]);
            sum += sum(values, n);
        }
        out.flush();  // not close(): the RandomAccessFile owns the descriptor
        return sum;
    }

    static long dataBufferedRead(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = new int[o.opSize() / 4];
        long sum = 0;
        var buffered = o.bufferSize() > 0 ? new BufferedInputStream(new FileInputStream(file.getFD()), o.bufferSize())
                : new BufferedInputStream(new FileInputStream(file.getFD()));
        var in = new DataInputStream(buffered);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) values[i] = in.readInt();
            sum += sum(values, n);
        }
        return sum;
    }

    /** Each block goes through a DataOutputStream into memory, then to the file in one call. */
    static long dataByteArrayWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = array(o);
        long sum = 0;
        var bytes = new ByteArrayOutputStream(o.opSize());  // sized up front: no regrowing
        var out = new DataOutputStream(bytes);
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            bytes.reset();
            for (int i = 0; i < n; i++) out.writeInt(values[i]);
            file.write(bytes.toByteArray());  // toByteArray copies the block once more
            sum += sum(values, n);
        }
        return sum;
    }

    static long dataByteArrayRead(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = new int[o.opSize() / 4];
        byte[] block = new byte[o.opSize()];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            file.readFully(block, 0, 4 * n);
            var in = new DataInputStream(new ByteArrayInputStream(block, 0, 4 * n));
            for (int i = 0; i < n; i++) values[i] = in.readInt();
            sum += sum(values, n);
        }
        return sum;
    }

    /** Encode by hand: shift each int's four bytes into place, most significant first. */
    static long encodeWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = array(o);
        byte[] block = new byte[o.opSize()];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) {
                int v = values[i];
                block[4 * i] = (byte) (v >>> 24);
                block[4 * i + 1] = (byte) (v >>> 16);
                block[4 * i + 2] = (byte) (v >>> 8);
                block[4 * i + 3] = (byte) v;
            }
            file.write(block, 0, 4 * n);
            sum += sum(values, n);
        }
        return sum;
    }

    /** Decode by hand: & 0xFF undoes the sign extension of each byte before it is shifted into place. */
    static long encodeRead(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = new int[o.opSize() / 4];
        byte[] block = new byte[o.opSize()];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            file.readFully(block, 0, 4 * n);
            for (int i = 0; i < n; i++) {
                values[i] = (block[4 * i] & 0xFF) << 24 | (block[4 * i + 1] & 0xFF) << 16
                        | (block[4 * i + 2] & 0xFF) << 8 | (block[4 * i + 3] & 0xFF);
            }
            sum += sum(values, n);
        }
        return sum;
    }

    /** The array as big-endian bytes: made in the first run (a warm-up run, when there is one) and kept. */
    static byte[] encoded;

    /** The data is already in bytes: the I/O alone. */
    static long bytesWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        if (encoded == null) {
            ByteBuffer bytes = ByteBuffer.allocate(o.opSize());
            bytes.asIntBuffer().put(array(o));
            encoded = bytes.array();
        }
        byte[] block = encoded;
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int length = 4 * count(o, pos);
            file.write(block, 0, length);
            sum += Data.sum(block, 0, length);
        }
        return sum;
    }

    static long bytesRead(Harness.Options o, RandomAccessFile file) throws IOException {
        byte[] block = new byte[o.opSize()];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int length = 4 * count(o, pos);
            file.readFully(block, 0, length);
            sum += Data.sum(block, 0, length);
        }
        return sum;
    }

    static long varHandleWrite(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = array(o);
        byte[] block = new byte[o.opSize()];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            for (int i = 0; i < n; i++) BIG_ENDIAN_INT.set(block, 4 * i, values[i]);
            file.write(block, 0, 4 * n);
            sum += sum(values, n);
        }
        return sum;
    }

    static long varHandleRead(Harness.Options o, RandomAccessFile file) throws IOException {
        int[] values = new int[o.opSize() / 4];
        byte[] block = new byte[o.opSize()];
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            file.readFully(block, 0, 4 * n);
            for (int i = 0; i < n; i++) values[i] = (int) BIG_ENDIAN_INT.get(block, 4 * i);
            sum += sum(values, n);
        }
        return sum;
    }

    /** bytebuffer: heap, big-endian; bytebuffer-direct: off-heap, big-endian; native: off-heap, the machine's order. */
    static ByteBuffer buffer(Harness.Options o) {
        return switch (o.strategy()) {
            case "bytebuffer" -> ByteBuffer.allocate(o.opSize());
            case "bytebuffer-direct" -> ByteBuffer.allocateDirect(o.opSize());
            default -> ByteBuffer.allocateDirect(o.opSize()).order(ByteOrder.nativeOrder());
        };
    }

    /** The int view puts the whole array into the buffer in one call; the channel writes the buffer. */
    static long bufferWrite(Harness.Options o, RandomAccessFile file, ByteBuffer buffer) throws IOException {
        int[] values = array(o);
        var channel = file.getChannel();
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            buffer.clear().limit(4 * n);
            buffer.asIntBuffer().put(values, 0, n);
            while (buffer.hasRemaining()) channel.write(buffer);
            sum += sum(values, n);
        }
        return sum;
    }

    static long bufferRead(Harness.Options o, RandomAccessFile file, ByteBuffer buffer) throws IOException {
        int[] values = new int[o.opSize() / 4];
        var channel = file.getChannel();
        long sum = 0;
        for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
            int n = count(o, pos);
            buffer.clear().limit(4 * n);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) throw new IOException("file ended early");
            }
            buffer.flip().asIntBuffer().get(values, 0, n);
            sum += sum(values, n);
        }
        return sum;
    }
}
