/* evict FILE...: drops each file from the page cache (fsync, then posix_fadvise DONTNEED), without
 * root, and prints the percentage of its pages still resident afterwards (mincore), one line per file.
 * Both languages' cold-cache runs go through this one helper: the C harness calls space_evict() and
 * space_resident_pct() directly, the Java harness runs this program (COURSE_EVICT) and reads its answer. */
#include "harness/harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "evict: usage: evict FILE...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        double resident;
        if (space_evict(argv[i]) != 0 || (resident = space_resident_pct(argv[i])) < 0) {
            fprintf(stderr, "evict: %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        printf("%.1f\n", resident);
    }
    return 0;
}
