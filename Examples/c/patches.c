/* patches.c: patch output and watched queries, on a list that grows.
 *
 * A search host that asks for patches instead of whole states
 * (corelogic_system_set_output(..., CORELOGIC_OUTPUT_PATCH, ...)) and keeps its own
 * mirror of the state: each batch carries an RFC 6902 patch from the state the host
 * last received to the new one, which json_patch_apply() (json.c) applies in place. The
 * host also watches two queries, so each batch says which of them changed. Pages of
 * results are "loaded" locally (no network): as the list grows, the patches stay the
 * size of a page while the whole state keeps growing.
 *
 *   patches [--pages N] [--page-size N]      (defaults: 5 pages of 10 items)
 *
 * The rules a host follows, in order, for every batch:
 *   1. a batch that carries "state" (a state of at most 64 bytes of JSON is sent whole,
 *      which costs the host no more than a patch) replaces the mirror, with its "revision",
 *      unless the mirror is at a later revision already;
 *   2. else, if the batch's "base" is not the mirror's revision, the host missed
 *      something: corelogic_system_resync() gives the current state and revision;
 *   3. else apply "patch" to the mirror and take "revision";
 *   4. "queries" holds the watched queries whose value changed (often {}).
 */
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

typedef struct {
    json_value *mirror;   /* the state, as the patches make it */
    long long revision;   /* the revision the mirror is at */
    int resyncs;
} host;

static void die(const char *what, int status) {
    fprintf(stderr, "patches: %s: %s: %s\n", what, corelogic_status_name(status), corelogic_last_error());
    exit(1);
}

static json_value *parse_owned(char *text) {
    char error[200];
    json_value *v = json_parse(text, strlen(text), error, sizeof error);
    if (v == NULL) { fprintf(stderr, "patches: the library returned invalid JSON: %s\n", error); exit(1); }
    corelogic_free(text);
    return v;
}

static long long integer(const json_value *object, const char *key) {
    const json_value *v = json_get(object, key);
    return v != NULL && v->kind == JSON_INT ? (long long)v->integer : -1;
}

/* {"revision":R,"state":{...}}: a new baseline for the mirror. */
static void take_baseline(host *h, char *text) {
    json_value *baseline = parse_owned(text);
    json_free(h->mirror);
    h->mirror = json_copy(json_get(baseline, "state"));
    h->revision = integer(baseline, "revision");
    json_free(baseline);
}

static void resync(host *h, corelogic_system system) {
    char *text = NULL;
    int status = corelogic_system_resync(system, &text);
    if (status != CORELOGIC_OK) die("corelogic_system_resync", status);
    take_baseline(h, text);
    h->resyncs++;
}

/* Brings the mirror up to date from one batch; returns the parsed batch (for its
 * effects and queries; free with json_free). */
static json_value *absorb(host *h, corelogic_system system, char *text, const char *what) {
    size_t bytes = strlen(text);
    json_value *batch = parse_owned(text);
    const json_value *patch = json_get(batch, "patch");
    const json_value *whole = json_get(batch, "state");
    char error[256];
    if (whole != NULL) {
        if (integer(batch, "revision") >= h->revision) {
            json_free(h->mirror);
            h->mirror = json_copy(whole);
            h->revision = integer(batch, "revision");
        }
    } else if (integer(batch, "base") != h->revision) {
        printf("%-28s base %lld is not the mirror's revision %lld: resync\n", what, integer(batch, "base"), h->revision);
        resync(h, system);
    } else if (json_patch_apply(&h->mirror, patch, error, sizeof error) != 0) {
        printf("%-28s the patch does not apply (%s): resync\n", what, error);
        resync(h, system);
    } else {
        h->revision = integer(batch, "revision");
    }
    /* For comparison only: what a full-mode batch would have carried. */
    char *state = NULL;
    int status = corelogic_system_state(system, &state);
    if (status != CORELOGIC_OK) die("corelogic_system_state", status);
    const json_value *items = json_get(h->mirror, "items");
    char *queries = json_write(json_get(batch, "queries"));
    char carried[64];
    if (whole != NULL) snprintf(carried, sizeof carried, "the whole state");
    else snprintf(carried, sizeof carried, "%zu ops", patch != NULL ? patch->length : 0);
    printf("%-28s revision %lld: %s in a %zu-byte batch (the state: %zu bytes), %zu items, queries changed: %s\n",
           what, h->revision, carried, bytes, strlen(state), items != NULL ? items->length : 0, queries);
    corelogic_free(state);
    free(queries);
    return batch;
}

/* The id of the loadPage effect a batch starts, or 0. */
static unsigned long long started_load(const json_value *batch) {
    const json_value *effects = json_get(batch, "effects");
    for (size_t i = 0; effects != NULL && i < effects->length; i++) {
        const json_value *start = json_get(effects->items[i], "start");
        const json_value *feedback = json_get(start, "feedback");
        if (feedback != NULL && strcmp(feedback->string, "loadPage") == 0) return (unsigned long long)integer(start, "id");
    }
    return 0;
}

