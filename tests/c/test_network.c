/* Tests of learned evaluations in the C API (phutball_network_*,
 * phutball_engine_set_network, phutball_engine_network): a weights file
 * built here byte by byte as docs/network.md lays it out (little-endian,
 * its CRC-32 computed here too) is read, evaluated, described and written
 * back byte for byte; damaged, truncated and foreign bytes are
 * PHUTBALL_STATUS_INVALID_NETWORK with the engine's message; an engine
 * given the network searches with it (after the handle is freed), refuses
 * a board size it does not serve, and goes back to the hand evaluation;
 * the built-in network (phutball_network_built_in) plays a legal move on
 * the standard board and refuses a 9x9 one; NULL arguments are refused.
 * Prints "test_network: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "support.h"

/* The 5x7 board: F = 2 * 5 * 7 + 3 = 73 inputs, input 70 the ball's progress. */
#define COLS 5
#define ROWS 7
/* The ball on C5, a row up from the centre, Ohs to move. */
#define BALL_UP "5/5/2@2/5/5/5/5 O"
/* The 9x9 start: the engine searches it (the 5x7 start is a win its root's checks find). */
#define START_9X9 "9/9/9/9/4@4/9/9/9/9 O"

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of `len` bytes. */
static uint32_t crc32_of(const uint8_t *bytes, size_t len) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

/* A weights file being written: its bytes and length. */
struct writer {
    uint8_t bytes[2048];
    size_t len;
};

static void put_u8(struct writer *w, uint8_t value) {
    if (w->len >= sizeof w->bytes) {
        fprintf(stderr, "the test's weights file outgrew its buffer\n");
        exit(2);
    }
    w->bytes[w->len++] = value;
}

static void put_u16(struct writer *w, uint16_t value) {
    put_u8(w, (uint8_t)(value & 0xFF));
    put_u8(w, (uint8_t)(value >> 8));
}

static void put_u32(struct writer *w, uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) {
        put_u8(w, (uint8_t)((value >> shift) & 0xFF));
    }
}

static void put_f32(struct writer *w, float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    put_u32(w, bits);
}

/* The weights file of one network of one hidden unit for `cols` x `rows`
 * boards: W1 all zero but `w_ball` on input 2 * cols * rows (the ball's
 * progress, in rows), b1 `b1`, w2 `w2`, b2 `b2`, described as `description`. */
static struct writer sized_weights_file(uint8_t cols, uint8_t rows, const char *description, float w_ball,
                                        float b1, float w2, float b2) {
    struct writer w = {{0}, 0};
    const char magic[8] = {'p', 'h', 'b', 'n', 'e', 't', '\n', '\0'};
    for (size_t i = 0; i < sizeof magic; i++) {
        put_u8(&w, (uint8_t)magic[i]);
    }
    put_u32(&w, 1); /* format version */
    put_u32(&w, (uint32_t)strlen(description));
    for (const char *c = description; *c != '\0'; c++) {
        put_u8(&w, (uint8_t)*c);
    }
    put_u32(&w, 1); /* one network */
    put_u8(&w, cols);
    put_u8(&w, rows);
    put_u16(&w, 1); /* one hidden unit */
    int inputs = 2 * cols * rows + 3;
    for (int i = 0; i < inputs; i++) {
        put_f32(&w, i == 2 * cols * rows ? w_ball : 0.0f); /* W1[i][0] */
    }
    put_f32(&w, b1);
    put_f32(&w, w2);
    put_f32(&w, b2);
    put_u32(&w, crc32_of(w.bytes, w.len));
    return w;
}

/* The weights file of a 5x7 network (sized_weights_file). */
static struct writer weights_file(const char *description, float w_ball, float b1, float w2, float b2) {
    return sized_weights_file(COLS, ROWS, description, w_ball, b1, w2, b2);
}

static PhutballNetwork *network_of(const struct writer *file) {
    PhutballNetwork *network = NULL;
    if (phutball_network_from_bytes(file->bytes, file->len, &network) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot read the test's weights file: %s\n", last_error());
        exit(2);
    }
    return network;
}

