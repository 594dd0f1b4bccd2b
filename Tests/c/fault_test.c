/* Disk faults and out-of-memory through the C ABI (include/corelogic.h, "Persistence";
 * docs/persistence.md, "Writing, and what survives a crash").
 *
 * This program defines write, fsync, fdatasync, rename, unlink and malloc itself; the
 * library's calls to them land here (the executable's definitions come first), and a
 * test arms one of them to fail (with an errno, or a write cut short midway) or to
 * crash the process (_exit) at its Nth call. The rules checked:
 *  - every call either succeeds with its record durable, or fails leaving the state,
 *    the effects and the journal's files exactly as before;
 *  - an input a handler queued whose record fails is dropped and reported in the outer
 *    call's batch, and the outer call is OK;
 *  - a later checkpoint recovers, and a restore gives the live state;
 *  - a crash at each step of a checkpoint leaves a directory that restores to the same
 *    state;
 *  - a failed allocation of a result is CORELOGIC_ERR_NOMEM.
 * Runs bare (valgrind replaces malloc). Ends with "faults: N passed, N failed". */
#include "persist_util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* ---- The shim ------------------------------------------------------------------------ */

enum { OP_WRITE = 1, OP_FSYNC = 2, OP_FDATASYNC = 4, OP_RENAME = 8, OP_UNLINK = 16, OP_ALL = 31 };
enum { FAIL, FAIL_MIDWAY, CRASH };

static int armed;        /* the ops counted; 0: disarmed */
static int countdown;    /* the armed call that faults */
static int fault_mode;
static int fault_errno;
static int fired;        /* whether the fault happened */
static int midway_done;  /* FAIL_MIDWAY: the short write happened; the next one fails */

/* Whether this call of `op` must fault. */
static int fault_now(int op) {
    if (!(armed & op) || fired) return 0;
    if (--countdown > 0) return 0;
    fired = 1;
    if (fault_mode == CRASH) _exit(77);
    return 1;
}

ssize_t write(int fd, const void *buf, size_t n) {
    if (midway_done) {
        midway_done = 0;
        errno = fault_errno;
        return -1;
    }
    if (fault_now(OP_WRITE)) {
        if (fault_mode == FAIL_MIDWAY && n > 1) {
            midway_done = 1;
            return syscall(SYS_write, fd, buf, n / 2);
        }
        errno = fault_errno;
        return -1;
    }
    return syscall(SYS_write, fd, buf, n);
}

int fsync(int fd) {
    if (fault_now(OP_FSYNC)) { errno = fault_errno; return -1; }
    return (int)syscall(SYS_fsync, fd);
}

int fdatasync(int fd) {
    if (fault_now(OP_FDATASYNC)) { errno = fault_errno; return -1; }
    return (int)syscall(SYS_fdatasync, fd);
}

int rename(const char *from, const char *to) {
    if (fault_now(OP_RENAME)) { errno = fault_errno; return -1; }
    return renameat(AT_FDCWD, from, AT_FDCWD, to);
}

int unlink(const char *path) {
    if (fault_now(OP_UNLINK)) { errno = fault_errno; return -1; }
    return unlinkat(AT_FDCWD, path, 0);
}

extern void *__libc_malloc(size_t size);
static size_t failing_malloc_size; /* 0: none */
void *malloc(size_t size) {
    if (failing_malloc_size != 0 && size == failing_malloc_size) {
        failing_malloc_size = 0;
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

static void arm(int ops, int nth, int mode, int error) {
    fflush(NULL);
    armed = ops;
    countdown = nth;
    fault_mode = mode;
    fault_errno = error;
    fired = 0;
    midway_done = 0;
}

static void disarm(void) {
    armed = 0;
    midway_done = 0;
}

/* A checkpoint makes the journal usable again, whatever failed before it: the next input
 * is journaled and the directory restores to the live state. Frees `s`. */
static void check_checkpoint_recovers(corelogic_system s, const char *dir, const char *event) {
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, event, NULL) == CORELOGIC_OK);
    char *expected = state_json(s);
    corelogic_system_free(s);
    check_restores("downloads", dir, expected, 0, NULL);
    free(expected);
}

/* ---- Input records that fail ------------------------------------------------------------ */

struct fault {
    const char *name;
    int ops, mode, error;
};
static const struct fault record_faults[] = {
    {"write ENOSPC", OP_WRITE, FAIL, ENOSPC},
    {"write cut midway", OP_WRITE, FAIL_MIDWAY, ENOSPC},
    {"write EIO", OP_WRITE, FAIL, EIO},
    {"fdatasync EIO", OP_FDATASYNC, FAIL, EIO},
};

