/* The experiment protocol every C snippet speaks. Its twin is java-snippets/Harness.java: the same
 * flags, checks, data, random offsets, timing and JSON output, in the same order of functions.
 * A snippet supplies only its strategy (the I/O it measures); everything around it lives here. */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

/* The parsed command line; the same fields, in the same order, as the Java record Options. */
struct options {
    const char *snippet, *strategy, *op, *pattern;
    int64_t file_size, op_size, buffer_size, repeat, warmup;
    const char *cache, *text, *type, *file; /* text, type: --text and --type, NULL for snippets without them */
    uint64_t seed;
    int keep;
};

/* The I/O a snippet measures: moves the bytes and returns the sum of the bytes it moved. */
typedef uint64_t (*strategy_fn)(const struct options *o);

/* A snippet's own rule on its flags (which strategy allows which pattern, say), checked before any
 * I/O: returns NULL when the options are fine, else the error message. */
typedef const char *(*check_fn)(const struct options *o);

/* Operations in the current run that the program's own buffer could not serve, each costing a
 * system call; a strategy that keeps its own buffer counts them, the rest leave -1 (not counted). */
extern int64_t harness_misses;

/* Operations in the current run, when the strategy counts them itself (lines of text, say); -1:
 * file size ÷ op size. */
extern int64_t harness_operations;

/* Parses the flags, runs warm-up and measured runs, prints one JSON line per measured run.
 * strategies and extra_flags are NULL-terminated lists; check may be NULL. Returns the exit status. */
int harness_run(const char *snippet, const char *const *strategies, const char *const *extra_flags,
                int argc, char **argv, check_fn check, strategy_fn strategy);

int64_t operations(const struct options *o);
int64_t bytes_moved(const struct options *o);

/* I/O failures end the run: one line on stderr naming the file and the OS error, exit status 1. */
void io_fail(const struct options *o);
void io_fail_because(const struct options *o, const char *why);
/* read/write until all n bytes moved (or EOF for reads); calls io_fail on error. */
size_t read_fully(const struct options *o, int fd, unsigned char *buf, size_t n);
void write_fully(const struct options *o, int fd, const unsigned char *buf, size_t n);

/* Drops the file from the page cache: fsync, then posix_fadvise(DONTNEED). 0 on success. */
int evict_file(const char *path);

/* The deterministic data: byte i of every file is a fixed function of i (Java: Data). */
unsigned data_at(int64_t pos);
void data_fill(unsigned char *buf, size_t len, int64_t pos);
uint64_t data_sum(const unsigned char *buf, size_t len);
int data_write_file(const char *path, int64_t size);

/* The deterministic text for --text (Java: Text): lines of printable characters with the kind's line
 * endings; 0 on success. */
int text_write_file(const char *path, int64_t size, const char *kind, uint64_t seed);

/* SplitMix64: the random offsets, bit for bit the same as Java's Prng. */
struct prng { uint64_t state; };
uint64_t prng_next(struct prng *p);
uint64_t prng_below(struct prng *p, uint64_t n);

/* For snippets whose operations are served from their own buffer: each must fit, and never straddle
 * two fills. NULL when they do, else the error message (call it from the snippet's check). */
const char *check_operation_fits_buffer(const struct options *o);

/* Flag parsing, exposed for the unit tests. Return NULL on success or the error message. */
const char *parse_size(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out);
const char *parse_options(const char *snippet, const char *const *strategies,
                          const char *const *extra_flags, int argc, char **argv, struct options *o);

#endif
