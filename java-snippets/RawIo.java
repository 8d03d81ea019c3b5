///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES Harness.java
//JAVAC_OPTIONS --release 17
// raw_io: one system call per operation and no buffer anywhere (Xu & Guo §3.2.1 and §3.2.4).
// Sequential access uses FileInputStream / FileOutputStream; random access uses RandomAccessFile
// with seek, because streams cannot seek. With --op-size 1 every call moves one byte through
// read() / write(int): the study's "raw Java I/O" baseline. Larger --op-size values move a byte[]
// per call (lab 03). Twin: c-snippets/raw_io.c.
//
// Writes take their bytes straight from the course's pattern (Data.source, laid out before the clock
// starts); reads hand each buffer to Harness.use, which touches one byte of it (the check run, off the
// clock, sums them all). So the clock holds the calls and nothing else.
//
// What you will see: with 1-byte operations every byte costs a trip into the kernel, so the rate
// is a few million bytes per second whatever the file size, in Java and in C alike.
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.List;

public class RawIo {
    public static void main(String[] args) {
        Harness.run("raw_io", List.of("raw"), args, o -> switch (o.op() + " " + o.pattern()) {
            case "write seq" -> seqWrite(o);
            case "read seq" -> seqRead(o);
            case "write rand" -> randWrite(o);
            default -> randRead(o);
        });
    }

    static long seqWrite(Harness.Options o) throws IOException {
        try (var out = new FileOutputStream(o.file().toFile())) {
            if (o.opSize() == 1) {
                for (long pos = 0; pos < o.fileSize(); pos++) out.write(Data.at(pos));
            } else {
                for (long pos = 0; pos < o.fileSize(); pos += o.opSize()) {
                    out.write(Data.source, Data.offset(pos), (int) Math.min(o.opSize(), o.fileSize() - pos));
                }
            }
        }
        return 0;
    }

    static long seqRead(Harness.Options o) throws IOException {
        long used = 0;
        try (var in = new FileInputStream(o.file().toFile())) {
            if (o.opSize() == 1) {
                for (int b; (b = in.read()) != -1; ) used += b;
            } else {
                byte[] buf = new byte[o.opSize()];
                for (int n; (n = in.read(buf)) != -1; ) used += Harness.use(buf, 0, n);
            }
        }
        return used;
    }

    /** As many operations as the file has slots, each at a random slot: seek, then write. */
    static long randWrite(Harness.Options o) throws IOException {
        long slots = o.fileSize() / o.opSize();
        Prng random = new Prng(o.seed());
        try (var file = new RandomAccessFile(o.file().toFile(), "rw")) {
            for (long i = 0; i < slots; i++) {
                long pos = random.below(slots) * o.opSize();
                file.seek(pos);
                if (o.opSize() == 1) file.write(Data.at(pos));
                else file.write(Data.source, Data.offset(pos), o.opSize());
            }
        }
        return 0;
    }

    static long randRead(Harness.Options o) throws IOException {
        long used = 0, slots = o.fileSize() / o.opSize();
        Prng random = new Prng(o.seed());
        byte[] buf = new byte[o.opSize()];
        try (var file = new RandomAccessFile(o.file().toFile(), "r")) {
            for (long i = 0; i < slots; i++) {
                file.seek(random.below(slots) * o.opSize());
                if (o.opSize() == 1) {
                    used += file.read();
                } else {
                    file.readFully(buf);
                    used += Harness.use(buf, 0, buf.length);
                }
            }
        }
        return used;
    }
}
