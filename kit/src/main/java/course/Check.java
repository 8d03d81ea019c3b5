package course;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What an exercise's check needs besides its checks, so that a check cell holds only what it checks: a file in the
 * lab's scratch folder that goes away, the bytes compared with a message naming the first element that differs,
 * work spread over threads whose failure reaches the check, and files and channels that count the calls made on them.
 */
public final class Check {
    private Check() {
    }

    /** A file in the lab's scratch folder for a check to write and read, deleted when closed (try-with-resources). */
    public record ScratchFile(Path path) implements AutoCloseable {
        public File file() {
            return path.toFile();
        }

        public byte[] bytes() throws IOException {
            return Files.readAllBytes(path);
        }

        @Override
        public void close() throws IOException {
            Files.deleteIfExists(path);
        }
    }

    /** A new, empty file in the lab's scratch folder, named prefix-….dat. */
    public static ScratchFile scratchFile(Lab lab, String prefix) throws IOException {
        Files.createDirectories(lab.scratch());
        return new ScratchFile(Files.createTempFile(lab.scratch(), prefix + "-", ".dat"));
    }

    /** Throws an AssertionError naming the first byte, and element of elementSize bytes, where got differs from expected. */
    public static void sameBytes(byte[] got, byte[] expected, int elementSize, String expectedWhat) {
        int at = java.util.Arrays.mismatch(got, expected);
        if (at < 0) return;
        if (at >= Math.min(got.length, expected.length)) {
            throw new AssertionError("the file has " + got.length + " bytes; " + expectedWhat + " has " + expected.length);
        }
        throw new AssertionError("byte " + at + " (element " + at / elementSize + ") differs from " + expectedWhat);
    }

    /** Work one thread of a team does, given its index. */
    public interface Part {
        void run(int index) throws Exception;
    }

    /** Runs part in count threads at once (indexes 0 to count − 1) and waits for all; the first failure fails the check. */
    public static void inThreads(int count, Part part) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> team = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int index = t;
            team.add(new Thread(() -> {
                try {
                    part.run(index);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        team.forEach(Thread::start);
        for (Thread t : team) t.join();
        if (failure.get() != null) throw new AssertionError("a thread failed: " + failure.get(), failure.get());
    }

    /** A RandomAccessFile ("rw") that counts the write calls made on it, of any kind. */
    public static final class CountingFile extends RandomAccessFile {
        private long writes;

        public CountingFile(File file) throws IOException {
            super(file, "rw");
        }

        public long writes() {
            return writes;
        }

        @Override
        public void write(int b) throws IOException {
            writes++;
            super.write(b);
        }

        @Override
        public void write(byte[] b) throws IOException {
            writes++;
            super.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes++;
            super.write(b, off, len);
        }
    }

    /**
     * A FileChannel (opened for writing) that counts what races when threads share it: its position set
     * (position(long)) and the writes that go to wherever the position happens to be (write(buffer)).
     * A positional write (write(buffer, position)) touches no shared state and counts as neither.
     */
    public static final class CountingChannel extends FileChannel {
        private final FileChannel channel;
        private final AtomicLong positionSets = new AtomicLong(), relativeWrites = new AtomicLong();

        public CountingChannel(Path path) throws IOException {
            channel = FileChannel.open(path, StandardOpenOption.WRITE);
        }

        /** The calls that depend on the channel's one shared position: position(long) and write(buffer). */
        public long sharedPositionCalls() {
            return positionSets.get() + relativeWrites.get();
        }

        @Override public int read(ByteBuffer dst) throws IOException { return channel.read(dst); }
        @Override public long read(ByteBuffer[] dsts, int offset, int length) throws IOException { return channel.read(dsts, offset, length); }
        @Override public int write(ByteBuffer src) throws IOException { relativeWrites.incrementAndGet(); return channel.write(src); }
        @Override public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            relativeWrites.incrementAndGet();
            return channel.write(srcs, offset, length);
        }
        @Override public long position() throws IOException { return channel.position(); }
        @Override public FileChannel position(long newPosition) throws IOException {
            positionSets.incrementAndGet();
            channel.position(newPosition);
            return this;
        }
        @Override public long size() throws IOException { return channel.size(); }
        @Override public FileChannel truncate(long size) throws IOException { channel.truncate(size); return this; }
        @Override public void force(boolean metaData) throws IOException { channel.force(metaData); }
        @Override public long transferTo(long position, long count, WritableByteChannel target) throws IOException { return channel.transferTo(position, count, target); }
        @Override public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException { return channel.transferFrom(src, position, count); }
        @Override public int read(ByteBuffer dst, long position) throws IOException { return channel.read(dst, position); }
        @Override public int write(ByteBuffer src, long position) throws IOException { return channel.write(src, position); }
        @Override public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException { return channel.map(mode, position, size); }
        @Override public FileLock lock(long position, long size, boolean shared) throws IOException { return channel.lock(position, size, shared); }
        @Override public FileLock tryLock(long position, long size, boolean shared) throws IOException { return channel.tryLock(position, size, shared); }
        @Override protected void implCloseChannel() throws IOException { channel.close(); }
    }
}
