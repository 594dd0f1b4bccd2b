/* Inputs at and over the limits (include/corelogic.h, "Conventions": 16 MiB, depth 128),
 * on every input path, and the rule that whatever the library acknowledges it can
 * restore: records near the input limits and states past 16 MiB read back.
 * Inputs of 16 MiB are too slow under valgrind: this program runs bare.
 * Ends with "limits: N passed, N failed"; exit status 1 on any failure. */
#include "persist_util.h"

#define LIMIT (16u << 20)

/* `prefix` + `body_size` copies of `fill` + `suffix`, NUL-terminated. Caller frees. */
static char *padded(const char *prefix, size_t body_size, char fill, const char *suffix) {
    size_t p = strlen(prefix), s = strlen(suffix);
    char *out = malloc(p + body_size + s + 1);
    memcpy(out, prefix, p);
    memset(out + p, fill, body_size);
    memcpy(out + p + body_size, suffix, s + 1);
    return out;
}

/* A JSON text of exactly `total` bytes: `prefix`, filler, `suffix`. */
static char *exactly(const char *prefix, char fill, const char *suffix, size_t total) {
    return padded(prefix, total - strlen(prefix) - strlen(suffix), fill, suffix);
}

/* `depth` nested arrays: [[[...]]]. */
static char *nested(const char *prefix, int depth, const char *suffix) {
    size_t p = strlen(prefix), s = strlen(suffix);
    char *out = malloc(p + 2 * (size_t)depth + s + 1);
    memcpy(out, prefix, p);
    memset(out + p, '[', (size_t)depth);
    memset(out + p + depth, ']', (size_t)depth);
    memcpy(out + p + 2 * (size_t)depth, suffix, s + 1);
    return out;
}

static corelogic_system queuing;
static const char *queued_event;
static int queued_status = -100;
static void queue_event(void *context, const char *state) {
    (void)context;
    (void)state;
    if (!queued_event) return;
    const char *event = queued_event;
    queued_event = NULL;
    queued_status = corelogic_system_send(queuing, event, NULL);
}

/* The payload-less shortcut and every other input path refuse what is over 16 MiB,
 * before anything else (a stale deliver is ERR_JSON, not STALE). */
static void test_every_path_enforces_the_size_limit(void) {
    char *bare = padded("\"increment\"", LIMIT + 1, ' ', "");
    char *tagged = padded("{\"increment\":{}}", LIMIT + 1, ' ', "");
    char *retry = padded("\"retry\"", LIMIT + 1, ' ', "");
    corelogic_system s = 0;
    char *batch = (char *)1;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, bare, &batch) == CORELOGIC_ERR_JSON);
    CHECK(batch == NULL);
    CHECK(contains(corelogic_last_error(), "exceeds the limit of 16777216 bytes"));
    CHECK(corelogic_system_send(s, tagged, NULL) == CORELOGIC_ERR_JSON);
    /* From a handler: refused at once, not queued. */
    CHECK(corelogic_system_on_state(s, queue_event, NULL) == CORELOGIC_OK);
    queuing = s;
    queued_event = bare;
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(queued_status == CORELOGIC_ERR_JSON);
    char *state = state_json(s);
    CHECK(strcmp(state, "{\"count\":1}") == 0);
    free(state);
    corelogic_system_free(s);

    /* At the limit exactly: accepted (the shortcut and the decoder agree). */
    char *at_limit = exactly("\"increment\"", ' ', "", LIMIT);
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, at_limit, NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
    free(at_limit);

    /* deliver: to a running effect and to one that is not running. */
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"queryChanged\":{\"text\":\"a\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_deliver(s, 1, retry, NULL) == CORELOGIC_ERR_JSON);
    CHECK(corelogic_system_deliver(s, 99, retry, NULL) == CORELOGIC_ERR_JSON);
    CHECK(contains(corelogic_last_error(), "exceeds the limit"));
    corelogic_system_free(s);

    /* A state for corelogic_system_new. */
    char *big_state = padded("{\"count\":1}", LIMIT, ' ', "");
    s = 7;
    CHECK(corelogic_system_new("counter", big_state, &s, NULL) == CORELOGIC_ERR_JSON);
    CHECK(s == 0);
    free(big_state);
    free(bare);
    free(tagged);
    free(retry);
}

/* An event just under 16 MiB is acknowledged, so it restores: neither dropped as a torn
 * tail nor, with a record after it, a corrupt journal; the restored system's ids do not
 * reuse the live one's. */
