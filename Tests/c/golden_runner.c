/* The golden files (docs/golden-files.md) run through libcorelogic exactly as a C host
 * sees it. Verdicts and FAIL lines match the Swift in-process runner
 * (Tests/CoreLogicTests/Golden/GoldenRunner.swift), except for quoted messages: library
 * errors come from corelogic_last_error(), which starts with the function's name, and a
 * golden file that is not valid JSON is described by this runner's own parser (json.c).
 *
 * Every file runs a second time in patch mode (CORELOGIC_OUTPUT_PATCH set right after
 * creation, every query of the feature watched): each batch's patch is applied to a
 * mirror of the state (json_patch_apply), the mirror is what is compared with the
 * step's expected state, each patch must continue from the previous one (base ==
 * the mirror's revision, revision == base + steps), and "queries" must carry exactly
 * the watched queries whose value changed (checked against corelogic_system_query).
 *
 * Usage: golden_runner [golden-directory]   (default Examples/Cookbook/golden)
 * Ends with "golden-c: N passed, N failed" and "golden-c-patch: N passed, N failed";
 * exit status 1 on any failure. */
#define _GNU_SOURCE
#include <corelogic.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"

/* ------------------------------------------------------------------------------
 * Failure lines
 * ---------------------------------------------------------------------------- */

typedef struct {
    char **lines;
    size_t count, capacity;
} lines;

static void add_line(lines *out, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *line = NULL;
    if (vasprintf(&line, format, args) < 0) line = NULL;
    va_end(args);
    if (line == NULL) { perror("golden_runner"); exit(2); }
    if (out->count == out->capacity) {
        out->capacity = out->capacity ? out->capacity * 2 : 8;
        out->lines = realloc(out->lines, out->capacity * sizeof *out->lines);
        if (out->lines == NULL) { perror("golden_runner"); exit(2); }
    }
    out->lines[out->count++] = line;
}

/* Moves every line of `from` into `to`, each prefixed with `prefix`. */
static void add_prefixed(lines *to, lines *from, const char *prefix) {
    for (size_t i = 0; i < from->count; i++) {
        add_line(to, "%s%s", prefix, from->lines[i]);
        free(from->lines[i]);
    }
    free(from->lines);
    *from = (lines){0};
}

static void free_lines(lines *l) {
    for (size_t i = 0; i < l->count; i++) free(l->lines[i]);
    free(l->lines);
    *l = (lines){0};
}

/* The compact text of a value for messages; a static-lifetime fallback on OOM. */
static char *text_of(const json_value *v) {
    char *s = json_write(v);
    if (s == NULL) { perror("golden_runner"); exit(2); }
    return s;
}

/* ------------------------------------------------------------------------------
 * Semantic comparison (JSONDiff.swift): objects by key, numbers by value
 * ---------------------------------------------------------------------------- */

static int is_number(const json_value *v) {
    return v->kind == JSON_INT || v->kind == JSON_UINT || v->kind == JSON_DOUBLE;
}

/* Numbers by value: integers exactly, whatever their width; a double against any number
 * by its value as a double. */
static int same_number(const json_value *a, const json_value *b) {
    if (!is_number(a) || !is_number(b)) return 0;
    if (a->kind == JSON_INT && b->kind == JSON_INT) return a->integer == b->integer;
    if (a->kind == JSON_UINT && b->kind == JSON_UINT) return a->uinteger == b->uinteger;
    if (a->kind == JSON_INT && b->kind == JSON_UINT) return a->integer >= 0 && (uint64_t)a->integer == b->uinteger;
    if (a->kind == JSON_UINT && b->kind == JSON_INT) return b->integer >= 0 && (uint64_t)b->integer == a->uinteger;
    return a->number == b->number;
}

/* Strict equality of scalars of the same kind (numbers are compared by value first). */
static int same_scalar(const json_value *a, const json_value *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case JSON_NULL: return 1;
    case JSON_BOOL: return a->boolean == b->boolean;
    case JSON_STRING: return a->length == b->length && memcmp(a->string, b->string, a->length) == 0;
    default: return 0;
    }
}

