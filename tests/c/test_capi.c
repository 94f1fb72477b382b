/* Tests of the C API against the rules' worked examples (docs/rules.md), the
 * benchmark reference counts (the fixture files, crates/phutball/tests/data) and the error conventions of
 * include/phutball.h.
 *
 *   test_capi [FIXTURE_DIR]
 *
 * With FIXTURE_DIR (crates/phutball/tests/data), also checks every record of
 * jumps-24 and score-16 against its figures. Prints "test_capi: N passed, M failed". */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define STANDARD_START "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
/* The seeds' jump: ball K6, men J7 H8 G10 H11, Ohs to move. */
#define SEEDS_JUMP "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"

/* A 15 x 19 position string whose rows are all vacant ("15") except the two
 * given (row numbers as in notation, 1 to 19), followed by " <side>". */
static const char *board_with(int row_a, const char *text_a, int row_b, const char *text_b, char side) {
    static char out[512];
    size_t used = 0;
    for (int row = 19; row >= 1; row--) {
        const char *text = row == row_a ? text_a : row == row_b ? text_b : "15";
        used += (size_t)snprintf(out + used, sizeof out - used, "%s%s", text, row > 1 ? "/" : "");
    }
    snprintf(out + used, sizeof out - used, " %c", side);
    return out;
}

static PhutballPosition *parse(const char *text, const PhutballRules *rules) {
    PhutballPosition *pos = NULL;
    PhutballStatus status = phutball_position_parse(text, rules, &pos);
    if (status != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot parse %s: %s\n", text, last_error());
        exit(2);
    }
    return pos;
}

/* The position string of `pos` (static storage). */
static const char *text_of(const PhutballPosition *pos) {
    static char text[1024];
    size_t written = 0;
    if (phutball_position_to_string(pos, text, sizeof text, &written) != PHUTBALL_STATUS_OK) {
        return "(cannot format)";
    }
    return text;
}

static uint64_t count_paths(const PhutballPosition *pos) {
    uint64_t n = UINT64_MAX;
    CHECK_OK(phutball_position_count_jump_paths(pos, &n));
    return n;
}

