/* mpi_file: the processes of an MPI job writing and reading one shared file (Bonachea, Dickens &
 * Thakur §4 and §7, Figs 2 and 4, whose C baseline was an MPI program; Awan, Ayub, Shafi & Lee §V,
 * Fig 7). Start it with mpirun -np N ... --procs N. The int32 array is block-distributed: each process
 * holds only its share (whole --op-size blocks, workers_share) and moves it to the same place in one
 * file through MPI-IO, or in a read run back from it. The ints are swapped to big-endian in a buffer
 * first, so the file is byte for byte the one Java's processes write. Process 0 makes the file and
 * reports; every process waits at a barrier before and after its timed part (workers_in_processes).
 * The strategies, per block of the share:
 *   posix        write(2) / read(2) on the process's own descriptor, after one lseek to its share: the
 *                studies' own C baseline (Bonachea et al. §7: an MPI program calling read and write
 *                directly); MPI only starts the processes and holds the barriers
 *   independent  MPI_File_write_at / MPI_File_read_at: each process on its own
 *   collective   MPI_File_write_at_all / MPI_File_read_at_all: every process calls together (those
 *                whose share has run out join with nothing), so MPI may merge their blocks into fewer,
 *                larger requests (ROMIO's two-phase I/O)
 * With --lock region each process holds an fcntl lock on its share while it moves it, as Java's
 * FileLock does. Writes end with MPI_File_sync (posix: fsync). A read hands each process's ints to harness_use_ints;
 * its checksum is the sum of all processes' ints as unsigned numbers (an MPI reduction, in the untimed
 * check run), a write's the sum of its file's bytes. The records of independent and collective name the MPI-IO
 * implementation that served the file (mpi_io: Open MPI's OMPIO, or ROMIO). Twin: java-snippets/MpiFile.java.
 *
 * What you will see: plain read/write and MPI-IO as the C references beside Java's view buffers;
 * collective calls cost a little on one machine, where there is nothing to merge across nodes. */
#define _GNU_SOURCE
#include <mpi.h>

#include "harness/harness.h"

#include <endian.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the team: the MPI calls the harness needs (Java: Mpi.java) -------------------------------- */

