/*
 * Single-thread encode throughput of ISA-L's Reed-Solomon (ec_encode_data) with the Cauchy generator
 * (gf_gen_cauchy1_matrix): the parity of m data shards of ceil(size/m) bytes, as ErasureBenchmark measures this
 * codec's encode. Prints the median and the spread of the rounds, in data bytes (size) per second.
 *
 *   gcc -O2 -o /tmp/isal_encode benchmarks/isal/isal_encode.c -lisal
 *   /tmp/isal_encode 6 3 16777216 15          # parity of shards already split, as ISA-L is used
 *   /tmp/isal_encode 6 3 16777216 15 copy     # also copies the data from one buffer into the m shards first,
 *                                             # the work IdaCodec.encodePayloads does
 *   /tmp/isal_encode 6 3 16777216 15 cpu      # time by the thread's CPU clock, not the wall clock (a shared
 *                                             # machine: what other processes take is not counted)
 *
 * It also prints the first bytes of each parity shard for a fixed data pattern, which the Java codec's
 * systematic(m, k) reproduces (ErasureBenchmark's setup and the erasure module's tests check it against Hadoop's
 * coder, which follows ISA-L's construction).
 */
#include <isa-l/erasure_code.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static clockid_t clock_used = CLOCK_MONOTONIC;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(clock_used, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void encode(int copy, const unsigned char *source, int len, int m, int k, unsigned char *tables,
                   unsigned char **shards) {
    if (copy) {
        for (int i = 0; i < m; i++) {
            memcpy(shards[i], source + (size_t) i * len, len);
        }
    }
    ec_encode_data(len, m, k, tables, shards, shards + m);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s m k size rounds [copy] [cpu]\n", argv[0]);
        return 2;
    }
    int copy = 0;
    for (int a = 5; a < argc; a++) {
        if (strcmp(argv[a], "copy") == 0) {
            copy = 1;
        } else if (strcmp(argv[a], "cpu") == 0) {
            clock_used = CLOCK_THREAD_CPUTIME_ID;
        } else {
            fprintf(stderr, "unknown option %s\n", argv[a]);
            return 2;
        }
    }
    int m = atoi(argv[1]), k = atoi(argv[2]);
    long size = atol(argv[3]);
    int rounds = atoi(argv[4]);
    if (m < 1 || k < 1 || m + k > 255 || size < 1 || rounds < 1) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    int n = m + k;
    int len = (int) ((size + m - 1) / m);
    unsigned char *matrix = malloc((size_t) n * m);
    unsigned char *tables = malloc((size_t) 32 * m * k);
    unsigned char *shards[255];
    for (int i = 0; i < n; i++) {
        if (posix_memalign((void **) &shards[i], 64, len) != 0) {
            return 1;
        }
        memset(shards[i], 0, len);
    }
    unsigned long long state = 42;
    for (int i = 0; i < m; i++) {
        for (int b = 0; b < len; b++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            shards[i][b] = (unsigned char) (state >> 56);
        }
    }
    unsigned char *source = malloc((size_t) len * m);
    for (int i = 0; i < m; i++) {
        memcpy(source + (size_t) i * len, shards[i], len);
    }
    gf_gen_cauchy1_matrix(matrix, n, m);
    ec_init_tables(m, k, matrix + m * m, tables);

    /* Repeat each round until it lasts at least 0.2 s. */
    int reps = 1;
    for (;;) {
        double t0 = now_seconds();
        for (int r = 0; r < reps; r++) {
            encode(copy, source, len, m, k, tables, shards);
        }
        if (now_seconds() - t0 >= 0.2) {
            break;
        }
        reps *= 2;
    }
    double *rates = malloc(sizeof(double) * rounds);
    for (int round = 0; round < rounds; round++) {
        double t0 = now_seconds();
        for (int r = 0; r < reps; r++) {
            encode(copy, source, len, m, k, tables, shards);
        }
        double seconds = (now_seconds() - t0) / reps;
        rates[round] = size / seconds / 1e9;
    }
    qsort(rates, rounds, sizeof(double), by_value);
    printf("isal ec_encode_data%s%s m=%d k=%d size=%ld: median %.2f GB/s (min %.2f, max %.2f) over %d rounds of %d\n",
           copy ? " with copy" : "", clock_used == CLOCK_MONOTONIC ? "" : " (CPU time)", m, k, size, rates[rounds / 2], rates[0], rates[rounds - 1], rounds, reps);
    for (int p = 0; p < k; p++) {
        printf("parity %d:", p);
        for (int b = 0; b < 8; b++) {
            printf(" %02x", shards[m + p][b]);
        }
        printf("\n");
    }
    return 0;
}
