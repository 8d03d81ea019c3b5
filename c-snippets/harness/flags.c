/* The protocol's flags, in one table, and the checks on their values that every snippet shares. Twin:
 * java-snippets/harness/Flags.java, whose FLAGS is the same table row for row. See harness.c for the rooms. */
#define _GNU_SOURCE
#include "rooms.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char default_file[PATH_MAX];

static const char *one_of(const char *flag, const char *value, const char *const *allowed, const char **out);
static const char *count(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out);


static int contains(const char *const *list, const char *value) {
    for (; *list; list++)
        if (strcmp(*list, value) == 0) return 1;
    return 0;
}

/* Appends to the error message, never past its end however long the arguments are. */
static size_t append(size_t n, const char *format, const char *text) {
    if (n >= sizeof harness_message) return n;
    int added = snprintf(harness_message + n, sizeof harness_message - n, format, text);
    return added < 0 ? n : n + (size_t)added;
}

/* Whether s is UTF-8 as Java decodes it (no overlong forms, no surrogates, nothing past U+10FFFF). */
static int valid_utf8(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int more = *p < 0x80 ? 0 : *p >= 0xC2 && *p <= 0xDF ? 1 : *p >= 0xE0 && *p <= 0xEF ? 2 : *p >= 0xF0 && *p <= 0xF4 ? 3 : -1;
        if (more < 0) return 0;
        unsigned char low = *p == 0xE0 ? 0xA0 : *p == 0xF0 ? 0x90 : 0x80, high = *p == 0xED ? 0x9F : *p == 0xF4 ? 0x8F : 0xBF;
        for (int i = 1; i <= more; i++) {
            if (p[i] < (i == 1 ? low : 0x80) || p[i] > (i == 1 ? high : 0xBF)) return 0;
        }
        p += more + 1;
    }
    return 1;
}

/* Every flag of the protocol, in one table: its kind, its default as one would type it (NULL: none), the
 * range of a size or a count, the values a choice allows (NULL for --strategy: the snippet's own), the
 * snippets that take it (NULL: every snippet; any other refuses it by name) and where its value goes.
 * Java's Flags.FLAGS is the same table, row for row (tests/test_mirror.py). */
enum flag_kind { CHOICE, SIZE, COUNT, PATH, SWITCH };
struct flag {
    const char *name;
    enum flag_kind kind;
    const char *fallback;
    int64_t min, max;
    const char *const *allowed;
    const char *const *used_by;
    size_t at;
};
#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})
static const struct flag flags[] = {
    {"--strategy", CHOICE, NULL, 0, 0, NULL, NULL, offsetof(struct options, strategy)},
    {"--op", CHOICE, "read", 0, 0, LIST("read", "write"), NULL, offsetof(struct options, op)},
    {"--pattern", CHOICE, "seq", 0, 0, LIST("seq", "rand"), NULL, offsetof(struct options, pattern)},
    {"--cache", CHOICE, "warm", 0, 0, LIST("warm", "cold"), NULL, offsetof(struct options, cache)},
    {"--file-size", SIZE, "1m", 1, MAX_FILE_SIZE, NULL, NULL, offsetof(struct options, file_size)},
    {"--op-size", SIZE, "1", 1, MAX_OP_SIZE, NULL, NULL, offsetof(struct options, op_size)},
    {"--repeat", COUNT, "3", 1, 1000, NULL, NULL, offsetof(struct options, repeat)},
    {"--warmup", COUNT, "1", 0, 100, NULL, NULL, offsetof(struct options, warmup)},
    {"--seed", COUNT, "42", 0, INT64_MAX, NULL, NULL, offsetof(struct options, seed)},
    {"--file", PATH, NULL, 0, 0, NULL, NULL, offsetof(struct options, file)},
    {"--keep", SWITCH, NULL, 0, 0, NULL, NULL, offsetof(struct options, keep)},
    {"--buffer-size", SIZE, NULL, 1, MAX_BUFFER_SIZE, NULL, LIST("buffering", "jni_ops", "text_lines", "typed_arrays"),
     offsetof(struct options, buffer_size)},
    {"--text", CHOICE, "lf", 0, 0, LIST("lf", "crlf", "cr", "mixed", "utf8"), LIST("text_lines"), offsetof(struct options, text)},
    {"--type", CHOICE, "int", 0, 0, LIST("int", "double"), LIST("typed_arrays", "typed_ffm"), offsetof(struct options, type)},
    {"--threads", COUNT, "1", 1, MAX_THREADS, NULL, LIST("shared_file", "small_reads"), offsetof(struct options, threads)},
    {"--depth", COUNT, "1", 1, MAX_DEPTH, NULL, LIST("small_reads"), offsetof(struct options, depth)},
    {"--procs", COUNT, "1", 1, MAX_PROCS, NULL, LIST("mpi_file"), offsetof(struct options, procs)},
    {"--lock", CHOICE, "none", 0, 0, LIST("none", "region"), LIST("shared_file", "mpi_file"), offsetof(struct options, lock)},
};
#define FLAGS (sizeof flags / sizeof flags[0])

static int taken_by(const struct flag *f, const char *snippet) {
    return !f->used_by || contains(f->used_by, snippet);
}

