/* What the harness's rooms (the files of this folder) share with one another and no snippet sees: the protocol's
 * limits, the state of the current run one room keeps and another reads, and the functions one room calls in
 * another, each named with its room's prefix (harness_, workers_, job_, flags_, space_, output_). A snippet
 * includes harness.h alone. The Java twins are members of the class of the same room (java-snippets/harness/). */
#ifndef HARNESS_ROOMS_H
#define HARNESS_ROOMS_H

#include "harness.h"

#include <limits.h>
#include <sys/time.h>
#include <sys/types.h>

#define MAX_FILE_SIZE (INT64_C(64) << 30)
#define MAX_OP_SIZE (INT64_C(64) << 20)
#define MAX_BUFFER_SIZE (INT64_C(1) << 30)
#define DEFAULT_MARGIN (INT64_C(256) << 20)
#define MAX_MARGIN (INT64_C(1) << 50)
#define MAX_THREADS 256
#define MAX_DEPTH 256
#define MAX_PROCS 256

/* harness.c: the one-line error of the last failed check; the monotonic clock (ns); a struct timeval in ns; size
 * bytes starting on a page boundary, or NULL (see harness_buffer). */
extern char harness_message[3 * PATH_MAX];
int64_t harness_now_ns(void);
int64_t harness_timeval_ns(struct timeval t);
void *harness_page_aligned(size_t size);

/* workers.c: what the current run's threads or processes did, for its record (see workers.c), and a new run's start. */
extern int64_t workers_own_ns[MAX_THREADS > MAX_PROCS ? MAX_THREADS : MAX_PROCS];
extern int64_t workers_timed;
extern int64_t workers_span_ns;
extern int64_t workers_user_ns;
extern int64_t workers_sys_ns;
extern int64_t workers_platform_threads;
extern int64_t workers_tasks;
extern int64_t workers_io_workers;
void workers_reset(void);

/* job.c: where an MPI job's processes ran, as the run record's fields (at process 0), gathered once before the runs. */
#define HOST_WORDS 8 /* 64 bytes: the longest host name Linux keeps (HOST_NAME_MAX) */
#define JOB_FIELDS_SIZE (MAX_PROCS * (HOST_WORDS * 8 + 3 + 48) + 200) /* 48: a host's two numbers */
extern char job_fields[JOB_FIELDS_SIZE];
void job_gather(void);

/* flags.c */
const char *flags_human(int64_t bytes, char *out, size_t cap);

/* space.c: the run's checks of memory and scratch space, and the files it makes and removes on every way out. */
/* A file this run makes, removed on every way out (path empty: none, or --keep), and its identity once
 * this process made it (claim), so a file someone else put at the path since is never the one removed. */
#define SOURCE_SUFFIX ".source"
struct made {
    char path[PATH_MAX + sizeof SOURCE_SUFFIX]; /* room for a copy's source: --file plus SOURCE_SUFFIX */
    dev_t dev;
    ino_t ino;
    int known;
};
extern struct made space_created;     /* the run's file */
extern struct made space_copy_source; /* a copy's source (file_copy, lab 10), where the snippet makes one */
extern char space_sigbus_message[3 * PATH_MAX];
const char *space_default_scratch(void);
const char *space_check_memory(const struct options *o);
const char *space_check_scratch(const struct options *o);
int space_claim(const char *path, struct made *made);
void space_remove_made(void);
void space_on_signal(int sig);
void space_on_sigbus(int sig);

/* output.c: one run record, and one line on a failure. */
void output_emit(const struct options *o, int64_t run, int64_t elapsed_ns, int64_t user_ns, int64_t sys_ns, double resident, uint64_t checksum);
void output_fail_once(const struct options *o, const char *why, int status);
void output_fail(const char *snippet, const char *text, int status);

#endif
