// BulkRandomAccessFile: the bulk I/O extension Bonachea, Dickens & Thakur proposed (§5-6), in our code.
// A RandomAccessFile that reads and writes whole primitive arrays, or a range of one, with one call:
// readArray / writeArray for boolean, byte, char, short, int, long, float and double. Elements are
// big-endian on disk by default, as DataInput/DataOutput expect (order(...) picks another order);
// the native half (c-snippets/jni/bulkraf.c) swaps bytes when the machine's order differs.
// Two designs (direct(...)): the study's, where native code only converts the array to bytes and
// RandomAccessFile's own byte-array methods do the I/O (the default), and the one the study declined,
// where native code calls read(2) / write(2) on the file's descriptor itself.
// Errors as the JDK's own: NullPointerException, IndexOutOfBoundsException for a bad range,
// EOFException when the file ends first, IOException with the OS's message.
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.util.Objects;

public class BulkRandomAccessFile extends RandomAccessFile {
    static {
        System.loadLibrary("bulkraf");
    }

    /** The study converted the whole range at once; a byte[] cannot hold more than 2 GB, so larger ranges go in pieces this big. */
    private static final int PIECE = 1 << 26;

    private boolean swap = ByteOrder.nativeOrder() != ByteOrder.BIG_ENDIAN;
    private boolean critical = true;
    private boolean direct = false;
    private boolean reuse = false;
    /** The byte[] the study's design converts into: a new one for every call, or with reuse(true) this one, kept. */
    private byte[] bytes = new byte[0];

    public BulkRandomAccessFile(File file, String mode) throws IOException {
        super(file, mode);
    }

    /** The byte order of elements on disk (big-endian unless set). */
    public BulkRandomAccessFile order(ByteOrder order) {
        swap = order != ByteOrder.nativeOrder();
        return this;
    }

    /**
     * Who does the I/O. false, the default, is the study's design (§6): the native half only converts the
     * range to bytes or back (one copy, swapping on the way), and RandomAccessFile's own write(byte[]) and
     * read(byte[]) move those bytes, copying them once more between the Java heap and the kernel. true is
     * the option the study considered and declined as JVM-specific: the native half reads the private
     * descriptor inside RandomAccessFile and calls write(2) / read(2) on the array itself.
     */
    public BulkRandomAccessFile direct(boolean value) {
        direct = value;
        return this;
    }

    /**
     * Whether the study's design keeps its temporary byte[] from one call to the next (true) or makes a new
     * one for each call (false, the default: as the study did; reusing it was the optimisation its §8 left
     * for later, expecting the gain to depend on the application). The direct design needs no byte[].
     */
    public BulkRandomAccessFile reuse(boolean value) {
        reuse = value;
        return this;
    }

    /**
     * How the native half reaches the array: GetPrimitiveArrayCritical (true, the default: usually the
     * array itself, no copy, but the garbage collector may wait) or Get<Type>ArrayElements (false: the
     * JVM may hand over a copy).
     */
    public BulkRandomAccessFile critical(boolean value) {
        critical = value;
        return this;
    }

    public void readArray(boolean[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(byte[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(char[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(short[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(int[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(long[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(float[] a) throws IOException { readArray(a, 0, a.length); }
    public void readArray(double[] a) throws IOException { readArray(a, 0, a.length); }

    public void readArray(boolean[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'Z'); }
    public void readArray(byte[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'B'); }
    public void readArray(char[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'C'); }
    public void readArray(short[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'S'); }
    public void readArray(int[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'I'); }
    public void readArray(long[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'J'); }
    public void readArray(float[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'F'); }
    public void readArray(double[] a, int offset, int count) throws IOException { read(a, a.length, offset, count, 'D'); }

    public void writeArray(boolean[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(byte[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(char[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(short[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(int[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(long[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(float[] a) throws IOException { writeArray(a, 0, a.length); }
    public void writeArray(double[] a) throws IOException { writeArray(a, 0, a.length); }

    public void writeArray(boolean[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'Z'); }
    public void writeArray(byte[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'B'); }
    public void writeArray(char[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'C'); }
    public void writeArray(short[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'S'); }
    public void writeArray(int[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'I'); }
    public void writeArray(long[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'J'); }
    public void writeArray(float[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'F'); }
    public void writeArray(double[] a, int offset, int count) throws IOException { write(a, a.length, offset, count, 'D'); }

    private void read(Object array, int length, int offset, int count, char type) throws IOException {
        Objects.checkFromIndexSize(offset, count, length);  // the JDK's own message for a bad range
        int done = direct ? transfer(array, offset, count, type, false, swap, critical) : readConverted(array, offset, count, type);
        if (done < count) throw new EOFException("the file ended after " + done + " of " + count + " elements");
    }

    private void write(Object array, int length, int offset, int count, char type) throws IOException {
        Objects.checkFromIndexSize(offset, count, length);
        if (direct) {
            transfer(array, offset, count, type, true, swap, critical);
            return;
        }
        int width = width(type);
        for (int done = 0; done < count; ) {
            int n = Math.min(count - done, PIECE / width);
            byte[] from = bytes(n * width);
            convert(array, offset + done, n, type, from, true, swap, critical);
            super.write(from, 0, n * width);  // the superclass's byte-array write
            done += n;
        }
    }

    /** The study's read: RandomAccessFile's own read(byte[]) until the range is full or the file ends, then convert. */
    private int readConverted(Object array, int offset, int count, char type) throws IOException {
        int width = width(type), done = 0;
        while (done < count) {
            int n = Math.min(count - done, PIECE / width), filled = 0;
            byte[] into = bytes(n * width);
            while (filled < n * width) {
                int got = super.read(into, filled, n * width - filled);  // the superclass's byte-array read
                if (got < 0) break;
                filled += got;
            }
            convert(array, offset + done, filled / width, type, into, false, swap, critical);
            done += filled / width;
            if (filled < n * width) break;  // the file ended
        }
        return done;
    }

    private byte[] bytes(int size) {
        if (!reuse || bytes.length < size) bytes = new byte[size];
        return bytes;
    }

    private static int width(char type) {
        return switch (type) {
            case 'Z', 'B' -> 1;
            case 'C', 'S' -> 2;
            case 'I', 'F' -> 4;
            default -> 8;
        };
    }

    /**
     * The direct design: moves count elements of the array, from index offset, at the file pointer, which it advances.
     * Returns the elements moved: all of them, or fewer when a read meets the end of the file.
     */
    private native int transfer(Object array, int offset, int count, char type, boolean write, boolean swap, boolean critical)
            throws IOException;

    /** Copies count elements of the array, from index offset, into bytes (toBytes) or back out of it, swapping when asked. */
    private native void convert(Object array, int offset, int count, char type, byte[] bytes, boolean toBytes, boolean swap, boolean critical);
}
