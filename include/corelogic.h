/*
 * corelogic.h: the C interface of every library built on corelogic.
 *
 * corelogic runs business logic written once in Swift ("features") for any host that
 * can call C. An app's own Swift package builds its own library (libmyapp.so,
 * docs/adopting.md) that exports exactly the functions below and serves exactly that
 * app's features; a host links it or loads it by path, and code written against this
 * header works against any such library. A host creates a *system* (one running instance of a feature), sends it
 * JSON events, and gets back JSON state and *effect commands*: which effects (network
 * requests, timers, storage...) must start or stop. The host performs the effects and
 * feeds their results back with corelogic_system_deliver() and
 * corelogic_system_complete(). This header is the C manual: every function, status
 * and ownership rule is documented where it is declared. The rules behind it (the loop,
 * the JSON shapes, golden files, persistence) are in docs/contract.md.
 *
 * Conventions, said once and followed everywhere:
 *
 *  - Status: every function that can fail returns an int status: CORELOGIC_OK (0),
 *    CORELOGIC_STALE (1), or a negative CORELOGIC_ERR_*. On any status other than OK,
 *    corelogic_last_error() says what went wrong and where, and the system is exactly
 *    as it was before the call: state, running effects and journal. The one exception
 *    is CORELOGIC_ERR_NOMEM from send/deliver/complete, see there. Conversely, once a
 *    call has applied its input it returns OK (see "Inputs queued by handlers").
 *  - Ownership: every `char *` the library returns through an out-parameter is
 *    malloc'd, NUL-terminated UTF-8, owned by the caller, and freed with
 *    corelogic_free(). On failure, out-parameters are set to NULL (0 for handles).
 *    Every function that returns such a string returns CORELOGIC_ERR_NOMEM when it
 *    cannot allocate it; the status lists below name it only for send, deliver and
 *    complete, where it can follow an applied input.
 *    `const char *` results (version, status names, last error) belong to the library:
 *    never free them. Strings passed to handlers are borrowed for the duration of
 *    the call only.
 *  - Input strings are NUL-terminated UTF-8 JSON (RFC 8259, strict); the first NUL
 *    byte ends the input (JSON text never needs a raw NUL: write \u0000). Events use
 *    the externally tagged form {"case": {"label": value}}; a case without payload
 *    may also be sent as the bare string "case". Every input (an event to send or
 *    deliver, from the host or from a handler, and a state to corelogic_system_new) is
 *    held to the same limits, checked before anything else: at most 16 MiB
 *    (16777216 bytes) and 128 levels of nesting; over either is CORELOGIC_ERR_JSON,
 *    even for a payload-less case or an effect that is no longer running.
 *  - Paths (journal directories, trace files) are NUL-terminated bytes, handed to the
 *    file system exactly as given, never decoded: they need not be UTF-8, and a name
 *    is never replaced by a look-alike. Messages and reports, which are UTF-8, show a
 *    byte of a path that is not part of valid UTF-8 as \xNN (e.g. "j\xff").
 *  - JSON identity: values that cross the boundary are compared as JSON, never with
 *    Unicode equivalence. Two requests are the same effect if and only if their JSON is
 *    identical byte for byte (after the library's compact encoding): "caf\u00e9" and
 *    "cafe\u0301" are two requests (two URLs), and so are 0.0 and -0.0. Features
 *    compare the strings a host sends (URLs, ids, typed text) the same way. A number's
 *    sign is kept: -0 sent into a floating-point field reads back as -0.0.
 *  - Handles: corelogic_system is an opaque 64-bit handle; 0 is never valid. A freed
 *    or never-created handle returns CORELOGIC_ERR_HANDLE, never undefined behaviour:
 *    double free and use after free are detected.
 *  - Threads: every function may be called from any thread. Calls on one system are
 *    serialized (a second thread waits); calls on different systems run in parallel.
 *  - Nothing a host passes (malformed JSON, wrong types, unknown cases, NULL
 *    pointers, stale ids, bad handles) crashes the process; it returns a status.
 */
#ifndef CORELOGIC_H
#define CORELOGIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------
 * Versions
 * ---------------------------------------------------------------------------- */

/* The library version this header describes; corelogic_version() returns the same
 * "MAJOR.MINOR.PATCH" at run time. */
