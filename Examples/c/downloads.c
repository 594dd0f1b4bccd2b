/* downloads: the `downloads` feature driven from C with the pull API and threads.
 *
 * Each call into the library returns a batch; this program reads the commands from it
 * (pull) and performs each `download` effect on its own POSIX thread. The feature
 * decides how many run at once (maxConcurrent), so the host never counts: it starts
 * what it is told to start and cancels what it is told to cancel.
 *
 * Workers never call the library. They post their result to a queue (mutex + condition
 * variable) that the main thread drains, delivering each result with its effect's id.
 * Cancelling is cooperative: a `cancel` command sets a flag the worker checks between
 * chunks. A worker that stops (or finishes just as it is cancelled) still posts its
 * result, and the library answers CORELOGIC_STALE for it: late results are normal, and
 * a stale result never reaches the reducer.
 *
 *   ./downloads [-j N] [-o DIR] [--delay-ms MS] [--cancel URL]... URL...
 *
 * URLs are local files, as paths or file:// URLs. Without -o a download reads the file
 * and counts its bytes; with -o it copies the file into DIR. --delay-ms slows each
 * 64 KiB chunk down (to watch cancellation); --cancel cancels that URL once the first
 * download has finished.
 */
#define _GNU_SOURCE
#include <corelogic.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"

/* One started `download` effect. Owned by the main thread; the worker only reads
 * `url`, `output_dir` and `cancelled`, and writes nothing but its result. */
typedef struct download {
    uint64_t effect;
    char *url;
    pthread_t thread;
    atomic_int cancelled;       /* set by a cancel command; the worker polls it */
    int delivered;              /* its result went back to the library */
    struct download *next;
} download;

/* A worker's result, posted to the main thread. */
typedef struct result {
    download *download;
    int ok;
    int stopped;                /* the worker saw the cancel flag and stopped early */
    size_t bytes;
    char reason[256];           /* for `failed`; long paths are cut short */
    struct result *next;
} result;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t posted;
    result *head, *tail;
} results = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL};

static const char *output_dir;
static long delay_ms;

static void post(result *r) {
    pthread_mutex_lock(&results.lock);
    if (results.tail != NULL) results.tail->next = r; else results.head = r;
    results.tail = r;
    pthread_cond_signal(&results.posted);
    pthread_mutex_unlock(&results.lock);
}

static result *wait_for_result(void) {
    pthread_mutex_lock(&results.lock);
    while (results.head == NULL) pthread_cond_wait(&results.posted, &results.lock);
    result *r = results.head;
    results.head = r->next;
    if (results.head == NULL) results.tail = NULL;
    pthread_mutex_unlock(&results.lock);
    return r;
}

/* ------------------------------------------------------------------------------
 * The effect: "download" a local file
 * ---------------------------------------------------------------------------- */

static const char *path_of(const char *url) {
    return strncmp(url, "file://", 7) == 0 ? url + 7 : url;
}

static void *download_worker(void *argument) {
    download *d = argument;
    result *r = calloc(1, sizeof *r);
    if (r == NULL) abort();
    r->download = d;
    const char *path = path_of(d->url);
    int in = open(path, O_RDONLY | O_CLOEXEC);
    int out = -1;
    if (in < 0) {
        snprintf(r->reason, sizeof r->reason, "cannot open %.160s: %s", path, strerror(errno));
        post(r);
        return NULL;
    }
    if (output_dir != NULL) {
        const char *slash = strrchr(path, '/');
        char target[4096];
        snprintf(target, sizeof target, "%s/%s", output_dir, slash != NULL ? slash + 1 : path);
        out = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0) {
            snprintf(r->reason, sizeof r->reason, "cannot create %.160s: %s", target, strerror(errno));
            close(in);
            post(r);
            return NULL;
        }
    }
    char chunk[65536];
    ssize_t n;
    r->ok = 1;
    while ((n = read(in, chunk, sizeof chunk)) > 0) {
        if (atomic_load(&d->cancelled)) { r->ok = 0; r->stopped = 1; snprintf(r->reason, sizeof r->reason, "cancelled"); break; }
        if (out >= 0 && write(out, chunk, (size_t)n) != n) {
            r->ok = 0;
            snprintf(r->reason, sizeof r->reason, "write failed: %s", strerror(errno));
            break;
        }
        r->bytes += (size_t)n;
        if (delay_ms > 0) {
            struct timespec pause = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
            nanosleep(&pause, NULL);
        }
    }
    if (n < 0) { r->ok = 0; snprintf(r->reason, sizeof r->reason, "read failed: %s", strerror(errno)); }
    close(in);
    if (out >= 0) close(out);
    post(r);
    return NULL;
}

