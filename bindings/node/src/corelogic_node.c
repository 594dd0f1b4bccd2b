/* The Node-API addon between lib/corelogic.js and libcorelogic.
 *
 * Thin on purpose: each function checks the types of its arguments, copies them in,
 * makes one corelogic_* call and returns the result; the JavaScript layer validates
 * values and builds the API. Node-API (not V8's C++ API) keeps the addon working across
 * Node versions without a rebuild.
 *
 *  - Handles are the library's 64-bit handles as BigInts; the library detects freed and
 *    foreign handles, so nothing here dereferences a stale pointer.
 *  - Strings arrive as JS strings (well-formed ones) or as Buffers of UTF-8 the JS layer
 *    encoded itself (a lone surrogate stays invalid UTF-8 for the library to reject).
 *  - Errors: a failing status throws the object built by the JS error factory
 *    (setCallbacks), from the status and corelogic_last_error().
 *  - Handlers run synchronously on the thread that made the call. The addon only calls
 *    JavaScript on a thread whose environment is making a call into it (the thread-local
 *    `current_env`): a handler reached from any other thread is not called, so JS is
 *    never entered from a foreign thread. The context pointer is the system's handle;
 *    the JS dispatcher looks the system up by it, so no native state outlives a call.
 *  - The addon does not link libcorelogic: open(path) loads it (corelogic_dl.h) before
 *    any other function is called; lib/corelogic.js does that on first use. */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corelogic_dl.h" /* the library is dlopen()ed by path: open(path) below */

typedef struct {
    napi_ref error_factory; /* (status, message) => Error */
    napi_ref dispatch;      /* (kind, handle, json) => void */
} instance;

static _Thread_local napi_env current_env;

enum { KIND_COMMAND = 0, KIND_STATE = 1 };

/* ---- helpers ---------------------------------------------------------------- */

#define CHECK(call) do { if ((call) != napi_ok) return NULL; } while (0)

static instance *instance_of(napi_env env) {
    instance *data = NULL;
    if (napi_get_instance_data(env, (void **)&data) != napi_ok) return NULL;
    return data;
}

static void throw_type(napi_env env, const char *message) {
    napi_throw_type_error(env, "ERR_CORELOGIC_ARGUMENT", message);
}

/* Throws the JS error for `status` with this thread's last error message. */
static void throw_status(napi_env env, int status) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
    const char *message = corelogic_last_error();
    instance *data = instance_of(env);
    napi_value factory, args[2], error, undefined;
    if (data == NULL || data->error_factory == NULL ||
        napi_get_reference_value(env, data->error_factory, &factory) != napi_ok ||
        napi_create_int32(env, status, &args[0]) != napi_ok ||
        napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &args[1]) != napi_ok ||
        napi_get_undefined(env, &undefined) != napi_ok ||
        napi_call_function(env, undefined, factory, 2, args, &error) != napi_ok) {
        if (napi_is_exception_pending(env, &pending) == napi_ok && !pending) {
            napi_throw_error(env, corelogic_status_name(status), message);
        }
        return;
    }
    napi_throw(env, error);
}

/* A malloc'd, NUL-terminated copy of a string or Buffer argument; NULL for null or
 * undefined (with *ok = 1) or on a type error (thrown, *ok = 0). */
static char *text_arg(napi_env env, napi_value value, const char *what, int *ok) {
    *ok = 0;
    napi_valuetype type;
    if (napi_typeof(env, value, &type) != napi_ok) return NULL;
    if (type == napi_null || type == napi_undefined) { *ok = 1; return NULL; }
    if (type == napi_string) {
        size_t length = 0;
        if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
        char *text = malloc(length + 1);
        if (text == NULL) { napi_throw_error(env, NULL, "corelogic: out of memory"); return NULL; }
        if (napi_get_value_string_utf8(env, value, text, length + 1, &length) != napi_ok) { free(text); return NULL; }
        *ok = 1;
        return text;
    }
    bool is_buffer = false;
    if (napi_is_buffer(env, value, &is_buffer) == napi_ok && is_buffer) {
        void *bytes = NULL;
        size_t length = 0;
        if (napi_get_buffer_info(env, value, &bytes, &length) != napi_ok) return NULL;
        char *text = malloc(length + 1);
        if (text == NULL) { napi_throw_error(env, NULL, "corelogic: out of memory"); return NULL; }
        if (length > 0) memcpy(text, bytes, length);
        text[length] = '\0';
        *ok = 1;
        return text;
    }
    char message[128];
    snprintf(message, sizeof message, "%s must be a string or a Buffer", what);
    throw_type(env, message);
    return NULL;
}