#define CORELOGIC_VERSION_MAJOR 0
#define CORELOGIC_VERSION_MINOR 1
#define CORELOGIC_VERSION_PATCH 0
#define CORELOGIC_VERSION_STRING "0.1.0"

/* The ABI version of this header. A host should check, once at start-up, that
 * corelogic_abi_version() == CORELOGIC_ABI_VERSION: a mismatch means the header and
 * the loaded library disagree on the functions and their meaning. */
#define CORELOGIC_ABI_VERSION 1

/* ------------------------------------------------------------------------------
 * Status codes (stable; only ever appended)
 * ---------------------------------------------------------------------------- */

/* Success. */
#define CORELOGIC_OK 0
/* deliver() or complete() for an effect that is not running (cancelled, completed or
 * never started). The input was dropped: nothing changed, nothing was journaled, and
 * the event never reached the reducer. Not an error: late results are normal. */
#define CORELOGIC_STALE 1
/* Not valid JSON (including an object with the same key twice, which this library
 * rejects by design: RFC 8259 leaves its meaning open), invalid UTF-8, a string escape
 * of half a surrogate pair alone ("\ud800"), a number beyond a double's range (1e400),
 * nested deeper than 128 levels, or over 16 MiB. Also an event whose journal record
 * would exceed what a restore reads back. */
#define CORELOGIC_ERR_JSON (-1)
/* Valid JSON that is not this feature's event or state. The message names the JSON
 * path ("$.queryChanged.text") and, for an unknown case, the valid cases. */
#define CORELOGIC_ERR_SCHEMA (-2)
/* Unknown feature or query name. The message lists the known names. */
#define CORELOGIC_ERR_NOT_FOUND (-3)
/* The system handle is 0, already freed, or was never created. */
#define CORELOGIC_ERR_HANDLE (-4)
/* Any other invalid argument, e.g. a NULL pointer where one is required. */
#define CORELOGIC_ERR_ARG (-5)
/* A file-system error (journal, snapshot). The message names the file and the
 * system's reason (errno's text, e.g. "No space left on device"). */
#define CORELOGIC_ERR_IO (-6)
/* Snapshot or journal content that cannot be used. */
#define CORELOGIC_ERR_CORRUPT (-7)
/* Memory for a result could not be allocated. Nothing changed, except from send,
 * deliver and complete when the input was already applied and only the copy of its
 * batch failed: then the message says so ("input applied") and the host reads the
 * state and effects with corelogic_system_state() and corelogic_system_effects(). */
#define CORELOGIC_ERR_NOMEM (-8)

/* ------------------------------------------------------------------------------
 * Library
 * ---------------------------------------------------------------------------- */

/* The library version, "MAJOR.MINOR.PATCH". Static; never NULL; do not free. */
const char *corelogic_version(void);

/* The library's ABI version; equal to CORELOGIC_ABI_VERSION for a matching header. */
int corelogic_abi_version(void);

/* The constant's name of a status, e.g. "CORELOGIC_ERR_SCHEMA", or
 * "CORELOGIC_UNKNOWN_STATUS" for a code this library does not define.
 * Static; never NULL; do not free. */
const char *corelogic_status_name(int status);

/* The calling thread's last error message: what went wrong and where, for the last
 * call on this thread that did not return CORELOGIC_OK; "" after a call that
 * returned OK. Never NULL. The message starts with the failing function's name, e.g.
 *   "corelogic_system_send: search event: $.queryChanged.text: expected a string, found a number". Owned by the library and valid until the next corelogic_*
 * call on the same thread: copy it if you need it longer. */
const char *corelogic_last_error(void);

/* Frees a string returned through an out-parameter (batches, state, queries, effects,
 * features, schemas). NULL is ignored. Never pass strings from handlers or const char* results. */
void corelogic_free(char *json);

/* The features this library runs (exactly the app's, in the order its catalog lists
 * them), as a JSON array:
 *   [{"name":"search","events":["queryChanged",...],
 *     "feedbacks":[{"name":"loadPage","kind":"react"},...],
 *     "queries":["isLoadingNextPage",...],
 *     "invariants":["loadsOnlyWithNextPage",...],"stateVersion":1}, ...]
 * "invariants" names the properties corelogic_system_check() evaluates ([] for none).
 * `*out_json` receives the string (free with corelogic_free).
 * Returns OK, ERR_ARG if out_json is NULL, or ERR_NOT_FOUND if the library was built
 * without a catalog (it defines no corelogic_app_catalog, docs/adopting.md). */
