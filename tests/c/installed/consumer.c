/* consumer: a program of a user of the installed library, built by
 * tests/c/run.sh outside the build tree with pkg-config and with CMake's
 * find_package. It checks that the header's PHUTBALL_VERSION_* macros name
 * the library loaded at run time (phutball_version()), and that the library
 * works: the seeds' worked example has 3 jump paths. Prints
 * "phutball VERSION: 3 jump paths" and exits 0, or says what is wrong and
 * exits 1. C99. */
#include <stdio.h>
#include <string.h>

#include <phutball.h>

#define STRINGIFY(x) #x
#define VERSION_TEXT(major, minor, patch) STRINGIFY(major) "." STRINGIFY(minor) "." STRINGIFY(patch)

int main(void) {
    const char *header_version =
        VERSION_TEXT(PHUTBALL_VERSION_MAJOR, PHUTBALL_VERSION_MINOR, PHUTBALL_VERSION_PATCH);
    const char *library_version = phutball_version();
    PhutballPosition *pos = NULL;
    uint64_t paths = 0;
    if (strcmp(header_version, library_version) != 0) {
        fprintf(stderr, "consumer: header %s, library %s\n", header_version, library_version);
        return 1;
    }
    if (phutball_position_parse("15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O", NULL, &pos) !=
            PHUTBALL_STATUS_OK ||
        phutball_position_count_jump_paths(pos, &paths) != PHUTBALL_STATUS_OK) {
        fprintf(stderr, "consumer: the worked example failed\n");
        phutball_position_free(pos);
        return 1;
    }
    phutball_position_free(pos);
    printf("phutball %s: %llu jump paths\n", library_version, (unsigned long long)paths);
    return paths == 3 ? 0 : 1;
}