static int64_t mpi_rank(void) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static int64_t mpi_size(void) {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

static void mpi_barrier(void) {
    MPI_Barrier(MPI_COMM_WORLD);
}

static int64_t mpi_reduce(int64_t value, MPI_Op op) {
    int64_t out;
    MPI_Allreduce(&value, &out, 1, MPI_INT64_T, op, MPI_COMM_WORLD);
    return out;
}

static int64_t mpi_sum(int64_t value) {
    return mpi_reduce(value, MPI_SUM);
}

static int64_t mpi_min(int64_t value) {
    return mpi_reduce(value, MPI_MIN);
}

static void mpi_gather(int64_t value, int64_t *at_0) {
    MPI_Gather(&value, 1, MPI_INT64_T, at_0, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
}

static const char *mpi_host(void) {
    static char name[MPI_MAX_PROCESSOR_NAME];
    int length;
    MPI_Get_processor_name(name, &length);
    return name;
}

/* What a scan of the loaded objects saw: any of Open MPI's plugins, and OMPIO's own byte movers (fbtl). */
struct plugins {
    int any, fbtl;
};

static int note_plugin(struct dl_phdr_info *info, size_t size, void *seen) {
    (void)size;
    const char *slash = strrchr(info->dlpi_name, '/'), *name = slash ? slash + 1 : info->dlpi_name;
    struct plugins *p = seen;
    if (strncmp(name, "mca_", 4) == 0) p->any = 1;
    if (strncmp(name, "mca_fbtl_", 9) == 0) p->fbtl = 1;
    return 0;
}

/* The MPI-IO implementation the file went through (asked after the run, outside its clock). Open MPI loads OMPIO's
 * byte movers (its fbtl plugins) only once OMPIO serves a file, and ROMIO (which it also carries) otherwise; MPICH and
 * the MPIs built on it have ROMIO alone. "unknown": an Open MPI built with its plugins inside the library. */
static const char *mpi_io(const struct options *o) {
    static const char *found;
    if (strcmp(o->strategy, "posix") == 0) return NULL; /* read and write: no MPI-IO call */
    if (found) return found;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length;
    MPI_Get_library_version(version, &length);
    if (strncmp(version, "Open MPI", 8) != 0) return found = "romio";
    struct plugins seen = {0, 0};
    dl_iterate_phdr(note_plugin, &seen);
    return found = !seen.any ? "unknown" : seen.fbtl ? "ompio" : "romio";
}

static void mpi_end(void) {
    MPI_Finalize();
}

static const struct team mpi_team = {mpi_rank, mpi_size, mpi_barrier, mpi_sum, mpi_min, mpi_gather, mpi_host, mpi_io, mpi_end};

/* ---- the experiment ------------------------------------------------------------------------------ */

/* This process's share of the array (ints[i] is the file's int at byte base + 4i): made before the first run and kept. */
static int32_t *ints;

static void prepare(const struct options *o) {
    int64_t from, to;
    workers_share(o, workers_team->rank(), &from, &to);
    ints = strcmp(o->op, "write") == 0 ? data_ints(from, to) : harness_buffer(o, (size_t)(to - from)); /* typed_arrays' ints */
    if (!ints) harness_io_fail(o);
}

static const char *check(const struct options *o) {
    static char message[200];
    const char *error = flags_check_int_shares(o, 0);
    if (error) return error;
    if (o->file_size % o->op_size != 0) {
        snprintf(message, sizeof message, "--op-size %lld does not divide --file-size %lld (the array is dealt out in whole"
                 " blocks; pick a block size that divides the file)", (long long)o->op_size, (long long)o->file_size);
        return message;
    }
    return NULL;
}

static void mpi_check(const struct options *o, int status) {
    char text[MPI_MAX_ERROR_STRING];
    int length;
    if (status == MPI_SUCCESS) return;
    MPI_Error_string(status, text, &length);
    harness_io_fail_because(o, text);
}

/* posix: one descriptor, one lseek to the share, then a read or write of each block (swapped to and from big-endian). */
static void posix_part(const struct options *o, int64_t from, int64_t to, int write) {
    int fd = open(o->file, write ? O_WRONLY : O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    workers_lock_share(o, fd, from, to, write ? F_WRLCK : F_RDLCK);
    if (lseek(fd, from, SEEK_SET) < 0) harness_io_fail(o);
    uint32_t *buffer = harness_buffer(o, (size_t)o->op_size);
    size_t n = (size_t)o->op_size / 4;
    for (int64_t at = from; at < to; at += o->op_size) {
        int32_t *block = ints + (at - from) / 4;
        if (write) {
            for (size_t i = 0; i < n; i++) buffer[i] = htobe32((uint32_t)block[i]);
            harness_write_fully(o, fd, (const unsigned char *)buffer, 4 * n);
        } else {
            if (harness_read_fully(o, fd, (unsigned char *)buffer, 4 * n) < 4 * n) harness_io_fail_because(o, "file ended early");
            for (size_t i = 0; i < n; i++) block[i] = (int32_t)be32toh(buffer[i]);
        }
    }
    if (write && fsync(fd) != 0) harness_io_fail(o);
    workers_lock_share(o, fd, from, to, F_UNLCK);
    if (close(fd) != 0) harness_io_fail(o);
    free(buffer);
}

/* independent and collective: each block through MPI-IO, each process on its own (MPI_File_write_at / read_at) or
 * every process together (their _all forms; one whose share has run out joins with nothing). */
static void mpiio_part(const struct options *o, int64_t from, int64_t to, int write) {
    int collective = strcmp(o->strategy, "collective") == 0;
    int64_t blocks = (to - from) / o->op_size, all = o->file_size / o->op_size;
    int64_t calls = collective ? (all + o->procs - 1) / o->procs : blocks; /* collective: the same number everywhere */
    MPI_File file;
    mpi_check(o, MPI_File_open(MPI_COMM_WORLD, o->file, write ? MPI_MODE_WRONLY : MPI_MODE_RDONLY, MPI_INFO_NULL, &file));
    int fd = strcmp(o->lock, "region") == 0 ? open(o->file, write ? O_WRONLY : O_RDONLY) : -1;
    if (strcmp(o->lock, "region") == 0 && fd < 0) harness_io_fail(o);
    workers_lock_share(o, fd, from, to, write ? F_WRLCK : F_RDLCK);
    uint32_t *buffer = harness_buffer(o, (size_t)o->op_size);
    for (int64_t b = 0; b < calls; b++) {
        int n = b < blocks ? (int)(o->op_size / 4) : 0;
        int32_t *block = ints + b * (o->op_size / 4);
        MPI_Offset at = from + b * o->op_size;
        MPI_Status status;
        if (write) {
            for (int i = 0; i < n; i++) buffer[i] = htobe32((uint32_t)block[i]);
            mpi_check(o, collective ? MPI_File_write_at_all(file, at, buffer, 4 * n, MPI_BYTE, &status)
                                    : MPI_File_write_at(file, at, buffer, 4 * n, MPI_BYTE, &status));
        } else {
            int got;
            mpi_check(o, collective ? MPI_File_read_at_all(file, at, buffer, 4 * n, MPI_BYTE, &status)
                                    : MPI_File_read_at(file, at, buffer, 4 * n, MPI_BYTE, &status));
            MPI_Get_count(&status, MPI_BYTE, &got);
            if (got < 4 * n) harness_io_fail_because(o, "file ended early");
            for (int i = 0; i < n; i++) block[i] = (int32_t)be32toh(buffer[i]);
        }
    }
    if (write) mpi_check(o, MPI_File_sync(file));
    workers_lock_share(o, fd, from, to, F_UNLCK);
    if (fd >= 0 && close(fd) != 0) harness_io_fail(o);
    mpi_check(o, MPI_File_close(&file));
    free(buffer);
}

static const struct way ways[] = {
    {"posix", ANY, "seq", {.share = posix_part}},
    {"independent", ANY, "seq", {.share = mpiio_part}},
    {"collective", ANY, "seq", {.share = mpiio_part}},
    {NULL},
};

/* The way's share function: workers_in_processes hands a part only its rank, so the frame leaves it here first. */
static share_fn chosen_share;

static void part(const struct options *o, int64_t rank) {
    int64_t from, to;
    workers_share(o, rank, &from, &to);
    chosen_share(o, from, to, strcmp(o->op, "write") == 0);
}

/* What every way shares, timed whole: process 0 makes the file for a write, then each process moves its share between barriers. */
static uint64_t frame(const struct options *o, union way_fn fn) {
    int write = strcmp(o->op, "write") == 0;
    int64_t from, to;
    workers_share(o, workers_team->rank(), &from, &to);
    if (write && workers_team->rank() == 0) {
        int fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || close(fd) != 0) harness_io_fail(o);
    }
    chosen_share = fn.share;
    workers_in_processes(o, part);
    return write ? 0 : harness_use_ints(ints, (size_t)((to - from) / 4));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    workers_team = &mpi_team;
    return harness_run("mpi_file", ways, argc, argv, check, prepare, frame);
}
