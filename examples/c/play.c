/* play: a short game through the C API. Ohs lines up men on the H file while
 * Eks places men out of the way on the A file, then Ohs finds the scoring jump
 * and plays it. Prints each move, the final board and the game record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phutball.h"

/* Stops the program with the last error message when a call fails. */
static void check(PhutballStatus status, const char *doing) {
    if (status == PHUTBALL_STATUS_OK) {
        return;
    }
    char message[1024];
    size_t written = 0;
    if (phutball_last_error_message(message, sizeof message, &written) != PHUTBALL_STATUS_OK) {
        strcpy(message, "(the message is too long to show)");
    }
    fprintf(stderr, "play: %s: %s (%s)\n", doing, message, phutball_status_name(status));
    exit(1);
}

/* Returns text a function writes with the buffer convention, in a malloc'd
 * string the caller frees: ask for the size, then fetch. */
typedef PhutballStatus (*text_of_game)(const PhutballGame *, char *, size_t, size_t *);
static char *game_text(const PhutballGame *game, text_of_game function) {
    size_t needed = 0;
    PhutballStatus status = function(game, NULL, 0, &needed);
    if (status != PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
        check(status, "asking for a size");
    }
    char *text = malloc(needed + 1);
    if (text == NULL) {
        fprintf(stderr, "play: out of memory\n");
        exit(1);
    }
    check(function(game, text, needed + 1, &needed), "writing text");
    return text;
}

int main(void) {
    static const char *const opening[] = {"H11", "A1", "H13", "A2", "H15", "A3", "H17", "A4", "H19", "A5"};
    PhutballPosition *start = NULL;
    PhutballGame *game = NULL;
    check(phutball_position_standard(&start), "making the start position");
    check(phutball_game_new(start, &game), "starting a game");
    phutball_position_free(start); /* the game keeps its own copy */

    for (size_t i = 0; i < sizeof opening / sizeof opening[0]; i++) {
        check(phutball_game_push(game, opening[i]), "playing a move");
        printf("%zu. %s\n", i + 1, opening[i]);
    }

    PhutballPosition *now = NULL;
    check(phutball_game_position(game, &now), "reading the position");
    bool found = false;
    char jump[256];
    size_t written = 0;
    check(phutball_position_scoring_jump(now, &found, jump, sizeof jump, &written), "looking for a goal");
    phutball_position_free(now);
    if (!found) {
        fprintf(stderr, "play: Ohs cannot score, but this game was built so that it can\n");
        return 1;
    }
    check(phutball_game_push(game, jump), "playing the scoring jump");
    printf("%zu. %s\n", sizeof opening / sizeof opening[0] + 1, jump);

    PhutballGameResult result = PHUTBALL_RESULT_ONGOING;
    check(phutball_game_result(game, &result), "reading the result");
    printf("result: %s\n", result == PHUTBALL_RESULT_OHS_WON   ? "Ohs wins"
                           : result == PHUTBALL_RESULT_EKS_WON ? "Eks wins"
                           : result == PHUTBALL_RESULT_DRAW    ? "draw"
                                                               : "ongoing");

    check(phutball_game_position(game, &now), "reading the position");
    size_t needed = 0;
    PhutballStatus status = phutball_position_diagram(now, NULL, 0, &needed);
    if (status != PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
        check(status, "sizing the diagram");
    }
    char *diagram = malloc(needed + 1);
    if (diagram == NULL) {
        return 1;
    }
    check(phutball_position_diagram(now, diagram, needed + 1, &needed), "drawing the board");
    fputs(diagram, stdout);
    free(diagram);
    phutball_position_free(now);

    char *record = game_text(game, phutball_game_to_string);
    printf("record:\n%s", record);
    free(record);
    phutball_game_free(game);
    return result == PHUTBALL_RESULT_OHS_WON ? 0 : 1;
}
