/* A tiny test harness for the C API tests: CHECK records a pass or a failure
 * (with the file, line and expression), and check_summary prints the closing
 * "N passed, M failed" line. */
#ifndef PHUTBALL_TEST_CHECK_H
#define PHUTBALL_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "phutball.h"

static int checks_passed = 0;
static int checks_failed = 0;

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        if (expr) {                                                                                \
            checks_passed++;                                                                       \
        } else {                                                                                   \
            checks_failed++;                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #expr);              \
        }                                                                                          \
    } while (0)

/* Checks that a call returned the expected status. */
#define CHECK_STATUS(call, expected) CHECK((call) == (expected))
#define CHECK_OK(call) CHECK_STATUS(call, PHUTBALL_STATUS_OK)

/* The calling thread's last error message (static storage, overwritten by the next call). */
static inline const char *last_error(void) {
    static char message[2048];
    size_t written = 0;
    if (phutball_last_error_message(message, sizeof message, &written) != PHUTBALL_STATUS_OK) {
        return "(could not read the last error)";
    }
    return message;
}

/* Checks that the last error message contains `needle`. */
#define CHECK_MESSAGE_HAS(needle)                                                                  \
    do {                                                                                           \
        const char *message_ = last_error();                                                       \
        if (strstr(message_, needle) != NULL) {                                                    \
            checks_passed++;                                                                       \
        } else {                                                                                   \
            checks_failed++;                                                                       \
            fprintf(stderr, "%s:%d: last error \"%s\" lacks \"%s\"\n", __FILE__, __LINE__,        \
                    message_, needle);                                                             \
        }                                                                                          \
    } while (0)

/* Opens DIR/NAME.pos and DIR/NAME.expected (a benchmark file and its
 * expected figures) for reading; checks that both opened and, if one did
 * not, closes the other and returns false. */
static inline bool open_benchmark(const char *dir, const char *name, FILE **positions,
                                  FILE **expected) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.pos", dir, name);
    *positions = fopen(path, "r");
    snprintf(path, sizeof path, "%s/%s.expected", dir, name);
    *expected = fopen(path, "r");
    CHECK(*positions != NULL && *expected != NULL);
    if (*positions == NULL || *expected == NULL) {
        if (*positions) fclose(*positions);
        if (*expected) fclose(*expected);
        return false;
    }
    return true;
}

static inline int check_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif
