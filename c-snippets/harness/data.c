/* The course's deterministic data: the bytes every file holds, the text for --text and the random offsets, the same in
 * both languages bit for bit. Twin: java-snippets/harness/Data.java. See harness.c for the rooms. */
#define _GNU_SOURCE
#include "rooms.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define PERIOD (1 << 16)
static unsigned char table[PERIOD];
static int table_ready;

static void fill_table(void) {
    for (uint64_t j = 0; j < PERIOD; j++) table[j] = (unsigned char)((j * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    table_ready = 1;
}

unsigned data_at(int64_t pos) {
    if (!table_ready) fill_table();
    return table[pos & (PERIOD - 1)];
}

static unsigned char *source;

void data_prepare_source(int64_t longest) {
    free(source);
    source = harness_page_aligned((size_t)(PERIOD + longest));
    if (!source) {
        fprintf(stderr, "harness: no memory for %" PRId64 " bytes of data to write\n", PERIOD + longest);
        exit(1);
    }
    data_fill(source, (size_t)(PERIOD + longest), 0);
}

const unsigned char *data_source(int64_t pos) {
    return source + (pos & (PERIOD - 1));
}

/* Fills buf[0, len) with the bytes that belong at file offset pos. */
void data_fill(unsigned char *buf, size_t len, int64_t pos) {
    if (!table_ready) fill_table();
    for (size_t done = 0; done < len;) {
        size_t from = (size_t)((pos + (int64_t)done) & (PERIOD - 1));
        size_t n = len - done < PERIOD - from ? len - done : PERIOD - from;
        memcpy(buf + done, table + from, n);
        done += n;
    }
}

/* The checksum both languages compute: the sum of the bytes moved, as unsigned values. */
uint64_t data_sum(const unsigned char *buf, size_t len) {
    uint64_t s = 0;
    for (size_t i = 0; i < len; i++) s += buf[i];
    return s;
}

int32_t data_int_at(int64_t i) {
    return (int32_t)(((uint64_t)i * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

int32_t *data_ints(int64_t from, int64_t to) {
    int32_t *ints = harness_page_aligned((size_t)(to - from));
    for (int64_t i = 0; ints && i < (to - from) / 4; i++) ints[i] = data_int_at(from / 4 + i);
    return ints;
}

int data_sum_file(const char *path, uint64_t *sum) {
    static unsigned char block[1 << 20];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    *sum = 0;
    for (ssize_t n; (n = read(fd, block, sizeof block)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        *sum += data_sum(block, (size_t)n);
    }
    return close(fd);
}

/* Writes a whole file of the pattern in large blocks; preparation for read runs, never timed. */
int data_write_file(const char *path, int64_t size) {
    static unsigned char block[1 << 20];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    for (int64_t pos = 0; pos < size; pos += (int64_t)sizeof block) {
        size_t n = size - pos < (int64_t)sizeof block ? (size_t)(size - pos) : sizeof block;
        data_fill(block, n, pos);
        for (size_t done = 0; done < n;) {
            ssize_t put = write(fd, block + done, n - done);
            if (put < 0) {
                int saved = errno;
                close(fd);
                errno = saved;
                return -1;
            }
            done += (size_t)put;
        }
    }
    return close(fd);
}

/* The deterministic text (Java: Text): lines of 0-120 printable ASCII characters with the kind's line
 * ending (mixed: \n, \r\n and \r in turn); utf8 adds é, 中 and 😀. Stops at exactly size bytes, never
 * inside a character. */
int text_write_file(const char *path, int64_t size, const char *kind, uint64_t seed) {
    static const char *const wide[] = {"\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"};
    static const char *const endings[] = {"\n", "\r\n", "\r"};
    FILE *out = fopen(path, "wb");
    if (!out) return -1;
    struct prng random = {seed};
    int utf8 = strcmp(kind, "utf8") == 0;
    int64_t written = 0;
    for (int64_t line = 0; written < size; line++) {
        uint64_t length = prng_below(&random, 121);
        for (uint64_t j = 0; j < length && written < size; j++) {
            int v = (int)prng_below(&random, 1000);
            size_t w = strlen(wide[v % 3]);
            if (utf8 && v < 100 && (int64_t)w <= size - written) {
                fwrite(wide[v % 3], 1, w, out);
                written += (int64_t)w;
            } else {
                fputc(32 + v % 95, out);
                written++;
            }
        }
        const char *ending = strcmp(kind, "crlf") == 0 ? endings[1] : strcmp(kind, "cr") == 0 ? endings[2]
                           : strcmp(kind, "mixed") == 0 ? endings[line % 3] : endings[0];
        size_t n = strlen(ending);
        if ((int64_t)n > size - written) n = (size_t)(size - written);
        fwrite(ending, 1, n, out);
        written += (int64_t)n;
    }
    int failed = ferror(out);
    if (fclose(out) != 0 || failed) return -1;
    return 0;
}

/* ---- random offsets ------------------------------------------------------------------------- */

uint64_t prng_next(struct prng *p) {
    uint64_t z = (p->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A uniform-enough slot in [0, n): the same unsigned remainder as Java's Long.remainderUnsigned. */
uint64_t prng_below(struct prng *p, uint64_t n) {
    return prng_next(p) % n;
}

