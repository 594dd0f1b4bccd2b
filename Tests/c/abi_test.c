/* The C ABI, checked rule by rule through libcorelogic exactly as a host sees it.
 * Ends with "abi: N passed, N failed"; exit status 1 on any failure. */
#define _GNU_SOURCE
#include <corelogic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* Returns the current state JSON (caller frees). */
static char *state_of(corelogic_system s) {
    char *json = NULL;
    if (corelogic_system_state(s, &json) != CORELOGIC_OK) return NULL;
    return json;
}

/* Sends and checks the status; returns the batch (caller frees) or NULL. */
static char *send(corelogic_system s, const char *event, int expected) {
    char *batch = NULL;
    int rc = corelogic_system_send(s, event, &batch);
    if (rc != expected) {
        fprintf(stderr, "  send %s: %s, expected %s: %s\n", event, corelogic_status_name(rc),
                corelogic_status_name(expected), corelogic_last_error());
    }
    CHECK(rc == expected);
    return batch;
}

static void test_versions(void) {
    CHECK(corelogic_abi_version() == CORELOGIC_ABI_VERSION);
    CHECK(strcmp(corelogic_version(), CORELOGIC_VERSION_STRING) == 0);
    CHECK(strcmp(corelogic_status_name(CORELOGIC_OK), "CORELOGIC_OK") == 0);
    CHECK(strcmp(corelogic_status_name(CORELOGIC_STALE), "CORELOGIC_STALE") == 0);
    CHECK(strcmp(corelogic_status_name(CORELOGIC_ERR_SCHEMA), "CORELOGIC_ERR_SCHEMA") == 0);
    CHECK(strcmp(corelogic_status_name(CORELOGIC_ERR_CORRUPT), "CORELOGIC_ERR_CORRUPT") == 0);
    CHECK(CORELOGIC_ERR_NOMEM == -8);
    CHECK(strcmp(corelogic_status_name(CORELOGIC_ERR_NOMEM), "CORELOGIC_ERR_NOMEM") == 0);
    CHECK(strcmp(corelogic_status_name(-999), "CORELOGIC_UNKNOWN_STATUS") == 0);
    CHECK(corelogic_last_error() != NULL);
    char *features = NULL;
    CHECK(corelogic_features(&features) == CORELOGIC_OK);
    CHECK(contains(features, "\"name\":\"counter\""));
    CHECK(contains(features, "\"name\":\"search\""));
    CHECK(contains(features, "{\"name\":\"download\",\"kind\":\"reactSet\"}"));
    CHECK(contains(features, "\"events\":[\"increment\",\"decrement\"]"));
    corelogic_free(features);
    CHECK(corelogic_features(NULL) == CORELOGIC_ERR_ARG);
    corelogic_free(NULL);
}

static void test_counter_round_trip(void) {
    corelogic_system s = 0;
    char *batch = NULL;
    CHECK(corelogic_system_new("counter", NULL, &s, &batch) == CORELOGIC_OK);
    CHECK(s != 0);
    CHECK(batch && strcmp(batch, "{\"state\":{\"count\":0},\"effects\":[],\"steps\":0}") == 0);
    corelogic_free(batch);

    batch = send(s, "\"increment\"", CORELOGIC_OK);
    CHECK(batch && strcmp(batch, "{\"state\":{\"count\":1},\"effects\":[],\"steps\":1}") == 0);
    corelogic_free(batch);
    batch = send(s, "{\"increment\":{}}", CORELOGIC_OK);
    CHECK(contains(batch, "{\"count\":2}"));
    corelogic_free(batch);
    CHECK(corelogic_system_send(s, " \"decrement\" ", NULL) == CORELOGIC_OK);
    CHECK(strcmp(corelogic_last_error(), "") == 0);

    char *value = NULL;
    CHECK(corelogic_system_query(s, "isZero", &value) == CORELOGIC_OK);
    CHECK(value && strcmp(value, "false") == 0);
    corelogic_free(value);
    CHECK(corelogic_system_query(s, "nope", &value) == CORELOGIC_ERR_NOT_FOUND);
    CHECK(value == NULL);
    CHECK(contains(corelogic_last_error(), "isZero"));

    char *effects = NULL;
    CHECK(corelogic_system_effects(s, &effects) == CORELOGIC_OK);
    CHECK(effects && strcmp(effects, "[]") == 0);
    corelogic_free(effects);

    CHECK(corelogic_system_new("counter", "{\"count\":41}", &s, NULL) == CORELOGIC_OK);
    batch = send(s, "\"increment\"", CORELOGIC_OK);
    CHECK(contains(batch, "{\"count\":42}"));
    corelogic_free(batch);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
}

