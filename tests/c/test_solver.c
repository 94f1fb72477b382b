/* Tests of the solver in the C API: phutball_prove_within (a win and a loss
 * on 1x3 boards, the 9x9 start, unknown results when a limit runs out, a
 * cancel), the proof handle's summary, line and certificate, and
 * phutball_check_proof on a good certificate, on mutated ones (a reply
 * dropped, the winner's move changed to another legal move) and on text
 * that is no certificate; NULL arguments give a status, not a crash.
 * Prints "test_solver: N passed, M failed". */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>

#include "support.h"

/* 1x3: Ohs places a man on A3 and scores with A2-A4 whatever Eks does. */
#define TINY "1/@/1 O"
/* 1x3, a man on A3, Eks to move: Eks loses in two whatever it plays. */
#define LOST "#/@/1 X"

/* A proof of `text` within `budget`; exits with status 2 when the call fails. */
static PhutballProof *prove(const char *text, const PhutballBudget *budget) {
    PhutballPosition *pos = parse(text);
    PhutballProof *proof = NULL;
    PhutballStatus status = phutball_prove_within(pos, budget, &proof);
    phutball_position_free(pos);
    if (status != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "cannot prove %s: %s\n", text, last_error());
        exit(2);
    }
    return proof;
}

/* The certificate's text, in a new buffer (free it), asking for its size first. */
static char *certificate_text(const PhutballProof *proof, size_t *len) {
    size_t needed = 0;
    CHECK_STATUS(phutball_proof_certificate(proof, NULL, 0, &needed), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    char *text = malloc(needed + 1);
    if (text == NULL) {
        exit(2);
    }
    size_t written = 0;
    CHECK_OK(phutball_proof_certificate(proof, text, needed + 1, &written));
    CHECK(written == needed);
    *len = written;
    return text;
}

static PhutballStatus check_text(const char *text, PhutballCheckedProof *out) {
    return phutball_check_proof(text, strlen(text), NULL, out, NULL);
}

static void test_a_win_on_the_1x3_board(void) {
    PhutballProof *proof = prove(TINY, NULL);
    PhutballProofSummary summary;
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == PHUTBALL_PROOF_WIN);
    CHECK(summary.plies == 3);
    CHECK(summary.exact); /* 3 points: the tablebase's distance */
    CHECK(summary.stopped == PHUTBALL_STATUS_OK);
    CHECK(!summary.exhausted);
    CHECK(summary.certificate_nodes >= 1);

    char line[64];
    size_t written = 0;
    CHECK_OK(phutball_proof_line(proof, line, sizeof line, &written));
    CHECK(strcmp(line, "A3 A1 A2-A4") == 0);
    CHECK(written == strlen("A3 A1 A2-A4"));
    CHECK_STATUS(phutball_proof_line(proof, line, 4, &written), PHUTBALL_STATUS_BUFFER_TOO_SMALL);
    CHECK(written == strlen("A3 A1 A2-A4"));

    size_t len = 0;
    char *text = certificate_text(proof, &len);
    CHECK(strncmp(text, "phutball-proof 1\n", 17) == 0);
    CHECK(strstr(text, "winner O\n") != NULL);
    CHECK(strstr(text, "node 0 1/@/1 O\n") != NULL);

    /* The checker agrees, and gives the root back. */
    PhutballCheckedProof checked = {0};
    PhutballPosition *root = NULL;
    CHECK_OK(phutball_check_proof(text, len, NULL, &checked, &root));
    CHECK(checked.winner == PHUTBALL_SIDE_OHS);
    CHECK(checked.plies == 3);
    CHECK(checked.nodes == summary.certificate_nodes);
    PhutballPosition *tiny = parse(TINY);
    bool same = false;
    CHECK_OK(phutball_position_equal(root, tiny, &same));
    CHECK(same);
    phutball_position_free(tiny);
    phutball_position_free(root);
    /* No NUL needed: the length counts. */
    CHECK_OK(phutball_check_proof(text, len - 1, NULL, &checked, NULL)); /* without the last newline */
    free(text);
    phutball_proof_free(proof);
}

static void test_a_loss_on_the_1x3_board(void) {
    PhutballProof *proof = prove(LOST, NULL);
    PhutballProofSummary summary;
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == PHUTBALL_PROOF_LOSS);
    CHECK(summary.plies == 2);
    size_t len = 0;
    char *text = certificate_text(proof, &len);
    PhutballCheckedProof checked = {0};
    CHECK_OK(phutball_check_proof(text, len, NULL, &checked, NULL));
    CHECK(checked.winner == PHUTBALL_SIDE_OHS); /* the opponent of the side to move */
    CHECK(checked.plies == 2);
    free(text);
    phutball_proof_free(proof);
}

/* Removes the line starting at `at` (up to and including its newline) in place. */
static void drop_line(char *at) {
    char *end = strchr(at, '\n');
    memmove(at, end + 1, strlen(end + 1) + 1);
}