/* ------------------------------------------------------------------------------
 * The host: batches in, effects out
 * ---------------------------------------------------------------------------- */

static download *running;      /* started effects whose result is not drained yet */
static size_t pending = 0;     /* the state's pending URLs, after the last batch */

static download *find(uint64_t effect) {
    for (download *d = running; d != NULL; d = d->next) if (d->effect == effect) return d;
    return NULL;
}

static void forget(download *gone) {
    for (download **p = &running; *p != NULL; p = &(*p)->next) {
        if (*p == gone) { *p = gone->next; break; }
    }
    free(gone->url);
    free(gone);
}

static void start(uint64_t effect, const char *url) {
    download *d = calloc(1, sizeof *d);
    if (d == NULL || (d->url = strdup(url)) == NULL) abort();
    d->effect = effect;
    atomic_init(&d->cancelled, 0);
    d->next = running;
    running = d;
    printf("start   #%llu %s\n", (unsigned long long)effect, url);
    if (pthread_create(&d->thread, NULL, download_worker, d) != 0) {
        fprintf(stderr, "downloads: cannot start a thread\n");
        abort();
    }
}

/* Performs the commands of a batch and notes how many URLs are still pending. */
static void handle_batch(char *batch_json) {
    char error[128];
    json_value *batch = json_parse(batch_json, strlen(batch_json), error, sizeof error);
    corelogic_free(batch_json);
    if (batch == NULL) { fprintf(stderr, "downloads: bad batch: %s\n", error); exit(1); }
    const json_value *effects = json_get(batch, "effects");
    for (size_t i = 0; effects != NULL && i < effects->length; i++) {
        const json_value *command = effects->items[i];
        const json_value *started = json_get(command, "start");
        const json_value *cancel = json_get(command, "cancel");
        if (started != NULL) {
            const json_value *id = json_get(started, "id");
            const json_value *url = json_get(json_get(started, "request"), "url");
            if (id != NULL && id->kind == JSON_INT && url != NULL && url->kind == JSON_STRING) start((uint64_t)id->integer, url->string);
        } else if (cancel != NULL && cancel->kind == JSON_INT) {
            download *d = find((uint64_t)cancel->integer);
            if (d != NULL) {
                atomic_store(&d->cancelled, 1);
                /* Delivering a result cancels its own effect (the URL left the queue):
                 * that worker has ended already, nothing to stop. */
                if (!d->delivered) printf("cancel  #%llu %s\n", (unsigned long long)d->effect, d->url);
            }
        }
    }
    const json_value *state_pending = json_get(json_get(batch, "state"), "pending");
    pending = state_pending != NULL ? state_pending->length : 0;
    json_free(batch);
}

/* Builds {"<name>":{"url":...[,"reason":...]}} with proper escaping. */
static char *event_json(const char *name, const char *url, const char *reason) {
    json_value *event = json_new_object(), *payload = json_new_object();
    json_set(payload, "url", json_new_string(url));
    if (reason != NULL) json_set(payload, "reason", json_new_string(reason));
    json_set(event, name, payload);
    char *text = json_write(event);
    json_free(event);
    return text;
}

static void send_event(corelogic_system system, char *event) {
    char *batch = NULL;
    int status = corelogic_system_send(system, event, &batch);
    if (status != CORELOGIC_OK) {
        fprintf(stderr, "downloads: send %s: %s: %s\n", event, corelogic_status_name(status), corelogic_last_error());
        exit(1);
    }
    free(event);
    handle_batch(batch);
}

