/* Tests of tablebases in the C API: phutball_tablebase_build_within (the
 * 1x3 and 3x5 boards, budgets, sizes it refuses), probe and best move
 * against the prover, the counts, the file format through
 * phutball_tablebase_to_bytes / phutball_tablebase_from_bytes (damaged
 * bytes are PHUTBALL_STATUS_INVALID_TABLEBASE), and NULL arguments.
 * Prints "test_tablebase: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>

#include "support.h"

static PhutballTablebase *build(uint8_t cols, uint8_t rows, bool continue_off_board) {
    PhutballTablebase *table = NULL;
    if (phutball_tablebase_build_within(cols, rows, continue_off_board, 0, NULL, &table) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot build the %ux%u tablebase: %s\n", cols, rows, last_error());
        exit(2);
    }
    return table;
}

/* The table's bytes in a new buffer (free it), asking for the size first. */
static uint8_t *bytes_of(const PhutballTablebase *table, size_t *len) {
    size_t needed = 0;
    CHECK_STATUS(phutball_tablebase_to_bytes(table, NULL, 0, &needed), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    uint8_t *bytes = malloc(needed);
    if (bytes == NULL) {
        exit(2);
    }
    CHECK_OK(phutball_tablebase_to_bytes(table, bytes, needed, len));
    CHECK(*len == needed);
    return bytes;
}

static void test_the_1x3_board(void) {
    PhutballTablebase *table = build(1, 3, false);
    PhutballPosition *start = parse("1/@/1 O");
    PhutballValue value = {99, 99};
    CHECK_OK(phutball_tablebase_probe(table, start, &value));
    CHECK(value.result == PHUTBALL_PROOF_WIN && value.plies == 3);
    char move[16];
    size_t written = 0;
    CHECK_OK(phutball_tablebase_best_move(table, start, move, sizeof move, &written));
    CHECK(strcmp(move, "A3") == 0);

    PhutballPosition *lost = parse("#/@/1 X");
    CHECK_OK(phutball_tablebase_probe(table, lost, &value));
    CHECK(value.result == PHUTBALL_PROOF_LOSS && value.plies == 2);
    PhutballPosition *finished = parse("@/1/1 X");
    CHECK_OK(phutball_tablebase_probe(table, finished, &value));
    CHECK(value.result == PHUTBALL_PROOF_LOSS && value.plies == 0);
    CHECK_STATUS(phutball_tablebase_best_move(table, finished, move, sizeof move, &written),
                 PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("game is over");

    PhutballTablebaseStats stats;
    uint8_t cols = 0, rows = 0;
    bool continue_off_board = true;
    CHECK_OK(phutball_tablebase_stats(table, &stats, &cols, &rows, &continue_off_board));
    CHECK(cols == 1 && rows == 3 && !continue_off_board);
    CHECK(stats.states == 4 && stats.positions == 8);
    CHECK(stats.wins + stats.losses + stats.draws == stats.positions);
    CHECK(stats.longest_win == 3);
    CHECK_OK(phutball_tablebase_stats(table, &stats, NULL, NULL, NULL));

    /* A position of another board or rule is not covered. */
    PhutballPosition *standard = parse(STANDARD_START);
    value.plies = 77;
    CHECK_STATUS(phutball_tablebase_probe(table, standard, &value), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("the tablebase is for 1x3 boards");
    CHECK(value.plies == 77);
    PhutballRules rules = phutball_rules_default();
    rules.continue_off_board = true;
    PhutballPosition *ruled = NULL;
    CHECK_OK(phutball_position_new(1, 3, &rules, &ruled));
    CHECK_STATUS(phutball_tablebase_probe(table, ruled, &value), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("continue-off-board");
    PhutballTablebase *other_rule = build(1, 3, true);
    CHECK_OK(phutball_tablebase_probe(other_rule, ruled, &value));
    phutball_tablebase_free(other_rule);

    phutball_position_free(ruled);
    phutball_position_free(standard);
    phutball_position_free(finished);
    phutball_position_free(lost);
    phutball_position_free(start);
    phutball_tablebase_free(table);
}

static void test_the_3x5_board_agrees_with_the_prover(void) {
    PhutballTablebase *table = build(3, 5, false);
    PhutballPosition *start = NULL;
    CHECK_OK(phutball_position_new(3, 5, NULL, &start));
    PhutballValue value;
    CHECK_OK(phutball_tablebase_probe(table, start, &value));
    PhutballProof *proof = NULL;
    CHECK_OK(phutball_prove_within(start, NULL, &proof));
    PhutballProofSummary summary;
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == value.result);
    CHECK(summary.plies == value.plies);
    phutball_proof_free(proof);

    /* The caller's table answers at once, with a certificate. */
    proof = NULL;
    CHECK_OK(phutball_prove_with_tablebase_within(start, table, NULL, &proof));
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == value.result && summary.plies == value.plies);
    CHECK(summary.certificate_nodes > 0);
    phutball_proof_free(proof);
    /* Without a table, the search alone. */
    proof = NULL;
    CHECK_OK(phutball_prove_with_tablebase_within(start, NULL, NULL, &proof));
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == value.result && summary.plies == value.plies);
    phutball_proof_free(proof);
    proof = NULL;
    CHECK_STATUS(phutball_prove_with_tablebase_within(NULL, table, NULL, &proof), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_prove_with_tablebase_within(start, table, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK(proof == NULL);
    phutball_position_free(start);
    phutball_tablebase_free(table);
}

static void test_bytes_round_trip_and_damage_is_caught(void) {
    PhutballTablebase *table = build(3, 4, false);
    size_t len = 0;
    uint8_t *bytes = bytes_of(table, &len);
    CHECK(len > 32 && memcmp(bytes, "PHUTTB\r\n", 8) == 0);
    PhutballTablebaseStats stats, again_stats;
    CHECK_OK(phutball_tablebase_stats(table, &stats, NULL, NULL, NULL));
    CHECK(len == 32 + stats.states);

    PhutballTablebase *again = NULL;
    CHECK_OK(phutball_tablebase_from_bytes(bytes, len, &again));
    CHECK_OK(phutball_tablebase_stats(again, &again_stats, NULL, NULL, NULL));
    CHECK(memcmp(&stats, &again_stats, sizeof stats) == 0);
    size_t again_len = 0;
    uint8_t *again_bytes = bytes_of(again, &again_len);
    CHECK(again_len == len && memcmp(bytes, again_bytes, len) == 0);
    free(again_bytes);
    phutball_tablebase_free(again);

    /* Too small a buffer: nothing copied, the size written. */
    uint8_t small[8] = {0};
    size_t count = 0;
    CHECK_STATUS(phutball_tablebase_to_bytes(table, small, sizeof small, &count), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == len && small[0] == 0);

    /* Truncated, damaged, not a table. */
    PhutballTablebase *bad = NULL;
    CHECK_STATUS(phutball_tablebase_from_bytes(bytes, len - 1, &bad), PHUTBALL_STATUS_INVALID_TABLEBASE);
    CHECK_MESSAGE_HAS("truncated");
    bytes[len - 1] ^= 1;
    CHECK_STATUS(phutball_tablebase_from_bytes(bytes, len, &bad), PHUTBALL_STATUS_INVALID_TABLEBASE);
    CHECK_MESSAGE_HAS("damaged");
    CHECK_STATUS(phutball_tablebase_from_bytes((const uint8_t *)"not a table at all, nor long enough", 35, &bad),
                 PHUTBALL_STATUS_INVALID_TABLEBASE);
    CHECK_STATUS(phutball_tablebase_from_bytes(NULL, 0, &bad), PHUTBALL_STATUS_INVALID_TABLEBASE);
    CHECK_MESSAGE_HAS("shorter than the 32-byte header");
    CHECK(bad == NULL);
    CHECK(strcmp(phutball_status_name(PHUTBALL_STATUS_INVALID_TABLEBASE), "invalid tablebase") == 0);
    free(bytes);
    phutball_tablebase_free(table);
}

static void test_budgets_and_sizes(void) {
    PhutballTablebase *table = NULL;
    PhutballBudget budget = phutball_budget_default();
    budget.memory_limit = 1000;
    CHECK_STATUS(phutball_tablebase_build_within(3, 5, false, 1, &budget, &table), PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    CHECK_MESSAGE_HAS("memory limit of 1000 bytes");
    /* 5x5 needs about 280 MB: over the default 256 MiB. */
    CHECK_STATUS(phutball_tablebase_build_within(5, 5, false, 0, NULL, &table), PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    PhutballCancelToken *token = NULL;
    CHECK_OK(phutball_cancel_token_new(&token));
    CHECK_OK(phutball_cancel_token_cancel(token));
    budget = phutball_budget_default();
    budget.cancel = token;
    CHECK_STATUS(phutball_tablebase_build_within(3, 5, false, 0, &budget, &table), PHUTBALL_STATUS_CANCELLED);
    phutball_cancel_token_free(token);
    CHECK_STATUS(phutball_tablebase_build_within(5, 7, false, 0, NULL, &table), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("at most 32 are supported");
    CHECK_STATUS(phutball_tablebase_build_within(3, 2, false, 0, NULL, &table), PHUTBALL_STATUS_INVALID_POSITION);
    CHECK(table == NULL);
    /* The solver's range of jobs (0 is every core), as the CLI's --jobs; the message names jobs. */
    CHECK_STATUS(phutball_tablebase_build_within(1, 3, false, 257, NULL, &table), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("jobs: a tablebase build takes 1 to 256 jobs, not 257");
    CHECK(table == NULL);
    CHECK_OK(phutball_tablebase_build_within(1, 3, false, 256, NULL, &table));
    phutball_tablebase_free(table);
    table = NULL;
}

static void test_null_arguments(void) {
    PhutballTablebase *table = build(1, 3, false);
    PhutballPosition *start = parse("1/@/1 O");
    PhutballValue value;
    PhutballTablebaseStats stats;
    char move[8];
    size_t written = 0;
    CHECK_STATUS(phutball_tablebase_build_within(1, 3, false, 0, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_from_bytes(NULL, 5, &table), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_from_bytes((const uint8_t *)"x", 1, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_to_bytes(NULL, NULL, 0, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_to_bytes(table, NULL, 0, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_probe(NULL, start, &value), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("table must not be NULL");
    CHECK_STATUS(phutball_tablebase_probe(table, NULL, &value), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_probe(table, start, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_best_move(table, start, move, sizeof move, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_best_move(NULL, start, move, sizeof move, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_stats(table, NULL, NULL, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_tablebase_stats(NULL, &stats, NULL, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_tablebase_free(NULL);
    phutball_position_free(start);
    phutball_tablebase_free(table);
}

int main(void) {
    test_the_1x3_board();
    test_the_3x5_board_agrees_with_the_prover();
    test_bytes_round_trip_and_damage_is_caught();
    test_budgets_and_sizes();
    test_null_arguments();
    return check_summary("test_tablebase");
}
