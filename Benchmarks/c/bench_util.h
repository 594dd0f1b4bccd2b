/* What every C benchmark uses: a monotonic clock in seconds, medians, a failure that
 * names the call and the library's error, and the counter and search round trips the
 * benchmarks share. Define BENCH_NAME before including it (the program's name, printed
 * before a failure). */
#ifndef CORELOGIC_BENCH_UTIL_H
#define CORELOGIC_BENCH_UTIL_H
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../Tests/c/fs_util.h" /* remove_tree */

static __attribute__((unused)) double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static __attribute__((unused)) int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts `values` and returns the middle one. */
static __attribute__((unused)) double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

static __attribute__((unused)) void fail(const char *what, int rc) {
    fprintf(stderr, BENCH_NAME ": %s failed: %s: %s\n", what, corelogic_status_name(rc), corelogic_last_error());
    exit(1);
}

/* One counter round trip = send("increment") with its batch, then corelogic_free. */
static __attribute__((unused)) double counter_round_trips_per_second(corelogic_system s, int n) {
    double start = now();
    for (int i = 0; i < n; i++) {
        char *batch = NULL;
        int rc = corelogic_system_send(s, "\"increment\"", &batch);
        if (rc != CORELOGIC_OK) fail("counter send", rc);
        corelogic_free(batch);
    }
    return n / (now() - start);
}

/* The search feature's 10-item answer to a load, as a host would deliver it. */
static __attribute__((unused)) const char *ten_item_page =
    "{\"pageLoaded\":{\"items\":["
    "{\"id\":1,\"name\":\"apple/swift\",\"stars\":67000},{\"id\":2,\"name\":\"vapor/vapor\",\"stars\":24000},"
    "{\"id\":3,\"name\":\"Alamofire/Alamofire\",\"stars\":41000},{\"id\":4,\"name\":\"ReactiveX/RxSwift\",\"stars\":24300},"
    "{\"id\":5,\"name\":\"kickstarter/ios-oss\",\"stars\":8400},{\"id\":6,\"name\":\"pointfreeco/swift-composable-architecture\",\"stars\":12000},"
    "{\"id\":7,\"name\":\"apple/swift-nio\",\"stars\":7900},{\"id\":8,\"name\":\"realm/SwiftLint\",\"stars\":18500},"
    "{\"id\":9,\"name\":\"SwiftyJSON/SwiftyJSON\",\"stars\":22700},{\"id\":10,\"name\":\"onevcat/Kingfisher\",\"stars\":23000}],"
    "\"nextURL\":\"https://api.example.com/search/repositories?q=swift&page=2\"}}";

/* The i-th query a search benchmark types: "swift 0" and "swift 1" in turn, so that each
 * one is a change and starts a load. */
static __attribute__((unused)) const char *search_query(int i) {
    return (i & 1) ? "{\"queryChanged\":{\"text\":\"swift 1\"}}" : "{\"queryChanged\":{\"text\":\"swift 0\"}}";
}

/* The i-th query typed into a search system, its load started, `page` delivered to that
 * load; both batches read and freed. Returns the load's effect id. */
static __attribute__((unused)) unsigned long long query_then_page(corelogic_system s, int i, const char *page) {
    char *batch = NULL;
    int rc = corelogic_system_send(s, search_query(i), &batch);
    if (rc != CORELOGIC_OK) fail("search send", rc);
    const char *id = strstr(batch, "{\"start\":{\"id\":");
    if (id == NULL) fail("search start", -100);
    unsigned long long effect = strtoull(id + 15, NULL, 10);
    corelogic_free(batch);
    rc = corelogic_system_deliver(s, effect, page, &batch);
    if (rc != CORELOGIC_OK) fail("search deliver", rc);
    corelogic_free(batch);
    return effect;
}

#endif