/* A 64-bit unsigned integer argument: a BigInt, or a non-negative safe-integer Number. */
static int u64_arg(napi_env env, napi_value value, const char *what, uint64_t *out) {
    napi_valuetype type;
    if (napi_typeof(env, value, &type) != napi_ok) return 0;
    if (type == napi_bigint) {
        bool lossless = false;
        if (napi_get_value_bigint_uint64(env, value, out, &lossless) == napi_ok && lossless) return 1;
    } else if (type == napi_number) {
        double number = 0;
        if (napi_get_value_double(env, value, &number) == napi_ok && number >= 0 &&
            number <= 9007199254740991.0 && number == (double)(uint64_t)number) {
            *out = (uint64_t)number;
            return 1;
        }
    }
    char message[128];
    snprintf(message, sizeof message, "%s must be an unsigned 64-bit integer (a BigInt or a safe Number)", what);
    throw_type(env, message);
    return 0;
}

static napi_value string_value(napi_env env, const char *text) {
    napi_value out;
    if (napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &out) != napi_ok) return NULL;
    return out;
}

/* A string the library returned, as a JS string; frees it. */
static napi_value take(napi_env env, char *text) {
    napi_value out = text != NULL ? string_value(env, text) : NULL;
    corelogic_free(text);
    if (out == NULL && text == NULL) napi_get_null(env, &out);
    return out;
}

static napi_value handle_value(napi_env env, corelogic_system system) {
    napi_value out;
    if (napi_create_bigint_uint64(env, system, &out) != napi_ok) return NULL;
    return out;
}

/* Fetches up to `count` arguments; sets current_env (the calling thread is JS's). */
static int arguments(napi_env env, napi_callback_info info, size_t count, napi_value *args) {
    size_t given = count;
    current_env = env;
    if (napi_get_cb_info(env, info, &given, args, NULL, NULL) != napi_ok) return 0;
    for (size_t i = given; i < count; i++) napi_get_undefined(env, &args[i]);
    return 1;
}

static int handle_arg(napi_env env, napi_value value, corelogic_system *out) {
    return u64_arg(env, value, "handle", out);
}

static int flag_arg(napi_env env, napi_value value) {
    bool flag = false;
    napi_get_value_bool(env, value, &flag);
    return flag;
}

/* Fetches `count` arguments, the first a system's handle, read into *system. */
static int system_arguments(napi_env env, napi_callback_info info, size_t count, napi_value *args,
                            corelogic_system *system) {
    return arguments(env, info, count, args) && handle_arg(env, args[0], system);
}

/* Fetches two string arguments as malloc'd copies (NULL for null); 0, with the error
 * thrown and nothing to free, if one is not a string. */
static int two_texts(napi_env env, napi_callback_info info, const char *first_what, char **first,
                     const char *second_what, char **second) {
    napi_value args[2];
    if (!arguments(env, info, 2, args)) return 0;
    int ok;
    *first = text_arg(env, args[0], first_what, &ok);
    if (!ok) return 0;
    *second = text_arg(env, args[1], second_what, &ok);
    if (!ok) { free(*first); return 0; }
    return 1;
}

/* A string the library returned with `status`, as a JS string (freed); or the error thrown. */
static napi_value string_result(napi_env env, int status, char *out) {
    if (status != CORELOGIC_OK) { throw_status(env, status); return NULL; }
    return take(env, out);
}

