/* The experiment protocol every C snippet speaks: the one file a snippet includes. Its twin is java-snippets/harness/:
 * the same flags, checks, data, random offsets, timing and JSON output, in the same rooms (harness.c says which),
 * the same functions in the same order in each. Every name here is its Java twin's in snake_case after its class's
 * prefix (harness_ for Harness and its Options, workers_, flags_, space_, data_, text_, prng_), or is C's alone for a
 * reason tests/test_mirror.py states. A snippet supplies only its table of ways (the I/O it measures, strategy by
 * strategy); everything around it lives in the rooms. */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

/* The parsed command line; the same fields, in the same order, as the Java record Options. */
struct options {
    const char *snippet, *strategy, *op, *pattern;
    int64_t file_size, op_size, buffer_size, repeat, warmup, threads, depth, procs; /* 0 for snippets without the flag */
    const char *cache, *text, *type, *lock, *file; /* text, type, lock: NULL for snippets without those flags */
    int64_t seed;
    int keep;
};

/* The I/O a snippet measures, and nothing else: the clock runs from its first line to its last. A read
 * hands what each operation brought in to harness_use* and returns the sum of what they returned (a byte
 * read alone is added as it is); a write returns 0, since the harness checks its file. */
typedef uint64_t (*strategy_fn)(const struct options *o);

/* What the program holds before it starts (its array, say): made once, before any run, never timed. */
typedef void (*prepare_fn)(const struct options *o);

/* A snippet's own rule on its flags (which strategy allows which pattern, say), checked before any
 * I/O: returns NULL when the options are fine, else the error message. */
typedef const char *(*check_fn)(const struct options *o);

/* Operations in the current run that the program's own buffer could not serve, each costing a
 * system call; a strategy that keeps its own buffer counts them, the rest leave -1 (not counted). */
extern int64_t harness_misses;

/* Operations in the current run, when the strategy counts them itself (lines of text, say); -1:
 * file size ÷ op size. */
extern int64_t harness_operations_done;

/* The processes of an MPI job (mpi_file.c supplies them), or a team of one for every other snippet.
 * Process 0 makes and removes the file and prints the results; the others only do their share of the I/O. */
struct team {
    int64_t (*rank)(void);
    int64_t (*size)(void);
    void (*barrier)(void);
    int64_t (*sum)(int64_t value); /* over all processes, known to all */
    int64_t (*min)(int64_t value);
    void (*gather)(int64_t value, int64_t *at_0); /* every process's value, in rank order, at process 0 */
    const char *(*host)(void);
    const char *(*io)(const struct options *o); /* the MPI-IO implementation the run's file went through; NULL where it made no MPI-IO call */
    void (*end)(void);
};
extern const struct team *workers_team;

/* One thread's part of a threaded strategy (see workers_in_threads): thread is its index, 0 … threads − 1. */
typedef void (*part_fn)(const struct options *o, int64_t thread);

/* Runs part(0) … part(threads − 1), each in a thread of its own; they start together (a barrier).
 * Records each thread's time and CPU time, the span from the first start to the last end, and the most
 * tasks the kernel ran for the process at once, io_uring's io-wq workers among them (workers.c). An I/O
 * error in any thread ends the program (harness_io_fail). */
void workers_in_threads(const struct options *o, part_fn part);

/* Runs this process's part of an MPI job between two barriers; records every process's own time (at
 * process 0), adds the others' CPU time, and takes as the span the longest any process spent from
 * leaving the first barrier to leaving the second (no clock is shared across nodes). */
void workers_in_processes(const struct options *o, part_fn part);

/* Threads or processes that share the file out between them. */
int64_t harness_workers(const struct options *o);

/* The bytes [from, to) that thread (or process) i of harness_workers(o) moves: whole --op-size blocks, shared
 * out as evenly as they go, in order, so the shares are disjoint and cover the file. */
void workers_share(const struct options *o, int64_t i, int64_t *from, int64_t *to);

/* The most a snippet may hold in memory: half of a quarter of RAM (or of a container's memory limit) or
 * of `ulimit -v` (Java: half of its heap limit, which the JVM sizes by the container too); and the memory
 * the system could give now (MemAvailable, at most what the container has left; INT64_MAX if unknown). */
int64_t space_memory_limit(void);
int64_t space_available_memory(void);

/* One thread's or process's share of the file, the bytes [from, to) (workers_share): what shared_file's and
 * mpi_file's ways do in workers_in_threads or workers_in_processes. */
typedef void (*share_fn)(const struct options *o, int64_t from, int64_t to, int write);

/* One way a snippet does its work, a row of the table each snippet declares (as fio declares its engines): the
 * strategy's name, the operation and the pattern it serves (ANY: either), and its function. The harness runs the
 * one row that serves the flags given, and lab.code finds a strategy's code by the same rule. The function is the
 * whole timed work, or what the snippet's frame calls: one thread's or process's share, or one thread's part. */
#define ANY NULL
union way_fn {
    strategy_fn whole;
    share_fn share;
    part_fn part;
};
struct way {
    const char *strategy, *op, *pattern;
    union way_fn fn;
};

/* The work around a way's function that every way of a snippet shares (its threads, say): timed whole. */
typedef uint64_t (*frame_fn)(const struct options *o, union way_fn fn);

/* Parses the flags (which ones a snippet takes, the flag table in flags.c says), prepares, then runs:
 * for a read, one untimed check run first; then warm-up and measured runs, one JSON line per measured
 * run. ways ends with a row whose strategy is NULL; check, prepare and frame may be NULL (no frame: each
 * way's function is whole). Returns the exit status. */