/* Structural equality, objects in order (JSONValue ==), for mixed kinds under numbers. */
static int strictly_equal(const json_value *a, const json_value *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case JSON_INT: return a->integer == b->integer;
    case JSON_UINT: return a->uinteger == b->uinteger;
    case JSON_DOUBLE: return a->number == b->number;
    case JSON_ARRAY:
    case JSON_OBJECT:
        if (a->length != b->length) return 0;
        for (size_t i = 0; i < a->length; i++) {
            if (a->kind == JSON_OBJECT && strcmp(a->keys[i], b->keys[i]) != 0) return 0;
            if (!strictly_equal(a->items[i], b->items[i])) return 0;
        }
        return 1;
    default: return same_scalar(a, b);
    }
}

static void differences(const json_value *expected, const json_value *actual, const char *path, lines *out) {
    if (expected->kind == JSON_OBJECT && actual->kind == JSON_OBJECT) {
        for (size_t i = 0; i < expected->length; i++) {
            char *item_path = NULL;
            if (asprintf(&item_path, "%s.%s", path, expected->keys[i]) < 0) exit(2);
            const json_value *other = json_get(actual, expected->keys[i]);
            if (other != NULL) {
                differences(expected->items[i], other, item_path, out);
            } else {
                char *e = text_of(expected->items[i]);
                add_line(out, "%s: expected %s, missing", item_path, e);
                free(e);
            }
            free(item_path);
        }
        for (size_t i = 0; i < actual->length; i++) {
            if (json_get(expected, actual->keys[i]) != NULL) continue;
            char *a = text_of(actual->items[i]);
            add_line(out, "%s.%s: not expected, got %s", path, actual->keys[i], a);
            free(a);
        }
        return;
    }
    if (expected->kind == JSON_ARRAY && actual->kind == JSON_ARRAY) {
        size_t n = expected->length > actual->length ? expected->length : actual->length;
        for (size_t i = 0; i < n; i++) {
            char *item_path = NULL;
            if (asprintf(&item_path, "%s[%zu]", path, i) < 0) exit(2);
            if (i >= actual->length) {
                char *e = text_of(expected->items[i]);
                add_line(out, "%s: expected %s, missing", item_path, e);
                free(e);
            } else if (i >= expected->length) {
                char *a = text_of(actual->items[i]);
                add_line(out, "%s: not expected, got %s", item_path, a);
                free(a);
            } else {
                differences(expected->items[i], actual->items[i], item_path, out);
            }
            free(item_path);
        }
        return;
    }
    if (same_number(expected, actual) || strictly_equal(expected, actual)) return;
    char *e = text_of(expected), *a = text_of(actual);
    add_line(out, "%s: expected %s, got %s", path, e, a);
    free(e);
    free(a);
}

/* ------------------------------------------------------------------------------
 * One step, described in the shape of an `expect` object
 * ---------------------------------------------------------------------------- */

/* A structural problem with the file itself: reported once, and the file stops there. */
typedef struct {
    char *message;   /* NULL when the step ran */
} abort_reason;

static char *golden_status(int status) {
    if (status == CORELOGIC_OK) return strdup("ok");
    if (status == CORELOGIC_STALE) return strdup("stale");
    const char *name = corelogic_status_name(status);
    const char *prefix = "CORELOGIC_ERR_";
    if (strncmp(name, prefix, strlen(prefix)) == 0) name += strlen(prefix);
    char *out = malloc(strlen("error:") + strlen(name) + 1);
    if (out == NULL) exit(2);
    strcpy(out, "error:");
    char *p = out + strlen(out);
    for (; *name; name++) *p++ = (char)(*name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name);
    *p = '\0';
    return out;
}

static int effect_id(const json_value *v, uint64_t *out) {
    if (v != NULL && v->kind == JSON_INT && v->integer >= 0) { *out = (uint64_t)v->integer; return 1; }
    if (v != NULL && v->kind == JSON_UINT) { *out = v->uinteger; return 1; }
    return 0;
}

static char *state_text(corelogic_system system) {
    char *json = NULL;
    if (corelogic_system_state(system, &json) != CORELOGIC_OK) {
        fprintf(stderr, "golden_runner: corelogic_system_state: %s\n", corelogic_last_error());
        exit(2);
    }
    return json;
}