/* A JS array of `count` values; NULL when one of them is NULL (not created). */
static napi_value array_of(napi_env env, napi_value *values, uint32_t count) {
    napi_value array;
    for (uint32_t i = 0; i < count; i++) if (values[i] == NULL) return NULL;
    if (napi_create_array_with_length(env, count, &array) != napi_ok) return NULL;
    for (uint32_t i = 0; i < count; i++) napi_set_element(env, array, i, values[i]);
    return array;
}

/* ---- library ---------------------------------------------------------------- */

static napi_value js_set_callbacks(napi_env env, napi_callback_info info) {
    napi_value args[2];
    if (!arguments(env, info, 2, args)) return NULL;
    instance *data = instance_of(env);
    if (data == NULL) return NULL;
    if (data->error_factory != NULL) napi_delete_reference(env, data->error_factory);
    if (data->dispatch != NULL) napi_delete_reference(env, data->dispatch);
    data->error_factory = data->dispatch = NULL;
    CHECK(napi_create_reference(env, args[0], 1, &data->error_factory));
    CHECK(napi_create_reference(env, args[1], 1, &data->dispatch));
    return NULL;
}

/* open(path): loads libcorelogic from path (once per process); null, or why it cannot. */
static napi_value js_open(napi_env env, napi_callback_info info) {
    napi_value args[1];
    if (!arguments(env, info, 1, args)) return NULL;
    int ok;
    char *path = text_arg(env, args[0], "path", &ok);
    if (!ok) return NULL;
    const char *error = corelogic_dl_open(path);
    free(path);
    if (error == NULL) { napi_value null; CHECK(napi_get_null(env, &null)); return null; }
    return string_value(env, error);
}

static napi_value js_version(napi_env env, napi_callback_info info) {
    (void)info;
    return string_value(env, corelogic_version());
}

static napi_value js_abi_version(napi_env env, napi_callback_info info) {
    (void)info;
    napi_value out;
    CHECK(napi_create_int32(env, corelogic_abi_version(), &out));
    return out;
}

static napi_value js_status_name(napi_env env, napi_callback_info info) {
    napi_value args[1];
    if (!arguments(env, info, 1, args)) return NULL;
    int32_t status = 0;
    if (napi_get_value_int32(env, args[0], &status) != napi_ok) { throw_type(env, "status must be a number"); return NULL; }
    return string_value(env, corelogic_status_name(status));
}

static napi_value js_features(napi_env env, napi_callback_info info) {
    (void)info;
    char *out = NULL;
    current_env = env;
    int status = corelogic_features(&out);
    return string_result(env, status, out);
}

/* ---- systems ---------------------------------------------------------------- */

/* systemNew(feature, state | null) -> [handle, creationBatch] */
static napi_value js_system_new(napi_env env, napi_callback_info info) {
    char *feature, *state;
    if (!two_texts(env, info, "feature", &feature, "state", &state)) return NULL;
    corelogic_system system = 0;
    char *batch = NULL;
    int status = corelogic_system_new(feature, state, &system, &batch);
    free(feature);
    free(state);
    if (status != CORELOGIC_OK) { throw_status(env, status); return NULL; }
    napi_value values[2] = {handle_value(env, system), take(env, batch)};
    napi_value pair = array_of(env, values, 2);
    if (pair == NULL) corelogic_system_free(system);
    return pair;
}

typedef int (*system_fn)(corelogic_system);

static napi_value system_call(napi_env env, napi_callback_info info, system_fn function) {
    napi_value args[1];
    corelogic_system system;
    if (!system_arguments(env, info, 1, args, &system)) return NULL;
    int status = function(system);
    if (status != CORELOGIC_OK) throw_status(env, status);
    return NULL;
}

static napi_value js_system_free(napi_env env, napi_callback_info info) {
    return system_call(env, info, corelogic_system_free);
}

/* What an input returns: the batch string (wanted), true (OK, no batch wanted), or null
 * (STALE); an error is thrown. */