/* One input with the Nth write or sync failing: OK (then restorable) or a failure that
 * changed nothing; a checkpoint recovers; a restore gives the live state. */
static void test_record_faults(int durability, int queued) {
    char dir[600];
    int cases = 0, failures = 0, drops = 0;
    for (size_t f = 0; f < sizeof record_faults / sizeof *record_faults; f++) {
        for (int nth = 1; nth <= 4; nth++) {
            snprintf(dir, sizeof dir, "%s/records-%d-%d-%zu-%d", root, durability, queued, f, nth);
            corelogic_system s = 0;
            CHECK(corelogic_system_new("downloads", "{\"maxConcurrent\":2,\"pending\":[],\"finished\":[],\"failed\":[]}", &s, NULL) == CORELOGIC_OK);
            CHECK(corelogic_system_open_journal(s, dir, durability) == CORELOGIC_OK);
            CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"w1\"}}", NULL) == CORELOGIC_OK);
            CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"w2\"}}", NULL) == CORELOGIC_OK);
            CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"w3\"}}", NULL) == CORELOGIC_OK);
            if (queued) {
                answering = s;
                CHECK(corelogic_system_on_command(s, answer_at_once, NULL) == CORELOGIC_OK);
            }
            char *before = picture(s, dir);
            char *batch = NULL;
            arm(record_faults[f].ops, nth, record_faults[f].mode, record_faults[f].error);
            /* w1 and w2 run, w3 waits; w1 finishing starts w3, which the handler (if
             * any) answers at once: a second input, queued behind this one. */
            int rc = corelogic_system_deliver(s, 1, "{\"finished\":{\"url\":\"w1\"}}", &batch);
            int hit = fired;
            disarm();
            cases++;
            if (rc != CORELOGIC_OK) {
                failures++;
                CHECK(rc == CORELOGIC_ERR_IO);
                CHECK(hit);
                CHECK(batch == NULL);
                char *after = picture(s, dir);
                CHECK(strcmp(before, after) == 0);
                if (strcmp(before, after) != 0)
                    fprintf(stderr, "  %s #%d: changed\n  before %s\n  after  %s\n", record_faults[f].name, nth, before, after);
                free(after);
            } else if (hit && queued) {
                /* The fault hit a record of an input the handler queued. */
                drops += contains(batch, "\"dropped\":[{\"input\":");
                CHECK(contains(batch, "\"dropped\":[{\"input\":"));
                CHECK(contains(batch, "\"status\":\"CORELOGIC_ERR_IO\""));
            }
            corelogic_free(batch);
            free(before);
            check_checkpoint_recovers(s, dir, "{\"enqueue\":{\"url\":\"w4\"}}");
            remove_tree(dir);
        }
    }
    /* The faults did hit: some calls failed, and with queued inputs some were dropped. */
    CHECK(failures > 0);
    if (queued) CHECK(drops > 0);
    printf("  records (%s, %s): %d faults, %d rejected the call, %d dropped a queued input\n",
           durability ? "interval" : "every-input", queued ? "queued inputs" : "host inputs", cases, failures, drops);
}

/* ---- Checkpoints that fail --------------------------------------------------------------- */

static const struct fault checkpoint_faults[] = {
    {"write ENOSPC", OP_WRITE, FAIL, ENOSPC},
    {"write cut midway", OP_WRITE, FAIL_MIDWAY, ENOSPC},
    {"fsync EIO", OP_FSYNC, FAIL, EIO},
    {"fdatasync EIO", OP_FDATASYNC, FAIL, EIO},
    {"rename EIO", OP_RENAME, FAIL, EIO},
};

/* The Nth write, fsync or rename of a checkpoint fails: ERR_IO with the state and
 * effects unchanged and the directory restoring to the live state; inputs then either
 * succeed durably or are refused; the next checkpoint recovers. */