int corelogic_features(char **out_json);

/* The JSON Schema (draft 2020-12) of `feature`'s JSON, derived from its Swift types
 * (docs/schemas.md). Every entry point is a member of "$defs":
 *   "state", "event"             the feature's state and events (both event forms:
 *                                {"increment":{}} and the bare "increment")
 *   "request.<feedback>"         the request of that feedback's start commands
 *   "query.<name>"               the value corelogic_system_query returns for it
 *   "command", "batch"           a command, a batch (full or patch output mode)
 *   "runningEffect"              an element of corelogic_system_effects
 *   "droppedInput"               an element of a batch's "dropped" (see send)
 *   "queries", "patchOperation", "stateChange", "stateAtRevision"   the other envelopes
 * The other members are the feature's structs and enums, named after the Swift type
 * ("Todo.State"); recursive types refer to themselves with "$ref". The document is
 * the same bytes on every call and every host.
 * `*out_json` receives the string (free with corelogic_free).
 * Returns OK; ERR_ARG if feature or out_json is NULL; ERR_NOT_FOUND for an unknown
 * feature (the message lists the features); ERR_SCHEMA if one of the feature's types
 * has a shape that cannot be derived (the message names the type). On error
 * `*out_json` is NULL. */
int corelogic_feature_schema(const char *feature, char **out_json);

/* ------------------------------------------------------------------------------
 * Systems
 * ---------------------------------------------------------------------------- */

/* A running instance of a feature. 0 is never a valid handle. */
typedef uint64_t corelogic_system;

/* Creates a system of `feature` (e.g. "search").
 *
 * state_json: the first state as JSON, or NULL for the feature's initial state.
 * out_system: receives the handle (required).
 * out_batch:  may be NULL; else receives the creation batch
 *             {"state":{...},"effects":[...],"steps":0}: the feedbacks are evaluated on
 *             the first state, so a state that asks for effects starts them at once.
 *
 * Returns OK; ERR_NOT_FOUND for an unknown feature; ERR_JSON or ERR_SCHEMA for a bad
 * state_json; ERR_ARG if feature or out_system is NULL. */
int corelogic_system_new(const char *feature, const char *state_json,
                         corelogic_system *out_system, char **out_batch);

/* Frees a system. Its running effects are simply forgotten (the host stops them).
 * If the system journals, free does what corelogic_system_close_journal() does, and
 * has done it when free returns: pending records are synced and the directory is
 * released, so a restore of it may follow at once.
 * Safe from inside a handler of the same system: the handle is invalid at once, no
 * more handlers of it are called, queued inputs are discarded (never applied, never
 * journaled), the journal is closed at once, and the call that is running finishes its
 * step and returns.
 * From another thread while a call on the system is running: the handle is invalid
 * at once (new calls get ERR_HANDLE) and corelogic_system_free waits until the
 * running call returns. When it returns, no handler of the system runs any more, so
 * the host may free the handlers' contexts.
 * Returns OK, or ERR_HANDLE if the handle is 0, already freed or never created. */
int corelogic_system_free(corelogic_system system);

/* Sends an event from the host: the reducer applies it, then the feedbacks are
 * evaluated (one step). Inputs queued by handlers during the call run after it.
 *
 * out_batch: may be NULL; else receives
 *   {"state":{...},"effects":[{"cancel":3},{"start":{"id":4,"feedback":"loadPage",
 *    "request":{...}}}],"steps":1}
 * with the state after the last step and the commands of every step the call ran, in
 * order (within a step: all cancels, then all starts). Every command of a step that
 * ran is delivered: a request that cannot be written as JSON (a non-finite number,
 * which JSON input cannot produce: a feature's bug) is written as null.
 *
 * Inputs queued by handlers: called from inside a handler of this system (on the
 * thread that is running it), the event is checked (JSON, schema, limits) and queued,
 * and the inner call returns OK at once: OK there means *queued*, not yet applied; its
 * batch (if asked for) has "steps":0 and the state as it is now. The queued input runs
 * after the current step, before the outer call returns; the reducer never runs
 * re-entrantly. When its turn comes a queued input is applied, or dropped without
 * reaching the reducer: a deliver or complete whose effect is no longer running is
 * dropped silently (as STALE would be), and an input whose journal record cannot be
 * written is dropped and reported in the outer call's batch:
 *   {"state":...,"effects":[...],"steps":2,"dropped":[{"input":{"send":{...}},
 *    "status":"CORELOGIC_ERR_IO","error":"cannot write ...: No space left on device"}]}
 * "input" has the journal's shape ({"send":event}, {"deliver":{"effect":4,"event":
 * ...}} or {"complete":{"effect":4}}). The outer call's status is about its own input
 * only: once that input is journaled and applied (its effects started), the call
 * returns OK with its batch, whatever happens to the inputs queued behind it. "dropped"
 * appears only when something was dropped; a host that journals and queues inputs
 * from handlers should ask for the batch to see it.
 *
 * Returns OK; ERR_JSON, ERR_SCHEMA for a bad event (state unchanged); ERR_IO if the
 * input's journal record cannot be written (state unchanged); ERR_HANDLE; ERR_ARG if
 * event_json is NULL; ERR_NOMEM. */
int corelogic_system_send(corelogic_system system, const char *event_json, char **out_batch);

/* Delivers an event produced by the running effect `effect_id`. Like send(), but if
 * the effect is not running (cancelled, completed, never started) the event is
 * dropped and CORELOGIC_STALE is returned: a stale result never reaches the reducer.
 * From inside a handler: queued, and dropped later if an earlier queued input cancels
 * the effect first.
 * Returns OK, STALE, ERR_JSON, ERR_SCHEMA, ERR_IO (journal), ERR_HANDLE, ERR_ARG, ERR_NOMEM. */
int corelogic_system_deliver(corelogic_system system, uint64_t effect_id,
                             const char *event_json, char **out_batch);

/* Reports that the effect `effect_id` finished and will deliver nothing more. It is no
 * longer running, but its request stays current: an equal request does not start it
 * again. out_batch as for send(), with the state unchanged.
 * When to call it: whenever an effect ends on its own. If its last delivered event
 * already made the state drop its request, the batch of that deliver holds
 * {"cancel":id} and complete() then returns STALE: harmless, and a host may simply
 * skip complete() for an effect it was told to cancel.
 * Returns OK, STALE (not running), ERR_IO (journal), ERR_HANDLE, ERR_NOMEM. */
int corelogic_system_complete(corelogic_system system, uint64_t effect_id, char **out_batch);

/* The current state as JSON in `*out_json` (free with corelogic_free).
 * Returns OK, ERR_HANDLE, ERR_ARG (out_json NULL). */
int corelogic_system_state(corelogic_system system, char **out_json);

/* The value of the state query `name` (e.g. "isLoadingNextPage") as JSON in
 * `*out_json` (free with corelogic_free): true, 3, ["a","b"], ...
 * Returns OK, ERR_NOT_FOUND (unknown query; the message lists the valid ones),
 * ERR_HANDLE, ERR_ARG. */
int corelogic_system_query(corelogic_system system, const char *name, char **out_json);

/* The running effects, by increasing id, as JSON in `*out_json`:
 *   [{"id":4,"feedback":"loadPage","request":{...}}]
 * Returns OK, ERR_HANDLE, ERR_ARG. */
int corelogic_system_effects(corelogic_system system, char **out_json);

/* The feature's invariants that do not hold in the current state, as a JSON array in
 * `*out_json` (free with corelogic_free), in the order the feature declares them:
 *   [{"name":"itemsUniqueByID","message":"id 7 appears twice"}]
 * and [] when every invariant holds (or the feature declares none). Invariants are
 * properties a feature states beside its reducer (corelogic_features lists their
 * names); they are evaluated only here, when asked, never while inputs run, so they
 * cost a system nothing until a host (a test, the explorer: docs/testing.md) calls
 * this. A broken invariant is a bug of the feature, not an error of the call: the
 * status is OK. Reads the state only; changes nothing.
 * Returns OK, ERR_HANDLE, ERR_ARG (out_json NULL). */
int corelogic_system_check(corelogic_system system, char **out_json);