static napi_value input_result(napi_env env, int status, char *batch) {
    napi_value out;
    if (status == CORELOGIC_OK) {
        if (batch != NULL) return take(env, batch);
        CHECK(napi_get_boolean(env, true, &out));
        return out;
    }
    corelogic_free(batch);
    if (status == CORELOGIC_STALE) {
        CHECK(napi_get_null(env, &out));
        return out;
    }
    throw_status(env, status);
    return NULL;
}

/* send(handle, event, wantBatch) */
static napi_value js_send(napi_env env, napi_callback_info info) {
    napi_value args[3];
    corelogic_system system;
    if (!system_arguments(env, info, 3, args, &system)) return NULL;
    int ok;
    char *event = text_arg(env, args[1], "event", &ok);
    if (!ok) return NULL;
    char *batch = NULL;
    int status = corelogic_system_send(system, event, flag_arg(env, args[2]) ? &batch : NULL);
    free(event);
    return input_result(env, status, batch);
}

/* deliver(handle, effectId, event, wantBatch) */
static napi_value js_deliver(napi_env env, napi_callback_info info) {
    napi_value args[4];
    corelogic_system system;
    uint64_t effect;
    if (!system_arguments(env, info, 4, args, &system) || !u64_arg(env, args[1], "effect id", &effect)) return NULL;
    int ok;
    char *event = text_arg(env, args[2], "event", &ok);
    if (!ok) return NULL;
    char *batch = NULL;
    int status = corelogic_system_deliver(system, effect, event, flag_arg(env, args[3]) ? &batch : NULL);
    free(event);
    return input_result(env, status, batch);
}

/* complete(handle, effectId, wantBatch) */
static napi_value js_complete(napi_env env, napi_callback_info info) {
    napi_value args[3];
    corelogic_system system;
    uint64_t effect;
    if (!system_arguments(env, info, 3, args, &system) || !u64_arg(env, args[1], "effect id", &effect)) return NULL;
    char *batch = NULL;
    int status = corelogic_system_complete(system, effect, flag_arg(env, args[2]) ? &batch : NULL);
    return input_result(env, status, batch);
}

typedef int (*read_fn)(corelogic_system, char **);

static napi_value read_call(napi_env env, napi_callback_info info, read_fn function) {
    napi_value args[1];
    corelogic_system system;
    if (!system_arguments(env, info, 1, args, &system)) return NULL;
    char *out = NULL;
    int status = function(system, &out);
    return string_result(env, status, out);
}

static napi_value js_state(napi_env env, napi_callback_info info) {
    return read_call(env, info, corelogic_system_state);
}

static napi_value js_check(napi_env env, napi_callback_info info) {
    return read_call(env, info, corelogic_system_check);
}

static napi_value js_effects(napi_env env, napi_callback_info info) {
    return read_call(env, info, corelogic_system_effects);
}

typedef int (*text_read_fn)(corelogic_system, const char *, char **);

/* A read with one string argument: (handle, text) -> the library's string. */
static napi_value text_read_call(napi_env env, napi_callback_info info, text_read_fn function, const char *what) {
    napi_value args[2];
    corelogic_system system;
    if (!system_arguments(env, info, 2, args, &system)) return NULL;
    int ok;
    char *text = text_arg(env, args[1], what, &ok);
    if (!ok) return NULL;
    char *out = NULL;
    int status = function(system, text, &out);
    free(text);
    return string_result(env, status, out);
}

/* query(handle, name) */
static napi_value js_query(napi_env env, napi_callback_info info) {
    return text_read_call(env, info, corelogic_system_query, "query name");
}

/* ---- handlers ---------------------------------------------------------------- */

static void dispatch(int kind, void *context, const char *json) {
    napi_env env = current_env;
    if (env == NULL) return; /* not a thread that is running JavaScript: never enter JS */
    instance *data = instance_of(env);
    if (data == NULL || data->dispatch == NULL) return;
    napi_handle_scope scope;
    if (napi_open_handle_scope(env, &scope) != napi_ok) return;
    napi_value function, undefined, args[3], result;
    if (napi_get_reference_value(env, data->dispatch, &function) == napi_ok &&
        napi_get_undefined(env, &undefined) == napi_ok &&
        napi_create_int32(env, kind, &args[0]) == napi_ok &&
        napi_create_bigint_uint64(env, (uint64_t)(uintptr_t)context, &args[1]) == napi_ok &&
        napi_create_string_utf8(env, json, NAPI_AUTO_LENGTH, &args[2]) == napi_ok) {
        napi_call_function(env, undefined, function, 3, args, &result);
    }
    /* The dispatcher catches everything; an exception left here must not fail the call. */
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) {
        napi_value ignored;
        napi_get_and_clear_last_exception(env, &ignored);
    }
    napi_close_handle_scope(env, scope);
}