static json_value *parse_library_output(const char *text) {
    char error[256];
    json_value *v = json_parse(text, strlen(text), error, sizeof error);
    if (v == NULL) {
        fprintf(stderr, "golden_runner: the library returned invalid JSON (%s): %s\n", error, text);
        exit(2);
    }
    return v;
}

/* ------------------------------------------------------------------------------
 * Patch mode: the host's mirror of the state
 * ---------------------------------------------------------------------------- */

typedef struct {
    json_value *mirror;      /* the state as the patches so far make it */
    int64_t revision;        /* the revision the mirror is at */
    json_value *names;       /* the watched queries (array of strings) */
    json_value *known;       /* their values as of the last batch (object) */
    lines problems;          /* what the last batch got wrong */
} patch_host;

static int64_t int_member(const json_value *object, const char *key, int *ok) {
    const json_value *v = json_get(object, key);
    if (v == NULL || v->kind != JSON_INT) { *ok = 0; return -1; }
    return v->integer;
}

/* Makes the mirror the library's current state and revision (after a problem, so the
 * following steps are still checked). */
static void resync_mirror(patch_host *host, corelogic_system system) {
    char *text = NULL;
    int status = corelogic_system_resync(system, &text);
    if (status != CORELOGIC_OK) {
        add_line(&host->problems, "corelogic_system_resync: %s: %s", corelogic_status_name(status), corelogic_last_error());
        return;
    }
    json_value *current = parse_library_output(text);
    corelogic_free(text);
    int ok = 1;
    int64_t revision = int_member(current, "revision", &ok);
    const json_value *state = json_get(current, "state");
    if (!ok || state == NULL) {
        add_line(&host->problems, "corelogic_system_resync: no \"revision\" or \"state\"");
    } else {
        json_free(host->mirror);
        host->mirror = json_copy(state);
        host->revision = revision;
    }
    json_free(current);
}

static json_value *query_value(corelogic_system system, const char *name) {
    char *text = NULL;
    int status = corelogic_system_query(system, name, &text);
    if (status != CORELOGIC_OK) {
        fprintf(stderr, "golden_runner: corelogic_system_query(%s): %s\n", name, corelogic_last_error());
        exit(2);
    }
    json_value *value = parse_library_output(text);
    corelogic_free(text);
    return value;
}

/* Takes in a patch-mode batch: checks its continuity and its queries, applies its patch
 * to the mirror. Problems go to host->problems. */
static void absorb_patch(patch_host *host, corelogic_system system, const json_value *batch) {
    int ok = 1;
    int64_t revision = int_member(batch, "revision", &ok), base = int_member(batch, "base", &ok);
    int64_t steps = int_member(batch, "steps", &ok);
    const json_value *patch = json_get(batch, "patch");
    if (!ok || patch == NULL) {
        char *b = text_of(batch);
        add_line(&host->problems, "not a patch batch: %s", b);
        free(b);
        resync_mirror(host, system);
        return;
    }
    if (json_get(batch, "state") != NULL) add_line(&host->problems, "a patch batch also carries \"state\"");
    if (base != host->revision || revision != base + steps) {
        add_line(&host->problems, "base %lld, revision %lld after %lld steps: expected base %lld, revision %lld",
                 (long long)base, (long long)revision, (long long)steps, (long long)host->revision,
                 (long long)(host->revision + steps));
        resync_mirror(host, system);
    } else {
        char error[256];
        if (json_patch_apply(&host->mirror, patch, error, sizeof error) != 0) {
            add_line(&host->problems, "the patch does not apply to the mirror: %s", error);
            resync_mirror(host, system);
        } else {
            host->revision = revision;
        }
    }

    /* Exactly the watched queries whose value changed, with their new values. */
    if (host->names->length == 0) return;   /* nothing watched */
    const json_value *queries = json_get(batch, "queries");
    if (queries == NULL || queries->kind != JSON_OBJECT) {
        add_line(&host->problems, "no \"queries\" object although queries are watched");
        return;
    }
    for (size_t i = 0; i < queries->length; i++) {
        if (json_get(host->known, queries->keys[i]) == NULL) add_line(&host->problems, "queries.%s: not watched", queries->keys[i]);
    }
    for (size_t i = 0; i < host->names->length; i++) {
        const char *name = host->names->items[i]->string;
        json_value *now = query_value(system, name);
        const json_value *sent = json_get(queries, name);
        int changed = !json_equal(now, json_get(host->known, name));
        if (changed && (sent == NULL || !json_equal(sent, now))) {
            char *n = text_of(now), *g = sent != NULL ? text_of(sent) : strdup("nothing");
            add_line(&host->problems, "queries.%s: changed to %s, the batch says %s", name, n, g);
            free(n); free(g);
        } else if (!changed && sent != NULL) {
            char *g = text_of(sent);
            add_line(&host->problems, "queries.%s: unchanged, but the batch carries %s", name, g);
            free(g);
        }
        json_set(host->known, name, now);
    }
}