/* Puts a flag's value where it goes, or says why it cannot (Java's take returns it). */
static const char *take(const struct flag *f, const char *value, const char *const *strategies, struct options *o) {
    void *at = (char *)o + f->at;
    switch (f->kind) {
        case CHOICE: return one_of(f->name, value, f->allowed ? f->allowed : strategies, (const char **)at);
        case SIZE: return flags_parse_size(f->name, value, f->min, f->max, (int64_t *)at);
        case COUNT: return count(f->name, value, f->min, f->max, (int64_t *)at);
        case PATH: *(const char **)at = value; return NULL;
        case SWITCH: *(int *)at = 1; return NULL;
    }
    return NULL;
}

const char *flags_parse(const char *snippet, const char *const *strategies, int argc, char **argv, struct options *o) {
    static char name[PATH_MAX]; /* the flag half of a --flag=value; the value stays in argv */
    *o = (struct options){.snippet = snippet, .strategy = strategies[0]}; /* a flag the snippet does not take stays 0 or NULL */
    for (size_t k = 0; k < FLAGS; k++) {
        if (taken_by(&flags[k], snippet) && flags[k].fallback) take(&flags[k], flags[k].fallback, strategies, o);
    }
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i], *value = NULL;
        const char *eq = strchr(flag, '=');
        if (strncmp(flag, "--", 2) == 0 && eq && (size_t)(eq - flag) < sizeof name) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - flag), flag);
            flag = name;
            value = eq + 1;
        }
        if (strncmp(flag, "--", 2) != 0) {
            snprintf(harness_message, sizeof harness_message, "unexpected argument '%s' (flags start with --)", flag);
            return harness_message;
        }
        const struct flag *f = NULL;
        for (size_t k = 0; k < FLAGS && !f; k++) {
            if (strcmp(flags[k].name, flag) == 0) f = &flags[k];
        }
        if (!f) {
            size_t n = append(0, "unknown flag %s (allowed:", flag);
            for (size_t k = 0; k < FLAGS; k++) {
                if (taken_by(&flags[k], snippet)) n = append(n, " %s", flags[k].name);
            }
            append(n, "%s", ")");
            return harness_message;
        }
        if (!taken_by(f, snippet)) {
            snprintf(harness_message, sizeof harness_message, "%s is not used by %s", flag, snippet);
            return harness_message;
        }
        if (f->kind == SWITCH && value) {
            snprintf(harness_message, sizeof harness_message, "%s takes no value", flag);
            return harness_message;
        }
        if (f->kind != SWITCH && !value && i + 1 >= argc) {
            snprintf(harness_message, sizeof harness_message, "%s needs a value", flag);
            return harness_message;
        }
        if (f->kind != SWITCH && !value) value = argv[++i];
        const char *error = take(f, value, strategies, o);
        if (error) return error;
    }
    if (o->op_size > o->file_size) {
        snprintf(harness_message, sizeof harness_message, "--op-size %" PRId64 " is larger than --file-size %" PRId64
                 " (an operation must fit in the file)", o->op_size, o->file_size);
        return harness_message;
    }
    int64_t blocks = (o->file_size + o->op_size - 1) / o->op_size;
    if (harness_workers(o) > blocks) { /* a snippet runs threads or processes, never both */
        char size[32];
        snprintf(harness_message, sizeof harness_message, "%s %" PRId64 " is more than the file's %" PRId64 " blocks of --op-size %s"
                 " (each %s needs at least one block of its own)", o->procs > 0 ? "--procs" : "--threads", harness_workers(o),
                 blocks, flags_human(o->op_size, size, sizeof size), o->procs > 0 ? "process" : "thread");
        return harness_message;
    }
    if (o->procs > 0 && o->procs != workers_team->size()) {
        snprintf(harness_message, sizeof harness_message, "--procs %" PRId64 ", but mpirun started %" PRId64 " process%s (start it with mpirun -np %" PRId64 ")",
                 o->procs, workers_team->size(), workers_team->size() == 1 ? "" : "es", o->procs);
        return harness_message;
    }
    if (!o->file) {
        /* one name for the whole team: process 0's id, known to all (each process's own would give each its own file) */
        int64_t owner = workers_team->sum(workers_team->rank() == 0 ? (int64_t)getpid() : 0);
        snprintf(default_file, sizeof default_file, "%s/%s-%" PRId64 ".dat", space_default_scratch(), snippet, owner);
        o->file = default_file;
    }
    if (strlen(o->file) >= PATH_MAX) { /* refused whole: a path cut short could name another file */
        snprintf(harness_message, sizeof harness_message, "--file: a path of %zu bytes is too long (at most %d)", strlen(o->file), PATH_MAX - 1);
        return harness_message;
    }
    if (!valid_utf8(o->file)) {
        snprintf(harness_message, sizeof harness_message, "--file %s is not valid UTF-8 (both languages take UTF-8 file names: Java can open no other)", o->file);
        return harness_message;
    }
    return NULL;
}