/* ------------------------------------------------------------------------------
 * Handlers (push)
 *
 * Instead of reading commands from batches (pull), a host may register handlers that
 * are called as each command and each new state is produced. Use one or the other for
 * the same commands. Handlers run synchronously on the thread that made the call,
 * while the system is locked: they may call into the same system (those calls are
 * queued, see corelogic_system_send), but must not wait for another thread that calls
 * into the same system. The JSON string is borrowed for the duration of the call.
 * `context` is passed back unchanged; the library never dereferences it.
 * ---------------------------------------------------------------------------- */

/* Receives one command: {"cancel":3} or {"start":{"id":4,"feedback":"...","request":{...}}}. */
typedef void (*corelogic_command_fn)(void *context, const char *command_json);
/* Receives the state after a step. */
typedef void (*corelogic_state_fn)(void *context, const char *state_json);

/* Sets the command handler (NULL removes it). Commands already produced (e.g. the
 * creation batch) are not replayed: start those from corelogic_system_new's
 * out_batch. Setting a handler waits for a call running on another thread; set from
 * inside a handler of the same system, it applies to the next command.
 * Returns OK or ERR_HANDLE. */
int corelogic_system_on_command(corelogic_system system, corelogic_command_fn handler, void *context);

/* Sets the state handler (NULL removes it). Returns OK or ERR_HANDLE. */
int corelogic_system_on_state(corelogic_system system, corelogic_state_fn handler, void *context);

/* ------------------------------------------------------------------------------
 * Output: patches instead of whole states, and watched queries
 *
 * By default every batch (and every call of the state handler) carries the whole state,
 * which costs time in proportion to the state's size on both sides of the boundary. In
 * patch mode they carry instead an RFC 6902 JSON Patch that turns the state the host
 * last received into the new one; producing it costs what changed, not the size of the
 * state (see docs/performance.md, "Incremental output", for what makes it O(change)).
 *
 * Revisions: every step increments the system's revision (0 at creation; a restored
 * system starts again at 0). A patch carries "base", the revision it applies to, and
 * "revision", the one it produces:
 *   {"revision":4,"base":3,"patch":[{"op":"replace","path":"/count","value":1}],
 *    "effects":[...],"steps":1}
 * Every patch the system emits (in a batch or to the state handler) continues from the
 * previous one: its base is the revision of the previous patch, or of the last
 * corelogic_system_set_output() or corelogic_system_resync(). A call with a NULL
 * out_batch emits nothing, so the next patch simply spans more steps. A host keeps the
 * revision of its copy of the state; a patch whose base differs from it means the host
 * missed one (e.g. it dropped a batch): it calls corelogic_system_resync() and
 * continues from the state and revision it returns.
 *
 * Operations used: "add" (an object member; an array element, "/items/-" to append),
 * "remove", "replace"; paths are JSON Pointers (RFC 6901) from the state's root, "" for
 * the whole state. Applied in order to the base state they give the new state as a
 * JSON value (object member order is not significant).
 *
 * Small states are sent whole. A state of at most 64 bytes of JSON costs a host no more
 * to read than the smallest patch, so while the state is that small a batch carries it
 * whole, with its revision and no base:
 *   {"revision":4,"state":{"count":1},"effects":[...],"steps":1}
 * The host takes it as its copy at that revision, unless its copy is at a later revision
 * already (a batch of another thread's call that arrived first): then it ignores it. From a
 * baseline (corelogic_system_set_output, corelogic_system_resync) on, states go whole
 * while they stay within 64 bytes; the first larger one goes whole too, and patches
 * follow from it until the next baseline. So a host in patch mode handles both shapes:
 * a batch with "state" replaces its copy, a batch with "patch" applies to it.
 *
 * In patch mode the state handler receives {"revision":R,"base":B,"patch":[...]} (or,
 * for a small state, {"revision":R,"state":{...}}) after each step, and a call queued
 * from inside a handler gets {"revision":B,"base":B,"patch":[],"effects":[],"steps":0}
 * (nothing new yet). The creation and restore batches always carry the whole state.
 * ---------------------------------------------------------------------------- */

/* Batches and the state handler carry the whole state. The default. */
#define CORELOGIC_OUTPUT_FULL 0
/* Batches and the state handler carry RFC 6902 patches, or a small state whole (see above). */
#define CORELOGIC_OUTPUT_PATCH 1