static void test_event_at_the_size_limit_restores(void) {
    const char *dir = path_in("big-event");
    char *event = exactly("{\"enqueue\":{\"url\":\"", 'u', "\"}}", LIMIT - 18);
    corelogic_system s = 0;
    unsigned long long max_id = 0;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    CHECK(send_tracking(s, event, &max_id) == CORELOGIC_OK);
    char *expected = state_json(s);
    CHECK(strlen(expected) > LIMIT - 100);
    CHECK(corelogic_system_close_journal(s) == CORELOGIC_OK);
    char *report = NULL;
    corelogic_system r = restore_and_check("downloads", dir, expected, max_id, &report);
    CHECK(contains(report, "\"replayed\":1,"));
    CHECK(contains(report, "\"tornTail\":null"));
    corelogic_free(report);
    free(expected);
    /* The restored system journals on; a record after the big one. */
    CHECK(send_tracking(r, "{\"enqueue\":{\"url\":\"small\"}}", &max_id) == CORELOGIC_OK);
    corelogic_system_free(s);
    expected = state_json(r);
    corelogic_system_free(r);
    check_restores("downloads", dir, expected, max_id, NULL);
    free(expected);

    /* Without a checkpoint between them: the big record, then another, in one segment. */
    remove_tree(dir);
    max_id = 0;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    CHECK(send_tracking(s, event, &max_id) == CORELOGIC_OK);
    CHECK(send_tracking(s, "{\"enqueue\":{\"url\":\"after\"}}", &max_id) == CORELOGIC_OK);
    expected = state_json(s);
    corelogic_system_free(s);
    report = NULL;
    check_restores("downloads", dir, expected, max_id, "\"replayed\":2,", NULL);
    free(expected);
    free(event);
}

/* Events nested 128 deep (unknown members are ignored, so they decode) are journaled
 * one or two levels deeper; they restore. */
static void test_event_at_the_depth_limit_restores(void) {
    const char *dir = path_in("deep-event");
    corelogic_system s = 0;
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    /* depth: object 1, payload object 2, arrays 3...128 */
    char *deep_send = nested("{\"queryChanged\":{\"text\":\"swift\",\"x\":", 126, "}}");
    CHECK(corelogic_system_send(s, deep_send, NULL) == CORELOGIC_OK);
    char *too_deep = nested("{\"queryChanged\":{\"text\":\"swift\",\"x\":", 127, "}}");
    CHECK(corelogic_system_send(s, too_deep, NULL) == CORELOGIC_ERR_JSON);
    char *deep_deliver = nested("{\"pageLoaded\":{\"items\":[],\"nextURL\":\"/p2\",\"x\":", 126, "}}");
    CHECK(corelogic_system_deliver(s, 1, deep_deliver, NULL) == CORELOGIC_OK);
    char *expected = state_json(s);
    CHECK(contains(expected, "\"nextURL\":\"/p2\""));
    corelogic_system_free(s);
    check_restores("search", dir, expected, 1, "\"seq\":2,\"replayed\":2,", NULL);
    free(expected);
    free(deep_send);
    free(too_deep);
    free(deep_deliver);
}

/* Many small acknowledged inputs grow a state past 16 MiB: it checkpoints and restores
 * (from the replayed journal and from the snapshot), and a restored system can be
 * restored again. */
static void test_state_past_16_mib_restores(void) {
    const char *dir = path_in("big-state");
    corelogic_system s = 0;
    unsigned long long max_id = 0;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    char url[70000];
    int ok = 1;
    for (int i = 0; i < 280 && ok; i++) {
        int n = snprintf(url, sizeof url, "{\"enqueue\":{\"url\":\"%d-", i);
        memset(url + n, 'x', 64000);
        strcpy(url + n + 64000, "\"}}");
        ok = send_tracking(s, url, &max_id) == CORELOGIC_OK;
    }
    CHECK(ok);
    char *expected = state_json(s);
    CHECK(strlen(expected) > LIMIT + 1000000);
    /* Replay of the journal (the restore then checkpoints: a snapshot past 16 MiB). */
    corelogic_system_free(s);
    check_restores("downloads", dir, expected, max_id, NULL);
    /* From that snapshot. */
    char *report = NULL;
    corelogic_system r = restore_and_check("downloads", dir, expected, max_id, &report);
    CHECK(contains(report, "\"snapshot\":true,\"migratedFrom\":null,\"seq\":280,\"replayed\":0,"));
    corelogic_free(report);
    CHECK(corelogic_system_checkpoint(r) == CORELOGIC_OK);
    corelogic_system_free(r);
    check_restores("downloads", dir, expected, max_id, NULL);
    free(expected);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/corelogic-limits-XXXXXX");
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    test_every_path_enforces_the_size_limit();
    test_event_at_the_size_limit_restores();
    test_event_at_the_depth_limit_restores();
    test_state_past_16_mib_restores();
    const char *names[] = {"big-event", "deep-event", "big-state"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) remove_tree(path_in(names[i]));
    rmdir(root);
    return CHECK_SUMMARY("limits");
}