static void on_command(void *context, const char *json) { dispatch(KIND_COMMAND, context, json); }
static void on_state(void *context, const char *json) { dispatch(KIND_STATE, context, json); }

/* setHandler(handle, kind, install) */
static napi_value js_set_handler(napi_env env, napi_callback_info info) {
    napi_value args[3];
    corelogic_system system;
    if (!system_arguments(env, info, 3, args, &system)) return NULL;
    int32_t kind = 0;
    napi_get_value_int32(env, args[1], &kind);
    int install = flag_arg(env, args[2]);
    void *context = (void *)(uintptr_t)system;
    int status = kind == KIND_COMMAND
        ? corelogic_system_on_command(system, install ? on_command : NULL, context)
        : corelogic_system_on_state(system, install ? on_state : NULL, context);
    if (status != CORELOGIC_OK) throw_status(env, status);
    return NULL;
}

/* ---- output: patches and watched queries ------------------------------------- */

/* setOutput(handle, mode) -> '{"revision":R,"state":{...}}' */
static napi_value js_set_output(napi_env env, napi_callback_info info) {
    napi_value args[2];
    corelogic_system system;
    if (!system_arguments(env, info, 2, args, &system)) return NULL;
    int32_t mode = 0;
    if (napi_get_value_int32(env, args[1], &mode) != napi_ok) { throw_type(env, "mode must be a number"); return NULL; }
    char *out = NULL;
    int status = corelogic_system_set_output(system, mode, &out);
    return string_result(env, status, out);
}

static napi_value js_resync(napi_env env, napi_callback_info info) {
    return read_call(env, info, corelogic_system_resync);
}

/* watchQueries(handle, namesJson) -> '{"name":value,...}' */
static napi_value js_watch_queries(napi_env env, napi_callback_info info) {
    return text_read_call(env, info, corelogic_system_watch_queries, "query names");
}

/* ---- persistence ------------------------------------------------------------- */

/* openJournal(handle, directory, durability) */
static napi_value js_open_journal(napi_env env, napi_callback_info info) {
    napi_value args[3];
    corelogic_system system;
    if (!system_arguments(env, info, 3, args, &system)) return NULL;
    int ok;
    char *directory = text_arg(env, args[1], "directory", &ok);
    if (!ok) return NULL;
    int32_t durability = 0;
    napi_get_value_int32(env, args[2], &durability);
    int status = corelogic_system_open_journal(system, directory, durability);
    free(directory);
    if (status != CORELOGIC_OK) throw_status(env, status);
    return NULL;
}

static napi_value js_checkpoint(napi_env env, napi_callback_info info) {
    return system_call(env, info, corelogic_system_checkpoint);
}

static napi_value js_sync_journal(napi_env env, napi_callback_info info) {
    return system_call(env, info, corelogic_system_sync_journal);
}

static napi_value js_close_journal(napi_env env, napi_callback_info info) {
    return system_call(env, info, corelogic_system_close_journal);
}

/* restore(feature, directory) -> [handle, report, creationBatch] */
static napi_value js_restore(napi_env env, napi_callback_info info) {
    char *feature, *directory;
    if (!two_texts(env, info, "feature", &feature, "directory", &directory)) return NULL;
    corelogic_system system = 0;
    char *report = NULL, *batch = NULL;
    int status = corelogic_system_restore(feature, directory, &system, &report, &batch);
    free(feature);
    free(directory);
    if (status != CORELOGIC_OK) { throw_status(env, status); return NULL; }
    napi_value values[3] = {handle_value(env, system), take(env, report), take(env, batch)};
    napi_value triple = array_of(env, values, 3);
    if (triple == NULL) corelogic_system_free(system);
    return triple;
}

