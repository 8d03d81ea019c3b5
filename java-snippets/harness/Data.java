// The course's deterministic data: the bytes every file holds, the text for --text and the random offsets, the same
// in both languages bit for bit. Twin: c-snippets/harness/data.c. See Harness.java for the rooms.
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The deterministic data: byte i of every file is a fixed function of i, identical in C (data_at). */
final class Data {
    static final int PERIOD = 1 << 16;
    private static final byte[] TABLE = new byte[PERIOD];

    static {
        for (int j = 0; j < PERIOD; j++) TABLE[j] = (byte) ((j * 0x9E3779B97F4A7C15L) >>> 56);
    }

    static int at(long pos) {
        return TABLE[(int) (pos & (PERIOD - 1))] & 0xFF;
    }

    /**
     * What a write takes its bytes from, made before the clock starts: the pattern laid out far enough
     * that the len bytes that belong at file offset pos are source[offset(pos), offset(pos) + len) for any
     * len up to the longest operation. Writing needs no copy into a buffer of the program's own.
     */
    static byte[] source;

    static void prepareSource(int longest) {
        source = new byte[PERIOD + longest];
        fill(source, source.length, 0);
    }

    static int offset(long pos) {
        return (int) (pos & (PERIOD - 1));
    }

    /** Fills buf[0, len) with the bytes that belong at file offset pos. */
    static void fill(byte[] buf, int len, long pos) {
        for (int done = 0; done < len; ) {
            int from = (int) ((pos + done) & (PERIOD - 1));
            int n = Math.min(len - done, PERIOD - from);
            System.arraycopy(TABLE, from, buf, done, n);
            done += n;
        }
    }

    /** The checksum both languages compute: the sum of the bytes moved, as unsigned values. */
    static long sum(byte[] buf, int off, int len) {
        long s = 0;
        for (int i = off; i < off + len; i++) s += buf[i] & 0xFF;
        return s;
    }

    /** Int i of the course's int arrays (typed_arrays, shared_file, mpi_file): a fixed function of i, identical in C (data_int_at). */
    static int intAt(long i) {
        return (int) ((i * 0x9E3779B97F4A7C15L) >>> 32);
    }

    /** The ints at the file's bytes [from, to) of such an array (C: data_ints). */
    static int[] ints(long from, long to) {
        int[] ints = new int[(int) ((to - from) / 4)];
        for (int i = 0; i < ints.length; i++) ints[i] = intAt(from / 4 + i);
        return ints;
    }

    /** The sum of a file's bytes: a write run's checksum, taken after its clock stopped. */
    static long sumFile(Path file) throws IOException {
        byte[] block = new byte[1 << 20];
        long sum = 0;
        try (var in = Files.newInputStream(file)) {
            for (int n; (n = in.read(block)) > 0; ) sum += sum(block, 0, n);
        }
        return sum;
    }

    /** Writes a whole file of the pattern in large blocks; preparation for read runs, never timed. */
    static void writeFile(Path file, long size) throws IOException {
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long pos = 0; pos < size; pos += block.length) {
                int n = (int) Math.min(block.length, size - pos);
                fill(block, n, pos);
                out.write(block, 0, n);
            }
        }
    }
}

/**
 * The deterministic text for --text: lines of 0-120 printable ASCII characters, ended by the kind's
 * line ending (mixed: \n, \r\n and \r in turn); utf8 adds é, 中 and 😀 among them. The file stops at
 * exactly its size, usually inside a line (a last line without an ending), never inside a character.
 * Byte for byte the same as text_write_file in C.
 */
final class Text {
    private static final byte[][] WIDE = {{(byte) 0xC3, (byte) 0xA9}, {(byte) 0xE4, (byte) 0xB8, (byte) 0xAD},
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}};
    private static final byte[][] MIXED = {{'\n'}, {'\r', '\n'}, {'\r'}};

    static void writeFile(Path file, long size, String kind, long seed) throws IOException {
        Prng random = new Prng(seed);
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            long written = 0;
            for (long line = 0; written < size; line++) {
                long length = random.below(121);
                for (long j = 0; j < length && written < size; j++) {
                    int v = (int) random.below(1000);
                    byte[] wide = WIDE[v % 3];
                    if (kind.equals("utf8") && v < 100 && wide.length <= size - written) {
                        out.write(wide);
                        written += wide.length;
                    } else {
                        out.write(32 + v % 95);
                        written++;
                    }
                }
                byte[] ending = switch (kind) {
                    case "crlf" -> MIXED[1];
                    case "cr" -> MIXED[2];
                    case "mixed" -> MIXED[(int) (line % 3)];
                    default -> MIXED[0];
                };
                int n = (int) Math.min(ending.length, size - written);
                out.write(ending, 0, n);
                written += n;
            }
        }
    }
}

/** SplitMix64: the random offsets, bit for bit the same as prng_next in C. */
final class Prng {
    private long state;

    Prng(long seed) {
        state = seed;
    }

    long next() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform-enough slot in [0, n): unsigned remainder, as C's `next % n`. */
    long below(long n) {
        return Long.remainderUnsigned(next(), n);
    }
}
