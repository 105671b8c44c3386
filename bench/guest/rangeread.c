/* SPDX-License-Identifier: GPL-2.0-or-later
 * bench/guest/rangeread.c - the floor of the seek benchmark (issue 43 item 1):
 * read a fixed list of byte ranges from each of several devices, every device
 * at once (a thread each), and nothing else. The list is what one storprov
 * inspection's read requests were, as the disk saw them (bench/guest/seek.sh
 * takes it from the block_rq_issue trace of a dry run), so the time this takes
 * is what reading those sectors costs, without storprov's own work.
 *
 * Usage: rangeread RANGES DEV...
 *   RANGES: one "OFFSET LENGTH" a line, in bytes.
 * Each device is read as storprov's inspection reads a disk: POSIX_FADV_RANDOM,
 * then POSIX_FADV_WILLNEED on every range (all in flight at once), then a
 * buffered pread of each range in order.
 * Prints "read_ms=MS ranges=N devices=D": from before the first open to after
 * the last read. Exits 1 when a read fails or comes up short.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct range {
        uint64_t off, len;
};

static struct range *ranges;
static size_t n_ranges;

struct job {
        const char *dev;
        int failed;
        pthread_t t;
};

static void *read_device(void *arg)
{
        struct job *j = arg;
        int fd = open(j->dev, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
                fprintf(stderr, "rangeread: %s: %s\n", j->dev, strerror(errno));
                j->failed = 1;
                return NULL;
        }
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
        for (size_t i = 0; i < n_ranges; i++)
                (void)posix_fadvise(fd, (off_t)ranges[i].off, (off_t)ranges[i].len, POSIX_FADV_WILLNEED);
        for (size_t i = 0; i < n_ranges && !j->failed; i++) {
                char *buf = malloc(ranges[i].len);
                size_t done = 0;
                while (buf && done < ranges[i].len) {
                        ssize_t k = pread(fd, buf + done, ranges[i].len - done, (off_t)(ranges[i].off + done));
                        if (k < 0 && errno == EINTR)
                                continue;
                        if (k <= 0)
                                break;
                        done += (size_t)k;
                }
                if (done < ranges[i].len) {
                        fprintf(stderr, "rangeread: %s: %" PRIu64 " bytes at %" PRIu64 ": %s\n", j->dev, ranges[i].len,
                                ranges[i].off, buf ? "short read" : "out of memory");
                        j->failed = 1;
                }
                free(buf);
        }
        close(fd);
        return NULL;
}

int main(int argc, char **argv)
{
        if (argc < 3) {
                fprintf(stderr, "usage: rangeread RANGES DEV...\n");
                return 2;
        }
        FILE *f = fopen(argv[1], "r");
        if (!f) {
                fprintf(stderr, "rangeread: %s: %s\n", argv[1], strerror(errno));
                return 2;
        }
        uint64_t off, len;
        int k;
        while ((k = fscanf(f, "%" SCNu64 " %" SCNu64, &off, &len)) == 2) {
                struct range *v = realloc(ranges, (n_ranges + 1) * sizeof(*v));
                if (!v || !len)
                        return fprintf(stderr, "rangeread: %s: %s\n", argv[1], v ? "a range of 0 bytes" : "out of memory"), 2;
                ranges = v;
                ranges[n_ranges++] = (struct range){off, len};
        }
        if (k != EOF || !n_ranges) {
                fprintf(stderr, "rangeread: %s: not \"OFFSET LENGTH\" lines\n", argv[1]);
                return 2;
        }
        fclose(f);
        size_t n = (size_t)argc - 2;
        struct job *jobs = calloc(n, sizeof(*jobs));
        if (!jobs)
                return 2;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (size_t i = 0; i < n; i++) {
                jobs[i].dev = argv[2 + i];
                if (pthread_create(&jobs[i].t, NULL, read_device, &jobs[i]) != 0) {
                        fprintf(stderr, "rangeread: cannot start a thread\n");
                        return 2;
                }
        }
        int failed = 0;
        for (size_t i = 0; i < n; i++) {
                pthread_join(jobs[i].t, NULL);
                failed |= jobs[i].failed;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("read_ms=%.0f ranges=%zu devices=%zu\n",
               (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6, n_ranges, n);
        free(jobs);
        free(ranges);
        return failed;
}
