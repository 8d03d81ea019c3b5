/* What a run says: one JSON run record a measured run, and one line on a failure. Twin:
 * java-snippets/harness/Output.java. See harness.c for the rooms. */
#define _GNU_SOURCE
#include "rooms.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The compiler that built this program: the C side's "runtime" in the JSON line. */
#ifdef __clang__
#define COMPILER "clang " __clang_version__
#else
#define COMPILER "gcc " __VERSION__
#endif


/* One run record, the line data/results.schema.json defines (the kit checks every line against it).
 * resident: percent of the file in the page cache when a cold run's clock started; -1 (null) for warm runs and writes. */
void output_emit(const struct options *o, int64_t run, int64_t elapsed_ns, int64_t user_ns, int64_t sys_ns,
                 double resident, uint64_t checksum) {
    char resident_text[16] = "null", misses[24] = "null", text[160 + sizeof job_fields] = "", times[24 * (MAX_THREADS > MAX_PROCS ? MAX_THREADS : MAX_PROCS) + 160] = "";
    if (o->text) snprintf(text, sizeof text, "\"text\":\"%s\",", o->text);
    if (o->type) snprintf(text + strlen(text), sizeof text - strlen(text), "\"type\":\"%s\",", o->type);
    if (o->procs > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "\"procs\":%" PRId64 ",", o->procs);
    if (o->procs > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "%s", job_fields);
    const char *io = o->procs > 0 ? workers_team->io(o) : NULL;
    if (io) snprintf(text + strlen(text), sizeof text - strlen(text), "\"mpi_io\":\"%s\",", io);
    if (o->threads > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "\"threads\":%" PRId64 ",", o->threads);
    if (o->depth > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "\"depth\":%" PRId64 ",", o->depth);
    if (o->lock) snprintf(text + strlen(text), sizeof text - strlen(text), "\"lock\":\"%s\",", o->lock);
    if (resident >= 0) snprintf(resident_text, sizeof resident_text, "%.1f", resident);
    if (harness_misses >= 0) snprintf(misses, sizeof misses, "%" PRId64, harness_misses);
    if (workers_timed > 0) {
        size_t n = (size_t)snprintf(times, sizeof times, o->procs > 0 ? "\"proc_ns\":[" : "\"thread_ns\":[");
        for (int64_t t = 0; t < workers_timed; t++) n += (size_t)snprintf(times + n, sizeof times - n, t ? ",%" PRId64 : "%" PRId64, workers_own_ns[t]);
        n += (size_t)snprintf(times + n, sizeof times - n, "],\"span_ns\":%" PRId64 ",", workers_span_ns);
        if (workers_platform_threads >= 0) n += (size_t)snprintf(times + n, sizeof times - n, "\"platform_threads\":%" PRId64 ",", workers_platform_threads);
        if (workers_tasks >= 0) snprintf(times + n, sizeof times - n, "\"tasks\":%" PRId64 ",\"io_workers\":%" PRId64 ",", workers_tasks, workers_io_workers);
    }
    printf("{\"snippet\":\"%s\",\"language\":\"c\",\"runtime\":\"%s\",\"strategy\":\"%s\",\"op\":\"%s\","
           "\"pattern\":\"%s\",\"cache\":\"%s\",\"resident_pct\":%s,%s\"file_size\":%" PRId64 ",\"op_size\":%" PRId64 ",\"buffer_size\":%" PRId64 ","
           "\"run\":%" PRId64 ",\"bytes\":%" PRId64 ",\"ops\":%" PRId64 ",\"misses\":%s,\"elapsed_ns\":%" PRId64 ",\"user_ns\":%" PRId64 ",\"sys_ns\":%" PRId64 ",%s"
           "\"checksum\":%" PRIu64 ",\"seed\":%" PRId64 "}\n",
           o->snippet, COMPILER, o->strategy, o->op, o->pattern, o->cache, resident_text, text, o->file_size, o->op_size, o->buffer_size,
           run, harness_bytes(o), harness_operations_done >= 0 ? harness_operations_done : harness_operations(o), misses, elapsed_ns, user_ns, sys_ns, times, checksum, o->seed);
    fflush(stdout);
}

/* Several threads may fail at once (readers of a file cut short): only the first reports, removes the
 * file and exits. Two threads in exit() at once could end the process before the file is removed.
 * Status 1 is an I/O error on the file; HARNESS_UNSUPPORTED says why in the snippet's own words. */
void output_fail_once(const struct options *o, const char *why, int status) {
    static atomic_flag failing = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&failing)) for (;;) pause(); /* the first one's exit() ends this thread too */
    if (status == 1) snprintf(harness_message, sizeof harness_message, "I/O error on %s: %s", o->file, why);
    else snprintf(harness_message, sizeof harness_message, "%s", why);
    space_remove_made();
    output_fail(o->snippet, harness_message, status);
}

void output_fail(const char *snippet, const char *text, int status) {
    fprintf(stderr, "%s: %s\n", snippet, text);
    exit(status);
}