static void test_mutated_certificates_are_invalid(void) {
    PhutballProof *proof = prove("9/9/9/9/4@4/9/9/9/9 O", NULL); /* the 9x9 start: about 0.2 s */
    PhutballProofSummary summary;
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == PHUTBALL_PROOF_WIN); /* the 9x9 start: a first-player win */
    CHECK(!summary.exact); /* 81 points: the proof's bound */
    CHECK(summary.nodes > 0);
    size_t len = 0;
    char *text = certificate_text(proof, &len);
    PhutballCheckedProof checked = {0};
    CHECK_OK(check_text(text, &checked));
    CHECK(checked.plies == summary.plies);
    CHECK(checked.nodes == summary.certificate_nodes);

    /* A reply of the loser dropped: it is not covered. */
    char *dropped = malloc(len + 1);
    if (dropped == NULL) {
        exit(2);
    }
    memcpy(dropped, text, len + 1);
    char *reply = strstr(dropped, "\nreply ");
    CHECK(reply != NULL);
    if (reply != NULL) {
        drop_line(reply + 1);
        PhutballCheckedProof untouched = {PHUTBALL_SIDE_NONE, 77, 77};
        CHECK_STATUS(check_text(dropped, &untouched), PHUTBALL_STATUS_INVALID_CERTIFICATE);
        CHECK_MESSAGE_HAS("is not covered");
        CHECK(untouched.plies == 77); /* nothing written */
    }
    free(dropped);

    /* The winner's first move changed to another legal move: it leads
     * elsewhere than its target node. */
    char *changed = malloc(len + 16);
    if (changed == NULL) {
        exit(2);
    }
    memcpy(changed, text, len + 1);
    char *move = strstr(changed, "\nmove ");
    CHECK(move != NULL);
    if (move != NULL) {
        char played[16] = "";
        CHECK(sscanf(move + 1, "move %15s", played) == 1);
        /* A1 or B1: placements on the empty 9x9 start, one of them not the move played. */
        const char *other = strcmp(played, "A1") == 0 ? "B1" : "A1";
        char *name = move + 6;
        size_t old = strlen(played), new_len = strlen(other);
        memmove(name + new_len, name + old, strlen(name + old) + 1);
        memcpy(name, other, new_len);
        CHECK_STATUS(check_text(changed, &checked), PHUTBALL_STATUS_INVALID_CERTIFICATE);
        CHECK_MESSAGE_HAS("node 0");
    }
    free(changed);

    /* Not a certificate at all: a parse error naming the line. */
    CHECK_STATUS(check_text("not a proof", &checked), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("line 1");
    CHECK_STATUS(check_text("phutball-proof 1\nrules\nwinner O\nnode 0 1/@/1 O\n", &checked),
                 PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_MESSAGE_HAS("missing the `end` line");
    /* The empty text (NULL with length 0 is allowed) and text that is not UTF-8. */
    CHECK_STATUS(phutball_check_proof(NULL, 0, NULL, &checked, NULL), PHUTBALL_STATUS_PARSE_ERROR);
    CHECK_STATUS(phutball_check_proof("\xff\xfe", 2, NULL, &checked, NULL), PHUTBALL_STATUS_INVALID_UTF8);
    CHECK(strcmp(phutball_status_name(PHUTBALL_STATUS_INVALID_CERTIFICATE), "invalid certificate") == 0);

    /* A cancelled token stops the check. */
    PhutballCancelToken *token = NULL;
    CHECK_OK(phutball_cancel_token_new(&token));
    CHECK_OK(phutball_cancel_token_cancel(token));
    PhutballBudget cancelled = phutball_budget_default();
    cancelled.cancel = token;
    CHECK_STATUS(phutball_check_proof(text, len, &cancelled, &checked, NULL), PHUTBALL_STATUS_CANCELLED);
    phutball_cancel_token_free(token);
    free(text);
    phutball_proof_free(proof);
}

static void test_budgets_give_unknown_results(void) {
    /* The standard board is far beyond the prover within these budgets. */
    PhutballBudget budget = phutball_budget_default();
    budget.timeout_ms = 200;
    double started = now_ms();
    PhutballProof *proof = prove(STANDARD_START, &budget);
    CHECK(now_ms() - started < 10000.0); /* generous: valgrind */
    PhutballProofSummary summary;
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == PHUTBALL_PROOF_UNKNOWN);
    CHECK(summary.stopped == PHUTBALL_STATUS_TIMED_OUT);
    CHECK(summary.plies == 0 && summary.certificate_nodes == 0);
    char line[16] = "untouched";
    size_t written = 99;
    CHECK_OK(phutball_proof_line(proof, line, sizeof line, &written));
    CHECK(written == 0 && line[0] == '\0');
    CHECK_STATUS(phutball_proof_certificate(proof, line, sizeof line, &written), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("no certificate");
    phutball_proof_free(proof);

    /* The work limit counts the prover's nodes. */
    budget = phutball_budget_default();
    budget.work_limit = 100;
    proof = prove(STANDARD_START, &budget);
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == PHUTBALL_PROOF_UNKNOWN);
    CHECK(summary.stopped == PHUTBALL_STATUS_WORK_LIMIT);
    CHECK(summary.nodes <= 100);
    phutball_proof_free(proof);

    /* A memory limit too small for the 9x9 start's certificate (473 nodes
       since relevance zones: 256 KiB, of which the certificate gets half). */
    budget = phutball_budget_default();
    budget.memory_limit = 1u << 18;
    budget.timeout_ms = 60000;
    proof = prove("9/9/9/9/4@4/9/9/9/9 O", &budget);
    CHECK_OK(phutball_proof_summary(proof, &summary));
    CHECK(summary.result == PHUTBALL_PROOF_UNKNOWN);
    CHECK(summary.stopped == PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    phutball_proof_free(proof);

    /* A cancel is the one limit that fails the call: nothing is written. */
    PhutballCancelToken *token = NULL;
    CHECK_OK(phutball_cancel_token_new(&token));
    CHECK_OK(phutball_cancel_token_cancel(token));
    budget = phutball_budget_default();
    budget.cancel = token;
    PhutballPosition *start = parse(STANDARD_START);
    proof = NULL;
    CHECK_STATUS(phutball_prove_within(start, &budget, &proof), PHUTBALL_STATUS_CANCELLED);
    CHECK(proof == NULL);
    phutball_position_free(start);
    phutball_cancel_token_free(token);
}

static void test_bad_arguments_give_statuses(void) {
    PhutballProof *proof = NULL;
    PhutballPosition *tiny = parse(TINY);
    CHECK_STATUS(phutball_prove_within(NULL, NULL, &proof), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_MESSAGE_HAS("pos must not be NULL");
    CHECK_STATUS(phutball_prove_within(tiny, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK(proof == NULL);
    PhutballProofSummary summary;
    char buf[8];
    size_t written = 0;
    CHECK_STATUS(phutball_proof_summary(NULL, &summary), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_proof_line(NULL, buf, sizeof buf, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_proof_certificate(NULL, buf, sizeof buf, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_OK(phutball_prove_within(tiny, NULL, &proof));
    CHECK_STATUS(phutball_proof_summary(proof, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_proof_line(proof, buf, sizeof buf, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_proof_line(proof, NULL, 8, &written), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_proof_certificate(proof, buf, sizeof buf, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_proof_free(proof);
    phutball_proof_free(NULL);

    PhutballCheckedProof checked;
    CHECK_STATUS(phutball_check_proof("x", 1, NULL, NULL, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(phutball_check_proof(NULL, 5, NULL, &checked, NULL), PHUTBALL_STATUS_NULL_ARGUMENT);

    /* A finished position has nothing to prove. */
    PhutballPosition *finished = parse("@/1/1 X");
    proof = NULL;
    CHECK_STATUS(phutball_prove_within(finished, NULL, &proof), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("nothing to prove");
    CHECK(proof == NULL);
    phutball_position_free(finished);
    phutball_position_free(tiny);
}

static void test_jobs_prove_the_same_winner_with_a_checked_certificate(void) {
    PhutballPosition *start = parse("5/5/2@2/5/5 O"); /* the 5x5 start: 25 points, searched */
    for (uint32_t jobs = 1; jobs <= 2; jobs++) {
        PhutballProof *proof = NULL;
        CHECK_OK(phutball_prove_with_jobs_within(start, jobs, NULL, &proof));
        PhutballProofSummary summary;
        CHECK_OK(phutball_proof_summary(proof, &summary));
        CHECK(summary.result == PHUTBALL_PROOF_WIN);
        CHECK(!summary.exact);
        size_t len = 0;
        char *text = certificate_text(proof, &len);
        PhutballCheckedProof checked = {0};
        CHECK_OK(phutball_check_proof(text, len, NULL, &checked, NULL));
        CHECK(checked.winner == PHUTBALL_SIDE_OHS);
        CHECK(checked.plies == summary.plies);
        free(text);
        phutball_proof_free(proof);
    }
    PhutballProof *proof = NULL;
    CHECK_STATUS(phutball_prove_with_jobs_within(start, 5000, NULL, &proof), PHUTBALL_STATUS_INVALID_ARGUMENT);
    CHECK_MESSAGE_HAS("a prove takes 1 to 1024 jobs, not 5000");
    CHECK(proof == NULL);
    CHECK_STATUS(phutball_prove_with_jobs_within(NULL, 1, NULL, &proof), PHUTBALL_STATUS_NULL_ARGUMENT);
    phutball_position_free(start);
}

int main(void) {
    test_a_win_on_the_1x3_board();
    test_a_loss_on_the_1x3_board();
    test_mutated_certificates_are_invalid();
    test_budgets_give_unknown_results();
    test_bad_arguments_give_statuses();
    test_jobs_prove_the_same_winner_with_a_checked_certificate();
    return check_summary("test_solver");
}