/* Every malformed input returns its status, says what and where, and changes nothing. */
static void test_bad_input_leaves_state_unchanged(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);
    char *first = send(s, "{\"queryChanged\":{\"text\":\"swift\"}}", CORELOGIC_OK);
    corelogic_free(first);
    char *before = state_of(s);

    struct { const char *event; int status; const char *message; } cases[] = {
        {"{\"queryChanged\":", CORELOGIC_ERR_JSON, "byte"},
        {"", CORELOGIC_ERR_JSON, ""},
        {"{\"retry\":{}} x", CORELOGIC_ERR_JSON, ""},
        {"{\"queryChanged\":{\"text\":\"a\",}}", CORELOGIC_ERR_JSON, ""},
        {"\"\xff\xfe\"", CORELOGIC_ERR_JSON, "UTF-8"},
        {"{\"queryChanged\":{\"text\":\"\xc0\xaf\"}}", CORELOGIC_ERR_JSON, "UTF-8"},
        {"{\"queryChanged\":{\"text\":5}}", CORELOGIC_ERR_SCHEMA, "$.queryChanged.text"},
        {"{\"queryChanged\":{}}", CORELOGIC_ERR_SCHEMA, "text"},
        {"{\"explode\":{}}", CORELOGIC_ERR_SCHEMA, "valid cases: queryChanged, reachedBottom, pageLoaded, loadFailed, retry"},
        {"\"explode\"", CORELOGIC_ERR_SCHEMA, "queryChanged"},
        {"{\"loadFailed\":{\"error\":{\"meteor\":{}}}}", CORELOGIC_ERR_SCHEMA, "offline, rateLimited"},
        {"{\"pageLoaded\":{\"items\":[{\"id\":1,\"name\":\"a\",\"stars\":\"many\"}]}}", CORELOGIC_ERR_SCHEMA, "$.pageLoaded.items[0].stars"},
        {"42", CORELOGIC_ERR_SCHEMA, ""},
        {"null", CORELOGIC_ERR_SCHEMA, ""},
        {"{\"retry\":{},\"reachedBottom\":{}}", CORELOGIC_ERR_SCHEMA, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *batch = (char *)"sentinel";
        int rc = corelogic_system_send(s, cases[i].event, &batch);
        if (rc != cases[i].status || !contains(corelogic_last_error(), cases[i].message)) {
            fprintf(stderr, "  case %zu (%s): %s, message: %s\n", i, cases[i].event,
                    corelogic_status_name(rc), corelogic_last_error());
        }
        CHECK(rc == cases[i].status);
        CHECK(contains(corelogic_last_error(), cases[i].message));
        CHECK(batch == NULL);
        char *after = state_of(s);
        CHECK(after && before && strcmp(after, before) == 0);
        corelogic_free(after);
    }

    /* Nesting deeper than the limit is an error, never a stack overflow. */
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 1);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = 0;
    CHECK(corelogic_system_send(s, deep, NULL) == CORELOGIC_ERR_JSON);
    CHECK(contains(corelogic_last_error(), "nesting deeper than the limit"));
    free(deep);

    CHECK(corelogic_system_send(s, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_deliver(s, 1, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_state(s, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_query(s, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_effects(s, NULL) == CORELOGIC_ERR_ARG);

    char *after = state_of(s);
    CHECK(after && before && strcmp(after, before) == 0);
    corelogic_free(after);
    corelogic_free(before);
    corelogic_system_free(s);

    corelogic_system none = 7;
    CHECK(corelogic_system_new("nosuch", NULL, &none, NULL) == CORELOGIC_ERR_NOT_FOUND);
    CHECK(none == 0);
    CHECK(contains(corelogic_last_error(), "counter"));
    CHECK(corelogic_system_new(NULL, NULL, &none, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_new("counter", NULL, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_new("counter", "{\"count\":\"x\"}", &none, NULL) == CORELOGIC_ERR_SCHEMA);
    CHECK(contains(corelogic_last_error(), "$.count"));
    CHECK(corelogic_system_new("counter", "{\"count\":1", &none, NULL) == CORELOGIC_ERR_JSON);
    CHECK(corelogic_system_new("counter", "{\"count\":9223372036854775808}", &none, NULL) == CORELOGIC_ERR_SCHEMA);
}

static void test_handles(void) {
    char *out = NULL;
    CHECK(corelogic_system_send(0, "\"increment\"", &out) == CORELOGIC_ERR_HANDLE);
    CHECK(out == NULL);
    CHECK(corelogic_system_free(0) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_state(0xdeadbeefULL, &out) == CORELOGIC_ERR_HANDLE);

    corelogic_system a = 0, b = 0;
    CHECK(corelogic_system_new("counter", NULL, &a, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_free(a) == CORELOGIC_OK);
    CHECK(corelogic_system_free(a) == CORELOGIC_ERR_HANDLE);           /* double free */
    CHECK(corelogic_system_send(a, "\"increment\"", NULL) == CORELOGIC_ERR_HANDLE); /* use after free */
    CHECK(corelogic_system_new("counter", NULL, &b, NULL) == CORELOGIC_OK);  /* reuses the slot */
    CHECK(b != a);
    CHECK(corelogic_system_send(a, "\"increment\"", NULL) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_on_command(a, NULL, NULL) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_complete(a, 1, NULL) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_free(b) == CORELOGIC_OK);
}

/* Invariants are evaluated only when asked; a broken one is reported by name, with the
 * state unchanged, and the call itself succeeds. */
static void test_check_reports_broken_invariants(void) {
    char *features = NULL;
    CHECK(corelogic_features(&features) == CORELOGIC_OK);
    CHECK(contains(features, "\"invariants\":[\"loadsOnlyWithNextPage\",\"failedLoadWaits\"]"));
    CHECK(contains(features, "\"name\":\"counter\",") && contains(features, "\"invariants\":[]"));
    corelogic_free(features);

    corelogic_system s = 0;
    char *out = NULL;
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_check(s, &out) == CORELOGIC_OK);
    CHECK(out && strcmp(out, "[]") == 0);
    corelogic_free(out);
    CHECK(corelogic_system_check(s, NULL) == CORELOGIC_ERR_ARG);
    CHECK(contains(corelogic_last_error(), "corelogic_system_check"));
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
    out = (char *)"untouched";
    CHECK(corelogic_system_check(s, &out) == CORELOGIC_ERR_HANDLE);
    CHECK(out == NULL);

    /* A state no input could reach: loading with no page to load, and a failure. */
    CHECK(corelogic_system_new("search", "{\"query\":\"x\",\"items\":[],\"shouldLoadNextPage\":true,"
                                         "\"lastError\":{\"offline\":{}}}", &s, NULL) == CORELOGIC_OK);
    char *before = state_of(s);
    CHECK(corelogic_system_check(s, &out) == CORELOGIC_OK);
    CHECK(out && strcmp(out, "[{\"name\":\"loadsOnlyWithNextPage\",\"message\":\"shouldLoadNextPage is true without a nextURL\"},"
                             "{\"name\":\"failedLoadWaits\",\"message\":\"a page loads while lastError is set\"}]") == 0);
    CHECK(strcmp(corelogic_last_error(), "") == 0);
    corelogic_free(out);
    char *after = state_of(s);
    CHECK(before && after && strcmp(before, after) == 0);
    corelogic_free(before);
    corelogic_free(after);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
}

/* Latest wins: a new query cancels the running load; its late result is stale. */
static void test_search_latest_wins(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);
    char *batch = send(s, "{\"queryChanged\":{\"text\":\"sw\"}}", CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"start\":{\"id\":1,\"feedback\":\"loadPage\",\"request\":{\"url\":\"/search/repositories?q=sw\"}}}]"));
    corelogic_free(batch);
    batch = send(s, "{\"queryChanged\":{\"text\":\"swift lang\"}}", CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"cancel\":1},{\"start\":{\"id\":2,\"feedback\":\"loadPage\",\"request\":{\"url\":\"/search/repositories?q=swift%20lang\"}}}]"));
    corelogic_free(batch);

    char *before = state_of(s);
    const char *page = "{\"pageLoaded\":{\"items\":[{\"id\":1,\"name\":\"apple/swift\",\"stars\":60000}],\"nextURL\":\"/p2\"}}";
    batch = (char *)"sentinel";
    CHECK(corelogic_system_deliver(s, 1, page, &batch) == CORELOGIC_STALE);
    CHECK(batch == NULL);
    CHECK(contains(corelogic_last_error(), "not running"));
    char *after = state_of(s);
    CHECK(before && after && strcmp(before, after) == 0);
    corelogic_free(before);
    corelogic_free(after);

    CHECK(corelogic_system_deliver(s, 2, page, &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"cancel\":2}]"));
    CHECK(contains(batch, "\"nextURL\":\"/p2\""));
    corelogic_free(batch);
    CHECK(corelogic_system_complete(s, 2, NULL) == CORELOGIC_STALE);
    CHECK(corelogic_system_complete(s, 99, NULL) == CORELOGIC_STALE);

    char *value = NULL;
    CHECK(corelogic_system_query(s, "canLoadMore", &value) == CORELOGIC_OK);
    CHECK(value && strcmp(value, "true") == 0);
    corelogic_free(value);
    batch = send(s, "\"reachedBottom\"", CORELOGIC_OK);
    CHECK(contains(batch, "{\"start\":{\"id\":3,\"feedback\":\"loadPage\",\"request\":{\"url\":\"/p2\"}}}"));
    corelogic_free(batch);
    char *effects = NULL;
    CHECK(corelogic_system_effects(s, &effects) == CORELOGIC_OK);
    CHECK(effects && strcmp(effects, "[{\"id\":3,\"feedback\":\"loadPage\",\"request\":{\"url\":\"/p2\"}}]") == 0);
    corelogic_free(effects);
    CHECK(corelogic_system_complete(s, 3, &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[],\"steps\":1"));
    corelogic_free(batch);
    corelogic_system_free(s);
}

/* reactSet: at most maxConcurrent downloads run; finishing one starts the next. */
static void test_downloads_react_set(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    char event[128];
    for (int i = 1; i <= 5; i++) {
        snprintf(event, sizeof event, "{\"enqueue\":{\"url\":\"u%d\"}}", i);
        char *batch = send(s, event, CORELOGIC_OK);
        if (i <= 3) {
            snprintf(event, sizeof event, "{\"start\":{\"id\":%d,\"feedback\":\"download\",\"request\":{\"url\":\"u%d\"}}}", i, i);
            CHECK(contains(batch, event));
        } else {
            CHECK(contains(batch, "\"effects\":[]"));
        }
        corelogic_free(batch);
    }
    char *batch = NULL;
    CHECK(corelogic_system_deliver(s, 2, "{\"finished\":{\"url\":\"u2\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"cancel\":2},{\"start\":{\"id\":4,\"feedback\":\"download\",\"request\":{\"url\":\"u4\"}}}]"));
    corelogic_free(batch);
    batch = send(s, "{\"cancel\":{\"url\":\"u1\"}}", CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"cancel\":1},{\"start\":{\"id\":5,\"feedback\":\"download\",\"request\":{\"url\":\"u5\"}}}]"));
    corelogic_free(batch);
    char *value = NULL;
    CHECK(corelogic_system_query(s, "active", &value) == CORELOGIC_OK);
    CHECK(value && strcmp(value, "[\"u3\",\"u4\",\"u5\"]") == 0);
    corelogic_free(value);
    CHECK(corelogic_system_query(s, "finished", &value) == CORELOGIC_OK);
    CHECK(value && strcmp(value, "[\"u2\"]") == 0);
    corelogic_free(value);
    CHECK(corelogic_system_complete(s, 3, NULL) == CORELOGIC_OK);
    batch = send(s, "{\"setMaxConcurrent\":{\"value\":1}}", CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"cancel\":4},{\"cancel\":5}]"));
    corelogic_free(batch);
    corelogic_system_free(s);
}

