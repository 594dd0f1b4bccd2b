/* The crash test: a host journaling a `downloads` system with effects in flight is killed
 * with SIGKILL at random points, many times; after each kill the journal must restore to
 * exactly the acknowledged inputs (or those plus the one input written but not yet
 * acknowledged when the kill hit), and the restore must start again exactly the effects
 * that state asks for, with ids the dead host never used.
 *
 *   crash_test [KILLS]                       the parent (make test-persistence)
 *   crash_test --child DIR SEED MODE FRESH   the host it kills
 *
 * The host prints, line-buffered to its stdout (a pipe to the parent):
 *   R                      ready (journal open or restored)
 *   T s <event>            about to send <event>
 *   T d <id> <event>       about to deliver <event> for effect <id>
 *   T c <id>               about to complete effect <id>
 *   A <id>                 the input above returned OK; <id> is the highest start id of
 *                          its batch (0: none)
 *   B / E                  checkpoint begins / ends
 * Some rounds kill right after a B line, so kills land inside checkpoints; others kill
 * a few milliseconds after the fork, so kills land inside the host's own restore. */
#define _GNU_SOURCE
#include "persist_util.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "check.h"

static unsigned long long rng_state;
static unsigned rng(unsigned bound) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % bound);
}

static const char *initial_state = "{\"maxConcurrent\":2,\"pending\":[],\"finished\":[],\"failed\":[]}";

/* ---- the host ---------------------------------------------------------------- */

static void die(const char *what, int rc) {
    printf("X %s: %s: %s\n", what, corelogic_status_name(rc), corelogic_last_error());
    exit(2);
}

static unsigned long long batch_high(char *batch) {
    unsigned long long low, high;
    start_id_range(batch, &low, &high);
    corelogic_free(batch);
    return high;
}

static _Noreturn void child(const char *dir, unsigned long long seed, int mode, int fresh) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    rng_state = seed;
    corelogic_system s = 0;
    int rc;
    if (fresh) {
        if ((rc = corelogic_system_new("downloads", initial_state, &s, NULL)) != CORELOGIC_OK) die("new", rc);
        if ((rc = corelogic_system_open_journal(s, dir, mode)) != CORELOGIC_OK) die("open_journal", rc);
    } else {
        if ((rc = corelogic_system_restore("downloads", dir, &s, NULL, NULL)) != CORELOGIC_OK) die("restore", rc);
    }
    printf("R\n");
    char event[256];
    for (;;) {
        unsigned op = rng(100);
        char *batch = NULL;
        if (op < 35) {
            snprintf(event, sizeof event, "{\"enqueue\":{\"url\":\"u%u\"}}", rng(30));
            printf("T s %s\n", event);
            if ((rc = corelogic_system_send(s, event, &batch)) != CORELOGIC_OK) die("send", rc);
            printf("A %llu\n", batch_high(batch));
        } else if (op < 42) {
            snprintf(event, sizeof event, "{\"cancel\":{\"url\":\"u%u\"}}", rng(30));
            printf("T s %s\n", event);
            if ((rc = corelogic_system_send(s, event, &batch)) != CORELOGIC_OK) die("send", rc);
            printf("A %llu\n", batch_high(batch));
        } else if (op < 46) {
            snprintf(event, sizeof event, "{\"setMaxConcurrent\":{\"value\":%u}}", 1 + rng(4));
            printf("T s %s\n", event);
            if ((rc = corelogic_system_send(s, event, &batch)) != CORELOGIC_OK) die("send", rc);
            printf("A %llu\n", batch_high(batch));
        } else if (op < 94) {
            /* An effect answers: pick a running download. */
            char *effects = NULL;
            if ((rc = corelogic_system_effects(s, &effects)) != CORELOGIC_OK) die("effects", rc);
            int count = 0;
            for (const char *p = strstr(effects, "{\"id\":"); p; p = strstr(p + 1, "{\"id\":")) count++;
            if (count == 0) { corelogic_free(effects); continue; }
            int pick = (int)rng((unsigned)count);
            const char *p = strstr(effects, "{\"id\":");
            while (pick-- > 0) p = strstr(p + 1, "{\"id\":");
            unsigned long long id = strtoull(p + 6, NULL, 10);
            const char *url = strstr(p, "\"url\":\"") + 7;
            int url_length = (int)(strchr(url, '"') - url);
            if (op < 60) {
                printf("T c %llu\n", id);
                rc = corelogic_system_complete(s, id, &batch);
            } else {
                if (op < 85) snprintf(event, sizeof event, "{\"finished\":{\"url\":\"%.*s\"}}", url_length, url);
                else snprintf(event, sizeof event, "{\"failed\":{\"url\":\"%.*s\",\"reason\":\"timeout\"}}", url_length, url);
                printf("T d %llu %s\n", id, event);
                rc = corelogic_system_deliver(s, id, event, &batch);
            }
            corelogic_free(effects);
            if (rc != CORELOGIC_OK) die("deliver/complete", rc);
            printf("A %llu\n", batch_high(batch));
            /* A late answer is stale and never journaled. */
            if (corelogic_system_complete(s, id, NULL) != CORELOGIC_STALE) die("stale complete", -100);
        } else {
            printf("B\n");
            if ((rc = corelogic_system_checkpoint(s)) != CORELOGIC_OK) die("checkpoint", rc);
            printf("E\n");
        }
    }
}

