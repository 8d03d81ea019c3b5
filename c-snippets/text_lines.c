/* text_lines: reading a text file line by line (Lord & Reddy, Sun white paper).
 * The harness writes a text file (--text: lf, crlf, cr, mixed endings, or utf8 with non-ASCII
 * characters); each strategy reads it, counts its lines and sums their characters as Java counts
 * them (UTF-16 code units, endings excluded). A line ends at \n, \r\n or \r, and a last line
 * without an ending counts.
 *   fgets    stdio's fgets into an 8 KB array (a chunk ends at \n or when the array is full)
 *   getline  POSIX getline, which grows its line buffer as needed
 * Both split only at \n, so `consume` finds \r and \r\n endings itself, byte by byte, and decodes
 * UTF-8 as it goes (what Java's readers do for it), adding each character up as it is decoded: its use
 * of it, and, at one add per character inside a loop that visits each byte anyway, nearly free. So the
 * sum a run returns is already the checksum Java's check run computes. --buffer-size sets stdio's buffer (setvbuf). Twin: java-snippets/TextLines.java.
 *
 * What you will see: C's line readers run near the speed of the disk cache; decoding and counting
 * cost about as much as the reading. */
#define _GNU_SOURCE
#include "harness/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *check(const struct options *o) {
    if (strcmp(o->op, "read") != 0) return "--op write: text_lines only reads (allowed: read)";
    if (strcmp(o->pattern, "seq") != 0) return "--pattern rand: lines are read in order (allowed: seq)";
    return NULL;
}

/* What every strategy reports, and the state that carries across chunks. */
struct lines {
    int64_t count;
    uint64_t sum;
    int in_line, after_cr, pending; /* pending: continuation bytes still due for the character in cp */
    uint32_t cp;
};

static void add_character(struct lines *l, uint32_t cp) {
    /* as Java's String holds it: one UTF-16 unit, or a surrogate pair above U+FFFF */
    l->sum += cp < 0x10000 ? cp : (0xD800 + ((cp - 0x10000) >> 10)) + (0xDC00 + ((cp - 0x10000) & 0x3FF));
    l->in_line = 1;
}

/* Counts line endings and sums characters in a chunk; chunks may split lines and characters anywhere. */
static void consume(struct lines *l, const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (l->pending) {
            l->cp = l->cp << 6 | (c & 0x3F);
            if (--l->pending == 0) add_character(l, l->cp);
            continue;
        }
        if (c == '\n' && l->after_cr) { /* the \n of a \r\n: that line was counted at the \r */
            l->after_cr = 0;
            continue;
        }
        l->after_cr = c == '\r';
        if (c == '\n' || c == '\r') {
            l->count++;
            l->in_line = 0;
        } else if (c < 0x80) {
            add_character(l, c);
        } else { /* the first byte of a 2, 3 or 4 byte character */
            l->pending = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
            l->cp = c & (c >= 0xF0 ? 0x07 : c >= 0xE0 ? 0x0F : 0x1F);
        }
    }
}

static FILE *open_text(const struct options *o) {
    FILE *in = fopen(o->file, "rb");
    if (!in) harness_io_fail(o);
    if (o->buffer_size > 0 && setvbuf(in, NULL, _IOFBF, (size_t)o->buffer_size) != 0) harness_io_fail(o);
    return in;
}

/* What every strategy returns: the line count for the record (a last line without an ending counts), and the sum. */
static uint64_t lines_done(struct lines *l) {
    if (l->in_line) l->count++;
    harness_operations_done = l->count;
    return l->sum;
}

static uint64_t read_fgets(const struct options *o) {
    static char chunk[8192];
    struct lines l = {0};
    FILE *in = open_text(o);
    while (fgets(chunk, sizeof chunk, in)) consume(&l, (unsigned char *)chunk, strlen(chunk));
    if (ferror(in)) harness_io_fail(o);
    fclose(in);
    return lines_done(&l);
}

static uint64_t read_getline(const struct options *o) {
    char *line = NULL;
    size_t capacity = 0;
    struct lines l = {0};
    FILE *in = open_text(o);
    for (ssize_t n; (n = getline(&line, &capacity, in)) != -1;) consume(&l, (unsigned char *)line, (size_t)n);
    if (ferror(in)) harness_io_fail(o);
    free(line);
    fclose(in);
    return lines_done(&l);
}

static const struct way ways[] = {
    {"fgets", "read", "seq", {.whole = read_fgets}},
    {"getline", "read", "seq", {.whole = read_getline}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("text_lines", ways, argc, argv, check, NULL, NULL);
}