/* Runs one step; returns the actual outcome, or NULL with *why set for a step the file
 * cannot express (GoldenRunner.perform's Failure). With a patch host, an OK batch's
 * state is the host's mirror after applying the batch's patch. */
static json_value *perform(const char *action, const json_value *argument, corelogic_system system, patch_host *host, char **why) {
    char *before = state_text(system);
    char *batch = NULL, *query_value = NULL;
    int status;
    *why = NULL;

    if (strcmp(action, "send") == 0) {
        char *event = text_of(argument);
        status = corelogic_system_send(system, event, &batch);
        free(event);
    } else if (strcmp(action, "sendRaw") == 0) {
        if (argument->kind != JSON_STRING) { *why = strdup("sendRaw takes a string"); goto fail; }
        status = corelogic_system_send(system, argument->string, &batch);
    } else if (strcmp(action, "deliver") == 0) {
        uint64_t id;
        if (!effect_id(json_get(argument, "effect"), &id)) {
            *why = strdup("expected an effect id (a non-negative integer)");
            goto fail;
        }
        const json_value *raw = json_get(argument, "raw");
        if (raw != NULL && raw->kind == JSON_STRING) {
            status = corelogic_system_deliver(system, id, raw->string, &batch);
        } else {
            const json_value *event = json_get(argument, "event");
            if (event == NULL) { *why = strdup("deliver needs \"event\" or \"raw\""); goto fail; }
            char *text = text_of(event);
            status = corelogic_system_deliver(system, id, text, &batch);
            free(text);
        }
    } else if (strcmp(action, "complete") == 0) {
        uint64_t id;
        const json_value *effect = json_get(argument, "effect");
        if (!effect_id(effect != NULL ? effect : argument, &id)) {
            *why = strdup("expected an effect id (a non-negative integer)");
            goto fail;
        }
        status = corelogic_system_complete(system, id, &batch);
    } else if (strcmp(action, "query") == 0) {
        if (argument->kind != JSON_STRING) { *why = strdup("query takes a query name"); goto fail; }
        status = corelogic_system_query(system, argument->string, &query_value);
    } else {
        if (asprintf(why, "unknown action '%s'; actions: send, sendRaw, deliver, complete, query", action) < 0) exit(2);
        goto fail;
    }

    json_value *actual = json_new_object();
    char *name = golden_status(status);
    json_set(actual, "status", json_new_string(name));
    free(name);
    if (status == CORELOGIC_OK && query_value != NULL) {
        json_set(actual, "value", parse_library_output(query_value));
    } else if (status == CORELOGIC_OK) {
        json_value *parsed = parse_library_output(batch);
        if (host != NULL) absorb_patch(host, system, parsed);
        const json_value *state = host != NULL ? host->mirror : json_get(parsed, "state");
        const json_value *effects = json_get(parsed, "effects");
        const json_value *steps = json_get(parsed, "steps");
        json_set(actual, "state", state != NULL ? json_copy(state) : json_new_null());
        json_set(actual, "effects", effects != NULL ? json_copy(effects) : json_new_array());
        if (steps != NULL && steps->kind == JSON_INT && steps->integer != 1) json_set(actual, "steps", json_new_int(steps->integer));
        json_free(parsed);
    } else {
        /* Copy the message first: the state call below replaces this thread's last error. */
        char *message = strdup(corelogic_last_error());
        char *after = state_text(system);
        if (strcmp(before, after) != 0) {
            char *status_name = golden_status(status);
            char *note = NULL;
            if (asprintf(&note, "the state changed on a %s input", status_name) < 0) exit(2);
            json_set(actual, "stateChanged", json_new_string(note));
            free(note);
            free(status_name);
        }
        if (message[0] != '\0') json_set(actual, "message", json_new_string(message));
        free(message);
        corelogic_free(after);
    }
    corelogic_free(batch);
    corelogic_free(query_value);
    corelogic_free(before);
    return actual;

fail:
    corelogic_free(before);
    if (*why == NULL) exit(2);
    return NULL;
}

