// Checks BulkRandomAccessFile against java.nio's ByteBuffer for every primitive type, both byte
// orders, both designs (the study's conversion and the direct one) and both ways of reaching the array:
// the bytes on disk, the values read back, sub-ranges, ranges larger than one conversion piece, and the
// JDK-like errors. Run by tests/test_bulk.py; prints "ok" and the number of checks.
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;

public class BulkCheck {
    static int checks;

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        Random random = new Random(7);
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (boolean direct : new boolean[] {false, true}) {
                for (boolean critical : new boolean[] {true, false}) {
                    for (Class<?> type : new Class<?>[] {boolean.class, byte.class, char.class, short.class, int.class, long.class,
                            float.class, double.class}) {
                        roundTrip(dir, type, order, direct, critical, random);
                    }
                }
            }
        }
        largerThanAPiece(dir);
        for (boolean direct : new boolean[] {false, true}) errors(dir, direct);
        System.out.println("ok " + checks);
    }

    /** Writes a whole array and a sub-range, compares the file with ByteBuffer's bytes, reads both back. */
    static void roundTrip(File dir, Class<?> type, ByteOrder order, boolean direct, boolean critical, Random random) throws IOException {
        int n = 1000 + random.nextInt(100);
        Object values = Array.newInstance(type, n);
        ByteBuffer expected = ByteBuffer.allocate(8 * (n + n / 2)).order(order);
        for (int i = 0; i < n; i++) {
            long bits = random.nextLong();
            switch (type.getName()) {
                case "boolean" -> Array.setBoolean(values, i, (bits & 1) == 1);
                case "byte" -> Array.setByte(values, i, (byte) bits);
                case "char" -> Array.setChar(values, i, (char) bits);
                case "short" -> Array.setShort(values, i, (short) bits);
                case "int" -> Array.setInt(values, i, (int) bits);
                case "long" -> Array.setLong(values, i, bits);
                case "float" -> Array.setFloat(values, i, Float.intBitsToFloat((int) bits));
                default -> Array.setDouble(values, i, Double.longBitsToDouble(bits));
            }
        }
        int from = n / 3, count = n / 2;  // the sub-range written after the whole array
        for (int[] range : new int[][] {{0, n}, {from, count}}) {
            for (int i = range[0]; i < range[0] + range[1]; i++) put(expected, type, values, i);
        }
        String how = type + " " + order + (direct ? " direct" : " converted") + " critical=" + critical;
        File file = new File(dir, type.getName() + "-" + order + "-" + direct + "-" + critical + ".dat");
        // reuse with critical access, a new byte[] per call with elements: both paths, without doubling the cases
        try (var out = new BulkRandomAccessFile(file, "rw").order(order).direct(direct).critical(critical).reuse(critical)) {
            call(out, "writeArray", type, values, -1, -1);
            call(out, "writeArray", type, values, from, count);
        }
        byte[] onDisk = Files.readAllBytes(file.toPath());
        check(Arrays.equals(onDisk, Arrays.copyOf(expected.array(), expected.position())), how + ": bytes on disk");
        Object back = Array.newInstance(type, n), part = Array.newInstance(type, n);
        try (var in = new BulkRandomAccessFile(file, "r").order(order).direct(direct).critical(critical)) {
            call(in, "readArray", type, back, -1, -1);
            call(in, "readArray", type, part, from, count);
            check(in.getFilePointer() == onDisk.length, how + ": the file pointer follows the elements moved");
        }
        check(sameArrays(values, back, 0, n), how + ": whole array read back");
        check(sameArrays(values, part, from, count), how + ": sub-range read back into the same indexes");
        check(Array.getLength(part) == n && (from == 0 || isZero(part, 0)), how + ": elements outside the range untouched");
        file.delete();
    }

    /** The study's design converts in pieces of at most 64 MB (a byte[] stops at 2 GB): a range across a piece's end. */
    static void largerThanAPiece(File dir) throws IOException {
        int[] values = new int[(1 << 24) + 3];
        for (int i = 0; i < values.length; i++) values[i] = i * 0x9E3779B9;
        File file = new File(dir, "pieces.dat");
        try (var out = new BulkRandomAccessFile(file, "rw").reuse(true)) {  // one byte[] for both pieces
            out.writeArray(values);
        }
        check(file.length() == 4L * values.length, "a range of two pieces: every byte written");
        try (var in = new java.io.DataInputStream(new java.io.BufferedInputStream(new java.io.FileInputStream(file)))) {
            in.skipNBytes(4L * ((1 << 24) - 1));
            check(in.readInt() == values[(1 << 24) - 1] && in.readInt() == values[1 << 24], "a range of two pieces: big-endian across the seam");
        }
        int[] back = new int[values.length];
        try (var in = new BulkRandomAccessFile(file, "r")) {
            in.readArray(back);
        }
        check(Arrays.equals(values, back), "a range of two pieces: read back");
        file.delete();
    }

    static void errors(File dir, boolean direct) throws IOException {
        File file = new File(dir, "errors.dat");
        try (var f = new BulkRandomAccessFile(file, "rw").direct(direct)) {
            f.writeArray(new int[] {1, 2, 3});
            expect(() -> f.writeArray((int[]) null), NullPointerException.class, null);
            expect(() -> f.writeArray(new int[4], 2, 3), IndexOutOfBoundsException.class, "Range [2, 2 + 3) out of bounds for length 4");
            expect(() -> f.readArray(new double[2], -1, 1), IndexOutOfBoundsException.class, "Range [-1, -1 + 1) out of bounds for length 2");
            f.seek(4);
            expect(() -> f.readArray(new int[4]), EOFException.class, "the file ended after 2 of 4 elements");
        }
        try (var f = new BulkRandomAccessFile(file, "r").direct(direct)) {
            expect(() -> f.writeArray(new int[] {1}), IOException.class, "Bad file descriptor");
        }
        file.delete();
    }

    interface Action {
        void run() throws Exception;
    }

    static void expect(Action action, Class<? extends Throwable> kind, String message) {
        try {
            action.run();
        } catch (Throwable t) {
            check(kind.isInstance(t), "expected " + kind.getSimpleName() + ", got " + t);
            check(message == null || message.equals(t.getMessage()), "message: expected '" + message + "', got '" + t.getMessage() + "'");
            return;
        }
        check(false, "expected " + kind.getSimpleName() + ", nothing was thrown");
    }

    static void put(ByteBuffer b, Class<?> type, Object values, int i) {
        switch (type.getName()) {
            case "boolean" -> b.put((byte) (Array.getBoolean(values, i) ? 1 : 0));
            case "byte" -> b.put(Array.getByte(values, i));
            case "char" -> b.putChar(Array.getChar(values, i));
            case "short" -> b.putShort(Array.getShort(values, i));
            case "int" -> b.putInt(Array.getInt(values, i));
            case "long" -> b.putLong(Array.getLong(values, i));
            case "float" -> b.putFloat(Array.getFloat(values, i));
            default -> b.putDouble(Array.getDouble(values, i));
        }
    }

    /** Calls readArray/writeArray(type[]) or (type[], from, count) by reflection: one test for eight types. */
    static void call(BulkRandomAccessFile f, String name, Class<?> type, Object array, int from, int count) throws IOException {
        try {
            if (from < 0) f.getClass().getMethod(name, array.getClass()).invoke(f, array);
            else f.getClass().getMethod(name, array.getClass(), int.class, int.class).invoke(f, array, from, count);
        } catch (ReflectiveOperationException e) {
            if (e.getCause() instanceof IOException io) throw io;
            throw new IllegalStateException(e);
        }
    }

    /** Float and double compare by their bits (NaNs included). */
    static boolean sameArrays(Object a, Object b, int from, int count) {
        for (int i = from; i < from + count; i++) {
            Object x = Array.get(a, i), y = Array.get(b, i);
            if (x instanceof Float f && Float.floatToRawIntBits(f) != Float.floatToRawIntBits((Float) y)) return false;
            if (x instanceof Double d && Double.doubleToRawLongBits(d) != Double.doubleToRawLongBits((Double) y)) return false;
            if (!(x instanceof Float) && !(x instanceof Double) && !x.equals(y)) return false;
        }
        return true;
    }

    static boolean isZero(Object array, int i) {
        Object v = Array.get(array, i);
        return v.equals(false) || (v instanceof Number num && num.doubleValue() == 0) || v.equals((char) 0);
    }

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) throw new AssertionError(what);
    }
}
