/* jumps: print every legal jump move of a position, one per line, in path
 * notation, through the C API only.
 *
 *   jumps POSITION [--outcomes] [--continue-off-board] [--timeout MS]
 *
 * --outcomes prints one jump per distinct resulting position instead of every
 * path; --continue-off-board lets the ball jump on from the off-board strips;
 * --timeout MS gives up after MS milliseconds (dense boards have millions of
 * paths). Exits 1 with the library's error message on stderr for a bad
 * position, 3 when the timeout passed (the jumps printed so far stay). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phutball.h"

/* Prints what the last failing call said, prefixed by what we were doing. */
static void report_error(const char *doing) {
    char message[1024];
    size_t written = 0;
    if (phutball_last_error_message(message, sizeof message, &written) != PHUTBALL_STATUS_OK) {
        strcpy(message, "(the message is too long to show)");
    }
    fprintf(stderr, "jumps: %s: %s\n", doing, message);
}

/* The visitor's state: a growable text buffer and the first error. */
struct printer {
    char *text;
    size_t capacity;
    PhutballStatus status;
};

static bool print_path(void *user_data, const PhutballPoint *path, size_t len) {
    struct printer *printer = user_data;
    size_t written = 0;
    PhutballStatus status = phutball_path_to_string(path, len, printer->text, printer->capacity, &written);
    if (status == PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
        char *bigger = realloc(printer->text, written + 1);
        if (bigger == NULL) {
            fprintf(stderr, "jumps: out of memory\n");
            exit(1);
        }
        printer->text = bigger;
        printer->capacity = written + 1;
        status = phutball_path_to_string(path, len, printer->text, printer->capacity, &written);
    }
    if (status != PHUTBALL_STATUS_OK) {
        printer->status = status;
        return false;
    }
    fputs(printer->text, stdout);
    fputc('\n', stdout);
    return true;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s POSITION [--outcomes] [--continue-off-board] [--timeout MS]\n", argv[0]);
        return 2;
    }
    bool outcomes = false;
    PhutballRules rules = phutball_rules_default();
    PhutballBudget budget = phutball_budget_default(); /* no timeout, 256 MiB of memory */
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--outcomes") == 0) {
            outcomes = true;
        } else if (strcmp(argv[i], "--continue-off-board") == 0) {
            rules.continue_off_board = true;
        } else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            char *end = NULL;
            unsigned long long ms = strtoull(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || ms == 0) {
                fprintf(stderr, "jumps: --timeout wants a positive number of milliseconds, not %s\n", argv[i]);
                return 2;
            }
            budget.timeout_ms = ms;
        } else {
            fprintf(stderr, "jumps: unknown option %s\n", argv[i]);
            return 2;
        }
    }

    PhutballPosition *position = NULL;
    if (phutball_position_parse(argv[1], &rules, &position) != PHUTBALL_STATUS_OK) {
        report_error("bad position");
        return 1;
    }

    struct printer printer = {malloc(64), 64, PHUTBALL_STATUS_OK};
    if (printer.text == NULL) {
        fprintf(stderr, "jumps: out of memory\n");
        phutball_position_free(position);
        return 1;
    }
    PhutballStatus status = outcomes
        ? phutball_position_for_each_jump_outcome_within(position, &budget, print_path, &printer, NULL)
        : phutball_position_for_each_jump_path_within(position, &budget, print_path, &printer, NULL);
    int exit_code = 0;
    if (status == PHUTBALL_STATUS_TIMED_OUT) {
        report_error("gave up");
        exit_code = 3;
    } else if (status != PHUTBALL_STATUS_OK) {
        report_error("cannot list the jumps");
        exit_code = 1;
    } else if (printer.status != PHUTBALL_STATUS_OK) {
        report_error("cannot write a path");
        exit_code = 1;
    }
    free(printer.text);
    phutball_position_free(position);
    if (fflush(stdout) != 0) {
        perror("jumps: writing the output");
        exit_code = 1;
    }
    return exit_code;
}