/* Checks an `expect` object against what happened (GoldenRunner.compare). */
static void compare(const json_value *expected, const json_value *actual, lines *out) {
    if (expected->kind != JSON_OBJECT) { add_line(out, "expect is not an object"); return; }
    const json_value *changed = json_get(actual, "stateChanged");
    if (changed != NULL) { char *c = text_of(changed); add_line(out, "%s", c); free(c); }
    for (size_t i = 0; i < expected->length; i++) {
        const char *key = expected->keys[i];
        const json_value *value = expected->items[i];
        if (strcmp(key, "error") == 0) {
            if (value->kind != JSON_STRING) { add_line(out, "error: expected a string"); continue; }
            const json_value *message = json_get(actual, "message");
            const char *text = message != NULL && message->kind == JSON_STRING ? message->string : "";
            if (strstr(text, value->string) == NULL) {
                json_value *got = json_new_string(text);
                char *e = text_of(value), *g = text_of(got);
                add_line(out, "error: expected a message containing %s, got %s", e, g);
                free(e); free(g); json_free(got);
            }
            continue;
        }
        const json_value *other = json_get(actual, key);
        if (other == NULL) {
            const json_value *status = json_get(actual, "status");
            char *e = text_of(value);
            char *s = status != NULL ? text_of(status) : strdup("?");
            add_line(out, "%s: expected %s, missing (status %s)", key, e, s);
            free(e); free(s);
            continue;
        }
        char *path = NULL;
        if (strcmp(key, "status") == 0) path = strdup("status");
        else if (asprintf(&path, "$.%s", key) < 0) path = NULL;
        if (path == NULL) exit(2);
        differences(value, other, path, out);
        free(path);
    }
}

/* ------------------------------------------------------------------------------
 * One file
 * ---------------------------------------------------------------------------- */

/* The feature's query names, from corelogic_features (an array of strings). */
static json_value *feature_queries(const json_value *features, const char *feature) {
    for (size_t i = 0; features != NULL && i < features->length; i++) {
        const json_value *name = json_get(features->items[i], "name");
        if (name != NULL && name->kind == JSON_STRING && strcmp(name->string, feature) == 0) {
            const json_value *queries = json_get(features->items[i], "queries");
            if (queries != NULL) return json_copy(queries);
        }
    }
    return json_new_array();
}

/* Switches a new system to patch mode and watches every query of its feature. */
static int start_patch_mode(patch_host *host, corelogic_system system, json_value *names, lines *out) {
    char *baseline = NULL, *values = NULL;
    int status = corelogic_system_set_output(system, CORELOGIC_OUTPUT_PATCH, &baseline);
    if (status != CORELOGIC_OK) {
        add_line(out, "corelogic_system_set_output: %s: %s", corelogic_status_name(status), corelogic_last_error());
        json_free(names);
        return 0;
    }
    json_value *first = parse_library_output(baseline);
    corelogic_free(baseline);
    int ok = 1;
    host->revision = int_member(first, "revision", &ok);
    const json_value *state = json_get(first, "state");
    host->mirror = state != NULL ? json_copy(state) : json_new_null();
    if (!ok || state == NULL) add_line(out, "corelogic_system_set_output: no \"revision\" or \"state\"");
    else if (host->revision != 0) add_line(out, "corelogic_system_set_output: revision %lld right after creation, expected 0", (long long)host->revision);
    json_free(first);

    host->names = names;
    char *list = text_of(names);
    status = corelogic_system_watch_queries(system, list, &values);
    free(list);
    host->known = json_new_object();
    if (status != CORELOGIC_OK) {
        add_line(out, "corelogic_system_watch_queries: %s: %s", corelogic_status_name(status), corelogic_last_error());
        return 0;
    }
    json_value *current = parse_library_output(values);
    corelogic_free(values);
    for (size_t i = 0; i < names->length; i++) {
        const char *name = names->items[i]->string;
        json_value *now = query_value(system, name);
        const json_value *sent = json_get(current, name);
        if (sent == NULL || !json_equal(sent, now)) {
            char *n = text_of(now);
            add_line(out, "corelogic_system_watch_queries: %s is %s, missing or different in its values", name, n);
            free(n);
        }
        json_set(host->known, name, now);
    }
    if (current->length != names->length) add_line(out, "corelogic_system_watch_queries: %zu values for %zu queries", current->length, names->length);
    json_free(current);
    return 1;
}

