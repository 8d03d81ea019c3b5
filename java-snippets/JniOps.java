///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 17
// jni_ops: what one native call per operation costs (Xu & Guo §4.6, Fig 4.15). The program moves
// --op-size bytes per operation through a --buffer-size buffer (the study: 4 KB), sequentially:
//   direct  Java keeps the buffer: each operation copies its bytes out of (into) a byte[], and only an
//           empty (full) buffer costs a read (write) system call
//   jni     the buffer lives in C (c-snippets/jni/jniops.c): each operation is one native call that
//           copies its bytes between the buffer and the Java array
// Twin: c-snippets/jni_ops.c (`direct`, the same loop in C).
//
// What you will see: with 1-byte operations the native call costs more than the work it does; with a
// few dozen bytes per operation it fades, and JNI runs like C.
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.List;

public class JniOps {
    static final List<Harness.Way<Harness.Strategy>> WAYS = List.of(
            new Harness.Way<>("direct", "write", "seq", JniOps::directWrite),
            new Harness.Way<>("direct", "read", "seq", JniOps::directRead),
            new Harness.Way<>("jni", "write", "seq", JniOps::jniWrite),
            new Harness.Way<>("jni", "read", "seq", JniOps::jniRead));

    public static void main(String[] args) {
        Harness.run("jni_ops", WAYS, args, JniOps::check);
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (o.bufferSize() == 0) throw new Harness.UsageError("jni_ops needs --buffer-size (the study used 4k)");
        Flags.checkOperationFitsBuffer(o);
        if (!o.pattern().equals("seq")) throw new Harness.UsageError("--pattern " + o.pattern() + ": jni_ops moves its operations in order (allowed: seq)");
    }

    /** Each operation's bytes come straight from the course's pattern (Data.source) into the buffer. */
    static long directWrite(Harness.Options o) throws IOException {
        byte[] buffer = new byte[o.bufferSize()];
        int used = 0;
        try (var out = new FileOutputStream(o.file().toFile())) {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = (int) Math.min(o.opSize(), o.fileSize() - pos);
                if (used == buffer.length) {  // full: one system call
                    out.write(buffer, 0, used);
                    used = 0;
                }
                System.arraycopy(Data.source, Data.offset(pos), buffer, used, n);
                used += n;
            }
            out.write(buffer, 0, used);
        }
        return 0;
    }

    static long directRead(Harness.Options o) throws IOException {
        byte[] buffer = new byte[o.bufferSize()], op = new byte[o.opSize()];
        int next = 0, filled = 0;
        long used = 0;
        try (var in = new FileInputStream(o.file().toFile())) {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = (int) Math.min(o.opSize(), o.fileSize() - pos);
                if (next == filled) {  // empty: one system call refills it
                    filled = in.readNBytes(buffer, 0, buffer.length);
                    next = 0;
                }
                System.arraycopy(buffer, next, op, 0, n);
                next += n;
                used += Harness.use(op, 0, n);
            }
        }
        return used;
    }

    static long jniWrite(Harness.Options o) throws IOException {
        NativeBuffer.open(o.file().toString(), true, o.bufferSize());
        try {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                NativeBuffer.write(Data.source, Data.offset(pos), (int) Math.min(o.opSize(), o.fileSize() - pos));  // one native call per operation
            }
        } finally {
            NativeBuffer.close();
        }
        return 0;
    }

    static long jniRead(Harness.Options o) throws IOException {
        byte[] op = new byte[o.opSize()];
        long used = 0;
        NativeBuffer.open(o.file().toString(), false, o.bufferSize());
        try {
            for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                int n = NativeBuffer.read(op, (int) Math.min(o.opSize(), o.fileSize() - pos));
                used += Harness.use(op, 0, n);
            }
        } finally {
            NativeBuffer.close();
        }
        return used;
    }

    /** The C half's buffer and file, one at a time: the study's two native methods, plus open and close. */
    static final class NativeBuffer {
        static {
            System.loadLibrary("jniops");
        }

        static native void open(String path, boolean write, int bufferSize) throws IOException;

        /** Copies the next n bytes into op, refilling the buffer with one read(2) when it is empty. */
        static native int read(byte[] op, int n) throws IOException;

        /** Copies the n bytes of op from off into the buffer, flushing it with one write(2) when it is full. */
        static native void write(byte[] op, int off, int n) throws IOException;

        static native void close() throws IOException;
    }
}
