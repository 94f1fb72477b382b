/* Tests of bounded work in the C API: the cancel token (cancelled from
 * another thread while a can-score runs), PhutballBudget (timeout, work
 * limit, memory limit, NULL for the defaults), the *_within functions and
 * PhutballMoveList.
 *
 *   test_budget [FIXTURE_DIR]
 *
 * With FIXTURE_DIR (crates/phutball/tests/data), also checks on every
 * record of jumps-24 and score-16 that a call under a work limit answers
 * exactly what the unbounded call answers, or gives up with
 * PHUTBALL_STATUS_WORK_LIMIT, and that the hard positions of support.h are
 * those of hard-32.
 * Prints "test_budget: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "support.h"

/* The seeds' jump: ball K6, men J7 H8 G10 H11; K6-G9, K6-G9-G11, K6-G9-G11-J11. */
#define SEEDS_JUMP "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"

/* Generous bounds for "promptly": the tests also run under valgrind. */
#define PROMPT_MS 5000.0
#define BACKSTOP_MS 30000

static PhutballCancelToken *new_token(void) {
    PhutballCancelToken *token = NULL;
    if (phutball_cancel_token_new(&token) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot make a cancel token: %s\n", last_error());
        exit(2);
    }
    return token;
}

/* --- cancelling from another thread ------------------------------------------ */

/* What the worker thread runs, and what it saw. */
struct worker {
    const PhutballPosition *pos;
    PhutballBudget budget;
    PhutballStatus status;
    bool answer;
    char message[512]; /* the worker's last error: it is per thread */
    atomic_bool started;
    double finished_ms;
};

static void keep_message(struct worker *w) {
    size_t written = 0;
    if (phutball_last_error_message(w->message, sizeof w->message, &written) != PHUTBALL_STATUS_OK) {
        strcpy(w->message, "(could not read the last error)");
    }
}

static void *run_can_score(void *arg) {
    struct worker *w = arg;
    atomic_store(&w->started, true);
    w->status = phutball_position_can_score_within(w->pos, &w->budget, &w->answer);
    w->finished_ms = now_ms();
    keep_message(w);
    return NULL;
}

static void *run_count_paths(void *arg) {
    struct worker *w = arg;
    uint64_t count = 0;
    atomic_store(&w->started, true);
    w->status = phutball_position_count_jump_paths_within(w->pos, &w->budget, &count);
    w->finished_ms = now_ms();
    keep_message(w);
    return NULL;
}

/* Starts `body` on a second thread with a fresh token, cancels the token from
 * this thread about 50 ms after the call has started, and joins. Returns the
 * time the cancel was issued (ms) in *cancelled_ms. */
static void run_and_cancel(void *(*body)(void *), struct worker *w, double *cancelled_ms) {
    PhutballCancelToken *token = new_token();
    w->budget = phutball_budget_default();
    w->budget.cancel = token;
    /* A backstop, so that a cancel that does not work fails (TIMED_OUT) rather than hangs. */
    w->budget.timeout_ms = BACKSTOP_MS;
    atomic_store(&w->started, false);
    w->message[0] = '\0';
    pthread_t thread;
    if (pthread_create(&thread, NULL, body, w) != 0) {
        CHECK(!"pthread_create");
        phutball_cancel_token_free(token);
        return;
    }
    while (!atomic_load(&w->started)) {
        sleep_ms(1);
    }
    sleep_ms(50);
    *cancelled_ms = now_ms();
    CHECK_OK(phutball_cancel_token_cancel(token));
    CHECK(pthread_join(thread, NULL) == 0);
    bool cancelled = false;
    CHECK_OK(phutball_cancel_token_is_cancelled(token, &cancelled));
    CHECK(cancelled);
    /* Only now, with the call returned, may the token go. */
    phutball_cancel_token_free(token);
}