/* Runs a parsed golden file; appends its failures to `out`. With `features` (the parsed
 * corelogic_features), runs it in patch mode. */
static void run_file(const json_value *file, const json_value *features, lines *out) {
    if (file->kind != JSON_OBJECT) { add_line(out, "the file is not a JSON object"); return; }
    const json_value *feature = json_get(file, "feature");
    if (feature == NULL || feature->kind != JSON_STRING) { add_line(out, "missing \"feature\""); return; }
    const json_value *steps = json_get(file, "steps");
    if (steps == NULL || steps->kind != JSON_ARRAY) { add_line(out, "missing \"steps\" array"); return; }

    const json_value *first = json_get(file, "state");
    char *state = first != NULL && first->kind != JSON_NULL ? text_of(first) : NULL;
    corelogic_system system = 0;
    char *initial = NULL;
    int status = corelogic_system_new(feature->string, state, &system, &initial);
    free(state);
    if (status != CORELOGIC_OK) {
        /* The Swift runner looks the feature up before it reads the state. */
        if (status == CORELOGIC_ERR_NOT_FOUND) add_line(out, "%s: %s", corelogic_status_name(status), corelogic_last_error());
        else add_line(out, "\"state\": %s: %s", corelogic_status_name(status), corelogic_last_error());
        return;
    }

    patch_host host_storage = {0};
    patch_host *host = NULL;
    if (features != NULL) {
        corelogic_free(initial);
        initial = NULL;
        host = &host_storage;
        if (!start_patch_mode(host, system, feature_queries(features, feature->string), out)) {
            json_free(host->mirror); json_free(host->names); json_free(host->known);
            corelogic_system_free(system);
            return;
        }
    }

    const json_value *expect_initial = json_get(file, "expectInitial");
    if (expect_initial != NULL && host == NULL) {
        json_value *batch = parse_library_output(initial);
        json_value *actual = json_new_object();
        const json_value *s = json_get(batch, "state"), *e = json_get(batch, "effects");
        json_set(actual, "state", s != NULL ? json_copy(s) : json_new_null());
        json_set(actual, "effects", e != NULL ? json_copy(e) : json_new_array());
        lines found = {0};
        compare(expect_initial, actual, &found);
        add_prefixed(out, &found, "expectInitial: ");
        json_free(actual);
        json_free(batch);
    }
    corelogic_free(initial);

    for (size_t i = 0; i < steps->length; i++) {
        const json_value *step = steps->items[i];
        if (step->kind != JSON_OBJECT || step->length == 0) {
            add_line(out, "step %zu: not an object whose first key is the action", i + 1);
            break;
        }
        const char *action = step->keys[0];
        const json_value *expected = json_get(step, "expect");
        json_value *empty = NULL;
        if (expected == NULL) expected = empty = json_new_object();
        char *why = NULL;
        json_value *actual = perform(action, step->items[0], system, host, &why);
        if (actual == NULL) {
            add_line(out, "step %zu (%s): %s", i + 1, action, why);
            free(why);
            json_free(empty);
            break;
        }
        lines found = {0};
        compare(expected, actual, &found);
        char *prefix = NULL;
        if (asprintf(&prefix, "step %zu (%s): ", i + 1, action) < 0) exit(2);
        add_prefixed(out, &found, prefix);
        if (host != NULL) add_prefixed(out, &host->problems, prefix);

        /* A step the file says succeeds but that no longer decodes stops the file, as in
         * the Swift runner (whose update mode would refuse to rewrite it). */
        const json_value *was = json_get(expected, "status");
        const json_value *now = json_get(actual, "status");
        int stop = 0;
        if (was != NULL && was->kind == JSON_STRING && (strcmp(was->string, "ok") == 0 || strcmp(was->string, "stale") == 0)
            && now != NULL && strncmp(now->string, "error:", 6) == 0) {
            const json_value *message = json_get(actual, "message");
            char *shown = message != NULL ? text_of(message) : strdup(now->string);
            add_line(out, "step %zu (%s) no longer decodes: %s", i + 1, action, shown);
            free(shown);
            stop = 1;
        }
        free(prefix);
        json_free(actual);
        json_free(empty);
        if (stop) break;
    }
    if (host != NULL) {
        /* After the last step the mirror is the state, at the library's revision. */
        char *text = state_text(system);
        json_value *state = parse_library_output(text);
        corelogic_free(text);
        if (!json_equal(state, host->mirror)) {
            char *m = text_of(host->mirror), *s = text_of(state);
            add_line(out, "at the end the mirror is %s, the state %s", m, s);
            free(m); free(s);
        }
        json_free(state);
        int64_t revision = host->revision;
        resync_mirror(host, system);
        if (host->revision != revision) add_line(out, "at the end the mirror is at revision %lld, the system at %lld", (long long)revision, (long long)host->revision);
        add_prefixed(out, &host->problems, "");
        json_free(host->mirror); json_free(host->names); json_free(host->known);
    }
    corelogic_system_free(system);
}