const char *flags_check_operation_fits_buffer(const struct options *o) {
    if (o->buffer_size > 0 && o->op_size > o->buffer_size) {
        snprintf(harness_message, sizeof harness_message, "--op-size %" PRId64 " is larger than --buffer-size %" PRId64
                 " (an operation must fit in the buffer)", o->op_size, o->buffer_size);
        return harness_message;
    }
    if (o->buffer_size > 0 && o->buffer_size % o->op_size != 0) {
        snprintf(harness_message, sizeof harness_message, "--buffer-size %" PRId64 " is not a multiple of --op-size %" PRId64
                 " (an operation must never straddle two buffer fills)", o->buffer_size, o->op_size);
        return harness_message;
    }
    return NULL;
}

const char *flags_check_int_shares(const struct options *o, int maps) {
    int processes = o->procs > 0;
    if (o->op_size % 4 != 0 || o->file_size % 4 != 0) {
        snprintf(harness_message, sizeof harness_message, "--op-size %" PRId64 " and --file-size %" PRId64 " must be multiples of 4 (whole ints)",
                 o->op_size, o->file_size);
        return harness_message;
    }
    if (strcmp(o->pattern, "rand") == 0) {
        snprintf(harness_message, sizeof harness_message, "--pattern rand: each %s moves its share in order (allowed: seq)", processes ? "process" : "thread");
        return harness_message;
    }
    int64_t mappable = space_available_memory() / 2;
    if (maps && o->file_size > mappable) {
        snprintf(harness_message, sizeof harness_message, "--file-size %" PRId64 ": too large to map here (at most %" PRId64 "m, half of the memory"
                 " free now; use a smaller file or a strategy that does not map)", o->file_size, mappable >> 20);
        return harness_message;
    }
    int64_t blocks = (o->file_size + o->op_size - 1) / o->op_size;
    int64_t held = processes ? (blocks + o->procs - 1) / o->procs * o->op_size : o->file_size;
    if (held > space_memory_limit()) {
        snprintf(harness_message, sizeof harness_message, "--file-size %" PRId64 ": %s would not fit (at most %" PRId64 "m, half of a quarter of"
                 " RAM or of ulimit -v)", o->file_size, processes ? "a process's share of the array" : "the shared array",
                 space_memory_limit() >> 20);
        return harness_message;
    }
    return NULL;
}


static const char *one_of(const char *flag, const char *value, const char *const *allowed, const char **out) {
    if (contains(allowed, value)) {
        *out = value;
        return NULL;
    }
    size_t n = append(append(0, "%s ", flag), "%s: must be one of ", value);
    for (const char *const *a = allowed; *a; a++) n = append(n, a == allowed ? "%s" : ", %s", *a);
    return harness_message;
}

/* A size in bytes: digits with an optional k, m or g suffix (powers of 1024). */
const char *flags_parse_size(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out) {
    size_t len = strlen(value), digits = len;
    int shift = 0;
    if (len > 0) {
        switch (value[len - 1]) {
            case 'k': case 'K': shift = 10; break;
            case 'm': case 'M': shift = 20; break;
            case 'g': case 'G': shift = 30; break;
        }
    }
    if (shift) digits--;
    int ok = digits >= 1 && digits <= 12;
    for (size_t i = 0; ok && i < digits; i++) ok = value[i] >= '0' && value[i] <= '9';
    if (!ok) {
        snprintf(harness_message, sizeof harness_message, "%s %s: not a size (use a whole number with an optional k, m or g "
                 "suffix, e.g. 4k, 16m, 1g)", flag, value);
        return harness_message;
    }
    int64_t number = strtoll(value, NULL, 10);
    int64_t bytes = number > (INT64_MAX >> shift) ? INT64_MAX : number << shift;
    if (bytes < min || bytes > max) {
        char lo[32], hi[32];
        snprintf(harness_message, sizeof harness_message, "%s %s: must be between %s and %s", flag, value,
                 flags_human(min, lo, sizeof lo), flags_human(max, hi, sizeof hi));
        return harness_message;
    }
    *out = bytes;
    return NULL;
}

static const char *count(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out) {
    size_t len = strlen(value);
    int ok = len >= 1 && len <= 19 && !(len == 19 && strcmp(value, "9223372036854775807") > 0);
    for (size_t i = 0; ok && i < len; i++) ok = value[i] >= '0' && value[i] <= '9';
    if (ok) *out = strtoll(value, NULL, 10);
    if (!ok || *out < min || *out > max) {
        snprintf(harness_message, sizeof harness_message, "%s %s: must be a whole number between %" PRId64 " and %" PRId64,
                 flag, value, min, max);
        return harness_message;
    }
    return NULL;
}

const char *flags_human(int64_t bytes, char *out, size_t cap) {
    if (bytes >= (INT64_C(1) << 30) && bytes % (INT64_C(1) << 30) == 0) snprintf(out, cap, "%" PRId64 "g", bytes >> 30);
    else if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) snprintf(out, cap, "%" PRId64 "m", bytes >> 20);
    else if (bytes >= (1 << 10) && bytes % (1 << 10) == 0) snprintf(out, cap, "%" PRId64 "k", bytes >> 10);
    else snprintf(out, cap, "%" PRId64, bytes);
    return out;
}