static PhutballEngine *engine_of_depth(uint32_t depth) {
    PhutballEngineLimits limits = {0, depth, 0, 1};
    PhutballEngine *engine = NULL;
    if (phutball_engine_new(&limits, 1, &engine) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot make an engine: %s\n", last_error());
        exit(2);
    }
    return engine;
}

/* The engine's search of `pos`, of a board size its network does not
 * serve, is refused whatever the buffers: INVALID_ARGUMENT, its message
 * naming the sizes (`sizes`), nothing written. */
static void check_size_refused(PhutballEngine *engine, const PhutballPosition *pos, const char *sizes) {
    char move[64] = "";
    size_t written = 99;
    CHECK_STATUS(phutball_engine_best_move(engine, pos, move, sizeof move, &written),
                 PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("the engine's network cannot judge this position: ");
    CHECK_MESSAGE_HAS(sizes);
    CHECK(move[0] == '\0');
}

static void a_file_built_by_hand_is_read_evaluated_and_written_back(void) {
    struct writer file = weights_file("by hand, in C", 0.25f, 0.5f, 100.0f, 0.0f);
    PhutballNetwork *network = network_of(&file);

    /* 100 * clamp(0.5 + 1 row * 0.25, 0, 1) = 75: docs/network.md's arithmetic. */
    PhutballPosition *up = parse(BALL_UP);
    int32_t value = 0;
    CHECK_OK(phutball_network_evaluate(network, up, &value));
    CHECK(value == 75);
    /* Eks to move sees the ball a row down: 100 * (0.5 - 0.25). */
    PhutballPosition *eks = parse("5/5/2@2/5/5/5/5 X");
    CHECK_OK(phutball_network_evaluate(network, eks, &value));
    CHECK(value == 25);

    char description[64];
    size_t written = 0;
    CHECK_STATUS(phutball_network_description(network, NULL, 0, &written), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(written == strlen("by hand, in C"));
    CHECK_OK(phutball_network_description(network, description, sizeof description, &written));
    CHECK(strcmp(description, "by hand, in C") == 0);

    bool serves = false;
    CHECK_OK(phutball_network_serves(network, COLS, ROWS, &serves));
    CHECK(serves);
    CHECK_OK(phutball_network_serves(network, 15, 19, &serves));
    CHECK(!serves);
    serves = true;
    CHECK_STATUS(phutball_network_serves(network, 0, 7, &serves), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK(serves);

    /* Written back byte for byte, with the size query first. */
    size_t len = 0;
    CHECK_STATUS(phutball_network_to_bytes(network, NULL, 0, &len), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(len == file.len);
    uint8_t *bytes = malloc(len);
    if (bytes == NULL) {
        exit(2);
    }
    uint8_t small[16] = {0};
    size_t count = 0;
    CHECK_STATUS(phutball_network_to_bytes(network, small, sizeof small, &count), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == file.len && small[0] == 0);
    CHECK_OK(phutball_network_to_bytes(network, bytes, len, &count));
    CHECK(count == file.len && memcmp(bytes, file.bytes, file.len) == 0);
    free(bytes);

    /* A position it cannot judge: another size, a finished game. */
    PhutballPosition *standard = parse(STANDARD_START);
    value = 12345;
    CHECK_STATUS(phutball_network_evaluate(network, standard, &value), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("the network serves 5x7, not 15x19");
    PhutballPosition *over = parse("5/5/5/5/5/5/5 O C0");
    CHECK_STATUS(phutball_network_evaluate(network, over, &value), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("the game is over");
    CHECK(value == 12345);

    phutball_position_free(over);
    phutball_position_free(standard);
    phutball_position_free(eks);
    phutball_position_free(up);
    phutball_network_free(network);
}

static void damaged_truncated_and_foreign_bytes_are_refused(void) {
    struct writer file = weights_file("", 0.25f, 0.5f, 100.0f, 0.0f);
    PhutballNetwork *network = NULL;
    /* A weight's byte flipped: the checksum no longer matches. */
    file.bytes[40] ^= 0x01;
    CHECK_STATUS(phutball_network_from_bytes(file.bytes, file.len, &network), PHUTBALL_STATUS_INVALID_NETWORK);
    CHECK_MESSAGE_HAS("the weights file is damaged: checksum");
    file.bytes[40] ^= 0x01;
    CHECK_STATUS(phutball_network_from_bytes(file.bytes, file.len - 1, &network), PHUTBALL_STATUS_INVALID_NETWORK);
    CHECK_MESSAGE_HAS("truncated");
    file.bytes[0] = 'P';
    CHECK_STATUS(phutball_network_from_bytes(file.bytes, file.len, &network), PHUTBALL_STATUS_INVALID_NETWORK);
    CHECK_MESSAGE_HAS("not a phutball weights file");
    CHECK_STATUS(phutball_network_from_bytes(NULL, 0, &network), PHUTBALL_STATUS_INVALID_NETWORK);
    /* A weight that is not finite, with a checksum that matches. */
    struct writer nan_file = weights_file("", 0.25f, 0.5f, 100.0f, 0.0f);
    nan_file.len -= 4;
    nan_file.len -= 4; /* b2 */
    put_f32(&nan_file, (float)NAN);
    put_u32(&nan_file, crc32_of(nan_file.bytes, nan_file.len));
    CHECK_STATUS(phutball_network_from_bytes(nan_file.bytes, nan_file.len, &network), PHUTBALL_STATUS_INVALID_NETWORK);
    CHECK_MESSAGE_HAS("b2[0] is not finite");
    CHECK(network == NULL);
    CHECK(strcmp(phutball_status_name(PHUTBALL_STATUS_INVALID_NETWORK), "invalid network") == 0);
}

static void an_engine_searches_with_the_network(void) {
    /* A 9x9 network, all weights zero and b2 = 1234: every position is
     * worth 1234 to its side to move. */
    struct writer file = sized_weights_file(9, 9, "constant", 0.0f, 0.0f, 0.0f, 1234.0f);
    PhutballNetwork *network = network_of(&file);
    PhutballEngine *engine = engine_of_depth(1);
    PhutballPosition *start = parse(START_9X9);

    PhutballNetwork *used = (PhutballNetwork *)&file; /* anything but NULL */
    CHECK_OK(phutball_engine_network(engine, &used));
    CHECK(used == NULL); /* the hand evaluation */

    PhutballAnalysis hand, net;
    char pv[256], move[64];
    size_t written = 0;
    CHECK_OK(phutball_engine_analyse(engine, start, &hand, pv, sizeof pv, &written));
    CHECK_OK(phutball_engine_set_network(engine, network));
    /* The engine keeps the weights: the caller's handle may go now. */
    phutball_network_free(network);
    CHECK_OK(phutball_engine_analyse(engine, start, &net, pv, sizeof pv, &written));
    /* One ply: every reply leaves the opponent 1234 up. */
    CHECK(net.score_kind == PHUTBALL_SCORE_EVAL && net.score == -1234);
    CHECK(hand.score != -1234);
    CHECK_OK(phutball_engine_best_move(engine, start, move, sizeof move, &written));
    bool legal = false;
    CHECK_OK(phutball_position_is_legal(start, move, &legal));
    CHECK(legal);

    /* The engine's network, as a new handle that shares its weights. */
    CHECK_OK(phutball_engine_network(engine, &used));
    CHECK(used != NULL);
    size_t len = 0;
    uint8_t bytes[2048];
    CHECK_OK(phutball_network_to_bytes(used, bytes, sizeof bytes, &len));
    CHECK(len == file.len && memcmp(bytes, file.bytes, len) == 0);
    phutball_network_free(used);

    /* A board size it does not serve: refused, whatever the buffers. */
    PhutballPosition *standard = parse(STANDARD_START);
    check_size_refused(engine, standard, "the network serves 9x9, not 15x19");

    /* A batch carries the network: each position's own status. */
    const PhutballPosition *batch[] = {start, standard};
    PhutballBatchAnalysis results[2];
    char moves[2 * 4096];
    CHECK_OK(phutball_engine_analyse_many(engine, batch, 2, 2, NULL, results, moves, sizeof moves, &written));
    CHECK(results[0].status == PHUTBALL_STATUS_OK && results[0].analysis.score == -1234);
    CHECK(results[1].status == PHUTBALL_STATUS_INVALID_ARGUMENT);

    /* NULL: the hand evaluation again. */
    CHECK_OK(phutball_engine_set_network(engine, NULL));
    CHECK_OK(phutball_engine_network(engine, &used));
    CHECK(used == NULL);
    PhutballAnalysis again;
    CHECK_OK(phutball_engine_analyse(engine, start, &again, pv, sizeof pv, &written));
    CHECK(again.score_kind == hand.score_kind && again.score == hand.score);
    CHECK_OK(phutball_engine_best_move(engine, standard, move, sizeof move, &written));

    phutball_position_free(standard);
    phutball_position_free(start);
    phutball_engine_free(engine);
}

static void the_built_in_network_plays_on_the_standard_board(void) {
    PhutballNetwork *network = NULL;
    CHECK_OK(phutball_network_built_in(&network));
    CHECK(network != NULL);
    bool serves = false;
    CHECK_OK(phutball_network_serves(network, 15, 19, &serves));
    CHECK(serves);
    CHECK_OK(phutball_network_serves(network, 9, 9, &serves));
    CHECK(!serves);
    /* Its bytes are a weights file: read back, they make the same network. */
    size_t len = 0;
    CHECK_STATUS(phutball_network_to_bytes(network, NULL, 0, &len), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    uint8_t *bytes = malloc(len);
    if (bytes == NULL) {
        exit(2);
    }
    CHECK_OK(phutball_network_to_bytes(network, bytes, len, &len));
    CHECK(len > 8 && memcmp(bytes, "phbnet\n", 8) == 0);
    PhutballNetwork *copy = NULL;
    CHECK_OK(phutball_network_from_bytes(bytes, len, &copy));
    free(bytes);
    PhutballPosition *start = parse(STANDARD_START);
    int32_t value = 0, copy_value = 1;
    CHECK_OK(phutball_network_evaluate(network, start, &value));
    CHECK_OK(phutball_network_evaluate(copy, start, &copy_value));
    CHECK(value == copy_value);
    phutball_network_free(copy);
    /* A second handle shares the weights; each is freed on its own. */
    PhutballNetwork *again = NULL;
    CHECK_OK(phutball_network_built_in(&again));
    CHECK(again != NULL && again != network);
    phutball_network_free(again);

    PhutballEngine *engine = engine_of_depth(1);
    CHECK_OK(phutball_engine_set_network(engine, network));
    phutball_network_free(network); /* the engine keeps the weights */
    char move[64];
    size_t written = 0;
    CHECK_OK(phutball_engine_best_move(engine, start, move, sizeof move, &written));
    bool legal = false;
    CHECK_OK(phutball_position_is_legal(start, move, &legal));
    CHECK(legal);
    PhutballNetwork *used = NULL;
    CHECK_OK(phutball_engine_network(engine, &used));
    CHECK(used != NULL);
    phutball_network_free(used);

    /* A 9x9 position: the network serves only 15x19, so the engine refuses it. */
    PhutballPosition *small = parse(START_9X9);
    check_size_refused(engine, small, "the network serves 15x19, not 9x9");

    phutball_position_free(small);
    phutball_position_free(start);
    phutball_engine_free(engine);
}

/* The analysis of `pos` by `engine`, its score as one number. */
static int32_t score_of(PhutballEngine *engine, const PhutballPosition *pos) {
    PhutballAnalysis analysis;
    char pv[512];
    size_t written = 0;
    CHECK_OK(phutball_engine_analyse(engine, pos, &analysis, pv, sizeof pv, &written));
    return analysis.score;
}

static void the_default_is_the_built_in_network_on_the_standard_board_and_hand_elsewhere(void) {
    /* A standard-board position where the network and the hand evaluation
     * disagree at depth 2. */
    PhutballPosition *pos = parse("15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X");
    PhutballPosition *small = parse(START_9X9);
    PhutballEngine *engine = engine_of_depth(2);
    PhutballEvaluation kind = 99;
    CHECK_OK(phutball_engine_evaluation(engine, &kind));
    CHECK(kind == PHUTBALL_EVALUATION_AUTO);
    const int32_t by_default = score_of(engine, pos);
    const int32_t small_by_default = score_of(engine, small);

    CHECK_OK(phutball_engine_set_evaluation(engine, PHUTBALL_EVALUATION_HAND));
    CHECK_OK(phutball_engine_evaluation(engine, &kind));
    CHECK(kind == PHUTBALL_EVALUATION_HAND);
    CHECK(score_of(engine, pos) != by_default);
    CHECK(score_of(engine, small) == small_by_default);

    PhutballNetwork *network = NULL;
    CHECK_OK(phutball_network_built_in(&network));
    CHECK_OK(phutball_engine_set_network(engine, network));
    phutball_network_free(network);
    CHECK_OK(phutball_engine_evaluation(engine, &kind));
    CHECK(kind == PHUTBALL_EVALUATION_NET);
    CHECK(score_of(engine, pos) == by_default);
    check_size_refused(engine, small, "the network serves 15x19, not 9x9");

    /* A network is not given by kind, nor a kind that is none: refused,
     * the engine unchanged (still the network, not reset). */
    CHECK_STATUS(phutball_engine_set_evaluation(engine, PHUTBALL_EVALUATION_NET), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("phutball_engine_set_network");
    CHECK_STATUS(phutball_engine_set_evaluation(engine, 7), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("evaluation 7 is not a PHUTBALL_EVALUATION_* value");
    CHECK_OK(phutball_engine_evaluation(engine, &kind));
    CHECK(kind == PHUTBALL_EVALUATION_NET);
    check_size_refused(engine, small, "the network serves 15x19, not 9x9");

    /* Back to the default. */
    CHECK_OK(phutball_engine_set_evaluation(engine, PHUTBALL_EVALUATION_AUTO));
    CHECK_OK(phutball_engine_evaluation(engine, &kind));
    CHECK(kind == PHUTBALL_EVALUATION_AUTO);
    CHECK(score_of(engine, small) == small_by_default);
    CHECK(score_of(engine, pos) == by_default);

    phutball_position_free(small);
    phutball_position_free(pos);
    phutball_engine_free(engine);
}

static void null_arguments_are_refused(void) {
    struct writer file = weights_file("", 0.25f, 0.5f, 100.0f, 0.0f);
    PhutballNetwork *network = network_of(&file);
    PhutballEngine *engine = engine_of_depth(1);
    PhutballPosition *up = parse(BALL_UP);
    PhutballNetwork *out = NULL;
    uint8_t bytes[8];
    char text[8];
    size_t written = 0;
    bool serves = false;
    int32_t value = 0;
    CHECK_STATUS(phutball_network_from_bytes(NULL, file.len, &out), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("bytes (with a non-zero length) must not be NULL");
    CHECK_STATUS(phutball_network_from_bytes(file.bytes, file.len, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_built_in(NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("out must not be NULL");
    CHECK_STATUS(phutball_network_to_bytes(NULL, NULL, 0, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("network must not be NULL");
    CHECK_STATUS(phutball_network_to_bytes(network, NULL, 0, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_to_bytes(network, NULL, sizeof bytes, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_description(NULL, text, sizeof text, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_description(network, text, sizeof text, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_serves(NULL, COLS, ROWS, &serves), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_serves(network, COLS, ROWS, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_evaluate(NULL, up, &value), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_evaluate(network, NULL, &value), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_network_evaluate(network, up, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_engine_set_network(NULL, network), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("engine must not be NULL");
    CHECK_STATUS(phutball_engine_network(NULL, &out), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_engine_network(engine, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK(out == NULL);
    PhutballEvaluation kind = PHUTBALL_EVALUATION_AUTO;
    CHECK_STATUS(phutball_engine_set_evaluation(NULL, PHUTBALL_EVALUATION_HAND), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("engine must not be NULL");
    CHECK_STATUS(phutball_engine_evaluation(NULL, &kind), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_engine_evaluation(engine, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("out must not be NULL");
    phutball_network_free(NULL);
    phutball_position_free(up);
    phutball_engine_free(engine);
    phutball_network_free(network);
}

int main(void) {
    a_file_built_by_hand_is_read_evaluated_and_written_back();
    damaged_truncated_and_foreign_bytes_are_refused();
    an_engine_searches_with_the_network();
    the_built_in_network_plays_on_the_standard_board();
    the_default_is_the_built_in_network_on_the_standard_board_and_hand_elsewhere();
    null_arguments_are_refused();
    return check_summary("test_network");
}