/* ------------------------------------------------------------------------------
 * The directory walk
 * ---------------------------------------------------------------------------- */

typedef struct {
    char **paths;
    size_t count, capacity;
} path_list;

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Collects the .json files in the subdirectories of `dir` (its top level holds schema.json). */
static void collect(const char *dir, int depth, path_list *out) {
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char *path = NULL;
        if (asprintf(&path, "%s/%s", dir, entry->d_name) < 0) exit(2);
        struct stat info;
        if (stat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
            collect(path, depth + 1, out);
            free(path);
        } else if (depth > 0 && ends_with(entry->d_name, ".json")) {
            if (out->count == out->capacity) {
                out->capacity = out->capacity ? out->capacity * 2 : 32;
                out->paths = realloc(out->paths, out->capacity * sizeof *out->paths);
                if (out->paths == NULL) exit(2);
            }
            out->paths[out->count++] = path;
        } else {
            free(path);
        }
    }
    closedir(d);
}

static int by_path(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    char *bytes = NULL;
    size_t used = 0, capacity = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (used + n + 1 > capacity) {
            capacity = (used + n + 1) * 2;
            char *grown = realloc(bytes, capacity);
            if (grown == NULL) { free(bytes); fclose(f); return NULL; }
            bytes = grown;
        }
        memcpy(bytes + used, chunk, n);
        used += n;
    }
    fclose(f);
    if (bytes == NULL) bytes = calloc(1, 1);
    else bytes[used] = '\0';
    *length = used;
    return bytes;
}

/* <root>/comparisons.json, if there is one: the cases every host's comparator must agree
 * on (docs/golden-files.md). Prints "comparisons-c: N passed, N failed"; returns the
 * number failed. */