/* Sets the output mode. Switching to CORELOGIC_OUTPUT_PATCH (also when already in it)
 * starts a new baseline: the next patch applies to the state as it is now.
 * out_json: may be NULL; else receives {"revision":R,"state":{...}}, the state and
 *           revision the next patch continues from (free with corelogic_free).
 * Returns OK; ERR_ARG (unknown mode; nothing changes); ERR_SCHEMA (the state cannot be
 * encoded; nothing changes); ERR_HANDLE. May be called from inside a handler. */
int corelogic_system_set_output(corelogic_system system, int mode, char **out_json);

/* The current state and its revision, {"revision":R,"state":{...}}, in `*out_json`
 * (free with corelogic_free). In patch mode the next patch continues from it (base R):
 * this is how a host that missed a patch catches up. Costs a full state encoding.
 * Returns OK, ERR_HANDLE, ERR_ARG (out_json NULL). */
int corelogic_system_resync(corelogic_system system, char **out_json);

/* Watches state queries by name: from now on every batch (in either mode) carries
 *   "queries":{"isLoadingNextPage":true}
 * (after "state" or "patch") with exactly the watched queries whose JSON value changed
 * since the previous batch, possibly {}. A call with a NULL out_batch reports nothing, so
 * its changes appear in the next batch. A view that needs three booleans reads them
 * here instead of from the state.
 * names_json: a JSON array of query names, e.g. ["isLoadingNextPage","canLoadMore"];
 *             [] stops watching. Replaces the previous set.
 * out_json:   may be NULL; else receives the current value of every watched query,
 *             {"isLoadingNextPage":false,...} (free with corelogic_free).
 * Returns OK; ERR_NOT_FOUND (an unknown name; the message lists the valid ones; nothing
 * changes); ERR_JSON (names_json is not JSON); ERR_ARG (names_json NULL or not an array
 * of strings); ERR_HANDLE. */
int corelogic_system_watch_queries(corelogic_system system, const char *names_json, char **out_json);

/* ------------------------------------------------------------------------------
 * Persistence: journals, checkpoints, restore
 *
 * A system may write every input it accepts to a journal in a directory of its own,
 * and a later process may restore it from there (docs/contract.md §7; the formats are in
 * docs/persistence.md and readable with ordinary tools). Because effects derive from
 * state, a restored system starts exactly the effects its state asks for.
 *
 * A journal directory holds:
 *   snapshot.json                       the state at some journal position (atomic)
 *   journal-<first seq, 20 digits>.jsonl inputs after the snapshot, one JSON line each
 *   lock                                held (flock) while a journal is open on it
 *
 *  - What is journaled: every accepted input (send, deliver, complete), before the
 *    call that made it returns OK. STALE inputs and inputs that fail (bad JSON, I/O
 *    error) are never written. If a record cannot be written (or, in EVERY_INPUT
 *    mode, synced), the part that reached the file is taken back, the input is
 *    rejected with CORELOGIC_ERR_IO and the system is unchanged; an input a handler
 *    queued is dropped instead (see corelogic_system_send).
 *  - Whatever is acknowledged can be restored: an event is accepted only if its record
 *    reads back (the 16 MiB / depth-128 input limits apply to the event; a restore
 *    reads records with room for the record around it), and snapshots have no size
 *    cap, since a state may grow past 16 MiB through many small inputs.
 *  - The directory must stay where it was: if it is deleted (or deleted and created
 *    again) while a journal is open, every input is rejected with CORELOGIC_ERR_IO
 *    (nothing is written to a file no restore can find), until a checkpoint takes the
 *    directory now at that path (free, and holding no other journal) or the journal is
 *    closed. A directory moved away keeps its files and records go on there; the next
 *    checkpoint notices the path changed and takes the directory at the path (as above)
 *    or fails with ERR_IO.
 *  - Process crash (SIGKILL, abort, power kept): an input acknowledged with OK is never
 *    lost, in either durability mode: its record was handed to the kernel (write())
 *    before OK. At most one input that was written but not yet acknowledged may also
 *    be restored (the kill hit between the write and the return).
 *  - OS crash or power failure: see the durability modes below.
 *  - Effect ids after a restore never collide with ids the previous life handed out:
 *    every record stores the system's next effect id ("next"); a restored system
 *    starts at the highest recorded next plus the number of effects the restored state
 *    asks for (the most the last recorded step can have started).
 *  - Threads: like every call on a system, these are serialized with its other calls.
 *    One directory is used by at most one open journal at a time (any process); a
 *    second one gets CORELOGIC_ERR_IO.
 * ---------------------------------------------------------------------------- */

