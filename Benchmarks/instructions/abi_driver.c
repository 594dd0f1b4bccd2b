/* make bench-instructions, C side: one path of the C ABI repeated N times, for
 * callgrind. `abi_driver PATH N` sets the path up, runs N events, tears down and exits;
 * run.py runs it with two values of N and divides the difference in instructions by the
 * difference in events, so set-up, tear-down and start-up cancel out exactly. Every call
 * is checked: a path that failed would measure the error path instead. */
#define _POSIX_C_SOURCE 200809L
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#define BENCH_NAME "abi_driver"
#include "../c/bench_util.h"

static void check(const char *what, int rc) {
    if (rc != CORELOGIC_OK) {
        fprintf(stderr, "abi_driver: %s: %s: %s\n", what, corelogic_status_name(rc), corelogic_last_error());
        exit(1);
    }
}

static corelogic_system make(const char *feature) {
    corelogic_system s = 0;
    check("system_new", corelogic_system_new(feature, NULL, &s, NULL));
    return s;
}

static void send(corelogic_system s, const char *event, int with_batch) {
    char *batch = NULL;
    check("send", corelogic_system_send(s, event, with_batch ? &batch : NULL));
    corelogic_free(batch);
}

static void deliver(corelogic_system s, unsigned long long effect, const char *event, int with_batch) {
    char *batch = NULL;
    check("deliver", corelogic_system_deliver(s, effect, event, with_batch ? &batch : NULL));
    corelogic_free(batch);
}

/* The search feature's failure loop: loadPage fails (its effect is cancelled, the retry
 * timer starts), the timer delivers retry (the timer is cancelled, a new load starts).
 * Ids are handed out one by one, so the n-th load is effect 1 + 2n, its timer 2 + 2n.
 * Two events per cycle. */
static long search_failure_loop(long n, const char *failed, const char *retry, int with_batch) {
    corelogic_system s = make("search");
    send(s, "{\"queryChanged\":{\"text\":\"swift\"}}", 0);
    unsigned long long load = 1;
    for (long i = 0; i < n; i++) {
        deliver(s, load, failed, with_batch);
        deliver(s, load + 1, retry, with_batch);
        load += 2;
    }
    corelogic_system_free(s);
    return 2 * n;
}

static const char *page =
    "{\"pageLoaded\":{\"items\":["
    "{\"id\":1,\"name\":\"apple/swift\",\"stars\":67000},{\"id\":2,\"name\":\"vapor/vapor\",\"stars\":24000},"
    "{\"id\":3,\"name\":\"Alamofire/Alamofire\",\"stars\":41000},{\"id\":4,\"name\":\"ReactiveX/RxSwift\",\"stars\":24300},"
    "{\"id\":5,\"name\":\"kickstarter/ios-oss\",\"stars\":8400},{\"id\":6,\"name\":\"pointfreeco/swift-composable-architecture\",\"stars\":12000},"
    "{\"id\":7,\"name\":\"apple/swift-nio\",\"stars\":7900},{\"id\":8,\"name\":\"realm/SwiftLint\",\"stars\":18500},"
    "{\"id\":9,\"name\":\"SwiftyJSON/SwiftyJSON\",\"stars\":22700},{\"id\":10,\"name\":\"onevcat/Kingfisher\",\"stars\":23000}],"
    "\"nextURL\":\"https://api.example.com/search/repositories?q=swift&page=2\"}}";

/* The make bench search cycle: a query typed (its load starts), a 10-item page delivered,
 * both batches asked for. Per event: two events per cycle. */
static long search_cycle(long n) {
    corelogic_system s = make("search");
    unsigned long long load = 1;
    for (long i = 0; i < n; i++) {
        send(s, (i & 1) ? "{\"queryChanged\":{\"text\":\"swift 1\"}}" : "{\"queryChanged\":{\"text\":\"swift 0\"}}", 1);
        deliver(s, load, page, 1);
        load += 1;
    }
    corelogic_system_free(s);
    return 2 * n;
}

/* Playcatch: the human throws (the timer effect starts), the timer delivers machineThrows
 * (the finished timer is cancelled); batches asked for, as the example host does. */
static long playcatch_round_trip(long n) {
    corelogic_system s = make("playcatch");
    unsigned long long timer = 1;
    for (long i = 0; i < n; i++) {
        send(s, "\"humanThrows\"", 1);
        deliver(s, timer, "\"machineThrows\"", 1);
        timer += 1;
    }
    corelogic_system_free(s);
    return 2 * n;
}

static long counter_journaled(long n) {
    char root[] = "/tmp/corelogic-instructions-XXXXXX";
    if (!mkdtemp(root)) { perror("mkdtemp"); exit(1); }
    char dir[300];
    snprintf(dir, sizeof dir, "%s/journal", root);
    corelogic_system s = make("counter");
    check("open_journal", corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL));
    for (long i = 0; i < n; i++) send(s, "\"increment\"", 0);
    corelogic_system_free(s);
    remove_dir(dir);
    rmdir(root);
    return n;
}

static long counter(long n, const char *event, int with_batch) {
    corelogic_system s = make("counter");
    for (long i = 0; i < n; i++) send(s, event, with_batch);
    corelogic_system_free(s);
    return n;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: abi_driver PATH N\n");
        return 2;
    }
    const char *path = argv[1];
    long n = atol(argv[2]);
    long events;
    if (strcmp(path, "counter-batch") == 0) events = counter(n, "\"increment\"", 1);
    else if (strcmp(path, "counter-null") == 0) events = counter(n, "\"increment\"", 0);
    else if (strcmp(path, "counter-object-null") == 0) events = counter(n, "{\"increment\":{}}", 0);
    else if (strcmp(path, "search-canonical") == 0)
        events = search_failure_loop(n, "{\"loadFailed\":{\"error\":{\"offline\":{}}}}", "{\"retry\":{}}", 0);
    else if (strcmp(path, "search-short") == 0)
        events = search_failure_loop(n, "{\"loadFailed\":{\"error\":\"offline\"}}", "\"retry\"", 0);
    else if (strcmp(path, "search-canonical-batch") == 0)
        events = search_failure_loop(n, "{\"loadFailed\":{\"error\":{\"offline\":{}}}}", "{\"retry\":{}}", 1);
    else if (strcmp(path, "search-cycle") == 0) events = search_cycle(n);
    else if (strcmp(path, "playcatch") == 0) events = playcatch_round_trip(n);
    else if (strcmp(path, "counter-journal") == 0) events = counter_journaled(n);
    else {
        fprintf(stderr, "abi_driver: unknown path %s\n", path);
        return 2;
    }
    printf("%ld events\n", events);
    return 0;
}