static void test_checkpoint_faults(int durability) {
    char dir[600], copy[700];
    int failures = 0;
    for (size_t f = 0; f < sizeof checkpoint_faults / sizeof *checkpoint_faults; f++) {
        for (int nth = 1; nth <= 5; nth++) {
            snprintf(dir, sizeof dir, "%s/checkpoint-%d-%zu-%d", root, durability, f, nth);
            snprintf(copy, sizeof copy, "%s.copy", dir);
            corelogic_system s = 0;
            CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
            CHECK(corelogic_system_open_journal(s, dir, durability) == CORELOGIC_OK);
            CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"a\"}}", NULL) == CORELOGIC_OK);
            CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"b\"}}", NULL) == CORELOGIC_OK);
            char *state_before = state_json(s);
            arm(checkpoint_faults[f].ops, nth, checkpoint_faults[f].mode, checkpoint_faults[f].error);
            int rc = corelogic_system_checkpoint(s);
            int hit = fired;
            disarm();
            CHECK(rc == CORELOGIC_OK || (rc == CORELOGIC_ERR_IO && hit));
            char *state_after = state_json(s);
            CHECK(strcmp(state_before, state_after) == 0);
            free(state_after);
            if (rc != CORELOGIC_OK) {
                failures++;
                /* What is on disk restores to the live state. */
                CHECK(copy_tree(dir, copy) == 0);
                check_restores("downloads", copy, state_before, 0, NULL);
                remove_tree(copy);
            }
            /* An input now: durable, or refused with nothing changed. */
            char *before = picture(s, dir);
            int sent = corelogic_system_send(s, "{\"enqueue\":{\"url\":\"c\"}}", NULL);
            CHECK(sent == CORELOGIC_OK || sent == CORELOGIC_ERR_IO);
            if (sent != CORELOGIC_OK) {
                char *after = picture(s, dir);
                CHECK(strcmp(before, after) == 0);
                free(after);
            } else {
                char *expected = state_json(s);
                CHECK(copy_tree(dir, copy) == 0);
                check_restores("downloads", copy, expected, 0, NULL);
                remove_tree(copy);
                free(expected);
            }
            free(before);
            check_checkpoint_recovers(s, dir, "{\"enqueue\":{\"url\":\"d\"}}");
            free(state_before);
            remove_tree(dir);
        }
    }
    CHECK(failures > 0);
    printf("  checkpoints (%s): %d of %zu failed, each recovered\n", durability ? "interval" : "every-input",
           failures, 5 * sizeof checkpoint_faults / sizeof *checkpoint_faults);
}

/* ---- open_journal that fails ---------------------------------------------------------------- */

/* open_journal's first checkpoint fails at each of its steps: ERR_IO, the system keeps
 * no journal, the directory holds no snapshot or segment (nothing to restore by
 * mistake), and a retry succeeds. */
static void test_open_journal_faults(void) {
    char dir[600];
    int failures = 0;
    for (int nth = 1; nth <= 12; nth++) {
        snprintf(dir, sizeof dir, "%s/open-%d", root, nth);
        corelogic_system s = 0;
        CHECK(corelogic_system_new("counter", "{\"count\":7}", &s, NULL) == CORELOGIC_OK);
        arm(OP_WRITE | OP_FSYNC | OP_RENAME, nth, FAIL, ENOSPC);
        int rc = corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT);
        int hit = fired;
        disarm();
        CHECK(rc == CORELOGIC_OK || (rc == CORELOGIC_ERR_IO && hit));
        if (rc != CORELOGIC_OK) {
            failures++;
            CHECK(count_segments(dir) == 0);
            char snapshot[700];
            snprintf(snapshot, sizeof snapshot, "%s/snapshot.json", dir);
            CHECK(access(snapshot, F_OK) != 0);
            CHECK(corelogic_system_checkpoint(s) == CORELOGIC_ERR_ARG); /* no journal */
            CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
        }
        CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
        corelogic_system_free(s);
        check_restores("counter", dir, "{\"count\":8}", 0, NULL);
        remove_tree(dir);
    }
    CHECK(failures >= 6);
    printf("  open_journal: failed at %d steps of its first checkpoint, each left nothing behind\n", failures);
}

/* ---- A crash at each step of a checkpoint ------------------------------------------------- */

/* A child journals some inputs, then crashes at the Nth file operation (write, fsync,
 * fdatasync, rename, unlink) of a checkpoint; the directory it leaves restores to the
 * state it had. N runs until the checkpoint completes before its Nth operation. */