/* fsync (fdatasync) every record before the call returns: an input acknowledged with
 * OK survives an OS crash or power failure too. The default; the safest and slowest. */
#define CORELOGIC_DURABILITY_EVERY_INPUT 0
/* fsync a record only when the last fsync is 100 ms old or more, and on checkpoint,
 * corelogic_system_sync_journal(), corelogic_system_close_journal() and
 * corelogic_system_free(). A process crash still loses nothing acknowledged; an OS crash
 * or power failure may lose the inputs acknowledged since the last fsync (the last
 * 100 ms of activity, or more if the system then went idle: call
 * corelogic_system_sync_journal() at the end of a batch of work to bound it). What
 * survives is always a prefix of the acknowledged inputs. */
#define CORELOGIC_DURABILITY_INTERVAL 1

/* Starts journaling `system` into `directory`, which is created (one level) if missing
 * and must hold no snapshot and no journal yet (a new or empty directory: a fresh
 * start). Writes a first checkpoint of the current state (so a system created from a
 * state, or that already ran inputs, restores to where it is now), then journals every
 * accepted input.
 *
 * durability: CORELOGIC_DURABILITY_EVERY_INPUT or CORELOGIC_DURABILITY_INTERVAL. A
 *             restored system keeps the mode its journal was written with.
 *
 * Returns OK; ERR_ARG (directory NULL or empty, unknown durability, the system already
 * has a journal, or the directory already holds a snapshot or journal: restore it
 * instead); ERR_IO (cannot create, lock, write or fsync; another journal holds the
 * directory: the system has no journal, and whatever the failed first checkpoint
 * wrote is removed, so a retry may follow); ERR_HANDLE. */
int corelogic_system_open_journal(corelogic_system system, const char *directory, int durability);

/* Writes a snapshot of the current state and starts a fresh journal segment, so a
 * restore replays only what follows. In order: snapshot.json is replaced atomically
 * (temporary file, fsync, rename, fsync of the directory) holding the feature name, its
 * state version, the journal position and the next effect id; a new segment is created
 * the same way; only then are the older segments removed. A crash at any point leaves a
 * directory that restores to the same state. Also the way to make a journal usable
 * again after an I/O error rejected an input.
 * May be called from inside a handler of the system.
 * If the directory was replaced since the journal locked it, the checkpoint takes the
 * new one (its lock, then a fresh snapshot and segment) when no other journal holds it
 * and it holds no snapshot or journal; otherwise ERR_IO.
 * Returns OK; ERR_ARG (the system has no journal); ERR_IO (the previous snapshot and
 * journal stay valid; if the snapshot was replaced but the new segment could not be
 * started, inputs are rejected with ERR_IO until a checkpoint succeeds); ERR_HANDLE. */
int corelogic_system_checkpoint(corelogic_system system);

/* Forces the journal's written records to stable storage now (fsync). Useful in
 * CORELOGIC_DURABILITY_INTERVAL mode at a batch boundary; cheap (nothing to do) in
 * EVERY_INPUT mode.
 * Returns OK; ERR_ARG (the system has no journal); ERR_IO; ERR_HANDLE. */
int corelogic_system_sync_journal(corelogic_system system);

/* Stops journaling: syncs pending records, closes the segment and releases the
 * directory (another process may restore it). The directory stays restorable.
 * corelogic_system_free() does the same for a system that still has a journal.
 * Returns OK (also when the system has no journal) or ERR_HANDLE. */
int corelogic_system_close_journal(corelogic_system system);