/* A handler that answers every start at once, from inside the call: each answer is
 * queued, not recursed into. */
struct answerer { corelogic_system system; int answers; int limit; int last_status; };

static void answer_at_once(void *context, const char *command) {
    struct answerer *a = context;
    const char *id = strstr(command, "{\"start\":{\"id\":");
    if (id == NULL || a->answers >= a->limit) return;
    unsigned long long effect = strtoull(id + strlen("{\"start\":{\"id\":"), NULL, 10);
    a->answers++;
    a->last_status = corelogic_system_deliver(a->system, effect,
        "{\"pageLoaded\":{\"items\":[],\"nextURL\":\"/next\"}}", NULL);
    if (a->answers < a->limit) corelogic_system_send(a->system, "\"reachedBottom\"", NULL);
}

static void test_reentrant_answers_do_not_recurse(void) {
    struct answerer a = {0, 0, 100000, -100};
    CHECK(corelogic_system_new("search", NULL, &a.system, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_command(a.system, answer_at_once, &a) == CORELOGIC_OK);
    char *batch = NULL;
    CHECK(corelogic_system_send(a.system, "{\"queryChanged\":{\"text\":\"loop\"}}", &batch) == CORELOGIC_OK);
    CHECK(a.answers == 100000);
    CHECK(a.last_status == CORELOGIC_OK);
    CHECK(contains(batch, "\"steps\":200000}"));
    corelogic_free(batch);
    corelogic_system_free(a.system);
}

/* Freeing the system from inside its own handler is deferred safely. */
static int handler_calls;
static void free_inside(void *context, const char *command) {
    (void)command;
    handler_calls++;
    corelogic_system *s = context;
    CHECK(corelogic_system_free(*s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(*s, "\"reachedBottom\"", NULL) == CORELOGIC_ERR_HANDLE);
}

static void test_free_inside_handler(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"a\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"b\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_command(s, free_inside, &s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"cancel\":{\"url\":\"a\"}}", NULL) == CORELOGIC_OK);
    CHECK(handler_calls == 1);
    CHECK(corelogic_system_free(s) == CORELOGIC_ERR_HANDLE);
}

struct sender { corelogic_system system; int count; int failures; };

static void *send_many(void *context) {
    struct sender *s = context;
    for (int i = 0; i < s->count; i++) {
        char *batch = NULL;
        if (corelogic_system_send(s->system, "\"increment\"", &batch) != CORELOGIC_OK) s->failures++;
        corelogic_free(batch);
    }
    return NULL;
}

static void test_threads(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    enum { THREADS = 8, EACH = 20000 };
    pthread_t threads[THREADS];
    struct sender senders[THREADS];
    for (int i = 0; i < THREADS; i++) {
        senders[i] = (struct sender){s, EACH, 0};
        pthread_create(&threads[i], NULL, send_many, &senders[i]);
    }
    int failures = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        failures += senders[i].failures;
    }
    CHECK(failures == 0);
    char *state = state_of(s);
    CHECK(state && strcmp(state, "{\"count\":160000}") == 0);
    corelogic_free(state);
    corelogic_system_free(s);
}

