/* Tests of the engine functions of the C API (phutball_engine_*): the
 * engine scores when it can, reports its analysis, is reproducible with a
 * node limit, and follows the error and buffer conventions of
 * include/phutball.h. Prints "test_engine: N passed, M failed". */
#include <stdlib.h>

#include "check.h"

#define STANDARD_START "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
/* Ball H10, men H11..H18: Ohs scores with H10-H19. */
#define CHAIN "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
/* The ball on Eks's strip: the game is over. */
#define FINISHED "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0"

static PhutballPosition *parse(const char *text) {
    PhutballPosition *pos = NULL;
    if (phutball_position_parse(text, NULL, &pos) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot parse %s: %s\n", text, last_error());
        exit(2);
    }
    return pos;
}

static PhutballEngine *engine_with(uint32_t time_ms, uint32_t depth, uint64_t nodes, uint64_t seed) {
    PhutballEngineLimits limits = {time_ms, depth, nodes};
    PhutballEngine *engine = NULL;
    if (phutball_engine_new(&limits, seed, &engine) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot make an engine: %s\n", last_error());
        exit(2);
    }
    return engine;
}

static void scores_when_it_can(void) {
    PhutballEngine *engine = engine_with(0, 2, 0, 1);
    PhutballPosition *pos = parse(CHAIN);
    char move[64];
    size_t written = 0;
    CHECK_OK(phutball_engine_best_move(engine, pos, move, sizeof move, &written));
    CHECK(strcmp(move, "H10-H19") == 0);
    CHECK(written == strlen("H10-H19"));

    PhutballAnalysis analysis;
    char pv[1024];
    CHECK_OK(phutball_engine_analyse(engine, pos, &analysis, pv, sizeof pv, &written));
    CHECK(analysis.score_kind == PHUTBALL_SCORE_WIN);
    CHECK(analysis.score == 1);
    CHECK(strncmp(pv, "H10-H19", 7) == 0);
    phutball_position_free(pos);
    phutball_engine_free(engine);
}

static void the_chosen_move_is_legal_and_reproducible(void) {
    PhutballEngine *a = engine_with(0, 0, 1500, 7);
    PhutballEngine *b = engine_with(0, 0, 1500, 7);
    PhutballPosition *pos = parse(STANDARD_START);
    char first[64], second[64];
    size_t written = 0;
    CHECK_OK(phutball_engine_best_move(a, pos, first, sizeof first, &written));
    CHECK_OK(phutball_engine_best_move(b, pos, second, sizeof second, &written));
    CHECK(strcmp(first, second) == 0);
    bool legal = false;
    CHECK_OK(phutball_position_is_legal(pos, first, &legal));
    CHECK(legal);

    PhutballAnalysis analysis;
    char pv[4096];
    CHECK_OK(phutball_engine_analyse(a, pos, &analysis, pv, sizeof pv, &written));
    CHECK(analysis.score_kind == PHUTBALL_SCORE_EVAL);
    CHECK(analysis.depth >= 1);
    CHECK(analysis.nodes > 0);
    CHECK(analysis.seconds >= 0.0);
    /* The principal variation starts with the best move. */
    CHECK(strncmp(pv, first, strlen(first)) == 0);
    phutball_position_free(pos);
    phutball_engine_free(a);
    phutball_engine_free(b);
}

static void errors_follow_the_conventions(void) {
    PhutballEngine *engine = NULL;
    /* NULL limits: the default (one second); NULL out: an error, no leak. */
    CHECK_STATUS(phutball_engine_new(NULL, 1, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_OK(phutball_engine_new(NULL, 1, &engine));
    phutball_engine_free(engine);
    phutball_engine_free(NULL);

    engine = engine_with(0, 1, 0, 1);
    PhutballPosition *finished = parse(FINISHED);
    char move[64];
    size_t written = 0;
    CHECK_STATUS(phutball_engine_best_move(engine, finished, move, sizeof move, &written),
                 PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("game is over");
    CHECK_STATUS(phutball_engine_best_move(NULL, finished, move, sizeof move, &written),
                 PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("engine must not be NULL");
    CHECK_STATUS(phutball_engine_best_move(engine, NULL, move, sizeof move, &written),
                 PHUTBALL_STATUS_NULL_ARGUMENT);

    /* Too small a buffer: the size needed, nothing copied, *out untouched. */
    PhutballPosition *chain = parse(CHAIN);
    char tiny[4] = "abc";
    CHECK_STATUS(phutball_engine_best_move(engine, chain, tiny, sizeof tiny, &written),
                 PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(written == strlen("H10-H19"));
    CHECK(strcmp(tiny, "abc") == 0);
    PhutballAnalysis analysis = {0, 12345, 0, 0, 0.0};
    CHECK_STATUS(phutball_engine_analyse(engine, chain, &analysis, tiny, sizeof tiny, &written),
                 PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(analysis.score == 12345);
    CHECK_STATUS(phutball_engine_analyse(engine, chain, NULL, tiny, sizeof tiny, &written),
                 PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_position_free(chain);
    phutball_position_free(finished);
    phutball_engine_free(engine);
}

int main(void) {
    scores_when_it_can();
    the_chosen_move_is_legal_and_reproducible();
    errors_follow_the_conventions();
    printf("test_engine: %d passed, %d failed\n", checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