static void test_crash_during_checkpoint(int durability) {
    char dir[600], expected_path[700];
    int crashes = 0;
    for (int nth = 1; nth < 100; nth++) {
        snprintf(dir, sizeof dir, "%s/crash-%d-%d", root, durability, nth);
        snprintf(expected_path, sizeof expected_path, "%s.expected", dir);
        fflush(NULL);
        pid_t child = fork();
        if (child == 0) {
            corelogic_system s = 0;
            if (corelogic_system_new("downloads", NULL, &s, NULL) != CORELOGIC_OK) _exit(2);
            if (corelogic_system_open_journal(s, dir, durability) != CORELOGIC_OK) _exit(2);
            const char *urls[] = {"a", "b", "c", "d", "e"};
            char event[100];
            for (int i = 0; i < 5; i++) {
                snprintf(event, sizeof event, "{\"enqueue\":{\"url\":\"%s\"}}", urls[i]);
                if (corelogic_system_send(s, event, NULL) != CORELOGIC_OK) _exit(2);
                if (i == 1 && corelogic_system_checkpoint(s) != CORELOGIC_OK) _exit(2);
            }
            if (corelogic_system_deliver(s, 1, "{\"finished\":{\"url\":\"a\"}}", NULL) != CORELOGIC_OK) _exit(2);
            char *state = state_json(s);
            if (write_file(expected_path, state, strlen(state)) != 0) _exit(2);
            arm(OP_ALL, nth, CRASH, 0);
            int rc = corelogic_system_checkpoint(s);
            disarm();
            _exit(rc == CORELOGIC_OK ? 0 : 3);
        }
        int status = 0;
        waitpid(child, &status, 0);
        CHECK(WIFEXITED(status) && (WEXITSTATUS(status) == 77 || WEXITSTATUS(status) == 0));
        char *expected = read_file(expected_path, NULL);
        CHECK(expected != NULL);
        if (expected) {
            check_restores("downloads", dir, expected, 0, NULL);
        }
        free(expected);
        unlink(expected_path);
        remove_tree(dir);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 77) break;
        crashes++;
    }
    CHECK(crashes >= 8); /* temp write, fsync, rename, dir fsync, for snapshot and segment */
    printf("  crash during checkpoint (%s): restored after a crash at each of %d steps\n",
           durability ? "interval" : "every-input", crashes);
}

/* ---- free syncs before it returns ------------------------------------------------------------ */

static corelogic_system freed_in_handler;
static int synced_when_free_returned = -1;
static void free_and_count(void *context, const char *state) {
    (void)context;
    (void)state;
    CHECK(corelogic_system_free(freed_in_handler) == CORELOGIC_OK);
    synced_when_free_returned = 1000000 - countdown;
}

/* Interval mode, free from inside a handler: the record of the running call (not yet
 * synced: the checkpoint synced just before) is synced before free returns, not later
 * when the call lets go of the system. */
static void test_free_syncs_before_returning(void) {
    const char *dir = path_in("free-sync");
    CHECK(corelogic_system_new("counter", NULL, &freed_in_handler, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(freed_in_handler, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(freed_in_handler, free_and_count, NULL) == CORELOGIC_OK);
    arm(OP_FDATASYNC, 1000000, FAIL, EIO); /* counts, never fires */
    CHECK(corelogic_system_send(freed_in_handler, "\"increment\"", NULL) == CORELOGIC_OK);
    disarm();
    CHECK(synced_when_free_returned == 1);
    check_restores("counter", dir, "{\"count\":1}", 0, "\"seq\":1,", NULL);
    remove_tree(dir);
}

/* ---- Out of memory -------------------------------------------------------------------------- */

static void test_out_of_memory(void) {
    corelogic_system s = 0;
    char *event = malloc(100100);
    strcpy(event, "{\"enqueue\":{\"url\":\"");
    memset(event + strlen(event), 'm', 100000);
    strcpy(event + strlen("{\"enqueue\":{\"url\":\"") + 100000, "\"}}");
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, event, NULL) == CORELOGIC_OK);
    char *state = NULL;
    CHECK(corelogic_system_state(s, &state) == CORELOGIC_OK);
    size_t state_size = strlen(state) + 1;
    char *out = (char *)1;
    failing_malloc_size = state_size;
    CHECK(corelogic_system_state(s, &out) == CORELOGIC_ERR_NOMEM);
    CHECK(out == NULL);
    CHECK(contains(corelogic_last_error(), "corelogic_system_state: out of memory"));
    char *again = NULL;
    CHECK(corelogic_system_state(s, &again) == CORELOGIC_OK);
    CHECK(again && strcmp(again, state) == 0);
    corelogic_free(again);

    /* A batch that cannot be copied: the input was applied, and the message says so. */
    char *batch = NULL;
    CHECK(corelogic_system_send(s, event, &batch) == CORELOGIC_OK); /* a duplicate: no change */
    failing_malloc_size = strlen(batch) + 1;
    corelogic_free(batch);
    batch = (char *)1;
    CHECK(corelogic_system_send(s, event, &batch) == CORELOGIC_ERR_NOMEM);
    CHECK(batch == NULL);
    CHECK(contains(corelogic_last_error(), "input applied"));
    failing_malloc_size = 0;
    corelogic_free(state);
    corelogic_system_free(s);
    free(event);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/corelogic-faults-XXXXXX");
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    signal(SIGXFSZ, SIG_IGN);
    for (int durability = 0; durability <= 1; durability++) {
        test_record_faults(durability, 0);
        test_record_faults(durability, 1);
        test_checkpoint_faults(durability);
        test_crash_during_checkpoint(durability);
    }
    test_open_journal_faults();
    test_free_syncs_before_returning();
    test_out_of_memory();
    rmdir(root);
    return CHECK_SUMMARY("faults");
}