static void usage(void) {
    fprintf(stderr, "usage: downloads [-j N] [-o DIR] [--delay-ms MS] [--cancel URL]... URL...\n");
    exit(2);
}

int main(int argc, char **argv) {
    long limit = 0;
    const char **cancels = calloc((size_t)argc, sizeof *cancels);
    const char **urls = calloc((size_t)argc, sizeof *urls);
    size_t cancel_count = 0, url_count = 0;
    if (cancels == NULL || urls == NULL) return 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) limit = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) output_dir = argv[++i];
        else if (strcmp(argv[i], "--delay-ms") == 0 && i + 1 < argc) delay_ms = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--cancel") == 0 && i + 1 < argc) cancels[cancel_count++] = argv[++i];
        else if (argv[i][0] == '-') usage();
        else urls[url_count++] = argv[i];
    }
    if (url_count == 0) usage();
    if (corelogic_abi_version() != CORELOGIC_ABI_VERSION) {
        fprintf(stderr, "downloads: built for ABI %d, the library has ABI %d\n", CORELOGIC_ABI_VERSION, corelogic_abi_version());
        return 1;
    }

    if (output_dir != NULL && mkdir(output_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "downloads: cannot create %s: %s\n", output_dir, strerror(errno));
        return 1;
    }

    corelogic_system system = 0;
    if (corelogic_system_new("downloads", NULL, &system, NULL) != CORELOGIC_OK) {
        fprintf(stderr, "downloads: %s\n", corelogic_last_error());
        return 1;
    }
    if (limit > 0) {
        char event[64];
        snprintf(event, sizeof event, "{\"setMaxConcurrent\":{\"value\":%ld}}", limit);
        send_event(system, strdup(event));
    }
    for (size_t i = 0; i < url_count; i++) send_event(system, event_json("enqueue", urls[i], NULL));

    size_t finished = 0, failed = 0, stale = 0, bytes = 0;
    int cancels_sent = 0;
    while (running != NULL) {
        result *r = wait_for_result();
        download *d = r->download;
        pthread_join(d->thread, NULL);
        char *event = r->ok ? event_json("finished", d->url, NULL) : event_json("failed", d->url, r->reason);
        char *batch = NULL;
        d->delivered = 1;
        int status = corelogic_system_deliver(system, d->effect, event, &batch);
        free(event);
        if (status == CORELOGIC_OK) {
            if (r->ok) { finished++; bytes += r->bytes; printf("done    #%llu %s (%zu bytes)\n", (unsigned long long)d->effect, d->url, r->bytes); }
            else { failed++; printf("failed  #%llu %s: %s\n", (unsigned long long)d->effect, d->url, r->reason); }
            handle_batch(batch);
            /* finished/failed leave the queue, so the engine has cancelled the effect in
             * that batch; if it had not, the effect would be reported as complete. */
            if (!atomic_load(&d->cancelled)) corelogic_system_complete(system, d->effect, NULL);
        } else if (status == CORELOGIC_STALE) {
            stale++;
            printf("stale   #%llu %s: %s result dropped, the effect was cancelled\n", (unsigned long long)d->effect, d->url,
                   r->stopped ? "the stopped worker's" : "a late");
        } else {
            fprintf(stderr, "downloads: deliver: %s: %s\n", corelogic_status_name(status), corelogic_last_error());
        }
        forget(d);
        free(r);

        if (!cancels_sent && finished + failed > 0) {
            cancels_sent = 1;
            for (size_t i = 0; i < cancel_count; i++) {
                printf("user cancels %s\n", cancels[i]);
                send_event(system, event_json("cancel", cancels[i], NULL));
            }
        }
    }

    char *state = NULL;
    corelogic_system_state(system, &state);
    printf("summary: %zu finished, %zu failed, %zu stale results dropped, %zu bytes, %zu still pending\n",
           finished, failed, stale, bytes, pending);
    printf("state: %s\n", state);
    corelogic_free(state);
    corelogic_system_free(system);
    free(cancels);
    free(urls);
    return failed == 0 ? 0 : 1;
}
