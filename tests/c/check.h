/* A tiny test harness for the C API tests: CHECK records a pass or a failure
 * (with the file, line and expression), and check_summary prints the closing
 * "N passed, M failed" line. */
#ifndef PHUTBALL_TEST_CHECK_H
#define PHUTBALL_TEST_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* One record of a fixture file (format: crates/phutball/tests/data/README.md):
 * its position line and the figures these tests check. */
struct fixture_record {
    int line; /* of the position line, from 1 */
    char position[2048];
    long long paths, outcomes; /* -1: not given */
    int score;                 /* 1 yes, 0 no, -1 undecided or not given */
};

/* Reads the fixture file DIR/NAME.fixture into *RECORDS (a new array: free()
 * it) and returns how many records it holds, or -1 after a failed check (the
 * file does not open, or a line is neither a comment, a position nor a known
 * figure). Comments ("# ..." or "#" alone) and blank lines are skipped;
 * figure lines start with a lowercase key; every other line is a position. */
static inline int read_fixture(const char *dir, const char *name, struct fixture_record **records) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.fixture", dir, name);
    *records = NULL;
    FILE *file = fopen(path, "r");
    CHECK(file != NULL);
    if (file == NULL) {
        return -1;
    }
    int count = 0, capacity = 0, line_number = 0;
    char line[2048];
    bool ok = true;
    while (ok && fgets(line, sizeof line, file) != NULL) {
        line_number++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || (line[0] == '#' && (line[1] == '\0' || line[1] == ' '))) {
            continue;
        }
        if (line[0] >= 'a' && line[0] <= 'z') {
            struct fixture_record *r = count > 0 ? &(*records)[count - 1] : NULL;
            char word[16] = "";
            if (r == NULL) {
                ok = false;
            } else if (sscanf(line, "paths %lld", &r->paths) == 1 ||
                       sscanf(line, "outcomes %lld", &r->outcomes) == 1 ||
                       strncmp(line, "perft ", 6) == 0) {
                /* perft: not checked here */
            } else if (sscanf(line, "score %15s", word) == 1) {
                r->score = strcmp(word, "yes") == 0 ? 1 : strcmp(word, "no") == 0 ? 0 : -1;
                ok = r->score >= 0 || strcmp(word, "undecided") == 0;
            } else {
                ok = false;
            }
            if (!ok) {
                fprintf(stderr, "%s:%d: not a figure of a record: %s\n", path, line_number, line);
            }
            continue;
        }
        if (count == capacity) {
            capacity = capacity == 0 ? 32 : 2 * capacity;
            struct fixture_record *grown =
                (struct fixture_record *)realloc(*records, (size_t)capacity * sizeof **records);
            if (grown == NULL) {
                ok = false;
                break;
            }
            *records = grown;
        }
        struct fixture_record *r = &(*records)[count++];
        r->line = line_number;
        snprintf(r->position, sizeof r->position, "%s", line);
        r->paths = r->outcomes = -1;
        r->score = -1;
    }
    fclose(file);
    CHECK(ok);
    if (!ok) {
        free(*records);
        *records = NULL;
        return -1;
    }
    return count;
}

static inline int check_summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}

#endif