static int check_comparisons(const char *root) {
    char *path = NULL;
    if (asprintf(&path, "%s/comparisons.json", root) < 0) exit(2);
    size_t length = 0;
    char *text = read_file(path, &length);
    free(path);
    if (text == NULL) return 0;
    char error[256];
    json_value *file = json_parse(text, length, error, sizeof error);
    free(text);
    const json_value *cases = file != NULL ? json_get(file, "cases") : NULL;
    if (cases == NULL || cases->kind != JSON_ARRAY || cases->length == 0) {
        printf("FAIL comparisons.json: %s\n", file == NULL ? error : "no cases");
        json_free(file);
        return 1;
    }
    int passed = 0, failed = 0;
    for (size_t i = 0; i < cases->length; i++) {
        const json_value *item = cases->items[i];
        const json_value *expected = json_get(item, "expected"), *actual = json_get(item, "actual");
        const json_value *equal = json_get(item, "equal"), *where = json_get(item, "path");
        const json_value *rule = json_get(item, "rule");
        int ok = expected != NULL && actual != NULL && equal != NULL && equal->kind == JSON_BOOL;
        lines found = {0};
        if (ok) {
            differences(expected, actual, "$", &found);
            ok = (found.count == 0) == equal->boolean;
        }
        if (ok && where != NULL && where->kind == JSON_STRING) {
            ok = found.count > 0 && strncmp(found.lines[0], where->string, where->length) == 0
                 && found.lines[0][where->length] == ':';
        }
        if (ok) {
            passed++;
        } else {
            failed++;
            printf("FAIL comparisons.json: case %zu (%s): %s\n", i, rule != NULL && rule->kind == JSON_STRING ? rule->string : "?",
                   found.count > 0 ? found.lines[0] : "no difference found");
        }
        free_lines(&found);
    }
    json_free(file);
    printf("comparisons-c: %d passed, %d failed\n", passed, failed);
    return failed;
}

int main(int argc, char **argv) {
    if (corelogic_abi_version() != CORELOGIC_ABI_VERSION) {
        fprintf(stderr, "golden_runner: header ABI %d, library ABI %d\n", CORELOGIC_ABI_VERSION, corelogic_abi_version());
        return 2;
    }
    char *root = strdup(argc > 1 ? argv[1] : "Examples/Cookbook/golden");
    if (root == NULL) return 2;
    while (strlen(root) > 1 && root[strlen(root) - 1] == '/') root[strlen(root) - 1] = '\0';

    path_list files = {0};
    collect(root, 0, &files);
    if (files.count == 0) {
        fprintf(stderr, "golden_runner: no golden files under %s\n", root);
        free(root);
        return 1;
    }
    qsort(files.paths, files.count, sizeof *files.paths, by_path);

    /* Files are named from the golden directory's own name, e.g. golden/search/x.json. */
    const char *slash = strrchr(root, '/');
    size_t parent = slash != NULL ? (size_t)(slash - root) + 1 : 0;

    char *features_text = NULL;
    if (corelogic_features(&features_text) != CORELOGIC_OK) {
        fprintf(stderr, "golden_runner: corelogic_features: %s\n", corelogic_last_error());
        return 2;
    }
    json_value *features = parse_library_output(features_text);
    corelogic_free(features_text);

    int passed = 0, failed = 0, patch_passed = 0, patch_failed = 0;
    for (size_t i = 0; i < files.count; i++) {
        const char *name = files.paths[i] + parent;
        size_t length = 0;
        char *text = read_file(files.paths[i], &length);
        if (text == NULL) {
            printf("FAIL %s: cannot read the file\n", name);
            failed++;
            free(files.paths[i]);
            continue;
        }
        char error[256];
        json_value *file = json_parse(text, length, error, sizeof error);
        free(text);
        if (file == NULL) {
            printf("FAIL %s: %s\n", name, error);
            failed++;
            free(files.paths[i]);
            continue;
        }
        lines found = {0};
        run_file(file, NULL, &found);
        if (found.count == 0) {
            passed++;
        } else {
            failed++;
            for (size_t k = 0; k < found.count; k++) printf("FAIL %s: %s\n", name, found.lines[k]);
        }
        free_lines(&found);
        run_file(file, features, &found);
        if (found.count == 0) {
            patch_passed++;
        } else {
            patch_failed++;
            for (size_t k = 0; k < found.count; k++) printf("FAIL %s (patch mode): %s\n", name, found.lines[k]);
        }
        free_lines(&found);
        json_free(file);
        free(files.paths[i]);
    }
    json_free(features);
    free(files.paths);
    printf("golden-c: %d passed, %d failed\n", passed, failed);
    printf("golden-c-patch: %d passed, %d failed\n", patch_passed, patch_failed);
    int comparisons_failed = check_comparisons(root);
    free(root);
    return failed == 0 && patch_failed == 0 && comparisons_failed == 0 ? 0 : 1;
}