/* A pageLoaded event of `size` items; the last page has no nextURL. */
static char *page_event(int page, int size, int last) {
    size_t capacity = 128 + (size_t)size * 96;
    char *event = malloc(capacity);
    if (event == NULL) { perror("patches"); exit(1); }
    size_t used = (size_t)snprintf(event, capacity, "{\"pageLoaded\":{\"items\":[");
    for (int i = 0; i < size; i++) {
        int id = page * size + i + 1;
        used += (size_t)snprintf(event + used, capacity - used, "%s{\"id\":%d,\"name\":\"example/repository-%d\",\"stars\":%d}",
                                 i ? "," : "", id, id, (id * 37) % 1000);
    }
    if (last) snprintf(event + used, capacity - used, "]}}");
    else snprintf(event + used, capacity - used, "],\"nextURL\":\"/search/repositories?q=swift&page=%d\"}}", page + 2);
    return event;
}

int main(int argc, char **argv) {
    int pages = 5, page_size = 10;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--pages") == 0) pages = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--page-size") == 0) page_size = atoi(argv[i + 1]);
    }
    if (pages < 1 || page_size < 1) { fprintf(stderr, "usage: patches [--pages N] [--page-size N]\n"); return 2; }
    if (corelogic_abi_version() != CORELOGIC_ABI_VERSION) { fprintf(stderr, "patches: ABI mismatch\n"); return 1; }

    corelogic_system search;
    int status = corelogic_system_new("search", NULL, &search, NULL);
    if (status != CORELOGIC_OK) die("corelogic_system_new", status);

    /* Patches from now on; the baseline is the state the first patch applies to. */
    host h = {0};
    char *text = NULL;
    if ((status = corelogic_system_set_output(search, CORELOGIC_OUTPUT_PATCH, &text)) != CORELOGIC_OK) die("set_output", status);
    take_baseline(&h, text);
    printf("%-28s revision %lld\n", "patch mode", h.revision);

    /* Watch two queries: their values now, then only their changes. */
    if ((status = corelogic_system_watch_queries(search, "[\"isLoadingNextPage\",\"canLoadMore\"]", &text)) != CORELOGIC_OK)
        die("watch_queries", status);
    printf("%-28s %s\n", "watching", text);
    corelogic_free(text);

    /* An unknown query name is refused, and the watched set stays as it was. */
    status = corelogic_system_watch_queries(search, "[\"isLoadingNextPage\",\"noSuchQuery\"]", NULL);
    printf("%-28s %s\n", "watching noSuchQuery", corelogic_status_name(status));

    if ((status = corelogic_system_send(search, "{\"queryChanged\":{\"text\":\"swift\"}}", &text)) != CORELOGIC_OK) die("send", status);
    json_value *batch = absorb(&h, search, text, "queryChanged \"swift\"");
    unsigned long long load = started_load(batch);
    json_free(batch);

    for (int page = 0; page < pages && load != 0; page++) {
        char *event = page_event(page, page_size, page == pages - 1);
        status = corelogic_system_deliver(search, load, event, &text);
        free(event);
        if (status != CORELOGIC_OK) die("deliver", status);
        char what[64];
        snprintf(what, sizeof what, "page %d delivered", page + 1);
        json_free(absorb(&h, search, text, what));
        if (page == pages - 1) break;
        /* The user scrolls to the bottom: the next page starts loading. */
        if ((status = corelogic_system_send(search, "\"reachedBottom\"", &text)) != CORELOGIC_OK) die("send", status);
        batch = absorb(&h, search, text, "reachedBottom");
        load = started_load(batch);
        json_free(batch);
    }

    /* A call without a batch emits no patch: the next batch's patch spans both steps. */
    if ((status = corelogic_system_send(search, "{\"loadFailed\":{\"error\":\"offline\"}}", NULL)) != CORELOGIC_OK) die("send", status);
    if ((status = corelogic_system_send(search, "\"retry\"", &text)) != CORELOGIC_OK) die("send", status);
    json_free(absorb(&h, search, text, "loadFailed (no batch), retry"));

    /* The mirror is the library's state. */
    if ((status = corelogic_system_state(search, &text)) != CORELOGIC_OK) die("state", status);
    size_t state_bytes = strlen(text);
    json_value *state = parse_owned(text);
    const json_value *items = json_get(h.mirror, "items");
    int same = json_equal(state, h.mirror);
    printf("the mirror %s the state after %d pages: %zu items, %zu bytes of state JSON, %d resyncs\n",
           same ? "equals" : "DIFFERS FROM", pages, items != NULL ? items->length : 0, state_bytes, h.resyncs);
    json_free(state);
    json_free(h.mirror);
    corelogic_system_free(search);
    return same ? 0 : 1;
}