/* ---- module ------------------------------------------------------------------ */

static void finalize_instance(napi_env env, void *data, void *hint) {
    (void)hint;
    instance *state = data;
    if (state->error_factory != NULL) napi_delete_reference(env, state->error_factory);
    if (state->dispatch != NULL) napi_delete_reference(env, state->dispatch);
    if (current_env == env) current_env = NULL;
    free(state);
}

static napi_value init(napi_env env, napi_value exports) {
    instance *data = calloc(1, sizeof *data);
    if (data == NULL || napi_set_instance_data(env, data, finalize_instance, NULL) != napi_ok) {
        free(data);
        napi_throw_error(env, NULL, "corelogic: cannot set up the addon");
        return NULL;
    }
    napi_property_descriptor functions[] = {
        {"setCallbacks", NULL, js_set_callbacks, NULL, NULL, NULL, napi_default, NULL},
        {"open", NULL, js_open, NULL, NULL, NULL, napi_default, NULL},
        {"version", NULL, js_version, NULL, NULL, NULL, napi_default, NULL},
        {"abiVersion", NULL, js_abi_version, NULL, NULL, NULL, napi_default, NULL},
        {"statusName", NULL, js_status_name, NULL, NULL, NULL, napi_default, NULL},
        {"features", NULL, js_features, NULL, NULL, NULL, napi_default, NULL},
        {"systemNew", NULL, js_system_new, NULL, NULL, NULL, napi_default, NULL},
        {"systemFree", NULL, js_system_free, NULL, NULL, NULL, napi_default, NULL},
        {"send", NULL, js_send, NULL, NULL, NULL, napi_default, NULL},
        {"deliver", NULL, js_deliver, NULL, NULL, NULL, napi_default, NULL},
        {"complete", NULL, js_complete, NULL, NULL, NULL, napi_default, NULL},
        {"state", NULL, js_state, NULL, NULL, NULL, napi_default, NULL},
        {"query", NULL, js_query, NULL, NULL, NULL, napi_default, NULL},
        {"effects", NULL, js_effects, NULL, NULL, NULL, napi_default, NULL},
        {"check", NULL, js_check, NULL, NULL, NULL, napi_default, NULL},
        {"setHandler", NULL, js_set_handler, NULL, NULL, NULL, napi_default, NULL},
        {"openJournal", NULL, js_open_journal, NULL, NULL, NULL, napi_default, NULL},
        {"checkpoint", NULL, js_checkpoint, NULL, NULL, NULL, napi_default, NULL},
        {"syncJournal", NULL, js_sync_journal, NULL, NULL, NULL, napi_default, NULL},
        {"closeJournal", NULL, js_close_journal, NULL, NULL, NULL, napi_default, NULL},
        {"restore", NULL, js_restore, NULL, NULL, NULL, napi_default, NULL},
        {"setOutput", NULL, js_set_output, NULL, NULL, NULL, napi_default, NULL},
        {"resync", NULL, js_resync, NULL, NULL, NULL, napi_default, NULL},
        {"watchQueries", NULL, js_watch_queries, NULL, NULL, NULL, napi_default, NULL},
    };
    if (napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) != napi_ok) {
        return NULL;
    }
    /* The header the addon was compiled against: the ABI it checks a library for, and
     * the binding's version (lib/corelogic.js exports both; there is no other copy). */
    napi_value abi, version;
    if (napi_create_int32(env, CORELOGIC_ABI_VERSION, &abi) != napi_ok ||
        napi_create_string_utf8(env, CORELOGIC_VERSION_STRING, NAPI_AUTO_LENGTH, &version) != napi_ok ||
        napi_set_named_property(env, exports, "ABI_VERSION", abi) != napi_ok ||
        napi_set_named_property(env, exports, "VERSION", version) != napi_ok) {
        return NULL;
    }
    return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
