// Tests of the C API from C++17 through the RAII wrappers of
// examples/cpp/phutball.hpp: exceptions carry the status and message, copies
// are independent, and an exception thrown by a visitor stops the walk and
// reaches the caller; a search on another std::thread is cancelled through a
// CancelToken, and budgets reach the library; the built-in Network given to an
// Engine plays on the standard board and refuses a 9x9 one. Prints
// "test_cpp: N passed, M failed".
#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "check.h"
#include "phutball.hpp"

namespace {

const char *const kSeedsJump = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";

// The status of the phutball::Error that `body` throws, or PHUTBALL_STATUS_OK if none.
template <class Body> PhutballStatus status_thrown(Body body) {
    try {
        body();
    } catch (const phutball::Error &e) {
        return e.status();
    }
    return PHUTBALL_STATUS_OK;
}

void test_paths_and_copies() {
    const auto seeds = phutball::Position::parse(kSeedsJump);
    std::set<std::string> paths;
    bool stopped = seeds.for_each_jump_path([&](const std::vector<PhutballPoint> &path) {
        paths.insert(phutball::path_to_string(path));
        return true;
    });
    CHECK(!stopped);
    CHECK((paths == std::set<std::string>{"K6-G9", "K6-G9-G11", "K6-G9-G11-J11"}));
    CHECK(seeds.count_jump_outcomes() == 3);

    auto copy = seeds;
    copy.play("K6-G9-G11-J11");
    CHECK(copy.men().empty());
    CHECK(phutball::to_string(copy.ball()) == "J11");
    CHECK(copy.to_move() == PHUTBALL_SIDE_EKS);
    CHECK(seeds.men().size() == 4); // the original is untouched
    CHECK(seeds.to_string() == kSeedsJump);

    auto moved = std::move(copy);
    CHECK(phutball::to_string(moved.ball()) == "J11");
}

void test_errors_throw() {
    CHECK(status_thrown([] { phutball::Position::parse("not a position"); }) == PHUTBALL_STATUS_PARSE_ERROR);
    auto start = phutball::Position::standard();
    CHECK(status_thrown([&] { start.play("I5"); }) == PHUTBALL_STATUS_PARSE_ERROR);
    CHECK(status_thrown([&] { start.play("H10"); }) == PHUTBALL_STATUS_ILLEGAL_MOVE);
    try {
        start.play("H10-H12");
        CHECK(!"an illegal jump throws");
    } catch (const phutball::Error &e) {
        CHECK(std::string(e.what()).find("H11") != std::string::npos); // no man between H10 and H12
    }
    CHECK(start.to_string() == phutball::Position::standard().to_string());
}

void test_visitor_exception_stops_the_walk() {
    const auto seeds = phutball::Position::parse(kSeedsJump);
    int visits = 0;
    bool reached_caller = false;
    try {
        seeds.for_each_jump_path([&](const std::vector<PhutballPoint> &) -> bool {
            visits++;
            throw std::logic_error("stop here");
        });
    } catch (const std::logic_error &e) {
        reached_caller = std::string(e.what()) == "stop here";
    }
    CHECK(reached_caller);
    CHECK(visits == 1);
}

void test_game() {
    phutball::Game game(phutball::Position::standard());
    game.push("H9");
    game.push("H10-H8"); // Eks jumps the man just placed
    CHECK(game.result() == PHUTBALL_RESULT_ONGOING);
    CHECK(status_thrown([&] { game.push("H8-H6"); }) == PHUTBALL_STATUS_ILLEGAL_MOVE);
    auto copy = phutball::Game::parse(game.record());
    CHECK(copy.record() == game.record());
    CHECK(game.pop());
    CHECK(game.pop());
    CHECK(!game.pop());
    CHECK(status_thrown([] { phutball::Game::parse("H9\n"); }) == PHUTBALL_STATUS_PARSE_ERROR);
}

// A dense board with astronomically many jump paths (issue 9's first position).
const char *const kDense = "5#6#2/3##10/7#4#2/4#6#3/5#1#7/11#3/##1####1######1/#####1####1###1/"
                           "############1##/####1######1###/2###1#1###1###/#1####2#######/"
                           "###1######1##1#/#1#2####1#####/##1###2##1####/@1###1#####1###/"
                           "########1##1###/###1#######2##/######1#1####2 O";

void test_budget_and_cancel() {
    const auto dense = phutball::Position::parse(kDense);
    phutball::CancelToken token;
    PhutballBudget budget = phutball_budget_default();
    budget.cancel = token.get();
    budget.timeout_ms = 30000; // a backstop: a cancel that does not work fails, not hangs
    std::atomic<bool> started{false};
    PhutballStatus status = PHUTBALL_STATUS_OK;
    std::thread search([&] {
        started = true;
        status = status_thrown([&] { dense.count_jump_paths(&budget); });
    });
    while (!started) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    token.cancel();
    search.join();
    CHECK(status == PHUTBALL_STATUS_CANCELLED);
    CHECK(token.is_cancelled());
    token.reset();
    CHECK(!token.is_cancelled());

    PhutballBudget small = phutball_budget_default();
    small.memory_limit = 1 << 20;
    CHECK(status_thrown([&] { dense.legal_moves(&small); }) == PHUTBALL_STATUS_TOO_MANY_OUTCOMES);
    small.work_limit = 10;
    CHECK(status_thrown([&] { dense.can_score(&small); }) == PHUTBALL_STATUS_WORK_LIMIT);
    const auto seeds = phutball::Position::parse(kSeedsJump);
    CHECK(seeds.legal_moves().size() == 15 * 19 - 5 + 3); // placements, then the three outcomes
    CHECK(seeds.legal_moves(&budget).back() == "K6-G9-G11-J11");
    CHECK(!seeds.can_score(&budget));
}

void test_network_and_engine() {
    const auto start = phutball::Position::standard();
    PhutballEngineLimits limits = phutball_engine_limits_default();
    limits.depth = 1;
    phutball::Engine engine(limits, 1);
    CHECK(engine.evaluation() == PHUTBALL_EVALUATION_AUTO);
    const std::string default_move = engine.best_move(start);
    engine.use_hand_evaluation();
    CHECK(engine.evaluation() == PHUTBALL_EVALUATION_HAND);
    const std::string hand_move = engine.best_move(start);
    CHECK(start.is_legal(hand_move));
    {
        const auto network = phutball::Network::built_in();
        CHECK(network.serves(15, 19));
        CHECK(!network.serves(9, 9));
        const auto copy = phutball::Network::from_bytes(network.to_bytes());
        CHECK(copy.evaluate(start) == network.evaluate(start));
        engine.set_network(network);
    } // both handles freed here: the engine keeps the weights
    CHECK(engine.evaluation() == PHUTBALL_EVALUATION_NET);
    CHECK(engine.best_move(start) == default_move); // the default is this network on 15x19
    const auto small = phutball::Position::parse("9/9/9/9/4@4/9/9/9/9 O");
    try {
        engine.best_move(small);
        CHECK(!"a 9x9 position is refused");
    } catch (const phutball::Error &e) {
        CHECK(e.status() == PHUTBALL_STATUS_INVALID_ARGUMENT);
        CHECK(std::string(e.what()).find("the network serves 15x19, not 9x9") != std::string::npos);
    }
    engine.use_hand_evaluation();
    CHECK(small.is_legal(engine.best_move(small)));
    CHECK(engine.best_move(start) == hand_move);
    engine.use_default_evaluation();
    CHECK(engine.best_move(start) == default_move);
    CHECK(small.is_legal(engine.best_move(small))); // hand on 9x9, not refused
    // Two plies deep here the network and the hand evaluation part: the
    // default is the network's choice.
    const auto parting = phutball::Position::parse("15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X");
    PhutballEngineLimits two = phutball_engine_limits_default();
    two.depth = 2;
    phutball::Engine deeper(two, 1);
    const std::string by_default = deeper.best_move(parting);
    deeper.use_hand_evaluation();
    CHECK(deeper.best_move(parting) != by_default);
    deeper.set_network(phutball::Network::built_in());
    CHECK(deeper.best_move(parting) == by_default);
    CHECK(status_thrown([] { phutball::Network::from_bytes({1, 2, 3}); }) == PHUTBALL_STATUS_INVALID_NETWORK);
}

} // namespace

int main() {
    test_paths_and_copies();
    test_errors_throw();
    test_visitor_exception_stops_the_walk();
    test_game();
    test_budget_and_cancel();
    test_network_and_engine();
    return check_summary("test_cpp");
}
