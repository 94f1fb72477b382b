/* One enumerating entry point of the C API on one position, for
 * tests/ulimit/run.sh, which runs it under `ulimit -v`.
 *
 * Usage: enumerate CASE POSITION TIMEOUT_MS MEMORY
 *   CASE: legal_moves, jump_paths, jump_outcomes, count_jump_paths,
 *     count_jump_outcomes, count_legal_moves, perft2, can_score,
 *     for_each_jump_path, for_each_jump_outcome, best_move, prove
 *   MEMORY: the budget's memory_limit in bytes; 0 the default (256 MiB),
 *     "none" UINT64_MAX (no limit but the allocator's).
 * Prints "STATUS-NAME: last error message" and exits 0 on success, 4 on
 * the memory status (PHUTBALL_STATUS_TOO_MANY_OUTCOMES), 3 on a timeout
 * or work limit, 1 on anything else. A signal (an abort) is the caller's
 * to see. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phutball.h"

static bool count_path(void *user_data, const PhutballPoint *path, size_t len) {
    (void)path;
    (void)len;
    ++*(uint64_t *)user_data;
    return true;
}

static int finish(PhutballStatus status) {
    char message[512] = "";
    size_t written = 0;
    if (status != PHUTBALL_STATUS_OK) {
        phutball_last_error_message(message, sizeof message, &written);
    }
    printf("%s: %s\n", phutball_status_name(status), message);
    switch (status) {
    case PHUTBALL_STATUS_OK:
        return 0;
    case PHUTBALL_STATUS_TOO_MANY_OUTCOMES:
        return 4;
    case PHUTBALL_STATUS_TIMED_OUT:
    case PHUTBALL_STATUS_WORK_LIMIT:
        return 3;
    default:
        return 1;
    }
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: enumerate CASE POSITION TIMEOUT_MS MEMORY\n");
        return 1;
    }
    const char *which = argv[1];
    PhutballPosition *pos = NULL;
    PhutballStatus status = phutball_position_parse(argv[2], NULL, &pos);
    if (status != PHUTBALL_STATUS_OK) {
        return finish(status);
    }
    PhutballBudget budget = phutball_budget_default();
    budget.timeout_ms = strtoull(argv[3], NULL, 10);
    budget.memory_limit = strcmp(argv[4], "none") == 0 ? UINT64_MAX : strtoull(argv[4], NULL, 10);
    uint64_t count = 0;
    bool flag = false;
    PhutballMoveList *list = NULL;
    if (strcmp(which, "legal_moves") == 0) {
        status = phutball_position_legal_moves_within(pos, &budget, &list);
    } else if (strcmp(which, "jump_paths") == 0) {
        status = phutball_position_jump_paths_within(pos, &budget, &list);
    } else if (strcmp(which, "jump_outcomes") == 0) {
        status = phutball_position_jump_outcomes_within(pos, &budget, &list);
    } else if (strcmp(which, "count_jump_paths") == 0) {
        status = phutball_position_count_jump_paths_within(pos, &budget, &count);
    } else if (strcmp(which, "count_jump_outcomes") == 0) {
        status = phutball_position_count_jump_outcomes_within(pos, &budget, &count);
    } else if (strcmp(which, "count_legal_moves") == 0) {
        status = phutball_position_count_legal_moves_within(pos, &budget, &count);
    } else if (strcmp(which, "perft2") == 0) {
        status = phutball_perft_within(pos, 2, &budget, &count);
    } else if (strcmp(which, "can_score") == 0) {
        status = phutball_position_can_score_within(pos, &budget, &flag);
    } else if (strcmp(which, "for_each_jump_path") == 0) {
        status = phutball_position_for_each_jump_path_within(pos, &budget, count_path, &count, &flag);
    } else if (strcmp(which, "for_each_jump_outcome") == 0) {
        status = phutball_position_for_each_jump_outcome_within(pos, &budget, count_path, &count, &flag);
    } else if (strcmp(which, "best_move") == 0) {
        PhutballEngineLimits engine_limits = {0};
        engine_limits.time_ms = (uint32_t)budget.timeout_ms;
        PhutballEngine *engine = NULL;
        status = phutball_engine_new(&engine_limits, 1, &engine);
        if (status == PHUTBALL_STATUS_OK) {
            char best[4096];
            size_t written = 0;
            status = phutball_engine_best_move_within(engine, pos, &budget, best, sizeof best, &written);
            if (status == PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
                status = PHUTBALL_STATUS_OK; /* a move longer than the buffer is still an answer */
            }
            phutball_engine_free(engine);
        }
    } else if (strcmp(which, "prove") == 0) {
        PhutballProof *proof = NULL;
        status = phutball_prove_within(pos, &budget, &proof);
        phutball_proof_free(proof);
    } else {
        fprintf(stderr, "enumerate: unknown case %s\n", which);
        phutball_position_free(pos);
        return 1;
    }
    phutball_move_list_free(list);
    phutball_position_free(pos);
    return finish(status);
}
