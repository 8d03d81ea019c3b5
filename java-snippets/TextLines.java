///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java
//JAVAC_OPTIONS --release 17
// text_lines: reading a text file line by line (Lord & Reddy, Sun white paper; today's JDK).
// The harness writes a text file (--text: lf, crlf, cr, mixed endings, or utf8 with non-ASCII
// characters); each strategy reads it and counts its lines. A line ends at \n, \r\n or \r, and a last
// line without an ending counts. Each line goes to Harness.use, which touches its last character; the
// checksum, from the untimed check run, is the sum of all characters (UTF-16 code units, endings
// excluded). `chars` sums them as it scans, since it looks at every character anyway.
//   datainput           DataInputStream.readLine on a bare FileInputStream (deprecated: bytes as chars)
//   datainput-buffered  the same over a BufferedInputStream (--buffer-size; the white paper used 2048)
//   reader              BufferedReader over a UTF-8 FileReader (--buffer-size in chars: 1024, 8192)
//   own-reader          a reusable line reader of our own: bytes in, one String per line, no extra copy
//   chars               a hand-kept char[] loop that makes no String at all (the white paper's Fig 7 idea)
//   files-lines, files-readalllines, files-reader, files-readstring: java.nio.file.Files today
// Twin: c-snippets/text_lines.c (fgets, getline).
//
// What you will see: one system call per byte dwarfs everything; past that, the cost is making a
// String per line, and the JDK's own readers are within a small factor of the hand-kept loop.
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.FileReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class TextLines {
    static final List<Harness.Way<LineWay>> WAYS = List.of(
            new Harness.Way<>("datainput", "read", "seq", TextLines::dataInput),
            new Harness.Way<>("datainput-buffered", "read", "seq", TextLines::dataInput),
            new Harness.Way<>("reader", "read", "seq", TextLines::reader),
            new Harness.Way<>("own-reader", "read", "seq", TextLines::ownReader),
            new Harness.Way<>("chars", "read", "seq", TextLines::chars),
            new Harness.Way<>("files-lines", "read", "seq", TextLines::filesLines),
            new Harness.Way<>("files-readalllines", "read", "seq", TextLines::filesReadAllLines),
            new Harness.Way<>("files-reader", "read", "seq", TextLines::filesReader),
            new Harness.Way<>("files-readstring", "read", "seq", TextLines::filesReadString));

    public static void main(String[] args) {
        Harness.run("text_lines", WAYS, args, TextLines::check, o -> { }, TextLines::frame);
    }

    /** One strategy: reads the file's lines into lines. */
    @FunctionalInterface
    interface LineWay {
        void run(Harness.Options o, Lines lines) throws IOException;
    }

    /** What every strategy shares, timed with it: a fresh count, and the count and sum it reports. */
    static long frame(Harness.Options o, LineWay fn) throws IOException {
        Lines lines = new Lines();
        fn.run(o, lines);
        Harness.operationsDone = lines.count;
        return lines.used;
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        if (!o.op().equals("read")) throw new Harness.UsageError("--op " + o.op() + ": text_lines only reads (allowed: read)");
        if (!o.pattern().equals("seq")) throw new Harness.UsageError("--pattern " + o.pattern() + ": lines are read in order (allowed: seq)");
        if (o.bufferSize() > 0 && !List.of("datainput-buffered", "reader", "own-reader", "chars").contains(o.strategy())) {
            throw new Harness.UsageError("--buffer-size is not used by --strategy " + o.strategy()
                    + " (used by: datainput-buffered, reader, own-reader, chars)");
        }
    }

    /** What every strategy reports: the number of lines, and what Harness.use returned for them. */
    static final class Lines {
        long count, used;

        void add(CharSequence line) {
            count++;
            used += Harness.use(line);
        }
    }

    /** datainput: a bare FileInputStream, one read(2) per byte; datainput-buffered: a BufferedInputStream in between. */
    @SuppressWarnings("deprecation")  // readLine turns each byte into one char: wrong for anything but ASCII
    static void dataInput(Harness.Options o, Lines lines) throws IOException {
        InputStream source = new FileInputStream(o.file().toFile());
        if (o.strategy().equals("datainput-buffered")) {
            source = o.bufferSize() > 0 ? new BufferedInputStream(source, o.bufferSize()) : new BufferedInputStream(source);
        }
        try (var in = new DataInputStream(source)) {
            for (String line; (line = in.readLine()) != null; ) lines.add(line);
        }
    }

    static void reader(Harness.Options o, Lines lines) throws IOException {
        var file = new FileReader(o.file().toFile(), StandardCharsets.UTF_8);
        try (var in = o.bufferSize() > 0 ? new BufferedReader(file, o.bufferSize()) : new BufferedReader(file)) {
            for (String line; (line = in.readLine()) != null; ) lines.add(line);
        }
    }

    static void ownReader(Harness.Options o, Lines lines) throws IOException {
        try (var in = new LineReader(o.bufferSize() > 0 ? o.bufferSize() : 8192)) {
            in.open(o.file());
            for (String line; (line = in.readLine()) != null; ) lines.add(line);
        }
    }

    /**
     * Our own reader: bytes from the file into one reusable buffer, each line decoded straight from it
     * into its String (one copy, where BufferedReader copies bytes to chars, then chars to the String).
     * open() reuses the buffer for the next file. UTF-8's multi-byte characters never contain \n or \r
     * bytes, so lines can be found in the bytes before decoding.
     */
    static final class LineReader implements AutoCloseable {
        private byte[] buffer;
        private int start, end;  // the unread bytes are buffer[start, end)
        private boolean skipLineFeed;  // the last line ended with \r: a \n right after it belongs to it
        private InputStream in;

        LineReader(int size) {
            buffer = new byte[size];
        }

        void open(Path file) throws IOException {
            close();
            in = new FileInputStream(file.toFile());
            start = end = 0;
            skipLineFeed = false;
        }

        String readLine() throws IOException {
            int scanned = 0;  // bytes of this line looked at so far, counted from start
            while (true) {
                if (start + scanned == end && !fill()) {  // end of file: a last line without an ending, or none
                    if (start == end) return null;
                    String last = new String(buffer, start, end - start, StandardCharsets.UTF_8);
                    start = end;
                    return last;
                }
                if (skipLineFeed) {
                    skipLineFeed = false;
                    if (buffer[start] == '\n') {
                        start++;
                        continue;
                    }
                }
                for (; start + scanned < end; scanned++) {
                    byte b = buffer[start + scanned];
                    if (b == '\n' || b == '\r') {
                        String line = new String(buffer, start, scanned, StandardCharsets.UTF_8);
                        skipLineFeed = b == '\r';
                        start += scanned + 1;
                        return line;
                    }
                }
            }
        }

        /** Keeps the unread bytes, moved to the front (the buffer doubles if one line fills it); false at the end. */
        private boolean fill() throws IOException {
            if (start > 0) {
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            } else if (end == buffer.length) {
                buffer = java.util.Arrays.copyOf(buffer, 2 * buffer.length);
            }
            int n = in.read(buffer, end, buffer.length - end);
            if (n <= 0) return false;
            end += n;
            return true;
        }

        @Override
        public void close() throws IOException {
            if (in != null) in.close();
        }
    }

    /** No String at all: scan a char[] for line ends, adding up characters as they pass (its use of them). */
    static void chars(Harness.Options o, Lines lines) throws IOException {
        char[] buffer = new char[o.bufferSize() > 0 ? o.bufferSize() : 8192];
        boolean inLine = false, afterCarriageReturn = false;
        try (Reader in = new InputStreamReader(new FileInputStream(o.file().toFile()), StandardCharsets.UTF_8)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                for (int i = 0; i < n; i++) {
                    char c = buffer[i];
                    if (c == '\n' && afterCarriageReturn) {  // the \n of a \r\n: that line was counted at the \r
                        afterCarriageReturn = false;
                        continue;
                    }
                    afterCarriageReturn = c == '\r';
                    if (c == '\n' || c == '\r') {
                        lines.count++;
                        inLine = false;
                    } else {
                        lines.used += c;
                        inLine = true;
                    }
                }
            }
        }
        if (inLine) lines.count++;  // a last line without an ending
    }

    // ---- java.nio.file.Files today -----------------------------------------------------------------

    static void filesLines(Harness.Options o, Lines lines) throws IOException {
        try (var stream = Files.lines(o.file())) {
            stream.forEach(lines::add);
        }
    }

    static void filesReadAllLines(Harness.Options o, Lines lines) throws IOException {
        Files.readAllLines(o.file()).forEach(lines::add);
    }

    static void filesReader(Harness.Options o, Lines lines) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(o.file())) {
            for (String line; (line = in.readLine()) != null; ) lines.add(line);
        }
    }

    static void filesReadString(Harness.Options o, Lines lines) throws IOException {
        Files.readString(o.file()).lines().forEach(lines::add);
    }
}
