/* What test_engine and test_budget share besides check.h: the positions
 * they both search, parsing that exits on failure, and a monotonic clock in
 * milliseconds for the tests that cancel from another thread. Include after
 * defining _POSIX_C_SOURCE (clock_gettime, nanosleep). */
#ifndef PHUTBALL_TEST_SUPPORT_H
#define PHUTBALL_TEST_SUPPORT_H

#include <stdlib.h>
#include <time.h>

#include "check.h"

#define STANDARD_START "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
/* Ball H10, men H11..H18: Ohs scores with H10-H19. */
#define CHAIN "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
/* Dense boards on which the can-score search before issue 9 ran for minutes
 * (both can score; the search decides them in about a millisecond now). */
#define HARD_1                                                                                     \
    "5#6#2/3##10/7#4#2/4#6#3/5#1#7/11#3/##1####1######1/#####1####1###1/############1##/"         \
    "####1######1###/2###1#1###1###/#1####2#######/###1######1##1#/#1#2####1#####/##1###2##1####/" \
    "@1###1#####1###/########1##1###/###1#######2##/######1#1####2 O"
#define HARD_2                                                                                     \
    "5#6#2/4#10/7#4#2/4#10/5#9/15/##2##2####1#1/2###1####1###1/######1###1#1#1/##1#1##1###1##1/"  \
    "3#6#1##1/#1#2#3#1#2#/###1######1##2/#1#2####1#3#/#2###3#1##2/@1#3##1##4/####2#3#2##/"       \
    "###2####1#3#/######1#1#1##2 O"

/* crates/phutball/tests/data/hard-32.fixture record 13 (test_budget checks the
 * copy): no can-score search of this project has
 * decided it (not within 6,000 million landings), so there is always a
 * can-score to cancel. */
#define UNDECIDED                                                                                  \
    "15/1#2#5#4/2###1#5#2/15/6#7#/15/##1########2##/1####1###2##2/1#####2##1####/###1##2#######/"  \
    "##1#1########2/#####2########/2#####1##1###1/##1##1###2@###/1#2##2##1#1#1/####1#1#1#1###1/"   \
    "##2#2########/#2#4#1####1/##1##1####1###1 O"

/* A position from `text`; exits with status 2 when it does not parse. */
static inline PhutballPosition *parse(const char *text) {
    PhutballPosition *pos = NULL;
    if (phutball_position_parse(text, NULL, &pos) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot parse %s: %s\n", text, last_error());
        exit(2);
    }
    return pos;
}

static inline double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

static inline void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

#endif
