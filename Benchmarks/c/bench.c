/* make bench, C section: round trips through the C ABI, side by side in one run.
 * Each measurement runs ROUNDS rounds and reports the median; the machine is shared
 * and noisy, so medians and ratios are the figures to read, not single runs. */
#define _POSIX_C_SOURCE 200809L
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 9

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

static void fail(const char *what, int rc) {
    fprintf(stderr, "bench: %s failed: %s: %s\n", what, corelogic_status_name(rc), corelogic_last_error());
    exit(1);
}

/* (0) the floor: a no-op ABI call. */
static double noop_calls_per_second(int n) {
    volatile int sink = 0;
    double start = now();
    for (int i = 0; i < n; i++) sink += corelogic_abi_version();
    (void)sink;
    return n / (now() - start);
}

/* (a) counter round trip: send + batch JSON + corelogic_free. */
static double counter_round_trips_per_second(corelogic_system s, int n) {
    double start = now();
    for (int i = 0; i < n; i++) {
        char *batch = NULL;
        int rc = corelogic_system_send(s, "\"increment\"", &batch);
        if (rc != CORELOGIC_OK) fail("counter send", rc);
        corelogic_free(batch);
    }
    return n / (now() - start);
}

/* (b) search cycle: a query change, its load started, a 10-item page delivered
 * (which cancels the finished load), with every batch read and freed. */
static const char *page =
    "{\"pageLoaded\":{\"items\":["
    "{\"id\":1,\"name\":\"apple/swift\",\"stars\":67000},{\"id\":2,\"name\":\"vapor/vapor\",\"stars\":24000},"
    "{\"id\":3,\"name\":\"Alamofire/Alamofire\",\"stars\":41000},{\"id\":4,\"name\":\"ReactiveX/RxSwift\",\"stars\":24300},"
    "{\"id\":5,\"name\":\"kickstarter/ios-oss\",\"stars\":8400},{\"id\":6,\"name\":\"pointfreeco/swift-composable-architecture\",\"stars\":12000},"
    "{\"id\":7,\"name\":\"apple/swift-nio\",\"stars\":7900},{\"id\":8,\"name\":\"realm/SwiftLint\",\"stars\":18500},"
    "{\"id\":9,\"name\":\"SwiftyJSON/SwiftyJSON\",\"stars\":22700},{\"id\":10,\"name\":\"onevcat/Kingfisher\",\"stars\":23000}],"
    "\"nextURL\":\"https://api.example.com/search/repositories?q=swift&page=2\"}}";

static double search_cycles_per_second(corelogic_system s, int n) {
    char query[64];
    double start = now();
    for (int i = 0; i < n; i++) {
        char *batch = NULL;
        snprintf(query, sizeof query, "{\"queryChanged\":{\"text\":\"swift %d\"}}", i & 1);
        int rc = corelogic_system_send(s, query, &batch);
        if (rc != CORELOGIC_OK) fail("search send", rc);
        const char *id = strstr(batch, "{\"start\":{\"id\":");
        if (id == NULL) fail("search start", -100);
        unsigned long long effect = strtoull(id + 15, NULL, 10);
        corelogic_free(batch);
        rc = corelogic_system_deliver(s, effect, page, &batch);
        if (rc != CORELOGIC_OK) fail("search deliver", rc);
        corelogic_free(batch);
    }
    return n / (now() - start);
}

int main(int argc, char **argv) {
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    int noop_n = (int)(5000000 * scale), counter_n = (int)(300000 * scale), search_n = (int)(30000 * scale);
    double noop[ROUNDS], counter[ROUNDS], search[ROUNDS];
    corelogic_system c = 0, s = 0;
    int rc = corelogic_system_new("counter", NULL, &c, NULL);
    if (rc != CORELOGIC_OK) fail("counter new", rc);
    rc = corelogic_system_new("search", NULL, &s, NULL);
    if (rc != CORELOGIC_OK) fail("search new", rc);

    /* Interleave the rounds so each measurement sees the same machine conditions. */
    for (int r = 0; r < ROUNDS; r++) {
        noop[r] = noop_calls_per_second(noop_n);
        counter[r] = counter_round_trips_per_second(c, counter_n);
        search[r] = search_cycles_per_second(s, search_n);
    }
    double noop_m = median(noop, ROUNDS), counter_m = median(counter, ROUNDS), search_m = median(search, ROUNDS);

    printf("%-44s %14s %12s %10s\n", "measurement (median of 9 rounds)", "per second", "ns each", "vs target");
    printf("%-44s %14.0f %12.1f %10s\n", "no-op ABI call (corelogic_abi_version)", noop_m, 1e9 / noop_m, "-");
    printf("%-44s %14.0f %12.1f %9.2fx\n", "counter round trip (send+batch+free)", counter_m, 1e9 / counter_m, counter_m / 1e6);
    printf("%-44s %14.0f %12.1f %9.2fx\n", "search cycle (query, start, 10-item page)", search_m, 1e9 / search_m, search_m / 1e5);
    printf("targets: counter >= 1,000,000/s, search cycle >= 100,000/s (vs target = measured / target)\n");
    printf("counter round trip costs %.1f no-op ABI calls\n", noop_m / counter_m);
    corelogic_system_free(c);
    corelogic_system_free(s);
    return 0;
}