static size_t count_men(const PhutballPosition *pos) {
    size_t n = SIZE_MAX;
    PhutballStatus status = phutball_position_men(pos, NULL, 0, &n); /* a size query */
    CHECK(status == PHUTBALL_STATUS_OK || status == PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    return n;
}

static bool same_point(PhutballPoint a, uint8_t col, uint8_t row) {
    return a.col == col && a.row == row;
}

/* Collects paths in notation; stops after `stop_after` paths when it is not 0. */
struct collected {
    char paths[16][64];
    size_t count;
    size_t stop_after;
};

static bool collect(void *user_data, const PhutballPoint *path, size_t len) {
    struct collected *c = user_data;
    size_t written = 0;
    if (c->count < 16) {
        if (phutball_path_to_string(path, len, c->paths[c->count], sizeof c->paths[0], &written) !=
            PHUTBALL_STATUS_OK) {
            strcpy(c->paths[c->count], "(cannot format)");
        }
    }
    c->count++;
    return c->stop_after == 0 || c->count < c->stop_after;
}

static bool has_path(const struct collected *c, const char *path) {
    for (size_t i = 0; i < c->count && i < 16; i++) {
        if (strcmp(c->paths[i], path) == 0) {
            return true;
        }
    }
    return false;
}

static void test_standard_start(void) {
    PhutballPosition *pos = NULL;
    CHECK_OK(phutball_position_standard(&pos));
    CHECK(strcmp(text_of(pos), STANDARD_START) == 0);
    uint8_t cols = 0, rows = 0;
    CHECK_OK(phutball_position_size(pos, &cols, &rows));
    CHECK(cols == 15 && rows == 19);
    PhutballPoint ball = {0, 0};
    CHECK_OK(phutball_position_ball(pos, &ball));
    CHECK(same_point(ball, 7, 10)); /* H10 */
    PhutballSide side = 99;
    CHECK_OK(phutball_position_to_move(pos, &side));
    CHECK(side == PHUTBALL_SIDE_OHS);
    CHECK_OK(phutball_position_winner(pos, &side));
    CHECK(side == PHUTBALL_SIDE_NONE);
    CHECK(count_men(pos) == 0);
    /* 284 legal moves, all placements: 15 x 19 points less the ball's. */
    size_t placements = 0;
    CHECK_STATUS(phutball_position_placements(pos, NULL, 0, &placements), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(placements == 284);
    PhutballPoint *points = malloc(placements * sizeof *points);
    CHECK_OK(phutball_position_placements(pos, points, placements, &placements));
    CHECK(same_point(points[0], 0, 1));                   /* A1 first */
    CHECK(same_point(points[placements - 1], 14, 19));    /* P19 last */
    free(points);
    uint64_t n = 0;
    CHECK_OK(phutball_position_count_legal_moves(pos, &n));
    CHECK(n == 284);
    CHECK(count_paths(pos) == 0);
    CHECK_OK(phutball_perft(pos, 1, &n));
    CHECK(n == 284);
    CHECK_OK(phutball_perft(pos, 2, &n));
    CHECK(n == 80380);
    PhutballPosition *parsed = parse(STANDARD_START, NULL);
    bool equal = false;
    CHECK_OK(phutball_position_equal(pos, parsed, &equal));
    CHECK(equal);
    uint64_t h1 = 0, h2 = 1;
    CHECK_OK(phutball_position_zobrist(pos, &h1));
    CHECK_OK(phutball_position_zobrist(parsed, &h2));
    CHECK(h1 == h2);
    phutball_position_free(parsed);
    phutball_position_free(pos);
}

/* `start` and `start:COLSxROWS` parse as they do in the CLI and Python. */
static void test_start_shorthand(void) {
    PhutballPosition *standard = NULL;
    PhutballPosition *small = NULL;
    CHECK_OK(phutball_position_standard(&standard));
    CHECK_OK(phutball_position_new(5, 7, NULL, &small));
    PhutballPosition *parsed = parse("start", NULL);
    bool equal = false;
    CHECK_OK(phutball_position_equal(standard, parsed, &equal));
    CHECK(equal);
    phutball_position_free(parsed);
    parsed = parse("start:5x7", NULL);
    equal = false;
    CHECK_OK(phutball_position_equal(small, parsed, &equal));
    CHECK(equal);
    phutball_position_free(parsed);
    parsed = NULL;
    CHECK_STATUS(phutball_position_parse("start:30x5", NULL, &parsed), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("start:COLSxROWS");
    CHECK(parsed == NULL);
    phutball_position_free(small);
    phutball_position_free(standard);
}

static void test_seeds_jump(void) {
    PhutballPosition *pos = parse(SEEDS_JUMP, NULL);
    PhutballPoint men[8];
    size_t count = 0;
    CHECK_OK(phutball_position_men(pos, men, 8, &count));
    /* Row by row from row 1: J7 H8 G10 H11. */
    CHECK(count == 4 && same_point(men[0], 8, 7) && same_point(men[1], 7, 8) && same_point(men[2], 6, 10) &&
          same_point(men[3], 7, 11));
    CHECK(count_paths(pos) == 3);
    uint64_t outcomes = 0;
    CHECK_OK(phutball_position_count_jump_outcomes(pos, &outcomes));
    CHECK(outcomes == 3);

    struct collected all = {.count = 0};
    bool stopped = true;
    CHECK_OK(phutball_position_for_each_jump_path(pos, collect, &all, &stopped));
    CHECK(!stopped);
    CHECK(all.count == 3);
    CHECK(has_path(&all, "K6-G9") && has_path(&all, "K6-G9-G11") && has_path(&all, "K6-G9-G11-J11"));

    struct collected distinct = {.count = 0};
    CHECK_OK(phutball_position_for_each_jump_outcome(pos, collect, &distinct, NULL));
    CHECK(distinct.count == 3);
    CHECK(has_path(&distinct, "K6-G9-G11-J11"));

    struct collected first = {.count = 0, .stop_after = 1};
    CHECK_OK(phutball_position_for_each_jump_path(pos, collect, &first, &stopped));
    CHECK(stopped && first.count == 1);

    bool legal = false;
    CHECK_OK(phutball_position_is_legal(pos, "K6-G9-G11", &legal));
    CHECK(legal);
    CHECK_OK(phutball_position_is_legal(pos, "K6-G9-J9-G7", &legal));
    CHECK(!legal);
    /* Jumping H8 twice is illegal: from G9 to J9 the point between, H9, is empty. */
    CHECK_STATUS(phutball_position_check_move(pos, "K6-G9-J9-G7"), PHUTBALL_STATUS_ILLEGAL_MOVE);
    CHECK_MESSAGE_HAS("H9");
    char before[1024];
    strcpy(before, text_of(pos));
    CHECK_STATUS(phutball_position_play(pos, "K6-G9-J9-G7"), PHUTBALL_STATUS_ILLEGAL_MOVE);
    CHECK(strcmp(before, text_of(pos)) == 0); /* unchanged after an error */

    CHECK_OK(phutball_position_play(pos, "K6-G9-G11-J11"));
    CHECK(count_men(pos) == 0);
    PhutballPoint ball = {0, 0};
    CHECK_OK(phutball_position_ball(pos, &ball));
    CHECK(same_point(ball, 8, 11)); /* J11 */
    PhutballSide side = 99;
    CHECK_OK(phutball_position_to_move(pos, &side));
    CHECK(side == PHUTBALL_SIDE_EKS);
    phutball_position_free(pos);
}

/* Every legal move of `pos` plays on a copy of it. */
static void check_legal_moves_play(const PhutballPosition *pos) {
    PhutballMoveList *list = NULL;
    CHECK_OK(phutball_position_legal_moves_within(pos, NULL, &list));
    size_t len = 0;
    CHECK_OK(phutball_move_list_len(list, &len));
    CHECK(len > 0);
    for (size_t i = 0; i < len; i++) {
        char text[256];
        size_t written = 0;
        CHECK_OK(phutball_move_list_get(list, i, text, sizeof text, &written));
        PhutballPosition *copy = NULL;
        CHECK_OK(phutball_position_clone(pos, &copy));
        CHECK_OK(phutball_position_play(copy, text));
        phutball_position_free(copy);
    }
    phutball_move_list_free(list);
}

/* A jump move one jump at a time with a PhutballJumpInProgress handle. */
static void test_jump_in_progress(void) {
    PhutballPosition *pos = parse(SEEDS_JUMP, NULL);
    PhutballJumpInProgress *jip = NULL;
    CHECK_OK(phutball_position_begin_jump(pos, (PhutballPoint){6, 9}, &jip)); /* G9 */
    CHECK(strcmp(text_of(pos), SEEDS_JUMP) == 0); /* the position is unchanged */
    CHECK_STATUS(phutball_jump_in_progress_apply_jump(jip, (PhutballPoint){6, 13}), PHUTBALL_STATUS_ILLEGAL_MOVE);
    CHECK_OK(phutball_jump_in_progress_apply_jump(jip, (PhutballPoint){6, 11})); /* G11 */

    /* The board as it stands: the same side to move, no winner yet. */
    PhutballPosition *board = NULL;
    CHECK_OK(phutball_jump_in_progress_position(jip, &board));
    PhutballSide side = 99;
    CHECK_OK(phutball_position_to_move(board, &side));
    CHECK(side == PHUTBALL_SIDE_OHS);
    CHECK(count_men(board) == 1);
    /* It is an ordinary position, at the start of a move: every move it lists
     * plays (the old in-place jump calls once left a handle whose listed moves
     * failed to play). */
    check_legal_moves_play(board);
    phutball_position_free(board);

    /* The text form round-trips. */
    char text[1024];
    size_t written = 0;
    CHECK_OK(phutball_jump_in_progress_to_string(jip, text, sizeof text, &written));
    CHECK(strstr(text, " | jump from K6 removed J7,H8,G10") != NULL);
    PhutballJumpInProgress *read = NULL;
    CHECK_OK(phutball_jump_in_progress_from_string(text, NULL, &read));
    char again[1024];
    CHECK_OK(phutball_jump_in_progress_to_string(read, again, sizeof again, &written));
    CHECK(strcmp(text, again) == 0);
    phutball_jump_in_progress_free(read);

    /* Ending the move equals playing the whole path. */
    CHECK_OK(phutball_jump_in_progress_apply_jump(jip, (PhutballPoint){8, 11})); /* J11 */
    PhutballPosition *ended = NULL;
    CHECK_OK(phutball_jump_in_progress_end(jip, &ended));
    CHECK_OK(phutball_position_play(pos, "K6-G9-G11-J11"));
    bool equal = false;
    CHECK_OK(phutball_position_equal(pos, ended, &equal));
    CHECK(equal);
    phutball_position_free(ended);
    phutball_jump_in_progress_free(jip);

    /* Bad text and bad arguments say what is wrong. */
    read = NULL;
    CHECK_STATUS(phutball_jump_in_progress_from_string(SEEDS_JUMP, NULL, &read), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("jump from");
    char bad[1024];
    snprintf(bad, sizeof bad, "%s | jump from K6 removed K6", SEEDS_JUMP);
    CHECK_STATUS(phutball_jump_in_progress_from_string(bad, NULL, &read), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_MESSAGE_HAS("removed man K6");
    CHECK(read == NULL);
    CHECK_STATUS(phutball_position_begin_jump(pos, (PhutballPoint){8, 11}, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_jump_in_progress_apply_jump(NULL, (PhutballPoint){8, 11}), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_jump_in_progress_end(NULL, &ended), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_jump_in_progress_free(NULL);
    phutball_position_free(pos);
}

static void test_other_worked_examples(void) {
    /* Ball H10, men H9 H8: H10-H7 removes both at once. */
    PhutballPosition *pos = NULL;
    CHECK_OK(phutball_position_standard(&pos));
    CHECK_OK(phutball_position_play(pos, "H9"));
    CHECK_OK(phutball_position_play(pos, "h8")); /* lower case is accepted */
    bool has = false;
    CHECK_OK(phutball_position_has_man(pos, (PhutballPoint){7, 8}, &has));
    CHECK(has);
    CHECK_OK(phutball_position_play(pos, "H10-H7"));
    CHECK(count_men(pos) == 0);
    phutball_position_free(pos);

    /* Ball M10, men N10 O10 P10: no jump to the east. */
    pos = parse(board_with(10, "11@###", 0, "", 'O'), NULL);
    CHECK(count_paths(pos) == 0);
    bool legal = true;
    CHECK_OK(phutball_position_is_legal(pos, "M10-Q10", &legal));
    CHECK(!legal);
    phutball_position_free(pos);

    /* Ball N18, man O19: N18-P20 scores for Ohs, whoever moved. */
    pos = parse(board_with(19, "13#1", 18, "12@2", 'O'), NULL);
    bool can = false;
    CHECK_OK(phutball_position_can_score(pos, &can));
    CHECK(can);
    bool found = false;
    char jump[64];
    size_t written = 0;
    CHECK_OK(phutball_position_scoring_jump(pos, &found, jump, sizeof jump, &written));
    CHECK(found && strcmp(jump, "N18-P20") == 0 && written == 7);
    PhutballPosition *eks = NULL;
    CHECK_OK(phutball_position_clone(pos, &eks));
    CHECK_OK(phutball_position_end_turn(eks));
    CHECK_OK(phutball_position_can_score(eks, &can));
    CHECK(!can); /* Eks scores at the bottom */
    CHECK_OK(phutball_position_play(eks, "N18-P20"));
    PhutballSide winner = PHUTBALL_SIDE_NONE;
    CHECK_OK(phutball_position_winner(eks, &winner));
    CHECK(winner == PHUTBALL_SIDE_OHS); /* Eks's move, Ohs's goal */
    phutball_position_free(eks);
    CHECK_OK(phutball_position_play(pos, "N18-P20"));
    CHECK_OK(phutball_position_winner(pos, &winner));
    CHECK(winner == PHUTBALL_SIDE_OHS);
    /* A finished position: no moves, and its string names the off-board ball. */
    size_t placements = 99;
    CHECK_OK(phutball_position_placements(pos, NULL, 0, &placements));
    CHECK(placements == 0);
    CHECK_STATUS(phutball_position_play(pos, "A1"), PHUTBALL_STATUS_ILLEGAL_MOVE);
    const char *text = text_of(pos);
    CHECK(strlen(text) > 4 && strcmp(text + strlen(text) - 4, " P20") == 0);
    PhutballPosition *again = parse(text, NULL);
    bool equal = false;
    CHECK_OK(phutball_position_equal(pos, again, &equal));
    CHECK(equal);
    phutball_position_free(again);
    phutball_position_free(pos);

    /* Ball O18, man P19: no jump to the north-east (Q20 is not a point). */
    pos = parse(board_with(19, "14#", 18, "13@1", 'O'), NULL);
    CHECK(count_paths(pos) == 0);
    phutball_position_free(pos);

    /* Ball H3, man H2, Ohs to move: H3-H1 is an own goal, Eks wins. */
    pos = parse(board_with(3, "7@7", 2, "7#7", 'O'), NULL);
    CHECK_OK(phutball_position_play(pos, "H3-H1"));
    CHECK_OK(phutball_position_winner(pos, &winner));
    CHECK(winner == PHUTBALL_SIDE_EKS);
    phutball_position_free(pos);
}

static void test_rule_options_and_sizes(void) {
    /* Ball N18, men O19 P19: after N18-P20 the ball may jump back over P19
     * only under the continue-off-board option. */
    const char *text = board_with(19, "13##", 18, "12@2", 'O');
    PhutballPosition *pos = parse(text, NULL);
    CHECK(count_paths(pos) == 1);
    PhutballRules rules = phutball_rules_default();
    CHECK(!rules.continue_off_board && rules.first_player == PHUTBALL_SIDE_OHS && !rules.has_start);
    rules.continue_off_board = true;
    PhutballPosition *continuing = parse(text, &rules);
    CHECK(count_paths(continuing) == 2);
    bool legal = false;
    CHECK_OK(phutball_position_is_legal(continuing, "N18-P20-P18", &legal));
    CHECK(legal);
    CHECK_OK(phutball_position_is_legal(pos, "N18-P20-P18", &legal));
    CHECK(!legal);
    PhutballRules read = phutball_rules_default();
    CHECK_OK(phutball_position_rules(continuing, &read));
    CHECK(read.continue_off_board);
    CHECK_OK(phutball_position_set_rules(pos, &rules));
    CHECK(count_paths(pos) == 2);
    CHECK_OK(phutball_position_set_rules(pos, NULL));
    CHECK(count_paths(pos) == 1);
    phutball_position_free(continuing);
    phutball_position_free(pos);

    /* First player and a handicap start point. */
    rules = phutball_rules_default();
    rules.first_player = PHUTBALL_SIDE_EKS;
    rules.has_start = true;
    rules.start = (PhutballPoint){7, 5}; /* H5 */
    CHECK_OK(phutball_position_new(15, 19, &rules, &pos));
    PhutballSide side = PHUTBALL_SIDE_OHS;
    CHECK_OK(phutball_position_to_move(pos, &side));
    CHECK(side == PHUTBALL_SIDE_EKS);
    PhutballPoint ball = {0, 0};
    CHECK_OK(phutball_position_ball(pos, &ball));
    CHECK(same_point(ball, 7, 5));
    phutball_position_free(pos);

    /* One-dimensional phutball: 1 column, 3 rows, the ball in the middle. */
    CHECK_OK(phutball_position_new(1, 3, NULL, &pos));
    CHECK(strcmp(text_of(pos), "1/@/1 O") == 0);
    phutball_position_free(pos);
    /* A 19 x 19 Go board: the ball starts on K10 (column 10 of 19, row 10). */
    CHECK_OK(phutball_position_new(19, 19, NULL, &pos));
    CHECK_OK(phutball_position_ball(pos, &ball));
    CHECK(same_point(ball, 9, 10));
    phutball_position_free(pos);

    /* Symmetries: each is its own inverse. */
    PhutballPosition *original = parse(SEEDS_JUMP, NULL);
    CHECK_OK(phutball_position_clone(original, &pos));
    CHECK_OK(phutball_position_mirror_columns(pos));
    bool equal = true;
    CHECK_OK(phutball_position_equal(original, pos, &equal));
    CHECK(!equal);
    CHECK(count_paths(pos) == 3);
    CHECK_OK(phutball_position_mirror_columns(pos));
    CHECK_OK(phutball_position_flip_rows(pos));
    CHECK_OK(phutball_position_flip_rows(pos));
    CHECK_OK(phutball_position_equal(original, pos, &equal));
    CHECK(equal);
    phutball_position_free(pos);
    phutball_position_free(original);
}

static void test_errors(void) {
    PhutballPosition *pos = NULL;
    PhutballPosition *standard = NULL;
    CHECK_OK(phutball_position_standard(&standard));

    /* NULL arguments. */
    CHECK_STATUS(phutball_position_parse(NULL, NULL, &pos), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("text");
    CHECK_STATUS(phutball_position_parse(STANDARD_START, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_standard(NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_play(NULL, "H9"), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_play(standard, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_ball(standard, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_count_jump_paths(NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_for_each_jump_path(standard, NULL, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("visitor");
    CHECK_STATUS(phutball_position_size(standard, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_path_to_string(NULL, 2, NULL, 0, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_game_push(NULL, "H9"), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_position_free(NULL);
    phutball_game_free(NULL);
    CHECK(pos == NULL);

    /* Invalid UTF-8 and malformed notation. */
    CHECK_STATUS(phutball_position_parse("15/15\xff O", NULL, &pos), PHUTBALL_STATUS_INVALID_UTF8);
    CHECK_MESSAGE_HAS("UTF-8");
    CHECK_STATUS(phutball_position_parse("garbage", NULL, &pos), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_STATUS(phutball_position_parse("", NULL, &pos), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_STATUS(phutball_position_parse("15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 Z", NULL, &pos),
                 PHUTBALL_STATUS_PARSE_ERROR);
    CHECK(pos == NULL);
    PhutballPoint point = {0, 0};
    CHECK_STATUS(phutball_point_parse("I5", &point), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("no column I");
    CHECK_OK(phutball_point_parse("p20", &point));
    CHECK(same_point(point, 14, 20));
    char name[8];
    size_t written = 0;
    CHECK_OK(phutball_point_to_string((PhutballPoint){8, 11}, name, sizeof name, &written));
    CHECK(strcmp(name, "J11") == 0 && written == 3);
    CHECK_STATUS(phutball_point_to_string((PhutballPoint){25, 1}, name, sizeof name, &written),
                 PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(phutball_position_play(standard, "I5"), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_STATUS(phutball_position_play(standard, "H10-"), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_STATUS(phutball_position_play(standard, "Z99"), PHUTBALL_STATUS_PARSE_ERROR);
    bool legal = true;
    CHECK_STATUS(phutball_position_is_legal(standard, "nonsense", &legal), PHUTBALL_STATUS_PARSE_ERROR);

    /* Illegal moves say why. */
    CHECK_STATUS(phutball_position_play(standard, "H10"), PHUTBALL_STATUS_ILLEGAL_MOVE);
    CHECK_MESSAGE_HAS("ball");
    CHECK_STATUS(phutball_position_play(standard, "H20"), PHUTBALL_STATUS_ILLEGAL_MOVE);
    CHECK_STATUS(phutball_position_play(standard, "H10-H12"), PHUTBALL_STATUS_ILLEGAL_MOVE);
    CHECK_STATUS(phutball_position_play(standard, "Q1"), PHUTBALL_STATUS_ILLEGAL_MOVE); /* no column Q on 15 */
    CHECK(strcmp(text_of(standard), STANDARD_START) == 0);

    /* Impossible positions and sizes, bad rule values. */
    CHECK_STATUS(phutball_position_new(26, 19, NULL, &pos), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_STATUS(phutball_position_new(15, 2, NULL, &pos), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_STATUS(phutball_position_new(0, 19, NULL, &pos), PHUTBALL_STATUS_INVALID_POSITION);
    PhutballRules rules = phutball_rules_default();
    rules.first_player = 7;
    CHECK_STATUS(phutball_position_new(15, 19, &rules, &pos), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("side 7");
    CHECK_STATUS(phutball_position_parse(STANDARD_START, &rules, &pos), PHUTBALL_STATUS_INVALID_ARGUMENT);
    rules = phutball_rules_default();
    rules.has_start = true;
    rules.start = (PhutballPoint){7, 1}; /* H1: a goal line */
    CHECK_STATUS(phutball_position_new(15, 19, &rules, &pos), PHUTBALL_STATUS_INVALID_POSITION);
    rules.start = (PhutballPoint){200, 5};
    CHECK_STATUS(phutball_position_new(15, 19, &rules, &pos), PHUTBALL_STATUS_INVALID_ARGUMENT);
    /* Z26 exists (on a 25x25 board's strip) but not on 15x19: refused when the
     * rules are attached, so mirroring never meets it (it used to panic). */
    rules.start = (PhutballPoint){24, 26};
    CHECK_STATUS(phutball_position_new(15, 19, &rules, &pos), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_MESSAGE_HAS("start point Z26 is outside the 15x19 board");
    CHECK_STATUS(phutball_position_parse(STANDARD_START, &rules, &pos), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_MESSAGE_HAS("start point Z26 is outside the 15x19 board");
    CHECK(pos == NULL);
    PhutballPosition *ruled = NULL;
    CHECK_OK(phutball_position_standard(&ruled));
    CHECK_STATUS(phutball_position_set_rules(ruled, &rules), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_MESSAGE_HAS("start point Z26 is outside the 15x19 board");
    CHECK_OK(phutball_position_flip_rows(ruled)); /* was PHUTBALL_STATUS_PANIC */
    CHECK_OK(phutball_position_flip_rows(ruled));
    rules.start = (PhutballPoint){7, 0}; /* H0: an off-board strip */
    CHECK_STATUS(phutball_position_set_rules(ruled, &rules), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK_MESSAGE_HAS("start point H0 must lie strictly between the goal lines");
    CHECK_OK(phutball_position_flip_rows(ruled));
    CHECK_OK(phutball_position_flip_rows(ruled));
    CHECK_OK(phutball_position_mirror_columns(ruled));
    PhutballRules kept_rules = phutball_rules_default();
    CHECK_OK(phutball_position_rules(ruled, &kept_rules));
    CHECK(!kept_rules.has_start); /* a refused set_rules leaves the rules as they were */
    CHECK(strcmp(text_of(ruled), STANDARD_START) == 0);
    phutball_position_free(ruled);
    PhutballGame *bad_game = NULL;
    CHECK_STATUS(phutball_game_parse("start " STANDARD_START "\nrules start-point=Z26\n", &bad_game),
                 PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("game record line 2: start point Z26 is outside the 15x19 board");
    CHECK(bad_game == NULL);
    PhutballJumpInProgress *far = NULL;
    CHECK_STATUS(phutball_position_begin_jump(standard, (PhutballPoint){99, 99}, &far), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK(far == NULL);
    CHECK(pos == NULL);

    /* Buffers that are too small, size queries. */
    char small[10] = "untouched";
    CHECK_STATUS(phutball_position_to_string(standard, small, sizeof small, &written), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(written == strlen(STANDARD_START));
    CHECK(strcmp(small, "untouched") == 0);
    CHECK_STATUS(phutball_position_to_string(standard, NULL, 0, &written), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    char *exact = malloc(written + 1);
    CHECK_OK(phutball_position_to_string(standard, exact, written + 1, &written));
    CHECK(strcmp(exact, STANDARD_START) == 0);
    free(exact);
    CHECK_STATUS(phutball_position_to_string(standard, NULL, 5, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_position_to_string(standard, small, sizeof small, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    PhutballPoint two[2];
    size_t count = 0;
    CHECK_STATUS(phutball_position_placements(standard, two, 2, &count), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 284);
    CHECK_STATUS(phutball_path_to_string(two, 0, small, sizeof small, &written), PHUTBALL_STATUS_INVALID_ARGUMENT);

    /* The last error: a message per failure, kept through successes, sized on request. */
    CHECK_STATUS(phutball_position_parse("garbage", NULL, &pos), PHUTBALL_STATUS_PARSE_ERROR);
    char kept[2048];
    strcpy(kept, last_error());
    CHECK(strlen(kept) > 0);
    CHECK_OK(phutball_position_play(standard, "A1"));
    CHECK(strcmp(kept, last_error()) == 0);
    size_t needed = 0;
    CHECK_STATUS(phutball_last_error_message(NULL, 0, &needed), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == strlen(kept));
    CHECK(strcmp(kept, last_error()) == 0); /* reading it does not replace it */
    CHECK(strcmp(phutball_status_name(PHUTBALL_STATUS_ILLEGAL_MOVE), "illegal move") == 0);
    CHECK(strcmp(phutball_status_name(12345), "unknown status") == 0);
    CHECK(strlen(phutball_version()) > 0);
    phutball_position_free(standard);
}

static void test_game(void) {
    PhutballPosition *start = NULL;
    PhutballGame *game = NULL;
    CHECK_OK(phutball_position_standard(&start));
    CHECK_OK(phutball_game_new(start, &game));
    phutball_position_free(start);
    CHECK_OK(phutball_game_push(game, "H9"));
    CHECK_OK(phutball_game_push(game, "H11"));
    size_t moves = 0;
    CHECK_OK(phutball_game_move_count(game, &moves));
    CHECK(moves == 2);
    bool popped = false;
    CHECK_OK(phutball_game_pop(game, &popped));
    CHECK(popped);
    CHECK_OK(phutball_game_move_count(game, &moves));
    CHECK(moves == 1);
    char text[64];
    size_t written = 0;
    CHECK_OK(phutball_game_move(game, 0, text, sizeof text, &written));
    CHECK(strcmp(text, "H9") == 0);
    CHECK_STATUS(phutball_game_move(game, 1, text, sizeof text, &written), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(phutball_game_push(game, "H9"), PHUTBALL_STATUS_ILLEGAL_MOVE); /* occupied */
    CHECK_MESSAGE_HAS("move 2");
    CHECK_STATUS(phutball_game_push(game, "H9-"), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_OK(phutball_game_move_count(game, &moves));
    CHECK(moves == 1);

    PhutballGameResult result = 99;
    CHECK_OK(phutball_game_result(game, &result));
    CHECK(result == PHUTBALL_RESULT_ONGOING);
    CHECK_OK(phutball_game_set_move_limit(game, 1));
    CHECK_OK(phutball_game_result(game, &result));
    CHECK(result == PHUTBALL_RESULT_DRAW);
    CHECK_STATUS(phutball_game_push(game, "A1"), PHUTBALL_STATUS_MOVE_LIMIT);
    CHECK_OK(phutball_game_clear_move_limit(game));
    CHECK_OK(phutball_game_push(game, "H10-H8")); /* Eks jumps H9 */

    PhutballPosition *now = NULL;
    CHECK_OK(phutball_game_position(game, &now));
    PhutballPoint ball = {0, 0};
    CHECK_OK(phutball_position_ball(now, &ball));
    CHECK(same_point(ball, 7, 8));
    phutball_position_free(now);

    /* The record reads back to the same game. */
    size_t needed = 0;
    CHECK_STATUS(phutball_game_to_string(game, NULL, 0, &needed), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    char *record = malloc(needed + 1);
    CHECK_OK(phutball_game_to_string(game, record, needed + 1, &needed));
    CHECK(strstr(record, "start " STANDARD_START) == record);
    PhutballGame *copy = NULL;
    CHECK_OK(phutball_game_parse(record, &copy));
    char *again = malloc(needed + 1);
    CHECK_OK(phutball_game_to_string(copy, again, needed + 1, &needed));
    CHECK(strcmp(record, again) == 0);
    free(again);
    free(record);
    phutball_game_free(copy);
    copy = NULL;
    CHECK_STATUS(phutball_game_parse("H9\n", &copy), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_STATUS(phutball_game_parse("start " STANDARD_START "\nH9\nH9\n", &copy), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("line 3");
    CHECK(copy == NULL);
    phutball_game_free(game);
}

/* The last error is per thread: a failure on another thread leaves ours alone. */
static void *fail_on_this_thread(void *result) {
    PhutballPosition *pos = NULL;
    PhutballStatus status = phutball_position_parse("other thread", NULL, &pos);
    size_t needed = 0;
    phutball_last_error_message(NULL, 0, &needed);
    *(bool *)result = status == PHUTBALL_STATUS_PARSE_ERROR && needed > 0;
    return NULL;
}

static void test_threads(void) {
    PhutballPoint point;
    CHECK_STATUS(phutball_point_parse("I9", &point), PHUTBALL_STATUS_PARSE_ERROR);
    char mine[2048];
    strcpy(mine, last_error());
    pthread_t thread;
    bool other_failed = false;
    CHECK(pthread_create(&thread, NULL, fail_on_this_thread, &other_failed) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(other_failed);
    CHECK(strcmp(mine, last_error()) == 0);
}

/* Every record of a fixture file against its figures (paths, outcomes and a
 * decided score, which every record of jumps-24 and score-16 gives). */
static void test_benchmark_file(const char *dir, const char *name) {
    struct fixture_record *records = NULL;
    int count = read_fixture(dir, name, &records);
    for (int i = 0; i < count; i++) {
        const struct fixture_record *r = &records[i];
        CHECK(r->paths >= 0 && r->outcomes >= 0 && r->score >= 0);
        PhutballPosition *pos = parse(r->position, NULL);
        uint64_t outcomes = 0;
        bool can = false;
        CHECK(count_paths(pos) == (uint64_t)r->paths);
        CHECK_OK(phutball_position_count_jump_outcomes(pos, &outcomes));
        CHECK(outcomes == (uint64_t)r->outcomes);
        CHECK_OK(phutball_position_can_score(pos, &can));
        CHECK(can == (r->score == 1));
        phutball_position_free(pos);
    }
    CHECK(count > 0);
    free(records);
}

int main(int argc, char **argv) {
    test_standard_start();
    test_start_shorthand();
    test_seeds_jump();
    test_jump_in_progress();
    test_other_worked_examples();
    test_rule_options_and_sizes();
    test_errors();
    test_game();
    test_threads();
    if (argc > 1) {
        test_benchmark_file(argv[1], "jumps-24");
        test_benchmark_file(argv[1], "score-16");
    }
    return check_summary("test_capi");
}
