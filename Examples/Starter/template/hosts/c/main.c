/* {{Name}} from C: send events, perform the save effect, deliver its answer.
 * Build and run with `make run-c`. */
#include <corelogic.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    corelogic_system system;
    char *batch = NULL;
    if (corelogic_system_new("{{name}}", NULL, &system, NULL) != CORELOGIC_OK) {
        fprintf(stderr, "%s\n", corelogic_last_error());
        return 1;
    }
    corelogic_system_send(system, "{\"add\":{\"text\":\"milk\"}}", NULL);
    if (corelogic_system_send(system, "\"save\"", &batch) != CORELOGIC_OK) return 1;
    printf("%s\n", batch);   /* ... "effects":[{"start":{"id":1,"feedback":"save",...}}] */
    int started = strstr(batch, "\"start\"") != NULL;
    corelogic_free(batch);

    if (corelogic_system_deliver(system, 1, "\"saved\"", &batch) != CORELOGIC_OK) return 1;
    printf("%s\n", batch);
    corelogic_free(batch);

    /* A second answer to the same effect is stale: it never reaches the reducer. */
    int stale = corelogic_system_deliver(system, 1, "\"saved\"", NULL) == CORELOGIC_STALE;
    corelogic_system_free(system);
    return started && stale ? 0 : 1;
}