int harness_run(const char *snippet, const struct way *ways, int argc, char **argv,
                check_fn check, prepare_fn prepare, frame_fn frame);

/* The monotonic clock read just before and just after the strategy (a test replaces it to see what it
 * encloses; Java: Harness.clock). */
extern int64_t (*harness_clock)(void);

/* Hands over what one read operation brought in, and returns the little a program must touch so the
 * read cannot be optimised away: its last byte (int, double's bits). Only in the untimed check run do
 * they also sum all the others, so a timed run never pays for a checksum loop (Java: Harness.use). */
uint64_t harness_use(const unsigned char *buf, size_t n);
uint64_t harness_use_ints(const int32_t *values, size_t n);
uint64_t harness_use_doubles(const double *values, size_t n);

/* Memory for a snippet's buffer or array, starting on a page boundary (free it with free). malloc puts a
 * large block 16 bytes past a page boundary, and on the course's AMD EPYC test machine a read() into such
 * a buffer ran four times slower than into any other offset: the figure would then measure malloc's
 * placement, not the strategy. fio aligns its buffers the same way. Java's arrays are placed by the JVM
 * (Java has no twin of this). Stops the run with an error if memory is short. */
void *harness_buffer(const struct options *o, size_t size);

int64_t harness_operations(const struct options *o);
int64_t harness_bytes(const struct options *o);

/* I/O failures end the run: one line on stderr naming the file and the OS error, exit status 1. */
void harness_io_fail(const struct options *o);
void harness_io_fail_because(const struct options *o, const char *why);
/* This machine or file system cannot run the strategy at all (a file system that refuses direct I/O, a kernel
 * that refuses io_uring): not a fault. Says why in one line and exits with status HARNESS_UNSUPPORTED (1 is an
 * I/O error, 2 a bad flag); the kit's sweeps skip that part of a lab, saying so. */
#define HARNESS_UNSUPPORTED 3
void harness_unsupported(const struct options *o, const char *why);
/* read/write until all n bytes moved (or EOF for reads); calls harness_io_fail on error. */
size_t harness_read_fully(const struct options *o, int fd, unsigned char *buf, size_t n);
void harness_write_fully(const struct options *o, int fd, const unsigned char *buf, size_t n);

/* Drops the file from the page cache: fsync, then posix_fadvise(DONTNEED). 0 on success. */
int space_evict(const char *path);
/* The file a copy reads (file_copy, lab 10): --file's name plus ".source", made by space_write_source. */
const char *space_source(const struct options *o);
/* Makes the copy's source where none was (not through a link either), filled with the course's data; it
 * goes with the run's file. */
void space_write_source(const struct options *o);

/* The percentage of the file's pages in the page cache now (mincore on a mapping of it, which reads
 * nothing); -1 if it cannot be told. */
double space_resident_pct(const char *path);

/* The deterministic data: byte i of every file is a fixed function of i (Java: Data). */
unsigned data_at(int64_t pos);
void data_fill(unsigned char *buf, size_t len, int64_t pos);
uint64_t data_sum(const unsigned char *buf, size_t len);
/* What a write takes its bytes from, made before the clock starts: the len bytes that belong at file
 * offset pos are data_source(pos)[0, len) for any len up to the longest operation (Java: Data.source). */
void data_prepare_source(int64_t longest);
const unsigned char *data_source(int64_t pos);
/* The sum of a file's bytes: a write run's checksum, taken after its clock stopped; 0 and errno on failure. */
int data_sum_file(const char *path, uint64_t *sum);
int data_write_file(const char *path, int64_t size);

/* The course's int arrays (typed_arrays, shared_file, mpi_file): int i is a fixed function of i (Java:
 * Data.intAt); data_ints gives the ints at the file's bytes [from, to) in a new malloc'd array (NULL when
 * memory runs out). */
int32_t data_int_at(int64_t i);
int32_t *data_ints(int64_t from, int64_t to);

/* The deterministic text for --text (Java: Text): lines of printable characters with the kind's line
 * endings; 0 on success. */
int text_write_file(const char *path, int64_t size, const char *kind, uint64_t seed);

/* SplitMix64: the random offsets, bit for bit the same as Java's Prng. */
struct prng { uint64_t state; };
uint64_t prng_next(struct prng *p);
uint64_t prng_below(struct prng *p, uint64_t n);

/* For snippets whose threads or processes each move their share of one int32 array: whole ints, shares
 * moved in order, a file that fits in memory when the strategy maps it (maps), and an array (for a
 * process, its largest share) within space_memory_limit(). NULL when fine, else the error message. */
const char *flags_check_int_shares(const struct options *o, int maps);

/* Takes (or, with F_UNLCK, gives back) an fcntl lock on the share [from, to) of fd when --lock region
 * asks for one (F_WRLCK to write, F_RDLCK to read; Java: Workers.lockShare). */
void workers_lock_share(const struct options *o, int fd, int64_t from, int64_t to, short type);

/* For snippets whose operations are served from their own buffer: each must fit, and never straddle
 * two fills. NULL when they do, else the error message (call it from the snippet's check). */
const char *flags_check_operation_fits_buffer(const struct options *o);

/* Flag parsing, exposed for the unit tests. Return NULL on success or the error message. */
const char *flags_parse_size(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out);
const char *flags_parse(const char *snippet, const char *const *strategies, int argc, char **argv, struct options *o);

#endif