/* Restores a system of `feature` from `directory`: reads the snapshot (if any; without
 * one, the feature's initial state), replays the journaled inputs after it through the
 * reducer (no effects run and no commands are produced during replay), then evaluates
 * the feedbacks once: the creation batch starts exactly the effects the restored state
 * asks for, with fresh ids (see above). The restored system journals on into the same
 * directory with the same durability, starting with a checkpoint of the restored state.
 *
 * directory:  must exist (missing: ERR_IO). An empty directory restores the initial
 *             state (and starts a journal there).
 * out_system: receives the handle (required).
 * out_report: may be NULL; else receives a JSON report:
 *               {"snapshot":true,"migratedFrom":null,"seq":40,"replayed":12,
 *                "firstEffectId":23,"durability":"every-input",
 *                "tornTail":{"file":"dir/journal-...jsonl","offset":1234,"bytes":17}}
 *             snapshot: whether a snapshot was read; migratedFrom: its older state
 *             version when the feature's migration ran, else null; seq: the journal
 *             position restored (inputs ever journaled); replayed: inputs replayed after
 *             the snapshot; firstEffectId: the first id of the restored system;
 *             tornTail: null, or the last record of the last segment when it was torn by
 *             a crash mid-write (or fails its checksum): left out, reported here
 *             ("file" is its path, shown as the Conventions say).
 * out_batch:  may be NULL; else receives the creation batch {"state":...,"effects":
 *             [{"start":...},...],"steps":0}.
 *
 * A snapshot written with an older state version goes through the feature's migration;
 * without one, or with a newer version than this build reads, restore fails with
 * ERR_CORRUPT naming both versions.
 *
 * Returns OK; ERR_ARG (feature, directory or out_system NULL); ERR_NOT_FOUND (unknown
 * feature); ERR_IO (missing directory, unreadable file, another journal holds the
 * directory, cannot write the new checkpoint); ERR_CORRUPT (a checksum mismatch, a
 * malformed or out-of-sequence record, missing records, another feature's files, an
 * event or state that no longer decodes, an impossible migration: the message names the
 * file and line). Nothing is restored partially: on error no system is created. */
int corelogic_system_restore(const char *feature, const char *directory, corelogic_system *out_system,
                             char **out_report, char **out_batch);

/* ------------------------------------------------------------------------------
 * Traces
 *
 * A system may write a trace: a JSON-lines file with one line for every input it is
 * given, in the order it handles them, for debugging and for the inspector
 * (`python -m corelogic inspect`, docs/inspector.md, which also gives the format).
 * The first line holds the feature, its state version, the system's revision, the
 * state, the value of every query and the running effects:
 *   {"corelogicTrace":1,"feature":"search","stateVersion":1,"revision":0,"state":{...},
 *    "queries":{"isLoadingNextPage":false},"effects":[],"nextEffect":1}
 * then one line per input, with a sequence number from 1:
 *   {"seq":1,"input":"send","event":{...},"status":"ok","revision":1,
 *    "patch":[{"op":"replace","path":"/query","value":"sw"}],
 *    "queries":{...only the queries whose value changed...},"effects":[...commands...],
 *    "ns":5120}
 *   {"seq":2,"input":"deliver","effect":1,"event":{...},"status":"stale"}
 *   {"seq":3,"input":"send","raw":"{\"queryChanged\":5}","status":"error:schema",
 *    "message":"search event: $.queryChanged: ..."}
 * "patch" is the state change from the previous line's state (RFC 6902, as in
 * CORELOGIC_OUTPUT_PATCH); "revision" the revision the step produced, one more than the
 * previous ok line's, so a reader knows when a line with a change is missing.
 * "ns" is the step's duration (reducer and feedbacks) in nanoseconds. Inputs queued
 * from handlers get their own lines when they run. Stale inputs and inputs refused with
 * an error (bad JSON, wrong shape, a journal write that failed) are written too, marked
 * by "status"; "raw" is the text the host passed. A queued input dropped because its
 * journal record failed gets its line in its turn, with its "event" (the text it was
 * sent as is gone by then), the error's "status" ("error:io") and "message". Each line
 * reaches the kernel (one write()) before the call returns, so a trace survives a crash
 * of the process.
 * Off by default; a system that is not traced pays one pointer test per step.
 * ---------------------------------------------------------------------------- */

/* Starts writing the trace of `system` to the file `path` (created, or truncated if it
 * exists), or with path NULL stops tracing. Starting while a trace is being written
 * closes that one and starts the new file. The first line is written before this
 * returns. If a later line cannot be written (disk full), tracing stops silently and
 * the inputs are still handled: a trace never makes an input fail. Freeing the system
 * closes its trace. May be called from inside a handler of the system: the trace then
 * starts with the next step.
 * Returns OK; ERR_ARG (path is empty); ERR_IO (the file cannot be created or its first
 * line written; the message names the file and the system's reason; the previous
 * trace, if any, goes on); ERR_HANDLE. */
int corelogic_system_trace(corelogic_system system, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* CORELOGIC_H */