/* ---- the parent -------------------------------------------------------------- */

struct input { char kind; unsigned long long id; char event[256]; };

static int parse_try(const char *line, struct input *in) {
    in->kind = line[2];
    in->id = 0;
    in->event[0] = 0;
    const char *rest = line + 4;
    if (in->kind == 'd' || in->kind == 'c') {
        char *end;
        in->id = strtoull(rest, &end, 10);
        rest = *end == ' ' ? end + 1 : end;
    }
    snprintf(in->event, sizeof in->event, "%s", rest);
    return 0;
}

/* Applies an input to the model: the reducer alone, as replay does (send and deliver
 * both reduce their event; complete changes no state). */
static void apply_to_model(corelogic_system model, const struct input *in) {
    if (in->kind == 'c') return;
    CHECK(corelogic_system_send(model, in->event, NULL) == CORELOGIC_OK);
}

static char *state_json(corelogic_system s) {
    char *json = NULL;
    return corelogic_system_state(s, &json) == CORELOGIC_OK ? json : strdup("<no state>");
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct totals { int kills, in_checkpoint, in_restore, acknowledged, unacknowledged_restored, checkpoints, rounds_ok; };

static void run_phase(const char *self, const char *dir, int mode, int kills, struct totals *t) {
    corelogic_system model = 0;
    CHECK(corelogic_system_new("downloads", initial_state, &model, NULL) == CORELOGIC_OK);
    unsigned long long acked = 0, max_id = 0;
    for (int round = 0; round < kills; round++) {
        int fds[2];
        if (pipe(fds) != 0) { perror("pipe"); exit(1); }
        char seed[32], mode_text[8];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)rng(1u << 30) * 7919 + (unsigned long long)round);
        snprintf(mode_text, sizeof mode_text, "%d", mode);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fds[1], 1);
            close(fds[0]);
            close(fds[1]);
            execl(self, self, "--child", dir, seed, mode_text, round == 0 ? "1" : "0", (char *)NULL);
            _exit(3);
        }
        close(fds[1]);
        /* When to kill: inside a checkpoint, at a random moment after ready, or at a random
         * moment after the fork (often inside the host's own restore). */
        int style = round % 5 == 4 ? 2 : round % 5 == 2 ? 1 : 0;
        double start = now(), ready_at = 0, deadline = style == 1 ? start + rng(15000) * 1e-6 : 0;
        size_t cap = 1 << 20, used = 0;
        char *out = malloc(cap);
        int killed = 0, saw_begin_unmatched = 0;
        while (!killed) {
            struct pollfd p = {fds[0], POLLIN, 0};
            int ready = poll(&p, 1, 1);
            if (ready > 0) {
                if (used + 65536 > cap) { cap *= 2; out = realloc(out, cap); }
                ssize_t n = read(fds[0], out + used, 65536);
                if (n <= 0) break; /* the host exited by itself: reported below */
                size_t old = used;
                used += (size_t)n;
                out[used] = 0;
                if (!ready_at && (old == 0 ? out[0] == 'R' : strstr(out, "R\n") != NULL)) {
                    ready_at = now();
                    if (style == 0) deadline = ready_at + (2000 + rng(20000)) * 1e-6;
                }
                if (style == 2 && ready_at && memmem(out + (old > 2 ? old - 2 : 0), used - (old > 2 ? old - 2 : 0), "\nB\n", 3)) {
                    struct timespec pause = {0, (long)rng(400) * 1000};
                    nanosleep(&pause, NULL);
                    kill(pid, SIGKILL);
                    killed = 1;
                }
            }
            if (!killed && deadline && now() >= deadline) {
                kill(pid, SIGKILL);
                killed = 1;
            }
            if (!killed && now() - start > 5) { kill(pid, SIGKILL); killed = 1; }
        }
        for (;;) {
            if (used + 65536 > cap) { cap *= 2; out = realloc(out, cap); }
            ssize_t n = read(fds[0], out + used, 65536);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            used += (size_t)n;
        }
        out[used] = 0;
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) fprintf(stderr, "  host output tail: %s\n", used > 300 ? out + used - 300 : out);
        t->kills++;

        /* Replay the host's report into the model. */
        struct input pending;
        int has_pending = 0, saw_ready = 0;
        for (char *line = out, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (!next) break; /* a line cut by the kill: its input was not acknowledged */
            *next++ = 0;
            if (line[0] == 'R') saw_ready = 1;
            else if (line[0] == 'T') { parse_try(line, &pending); has_pending = 1; }
            else if (line[0] == 'A' && has_pending) {
                apply_to_model(model, &pending);
                acked++;
                has_pending = 0;
                unsigned long long id = strtoull(line + 2, NULL, 10);
                if (id > max_id) max_id = id;
                t->acknowledged++;
            } else if (line[0] == 'B') saw_begin_unmatched = 1;
            else if (line[0] == 'E') { saw_begin_unmatched = 0; t->checkpoints++; }
            else if (line[0] == 'X') { fprintf(stderr, "  host failed: %s\n", line); CHECK(0); }
        }
        t->in_checkpoint += saw_begin_unmatched;
        t->in_restore += !saw_ready;
        free(out);

        /* Restore and compare. */
        corelogic_system restored = 0;
        char *report = NULL, *batch = NULL;
        int rc = corelogic_system_restore("downloads", dir, &restored, &report, &batch);
        CHECK(rc == CORELOGIC_OK);
        if (rc != CORELOGIC_OK) { fprintf(stderr, "  round %d: restore failed: %s\n", round, corelogic_last_error()); break; }
        const char *seq_text = strstr(report, "\"seq\":");
        unsigned long long seq = seq_text ? strtoull(seq_text + 6, NULL, 10) : 0;
        char *state = state_of_batch(batch);
        char *expected = state_json(model);
        int ok = 1;
        if (seq == acked) {
            ok = strcmp(state, expected) == 0;
        } else if (seq == acked + 1 && has_pending) {
            /* The input whose record was written when the kill hit, before its OK. */
            corelogic_system with_pending = 0;
            CHECK(corelogic_system_new("downloads", expected, &with_pending, NULL) == CORELOGIC_OK);
            apply_to_model(with_pending, &pending);
            char *expected_plus = state_json(with_pending);
            ok = strcmp(state, expected_plus) == 0;
            free(expected_plus);
            corelogic_system_free(with_pending);
            apply_to_model(model, &pending);
            acked++;
            t->unacknowledged_restored++;
        } else {
            ok = 0;
            fprintf(stderr, "  round %d: journal holds %llu inputs, %llu were acknowledged%s\n", round, seq, acked,
                    has_pending ? " (+1 pending)" : "");
        }
        CHECK(ok);
        if (!ok) fprintf(stderr, "  round %d: restored %s\n  expected %s\n  report %s\n", round, state, expected, report);
        /* The restore starts exactly the effects that state asks for, with unused ids. */
        corelogic_system fresh = 0;
        char *fresh_batch = NULL;
        CHECK(corelogic_system_new("downloads", state, &fresh, &fresh_batch) == CORELOGIC_OK);
        char *a = effects_without_ids(batch), *b = effects_without_ids(fresh_batch);
        CHECK(strcmp(a, b) == 0);
        unsigned long long low, high;
        start_id_range(batch, &low, &high);
        CHECK(low == 0 || low > max_id);
        if (high > max_id) max_id = high;
        t->rounds_ok += ok;
        free(a);
        free(b);
        free(state);
        free(expected);
        corelogic_free(fresh_batch);
        corelogic_system_free(fresh);
        corelogic_free(report);
        corelogic_free(batch);
        CHECK(corelogic_system_free(restored) == CORELOGIC_OK);
    }
    corelogic_system_free(model);
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "--child") == 0)
        child(argv[2], strtoull(argv[3], NULL, 10), atoi(argv[4]), atoi(argv[5]));
    int kills = argc > 1 ? atoi(argv[1]) : 60;
    if (kills < 2) kills = 2;
    const char *seed_text = getenv("CORELOGIC_CRASH_SEED");
    unsigned long long seed = seed_text ? strtoull(seed_text, NULL, 10) : (unsigned long long)time(NULL);
    rng_state = seed;
    signal(SIGPIPE, SIG_IGN);
    char root[] = "/tmp/corelogic-crash-XXXXXX";
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    char every[300], interval[300];
    snprintf(every, sizeof every, "%s/every-input", root);
    snprintf(interval, sizeof interval, "%s/interval", root);
    double start = now();
    struct totals t = {0};
    /* Two thirds of the kills with fsync on every input, the rest with interval fsync: a
     * process crash loses nothing acknowledged in either mode. */
    run_phase(argv[0], every, CORELOGIC_DURABILITY_EVERY_INPUT, kills - kills / 3, &t);
    run_phase(argv[0], interval, CORELOGIC_DURABILITY_INTERVAL, kills / 3, &t);
    remove_tree(every);
    remove_tree(interval);
    rmdir(root);
    printf("crash: %d SIGKILLs (%d inside a checkpoint, %d before the host finished restoring), "
           "%d inputs acknowledged, %d written-but-unacknowledged inputs restored, %d checkpoints completed, "
           "%d/%d restores exact, %.1f s (seed %llu)\n",
           t.kills, t.in_checkpoint, t.in_restore, t.acknowledged, t.unacknowledged_restored, t.checkpoints,
           t.rounds_ok, t.kills, now() - start, seed);
    return CHECK_SUMMARY("crash");
}