static void test_cancel_from_another_thread(void) {
    PhutballPosition *undecided = parse(UNDECIDED);
    struct worker w = {.pos = undecided};
    double cancelled_ms = 0.0;
    run_and_cancel(run_can_score, &w, &cancelled_ms);
    CHECK(w.status == PHUTBALL_STATUS_CANCELLED);
    CHECK(strstr(w.message, "cancelled") != NULL);
    CHECK(w.finished_ms - cancelled_ms < PROMPT_MS);
    phutball_position_free(undecided);

    PhutballPosition *pos = parse(HARD_1);

    /* Counting the paths of a dense board takes far longer than 50 ms. */
    struct worker paths = {.pos = pos};
    run_and_cancel(run_count_paths, &paths, &cancelled_ms);
    CHECK(paths.status == PHUTBALL_STATUS_CANCELLED);
    CHECK(strstr(paths.message, "cancelled") != NULL);
    CHECK(paths.finished_ms - cancelled_ms < PROMPT_MS);
    phutball_position_free(pos);
}

/* --- the token itself -------------------------------------------------------- */

static bool count_visits(void *user_data, const PhutballPoint *path, size_t len) {
    (void)path;
    (void)len;
    (*(size_t *)user_data)++;
    return true;
}

static void test_token(void) {
    PhutballCancelToken *token = NULL;
    CHECK_STATUS(phutball_cancel_token_new(NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_OK(phutball_cancel_token_new(&token));
    bool cancelled = true;
    CHECK_OK(phutball_cancel_token_is_cancelled(token, &cancelled));
    CHECK(!cancelled);
    CHECK_STATUS(phutball_cancel_token_cancel(NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("token must not be NULL");
    CHECK_STATUS(phutball_cancel_token_reset(NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_cancel_token_is_cancelled(token, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_cancel_token_free(NULL);

    /* A token cancelled before the call stops it at once, whatever the call. */
    PhutballPosition *pos = parse(SEEDS_JUMP);
    PhutballBudget budget = phutball_budget_default();
    budget.cancel = token;
    CHECK_OK(phutball_cancel_token_cancel(token));
    CHECK_OK(phutball_cancel_token_cancel(token)); /* twice is fine */
    bool can = true;
    uint64_t n = 99;
    size_t visits = 0;
    char text[64] = "untouched";
    size_t written = 0;
    PhutballMoveList *list = NULL;
    CHECK_STATUS(phutball_position_can_score_within(pos, &budget, &can), PHUTBALL_STATUS_CANCELLED);
    CHECK_MESSAGE_HAS("cancelled");
    CHECK(can); /* nothing written */
    CHECK_STATUS(phutball_position_scoring_jump_within(pos, &budget, &can, text, sizeof text, &written),
                 PHUTBALL_STATUS_CANCELLED);
    CHECK(strcmp(text, "untouched") == 0);
    CHECK_STATUS(phutball_position_count_jump_paths_within(pos, &budget, &n), PHUTBALL_STATUS_CANCELLED);
    CHECK_STATUS(phutball_position_count_jump_outcomes_within(pos, &budget, &n), PHUTBALL_STATUS_CANCELLED);
    CHECK_STATUS(phutball_position_count_legal_moves_within(pos, &budget, &n), PHUTBALL_STATUS_CANCELLED);
    CHECK_STATUS(phutball_perft_within(pos, 1, &budget, &n), PHUTBALL_STATUS_CANCELLED);
    CHECK(n == 99);
    CHECK_STATUS(phutball_position_for_each_jump_path_within(pos, &budget, count_visits, &visits, NULL),
                 PHUTBALL_STATUS_CANCELLED);
    CHECK_STATUS(phutball_position_for_each_jump_outcome_within(pos, &budget, count_visits, &visits, NULL),
                 PHUTBALL_STATUS_CANCELLED);
    CHECK(visits == 0);
    CHECK_STATUS(phutball_position_legal_moves_within(pos, &budget, &list), PHUTBALL_STATUS_CANCELLED);
    CHECK_STATUS(phutball_position_jump_outcomes_within(pos, &budget, &list), PHUTBALL_STATUS_CANCELLED);
    CHECK_STATUS(phutball_position_jump_paths_within(pos, &budget, &list), PHUTBALL_STATUS_CANCELLED);
    CHECK(list == NULL);
    CHECK(strcmp(phutball_status_name(PHUTBALL_STATUS_CANCELLED), "cancelled") == 0);

    /* Reset: the token serves new calls. */
    CHECK_OK(phutball_cancel_token_reset(token));
    CHECK_OK(phutball_cancel_token_is_cancelled(token, &cancelled));
    CHECK(!cancelled);
    CHECK_OK(phutball_position_count_jump_paths_within(pos, &budget, &n));
    CHECK(n == 3);
    phutball_position_free(pos);
    phutball_cancel_token_free(token);
}

/* --- a NULL budget, and budgets that do not bind ----------------------------- */

static void test_defaults(void) {
    PhutballBudget zero = phutball_budget_default();
    CHECK(zero.timeout_ms == 0 && zero.work_limit == 0 && zero.memory_limit == 0 && zero.cancel == NULL);
    /* Generous budgets that do not bind: the same answers as NULL. */
    PhutballBudget loose = {60000, 1000000000, 64u << 20, NULL};
    const PhutballBudget *each[] = {NULL, &zero, &loose};
    PhutballPosition *start = parse(STANDARD_START);
    PhutballPosition *seeds = parse(SEEDS_JUMP);
    PhutballPosition *chain = parse(CHAIN);
    for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) {
        const PhutballBudget *budget = each[i];
        bool can = false, found = false;
        uint64_t n = 0;
        char text[64];
        size_t written = 0;
        CHECK_OK(phutball_position_can_score_within(chain, budget, &can));
        CHECK(can);
        CHECK_OK(phutball_position_can_score_within(seeds, budget, &can));
        CHECK(!can);
        CHECK_OK(phutball_position_scoring_jump_within(chain, budget, &found, text, sizeof text, &written));
        CHECK(found && strcmp(text, "H10-H19") == 0);
        CHECK_OK(phutball_position_scoring_jump_within(seeds, budget, &found, text, sizeof text, &written));
        CHECK(!found && written == 0 && text[0] == '\0');
        CHECK_OK(phutball_position_count_jump_paths_within(seeds, budget, &n));
        CHECK(n == 3);
        CHECK_OK(phutball_position_count_jump_outcomes_within(seeds, budget, &n));
        CHECK(n == 3);
        CHECK_OK(phutball_position_count_legal_moves_within(start, budget, &n));
        CHECK(n == 284);
        CHECK_OK(phutball_perft_within(start, 1, budget, &n));
        CHECK(n == 284);
        size_t visits = 0;
        bool stopped = true;
        CHECK_OK(phutball_position_for_each_jump_path_within(seeds, budget, count_visits, &visits, &stopped));
        CHECK(visits == 3 && !stopped);
        visits = 0;
        CHECK_OK(phutball_position_for_each_jump_outcome_within(seeds, budget, count_visits, &visits, &stopped));
        CHECK(visits == 3 && !stopped);
    }
    /* The old functions are unchanged. */
    uint64_t n = 0;
    CHECK_OK(phutball_perft(start, 2, &n));
    CHECK(n == 80380);
    CHECK_OK(phutball_perft_within(start, 2, NULL, &n));
    CHECK(n == 80380);
    /* NULL where a pointer is required is still an error. */
    bool can = false;
    CHECK_STATUS(phutball_position_can_score_within(NULL, NULL, &can), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_can_score_within(chain, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_perft_within(start, 1, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_for_each_jump_path_within(seeds, NULL, NULL, NULL, NULL),
                 PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_position_free(start);
    phutball_position_free(seeds);
    phutball_position_free(chain);
}

/* --- timeout ---------------------------------------------------------------- */

static void test_timeout(void) {
    PhutballPosition *pos = parse(HARD_1);
    PhutballBudget budget = phutball_budget_default();
    budget.timeout_ms = 150;
    uint64_t n = 0;
    double start = now_ms();
    CHECK_STATUS(phutball_position_count_jump_paths_within(pos, &budget, &n), PHUTBALL_STATUS_TIMED_OUT);
    CHECK_MESSAGE_HAS("timed out");
    double took = now_ms() - start;
    CHECK(took >= 150.0 && took < 150.0 + PROMPT_MS);

    /* Can-score answers or times out, promptly either way. */
    PhutballPosition *hard_2 = parse(HARD_2);
    bool can = false;
    start = now_ms();
    PhutballStatus status = phutball_position_can_score_within(hard_2, &budget, &can);
    took = now_ms() - start;
    CHECK(status == PHUTBALL_STATUS_TIMED_OUT || (status == PHUTBALL_STATUS_OK && can));
    CHECK(took < 150.0 + PROMPT_MS);
    CHECK(strcmp(phutball_status_name(PHUTBALL_STATUS_TIMED_OUT), "timed out") == 0);
    phutball_position_free(hard_2);
    phutball_position_free(pos);
}

/* --- work limit -------------------------------------------------------------- */

static void test_work_limit(void) {
    PhutballPosition *pos = parse(HARD_1);
    PhutballBudget budget = phutball_budget_default();
    budget.work_limit = 1000;
    bool can = false;
    CHECK_STATUS(phutball_position_can_score_within(pos, &budget, &can), PHUTBALL_STATUS_WORK_LIMIT);
    CHECK_MESSAGE_HAS("1000 steps");
    uint64_t n = 0;
    CHECK_STATUS(phutball_position_count_jump_paths_within(pos, &budget, &n), PHUTBALL_STATUS_WORK_LIMIT);
    phutball_position_free(pos);

    /* Each work limit gives the exact count or gives up; enough work answers. */
    PhutballPosition *seeds = parse(SEEDS_JUMP);
    bool gave_up = false, answered = false;
    for (uint64_t work = 1; work <= 16; work++) {
        budget.work_limit = work;
        n = 0;
        PhutballStatus status = phutball_position_count_jump_paths_within(seeds, &budget, &n);
        CHECK(status == PHUTBALL_STATUS_WORK_LIMIT || (status == PHUTBALL_STATUS_OK && n == 3));
        gave_up |= status == PHUTBALL_STATUS_WORK_LIMIT;
        answered |= status == PHUTBALL_STATUS_OK;
    }
    CHECK(gave_up && answered);
    phutball_position_free(seeds);
}

/* On every record of a fixture file: under each work limit, the exact
 * answer its figures give (paths, outcomes, a decided score) or
 * PHUTBALL_STATUS_WORK_LIMIT; with no limit, the answer. */
static void test_work_limits_on(const char *dir, const char *name) {
    struct fixture_record *records = NULL;
    int count = read_fixture(dir, name, &records);
    static const uint64_t works[] = {1, 100, 10000, 0};
    int gave_up = 0;
    for (int r = 0; r < count; r++) {
        const struct fixture_record *want = &records[r];
        CHECK(want->paths >= 0 && want->outcomes >= 0 && want->score >= 0);
        PhutballPosition *pos = parse(want->position);
        for (size_t i = 0; i < sizeof works / sizeof works[0]; i++) {
            PhutballBudget budget = phutball_budget_default();
            budget.work_limit = works[i];
            uint64_t paths = 0, outcomes = 0;
            bool can = false;
            PhutballStatus s = phutball_position_count_jump_paths_within(pos, &budget, &paths);
            CHECK(s == PHUTBALL_STATUS_OK ? paths == (uint64_t)want->paths
                                          : s == PHUTBALL_STATUS_WORK_LIMIT && works[i] != 0);
            gave_up += s == PHUTBALL_STATUS_WORK_LIMIT;
            s = phutball_position_count_jump_outcomes_within(pos, &budget, &outcomes);
            CHECK(s == PHUTBALL_STATUS_OK ? outcomes == (uint64_t)want->outcomes
                                          : s == PHUTBALL_STATUS_WORK_LIMIT && works[i] != 0);
            s = phutball_position_can_score_within(pos, &budget, &can);
            CHECK(s == PHUTBALL_STATUS_OK ? can == (want->score == 1)
                                          : s == PHUTBALL_STATUS_WORK_LIMIT && works[i] != 0);
        }
        phutball_position_free(pos);
    }
    CHECK(count > 0 && gave_up > 0);
    free(records);
}

/* support.h's HARD_1, HARD_2 and UNDECIDED are records 1, 2 and 13 of
 * hard-32, the last still "score undecided". */
static void test_hard_positions_are_the_fixtures(const char *dir) {
    struct fixture_record *records = NULL;
    int count = read_fixture(dir, "hard-32", &records);
    CHECK(count == 32);
    if (count == 32) {
        CHECK(strcmp(records[0].position, HARD_1) == 0 && records[0].score == 1);
        CHECK(strcmp(records[1].position, HARD_2) == 0 && records[1].score == 1);
        CHECK(strcmp(records[12].position, UNDECIDED) == 0 && records[12].score == -1);
    }
    free(records);
}

/* --- memory limit and move lists -------------------------------------------- */

static void test_memory_limit(void) {
    PhutballPosition *pos = parse(HARD_1);
    PhutballBudget budget = phutball_budget_default();
    budget.memory_limit = 1u << 20;
    PhutballMoveList *list = NULL;
    CHECK_STATUS(phutball_position_legal_moves_within(pos, &budget, &list), PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    CHECK_MESSAGE_HAS("memory limit of 1048576 bytes");
    CHECK(list == NULL);
    CHECK_STATUS(phutball_position_jump_outcomes_within(pos, &budget, &list), PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    CHECK_MESSAGE_HAS("memory limit");
    uint64_t n = 0;
    CHECK_STATUS(phutball_position_count_legal_moves_within(pos, &budget, &n), PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    CHECK_MESSAGE_HAS("memory limit");
    phutball_position_free(pos);

    /* The start's 284 moves fit in 1 MB, and the list reads back. */
    PhutballPosition *start = parse(STANDARD_START);
    CHECK_OK(phutball_position_legal_moves_within(start, &budget, &list));
    size_t len = 0;
    CHECK_OK(phutball_move_list_len(list, &len));
    CHECK(len == 284);
    char text[64];
    size_t written = 0;
    CHECK_OK(phutball_move_list_get(list, 0, text, sizeof text, &written));
    CHECK(strcmp(text, "A1") == 0);
    CHECK_STATUS(phutball_move_list_get(list, 284, text, sizeof text, &written), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("index 284 is past the end");
    PhutballPoint points[4];
    size_t count = 0;
    CHECK_OK(phutball_move_list_points(list, 283, points, 4, &count));
    CHECK(count == 1 && points[0].col == 14 && points[0].row == 19); /* P19 */
    phutball_move_list_free(list);
    /* A memory limit too small for the list itself. */
    budget.memory_limit = 1000;
    list = NULL;
    CHECK_STATUS(phutball_position_legal_moves_within(start, &budget, &list), PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    CHECK_MESSAGE_HAS("memory limit of 1000 bytes");
    CHECK(list == NULL);
    phutball_position_free(start);

    /* Jump lists of the seeds' jump: paths and outcomes. */
    PhutballPosition *seeds = parse(SEEDS_JUMP);
    CHECK_OK(phutball_position_jump_paths_within(seeds, NULL, &list));
    CHECK_OK(phutball_move_list_len(list, &len));
    CHECK(len == 3);
    bool longest = false;
    for (size_t i = 0; i < len; i++) {
        CHECK_OK(phutball_move_list_get(list, i, text, sizeof text, &written));
        longest |= strcmp(text, "K6-G9-G11-J11") == 0;
    }
    CHECK(longest);
    CHECK_STATUS(phutball_move_list_points(list, 0, points, 1, &count), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(count >= 2);
    phutball_move_list_free(list);
    CHECK_OK(phutball_position_jump_outcomes_within(seeds, NULL, &list));
    CHECK_OK(phutball_move_list_len(list, &len));
    CHECK(len == 3);
    phutball_move_list_free(list);
    CHECK_STATUS(phutball_position_jump_outcomes_within(seeds, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_move_list_len(NULL, &len), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_move_list_free(NULL);
    phutball_position_free(seeds);
}

int main(int argc, char **argv) {
    test_token();
    test_defaults();
    test_cancel_from_another_thread();
    test_timeout();
    test_work_limit();
    test_memory_limit();
    if (argc > 1) {
        test_work_limits_on(argv[1], "jumps-24");
        test_work_limits_on(argv[1], "score-16");
        test_hard_positions_are_the_fixtures(argv[1]);
    }
    return check_summary("test_budget");
}