struct recorder { char log[4096]; };
static void record_command(void *context, const char *json) {
    struct recorder *r = context;
    strncat(r->log, json, sizeof r->log - strlen(r->log) - 2);
    strcat(r->log, ";");
}

static void test_handlers_push_commands_in_order(void) {
    corelogic_system s = 0;
    struct recorder commands = {{0}}, states = {{0}};
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_command(s, record_command, &commands) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(s, record_command, &states) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"queryChanged\":{\"text\":\"a\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"queryChanged\":{\"text\":\"b\"}}", NULL) == CORELOGIC_OK);
    CHECK(strcmp(commands.log,
        "{\"start\":{\"id\":1,\"feedback\":\"loadPage\",\"request\":{\"url\":\"/search/repositories?q=a\"}}};"
        "{\"cancel\":1};"
        "{\"start\":{\"id\":2,\"feedback\":\"loadPage\",\"request\":{\"url\":\"/search/repositories?q=b\"}}};") == 0);
    CHECK(contains(states.log, "\"query\":\"b\""));
    CHECK(corelogic_system_on_command(s, NULL, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"queryChanged\":{\"text\":\"c\"}}", NULL) == CORELOGIC_OK);
    CHECK(!contains(commands.log, "q=c"));
    corelogic_system_free(s);
}

int main(void) {
    test_versions();
    test_counter_round_trip();
    test_bad_input_leaves_state_unchanged();
    test_handles();
    test_check_reports_broken_invariants();
    test_search_latest_wins();
    test_downloads_react_set();
    test_reentrant_answers_do_not_recurse();
    test_free_inside_handler();
    test_threads();
    test_handlers_push_commands_in_order();
    return CHECK_SUMMARY("abi");
}
