// BulkRandomAccessFile: the bulk I/O extension Bonachea, Dickens & Thakur proposed (§5-6), our design.
// A RandomAccessFile that reads and writes whole primitive arrays, or a range of one, with one call:
// readArray / writeArray for boolean, byte, char, short, int, long, float and double. Elements are
// big-endian on disk by default, as DataInput/DataOutput expect (order(...) picks another order);
// the native half (c-snippets/jni/bulkraf.c) swaps bytes when the machine's order differs.
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

    private boolean swap = ByteOrder.nativeOrder() != ByteOrder.BIG_ENDIAN;
    private boolean critical = true;

    public BulkRandomAccessFile(File file, String mode) throws IOException {
        super(file, mode);
    }

    /** The byte order of elements on disk (big-endian unless set). */
    public BulkRandomAccessFile order(ByteOrder order) {
        swap = order != ByteOrder.nativeOrder();
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
        int done = transfer(array, offset, count, type, false, swap, critical);
        if (done < count) throw new EOFException("the file ended after " + done + " of " + count + " elements");
    }

    private void write(Object array, int length, int offset, int count, char type) throws IOException {
        Objects.checkFromIndexSize(offset, count, length);
        transfer(array, offset, count, type, true, swap, critical);
    }

    /**
     * Moves count elements of the array, from index offset, at the file pointer, which it advances.
     * Returns the elements moved: all of them, or fewer when a read meets the end of the file.
     */
    private native int transfer(Object array, int offset, int count, char type, boolean write, boolean swap, boolean critical)
            throws IOException;
}
