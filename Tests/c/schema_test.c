/* corelogic_feature_schema through the ABI: every feature has a schema, the same bytes
 * on every call, with its entry points; bad arguments get their status and leave the
 * out-parameter NULL. Runs under valgrind: every returned string is freed.
 * Ends with "schema: N passed, N failed"; exit status 1 on any failure. */
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *features[] = {
    "counter", "search", "downloads", "playcatch", "pharmacies",
    "list", "profile", "share", "typeahead", "signup",
};

static void test_every_feature_has_a_deterministic_schema(void) {
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
        char *first = NULL, *second = NULL;
        int rc = corelogic_feature_schema(features[i], &first);
        if (rc != CORELOGIC_OK) fprintf(stderr, "  %s: %s\n", features[i], corelogic_status_name(rc));
        CHECK(rc == CORELOGIC_OK);
        CHECK(strcmp(corelogic_last_error(), "") == 0);
        CHECK(corelogic_feature_schema(features[i], &second) == CORELOGIC_OK);
        CHECK(first && second && strcmp(first, second) == 0);
        CHECK(contains(first, "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\""));
        CHECK(contains(first, "\"state\":{\"$ref\":"));
        CHECK(contains(first, "\"event\":{\"$ref\":"));
        CHECK(contains(first, "\"batch\":{\"oneOf\":"));
        corelogic_free(first);
        corelogic_free(second);
    }
}

static void test_schema_names_requests_queries_and_recursion(void) {
    char *schema = NULL;
    CHECK(corelogic_feature_schema("pharmacies", &schema) == CORELOGIC_OK);
    /* a child feature's feedbacks and queries under their prefix */
    CHECK(contains(schema, "\"request.typeahead.search\":{\"$ref\":\"#/$defs/Typeahead.SearchRequest\"}"));
    CHECK(contains(schema, "\"query.route\":{\"$ref\":\"#/$defs/Pharmacies.Route\"}"));
    /* the recursive phase refers to itself */
    CHECK(contains(schema, "\"from\":{\"$ref\":\"#/$defs/Pharmacies.Phase\"}"));
    corelogic_free(schema);

    CHECK(corelogic_feature_schema("counter", &schema) == CORELOGIC_OK);
    CHECK(contains(schema, "\"query.isZero\":{\"type\":\"boolean\"}"));
    CHECK(contains(schema, "\"enum\":[\"increment\",\"decrement\"]"));
    corelogic_free(schema);
}

static void test_bad_arguments(void) {
    char *schema = (char *)"untouched";
    CHECK(corelogic_feature_schema("nope", &schema) == CORELOGIC_ERR_NOT_FOUND);
    CHECK(schema == NULL);
    CHECK(contains(corelogic_last_error(), "no feature named 'nope'"));
    CHECK(contains(corelogic_last_error(), "counter, search"));

    schema = (char *)"untouched";
    CHECK(corelogic_feature_schema(NULL, &schema) == CORELOGIC_ERR_ARG);
    CHECK(schema == NULL);
    CHECK(corelogic_feature_schema("counter", NULL) == CORELOGIC_ERR_ARG);
    CHECK(contains(corelogic_last_error(), "out_json is NULL"));
}

int main(void) {
    test_every_feature_has_a_deterministic_schema();
    test_schema_names_requests_queries_and_recursion();
    test_bad_arguments();
    printf("schema: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
