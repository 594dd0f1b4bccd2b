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
#include <malloc.h>

#define BENCH_NAME "abi_driver"
#include "../c/bench_util.h"

static void check(const char *what, int rc) {
    if (rc != CORELOGIC_OK) fail(what, rc);
}

static corelogic_system make(const char *feature) {
    corelogic_system s = 0;
    check("system_new", corelogic_system_new(feature, NULL, &s, NULL));
    return s;
}

/* Switches `s` to patch output (the snapshot is dropped: this driver mirrors nothing). */
static void patch_mode(corelogic_system s) {
    char *snapshot = NULL;
    check("set_output", corelogic_system_set_output(s, CORELOGIC_OUTPUT_PATCH, &snapshot));
    corelogic_free(snapshot);
}

/* A search state of `items` repositories, loading its next page: created, it starts
 * load 1. The caller frees the string. */
static char *search_state(long items) {
    size_t size = 256 + (size_t)items * 64;
    char *json = malloc(size);
    if (!json) { perror("malloc"); exit(1); }
    size_t at = (size_t)snprintf(json, size, "{\"query\":\"swift\",\"items\":[");
    for (long i = 0; i < items; i++)
        at += (size_t)snprintf(json + at, size - at, "%s{\"id\":%ld,\"name\":\"owner%ld/repository%ld\",\"stars\":%ld}",
                               i ? "," : "", i + 1, i, i, (i * 7919) % 100000);
    snprintf(json + at, size - at,
             "],\"nextURL\":\"/search/repositories?q=swift&page=2\",\"shouldLoadNextPage\":true}");
    return json;
}

static corelogic_system make_search(long items, int patch) {
    char *state = search_state(items);
    corelogic_system s = 0;
    check("system_new", corelogic_system_new("search", state, &s, NULL));
    free(state);
    if (patch) patch_mode(s);
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

/* The search feature's failure loop on `s`: loadPage fails (its effect is cancelled, the
 * retry timer starts), the timer delivers retry (the timer is cancelled, a new load
 * starts). Ids are handed out one by one, so the n-th load is effect 1 + 2n, its timer
 * 2 + 2n. Two events per cycle; frees `s`. */
static long failure_loop(corelogic_system s, long n, const char *failed, const char *retry, int with_batch) {
    unsigned long long load = 1;
    for (long i = 0; i < n; i++) {
        deliver(s, load, failed, with_batch);
        deliver(s, load + 1, retry, with_batch);
        load += 2;
    }
    corelogic_system_free(s);
    return 2 * n;
}

/* The failure loop after a query typed into an empty search. */
static long search_failure_loop(long n, const char *failed, const char *retry, int with_batch, int patch) {
    corelogic_system s = make("search");
    if (patch) patch_mode(s);
    send(s, "{\"queryChanged\":{\"text\":\"swift\"}}", 0);
    return failure_loop(s, n, failed, retry, with_batch);
}

/* The failure loop on a state of `items` repositories that no event touches. */
static long search_items_untouched(long n, long items, int patch) {
    return failure_loop(make_search(items, patch), n, "{\"loadFailed\":{\"error\":{\"offline\":{}}}}", "{\"retry\":{}}", 1);
}

/* The make bench search cycle: a query typed (its load starts), a 10-item page delivered,
 * both batches asked for. Per event: two events per cycle. */
static long search_cycle(long n) {
    corelogic_system s = make("search");
    unsigned long long load = 1;
    for (long i = 0; i < n; i++) {
        send(s, search_query((int)i), 1);
        deliver(s, load, ten_item_page, 1);
        load += 1;
    }
    corelogic_system_free(s);
    return 2 * n;
}

/* A 10-item page appended to a state of `items` repositories (the list then holds
 * items + 10k after the k-th page), then reachedBottom asks for the next one: two
 * events per page, both batches read. */
static long search_items_append(long n, long items, int patch) {
    corelogic_system s = make_search(items, patch);
    unsigned long long load = 1;
    for (long i = 0; i < n; i++) {
        deliver(s, load, ten_item_page, 1);
        send(s, "\"reachedBottom\"", 1);
        load += 1;
    }
    corelogic_system_free(s);
    return 2 * n;
}

/* Heap in use (glibc), in bytes. */
static size_t heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd; /* small blocks and mmapped ones */
}

/* Memory, not instructions: the heap one system of a search state with `items`
 * repositories holds after creation, and after its first batch (full output) was read
 * and freed. Prints "BYTES_AFTER_CREATION BYTES_AFTER_FIRST_BATCH". */
static void search_memory(long items) {
    char *state = search_state(items);
    corelogic_system warm = make_search(0, 0);  /* the library's one-time allocations */
    size_t before = heap_in_use();
    corelogic_system s = 0;
    check("system_new", corelogic_system_new("search", state, &s, NULL));
    size_t created = heap_in_use();
    deliver(s, 1, "{\"loadFailed\":{\"error\":{\"offline\":{}}}}", 1);
    size_t batched = heap_in_use();
    printf("%zu %zu\n", created - before, batched - before);
    corelogic_system_free(s);
    corelogic_system_free(warm);
    free(state);
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
    remove_tree(dir);
    rmdir(root);
    return n;
}

static long counter(long n, const char *event, int with_batch, int patch) {
    corelogic_system s = make("counter");
    if (patch) patch_mode(s);
    for (long i = 0; i < n; i++) send(s, event, with_batch);
    corelogic_system_free(s);
    return n;
}

/* "name:N" -> N (the number of items); -1 when `path` does not start with `name:`. */
static long items_of(const char *path, const char *name) {
    size_t length = strlen(name);
    if (strncmp(path, name, length) != 0 || path[length] != ':') return -1;
    return atol(path + length + 1);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: abi_driver PATH N\n");
        return 2;
    }
    const char *path = argv[1];
    long n = atol(argv[2]);
    long events, items;
    const char *failed = "{\"loadFailed\":{\"error\":{\"offline\":{}}}}";
    if (strcmp(path, "counter-batch") == 0) events = counter(n, "\"increment\"", 1, 0);
    else if (strcmp(path, "counter-patch") == 0) events = counter(n, "\"increment\"", 1, 1);
    else if (strcmp(path, "counter-null") == 0) events = counter(n, "\"increment\"", 0, 0);
    else if (strcmp(path, "counter-object-null") == 0) events = counter(n, "{\"increment\":{}}", 0, 0);
    else if (strcmp(path, "search-canonical") == 0)
        events = search_failure_loop(n, failed, "{\"retry\":{}}", 0, 0);
    else if (strcmp(path, "search-short") == 0)
        events = search_failure_loop(n, "{\"loadFailed\":{\"error\":\"offline\"}}", "\"retry\"", 0, 0);
    else if (strcmp(path, "search-canonical-batch") == 0)
        events = search_failure_loop(n, failed, "{\"retry\":{}}", 1, 0);
    else if (strcmp(path, "search-canonical-patch") == 0)
        events = search_failure_loop(n, failed, "{\"retry\":{}}", 1, 1);
    else if ((items = items_of(path, "untouched-full")) >= 0) events = search_items_untouched(n, items, 0);
    else if ((items = items_of(path, "untouched-patch")) >= 0) events = search_items_untouched(n, items, 1);
    else if ((items = items_of(path, "append-full")) >= 0) events = search_items_append(n, items, 0);
    else if ((items = items_of(path, "append-patch")) >= 0) events = search_items_append(n, items, 1);
    else if ((items = items_of(path, "memory")) >= 0) {
        search_memory(items);
        return 0;
    }
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
