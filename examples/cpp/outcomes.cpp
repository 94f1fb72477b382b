// outcomes: print one jump move per distinct resulting position, in path
// notation, one per line, using the C API through RAII wrappers (phutball.hpp).
//
//   outcomes POSITION [--continue-off-board]
//
// Exits 1 with the library's message on stderr for a bad position.
#include <cstring>
#include <iostream>

#include "phutball.hpp"

int main(int argc, char **argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " POSITION [--continue-off-board]\n";
        return 2;
    }
    PhutballRules rules = phutball_rules_default();
    for (int i = 2; i < argc; i++) {
        if (std::strcmp(argv[i], "--continue-off-board") == 0) {
            rules.continue_off_board = true;
        } else {
            std::cerr << "outcomes: unknown option " << argv[i] << "\n";
            return 2;
        }
    }
    try {
        const auto position = phutball::Position::parse(argv[1], &rules);
        position.for_each_jump_outcome([](const std::vector<PhutballPoint> &path) {
            std::cout << phutball::path_to_string(path) << '\n';
            return true;
        });
    } catch (const phutball::Error &e) {
        std::cerr << "outcomes: " << phutball_status_name(e.status()) << ": " << e.what() << "\n";
        return 1;
    }
    std::cout.flush();
    return std::cout ? 0 : 1;
}
