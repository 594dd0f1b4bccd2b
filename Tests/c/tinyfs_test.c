/* A journal on a file system that fills up (make test-tinyfs mounts a small tmpfs and
 * passes its path): inputs are sent until the disk is full, in both durability modes,
 * with and without a handler queuing inputs. Every call is OK, with its record on disk,
 * or fails with the state, the effects and every file of the directory exactly as
 * before; a dropped queued input is reported in its outer call's batch; and the
 * directory, copied off the full disk, restores to the live state.
 *   tinyfs_test MOUNTPOINT SCRATCH
 * Ends with "tinyfs: N passed, N failed". */
#include "persist_util.h"

static void fill(const char *mount, const char *scratch, int durability, int queued) {
    char dir[600], copy[700];
    snprintf(dir, sizeof dir, "%s/fill-%d-%d", mount, durability, queued);
    snprintf(copy, sizeof copy, "%s/fill-%d-%d", scratch, durability, queued);
    corelogic_system s = 0;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    int rc = corelogic_system_open_journal(s, dir, durability);
    CHECK(rc == CORELOGIC_OK);
    if (rc != CORELOGIC_OK) { corelogic_system_free(s); return; }
    if (queued) {
        answering = s;
        CHECK(corelogic_system_on_command(s, answer_at_once, NULL) == CORELOGIC_OK);
    }
    char *event = malloc(5000);
    int ok = 0, refused = 0, dropped = 0;
    for (int i = 0; i < 10000 && refused < 20; i++) {
        int n = snprintf(event, 5000, "{\"enqueue\":{\"url\":\"%d-", i);
        memset(event + n, 'x', 3000 + (size_t)(i % 7) * 100);
        strcpy(event + n + 3000 + (i % 7) * 100, "\"}}");
        char *before = picture(s, dir);
        char *batch = NULL;
        rc = corelogic_system_send(s, event, &batch);
        if (rc == CORELOGIC_OK) {
            ok++;
            dropped += contains(batch, "\"dropped\":[");
        } else {
            refused++;
            CHECK(rc == CORELOGIC_ERR_IO);
            CHECK(contains(corelogic_last_error(), "No space left on device") ||
                  contains(corelogic_last_error(), "unusable after an earlier error"));
            char *after = picture(s, dir);
            CHECK(strcmp(before, after) == 0);
            free(after);
        }
        corelogic_free(batch);
        free(before);
    }
    CHECK(ok > 0 && refused > 0);
    if (queued) CHECK(dropped + refused > 0);
    printf("  %s, %s: %d inputs acknowledged before the disk filled, %d refused, %d batches reported a dropped queued input\n",
           durability ? "interval" : "every-input", queued ? "queued inputs" : "host inputs", ok, refused, dropped);
    /* Everything acknowledged is on the full disk: a copy restores to the live state. */
    char *expected = state_json(s);
    CHECK(corelogic_system_close_journal(s) == CORELOGIC_OK);
    CHECK(copy_tree(dir, copy) == 0);
    check_restores("downloads", copy, expected, 0, NULL);
    remove_tree(copy);
    /* With space again, a restore in place recovers too. */
    corelogic_system_free(s);
    remove_tree(dir);
    free(expected);
    free(event);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: tinyfs_test MOUNTPOINT SCRATCH\n"); return 2; }
    snprintf(root, sizeof root, "%s", argv[2]);
    for (int durability = 0; durability <= 1; durability++) {
        fill(argv[1], argv[2], durability, 0);
        fill(argv[1], argv[2], durability, 1);
    }
    return CHECK_SUMMARY("tinyfs");
}
