///usr/bin/env jbang "$0" "$@" ; exit $?
//SOURCES harness/Harness.java Mpi.java SharedFile.java BulkRandomAccessFile.java
//JAVAC_OPTIONS --release 17
// mpi_file: the processes of an MPI job writing and reading one shared file (Bonachea, Dickens &
// Thakur §4, Figs 2 and 4; Awan, Ayub, Shafi & Lee §V, Fig 7). Start it with mpirun -np N ... --procs N.
// The int array is block-distributed: each process holds only its share (whole --op-size blocks,
// Workers.share) and moves it to the same place in one file, or in a read run back from it. The file
// is big-endian, byte for byte the one shared_file and typed_arrays write. Process 0 makes the file and
// reports; every process waits at an MPI barrier before and after its timed part (Workers.inProcesses).
// The strategies, per block of the share:
//   view-heap, view-direct, mapped, bulk   shared_file's (lab 07): a view buffer and a positional
//                                          write, a mapped block, BulkRandomAccessFile
//   streams  the studies' reference: a DataOutputStream on a BufferedOutputStream of --op-size bytes,
//            one writeInt per int (reads: DataInputStream.readInt)
// With --lock region each process holds a FileLock on its share while it moves it, as Awan et al.
// did. A read hands each process's ints to Harness.use; its checksum is the sum of all processes' ints
// as unsigned numbers (an MPI reduction, in the untimed check run), a write's the sum of its file's bytes.
// Twin: c-snippets/mpi_file.c (MPI-IO, independent and collective).
//
// What you will see: more processes help reads from the page cache until the cores run out; forced
// writes gain little; streams trail far behind, as in both studies.
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.List;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

public class MpiFile {
    static final List<Harness.Way<SharedFile.Share>> WAYS = List.of(
            new Harness.Way<>("view-heap", Harness.ANY, "seq", SharedFile::view),
            new Harness.Way<>("view-direct", Harness.ANY, "seq", SharedFile::view),
            new Harness.Way<>("mapped", Harness.ANY, "seq", SharedFile::mapped),
            new Harness.Way<>("bulk", Harness.ANY, "seq", SharedFile::bulk),
            new Harness.Way<>("streams", Harness.ANY, "seq", MpiFile::streams));

    /** This process's share of the array (ints[i] is the file's int at byte base + 4i): made before the first run and kept. */
    static int[] ints;

    public static void main(String[] args) {
        Mpi.join();
        Harness.run("mpi_file", WAYS, args, MpiFile::check, MpiFile::prepare, MpiFile::frame);
    }

    /** What every way shares, timed whole: process 0 makes the file for a write, then each process moves its share between barriers. */
    static long frame(Harness.Options o, SharedFile.Share fn) throws IOException {
        boolean write = o.op().equals("write");
        long[] share = Workers.share(o, Workers.team.rank());
        long base = share[0];
        if (write && Workers.team.rank() == 0) SharedFile.create(o);
        Workers.inProcesses(o, rank -> fn.run(o, ints, base, share[0], share[1], write));
        return write ? 0 : Harness.use(ints, 0, ints.length);
    }

    static void prepare(Harness.Options o) {
        long[] share = Workers.share(o, Workers.team.rank());
        ints = o.op().equals("write") ? Data.ints(share[0], share[1]) : new int[(int) ((share[1] - share[0]) / 4)];  // typed_arrays' ints
    }

    static void check(Harness.Options o) throws Harness.UsageError {
        Flags.checkIntShares(o, o.strategy().equals("mapped"));
        if (o.fileSize() % o.opSize() != 0) {
            throw new Harness.UsageError("--op-size " + o.opSize() + " does not divide --file-size " + o.fileSize()
                    + " (the array is dealt out in whole blocks; pick a block size that divides the file)");
        }
    }

    /** The studies' data streams: one writeInt or readInt per int, through a buffer of --op-size bytes (ints holds just the share). */
    static void streams(Harness.Options o, int[] ints, long base, long from, long to, boolean write) throws IOException {
        try (var channel = FileChannel.open(o.file(), write ? WRITE : READ); var lock = Workers.lockShare(o, channel, from, to, write)) {
            channel.position(from);
            if (write) {
                var out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), o.opSize()));
                for (int v : ints) out.writeInt(v);
                out.flush();
                channel.force(true);
            } else {
                var in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), o.opSize()));
                for (int i = 0; i < ints.length; i++) ints[i] = in.readInt();
            }
        }
    }
}
