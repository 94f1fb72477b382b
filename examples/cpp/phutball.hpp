// phutball.hpp: small C++17 RAII wrappers over the C API of include/phutball.h,
// written for the examples and tests (not part of the library). Handles free
// themselves; a failing call throws phutball::Error with the status and the
// library's message; visitors are lambdas, and an exception thrown by one stops
// the walk and is rethrown once the library has returned (it never crosses C frames).
// Long calls take an optional `const PhutballBudget *` (nullptr: the defaults);
// a CancelToken may be cancelled from any thread while another one searches.
#ifndef PHUTBALL_EXAMPLES_PHUTBALL_HPP
#define PHUTBALL_EXAMPLES_PHUTBALL_HPP

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "phutball.h"

namespace phutball {

// A failed call: its status code and the library's message.
class Error : public std::runtime_error {
public:
    Error(PhutballStatus status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    PhutballStatus status() const noexcept { return status_; }

private:
    PhutballStatus status_;
};

// Reads text written with the buffer convention: ask for the size, then fetch.
template <class Write> std::string read_text(Write write);

inline std::string last_error_message() {
    std::size_t needed = 0;
    if (phutball_last_error_message(nullptr, 0, &needed) != PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
        return std::string();
    }
    std::vector<char> text(needed + 1);
    if (phutball_last_error_message(text.data(), text.size(), &needed) != PHUTBALL_STATUS_OK) {
        return "(the message could not be read)";
    }
    return std::string(text.data(), needed);
}

inline void check(PhutballStatus status) {
    if (status != PHUTBALL_STATUS_OK) {
        throw Error(status, last_error_message());
    }
}

template <class Write> std::string read_text(Write write) {
    std::size_t needed = 0;
    PhutballStatus status = write(nullptr, 0, &needed);
    if (status != PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
        check(status);
    }
    std::vector<char> text(needed + 1);
    check(write(text.data(), text.size(), &needed));
    return std::string(text.data(), needed);
}

inline std::string to_string(PhutballPoint point) {
    return read_text([&](char *buf, std::size_t len, std::size_t *written) {
        return phutball_point_to_string(point, buf, len, written);
    });
}

inline std::string path_to_string(const std::vector<PhutballPoint> &path) {
    return read_text([&](char *buf, std::size_t len, std::size_t *written) {
        return phutball_path_to_string(path.data(), path.size(), buf, len, written);
    });
}

// A cancel token (not copyable: the library holds on to it during calls).
// Put get() in PhutballBudget::cancel; cancel() from any thread. It must
// outlive every call it was given to.
class CancelToken {
public:
    CancelToken() {
        PhutballCancelToken *raw = nullptr;
        check(phutball_cancel_token_new(&raw));
        handle_.reset(raw);
    }
    CancelToken(const CancelToken &) = delete;
    CancelToken &operator=(const CancelToken &) = delete;

    void cancel() const { check(phutball_cancel_token_cancel(get())); }
    void reset() const { check(phutball_cancel_token_reset(get())); }
    bool is_cancelled() const {
        bool cancelled = false;
        check(phutball_cancel_token_is_cancelled(get(), &cancelled));
        return cancelled;
    }
    const PhutballCancelToken *get() const noexcept { return handle_.get(); }

private:
    struct Free {
        void operator()(PhutballCancelToken *t) const noexcept { phutball_cancel_token_free(t); }
    };
    std::unique_ptr<PhutballCancelToken, Free> handle_;
};

class Position {
public:
    static Position standard() {
        PhutballPosition *raw = nullptr;
        check(phutball_position_standard(&raw));
        return Position(raw);
    }

    static Position parse(const std::string &text, const PhutballRules *rules = nullptr) {
        PhutballPosition *raw = nullptr;
        check(phutball_position_parse(text.c_str(), rules, &raw));
        return Position(raw);
    }

    Position(const Position &other) : handle_(clone(other.handle_.get())) {}
    Position &operator=(const Position &other) {
        if (this != &other) {
            handle_.reset(clone(other.handle_.get()));
        }
        return *this;
    }
    Position(Position &&) noexcept = default;
    Position &operator=(Position &&) noexcept = default;

    std::string to_string() const {
        return read_text([&](char *buf, std::size_t len, std::size_t *written) {
            return phutball_position_to_string(get(), buf, len, written);
        });
    }

    PhutballPoint ball() const {
        PhutballPoint point{};
        check(phutball_position_ball(get(), &point));
        return point;
    }

    PhutballSide to_move() const {
        PhutballSide side = PHUTBALL_SIDE_NONE;
        check(phutball_position_to_move(get(), &side));
        return side;
    }

    PhutballSide winner() const {
        PhutballSide side = PHUTBALL_SIDE_NONE;
        check(phutball_position_winner(get(), &side));
        return side;
    }

    std::vector<PhutballPoint> men() const {
        std::size_t count = 0;
        PhutballStatus status = phutball_position_men(get(), nullptr, 0, &count);
        if (status != PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
            check(status);
        }
        std::vector<PhutballPoint> points(count);
        check(phutball_position_men(get(), points.data(), points.size(), &count));
        return points;
    }

    bool is_legal(const std::string &move) const {
        bool legal = false;
        check(phutball_position_is_legal(get(), move.c_str(), &legal));
        return legal;
    }

    void play(const std::string &move) { check(phutball_position_play(get(), move.c_str())); }

    std::uint64_t count_jump_paths() const {
        std::uint64_t n = 0;
        check(phutball_position_count_jump_paths(get(), &n));
        return n;
    }

    std::uint64_t count_jump_paths(const PhutballBudget *budget) const {
        std::uint64_t n = 0;
        check(phutball_position_count_jump_paths_within(get(), budget, &n));
        return n;
    }

    // Every legal move in notation: placements, then one jump per distinct outcome.
    std::vector<std::string> legal_moves(const PhutballBudget *budget = nullptr) const {
        PhutballMoveList *raw = nullptr;
        check(phutball_position_legal_moves_within(get(), budget, &raw));
        std::unique_ptr<PhutballMoveList, void (*)(PhutballMoveList *)> list(raw, phutball_move_list_free);
        std::size_t len = 0;
        check(phutball_move_list_len(list.get(), &len));
        std::vector<std::string> moves;
        moves.reserve(len);
        for (std::size_t i = 0; i < len; i++) {
            moves.push_back(read_text([&](char *buf, std::size_t buf_len, std::size_t *written) {
                return phutball_move_list_get(list.get(), i, buf, buf_len, written);
            }));
        }
        return moves;
    }

    std::uint64_t count_jump_outcomes() const {
        std::uint64_t n = 0;
        check(phutball_position_count_jump_outcomes(get(), &n));
        return n;
    }

    bool can_score() const {
        bool can = false;
        check(phutball_position_can_score(get(), &can));
        return can;
    }

    bool can_score(const PhutballBudget *budget) const {
        bool can = false;
        check(phutball_position_can_score_within(get(), budget, &can));
        return can;
    }

    // Visits every jump path (or one per distinct outcome) until `visit` returns
    // false. Returns whether the visitor stopped the walk.
    using Visitor = std::function<bool(const std::vector<PhutballPoint> &)>;
    bool for_each_jump_path(const Visitor &visit) const { return walk(phutball_position_for_each_jump_path, visit); }
    bool for_each_jump_outcome(const Visitor &visit) const {
        return walk(phutball_position_for_each_jump_outcome, visit);
    }

    const PhutballPosition *get() const noexcept { return handle_.get(); }
    PhutballPosition *get() noexcept { return handle_.get(); }

private:
    struct Free {
        void operator()(PhutballPosition *p) const noexcept { phutball_position_free(p); }
    };

    explicit Position(PhutballPosition *raw) : handle_(raw) {}

    static PhutballPosition *clone(const PhutballPosition *from) {
        PhutballPosition *raw = nullptr;
        check(phutball_position_clone(from, &raw));
        return raw;
    }

    struct WalkState {
        const Visitor *visit;
        std::vector<PhutballPoint> path;
        std::exception_ptr error;
    };

    static bool trampoline(void *user_data, const PhutballPoint *points, std::size_t len) {
        auto *state = static_cast<WalkState *>(user_data);
        try {
            state->path.assign(points, points + len);
            return (*state->visit)(state->path);
        } catch (...) {
            state->error = std::current_exception();
            return false;
        }
    }

    using WalkFunction = PhutballStatus (*)(const PhutballPosition *, PhutballPathVisitor, void *, bool *);
    bool walk(WalkFunction function, const Visitor &visit) const {
        WalkState state{&visit, {}, nullptr};
        bool stopped = false;
        PhutballStatus status = function(get(), trampoline, &state, &stopped);
        if (state.error) {
            std::rethrow_exception(state.error);
        }
        check(status);
        return stopped;
    }

    std::unique_ptr<PhutballPosition, Free> handle_;
};

class Game {
public:
    explicit Game(const Position &start) {
        PhutballGame *raw = nullptr;
        check(phutball_game_new(start.get(), &raw));
        handle_.reset(raw);
    }

    static Game parse(const std::string &record) {
        PhutballGame *raw = nullptr;
        check(phutball_game_parse(record.c_str(), &raw));
        return Game(raw);
    }

    void push(const std::string &move) { check(phutball_game_push(handle_.get(), move.c_str())); }

    bool pop() {
        bool popped = false;
        check(phutball_game_pop(handle_.get(), &popped));
        return popped;
    }

    PhutballGameResult result() const {
        PhutballGameResult result = PHUTBALL_RESULT_ONGOING;
        check(phutball_game_result(handle_.get(), &result));
        return result;
    }

    std::string record() const {
        return read_text([&](char *buf, std::size_t len, std::size_t *written) {
            return phutball_game_to_string(handle_.get(), buf, len, written);
        });
    }

private:
    struct Free {
        void operator()(PhutballGame *g) const noexcept { phutball_game_free(g); }
    };
    explicit Game(PhutballGame *raw) : handle_(raw) {}
    std::unique_ptr<PhutballGame, Free> handle_;
};

// A learned evaluation (docs/network.md): from a weights file's bytes, or
// the network built into the library. Move-only: the handle is freed with
// the object; an engine given the network keeps its own reference.
class Network {
public:
    static Network from_bytes(const std::vector<std::uint8_t> &bytes) {
        PhutballNetwork *raw = nullptr;
        check(phutball_network_from_bytes(bytes.data(), bytes.size(), &raw));
        return Network(raw);
    }

    // The standard 15x19 board's network, built into the library.
    static Network built_in() {
        PhutballNetwork *raw = nullptr;
        check(phutball_network_built_in(&raw));
        return Network(raw);
    }

    bool serves(std::uint8_t cols, std::uint8_t rows) const {
        bool serves = false;
        check(phutball_network_serves(get(), cols, rows, &serves));
        return serves;
    }

    // Its value of `pos` for the side to move, in hundredths of a row.
    std::int32_t evaluate(const Position &pos) const {
        std::int32_t value = 0;
        check(phutball_network_evaluate(get(), pos.get(), &value));
        return value;
    }

    std::vector<std::uint8_t> to_bytes() const {
        std::size_t count = 0;
        PhutballStatus status = phutball_network_to_bytes(get(), nullptr, 0, &count);
        if (status != PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
            check(status);
        }
        std::vector<std::uint8_t> bytes(count);
        check(phutball_network_to_bytes(get(), bytes.data(), bytes.size(), &count));
        return bytes;
    }

    const PhutballNetwork *get() const noexcept { return handle_.get(); }

private:
    struct Free {
        void operator()(PhutballNetwork *n) const noexcept { phutball_network_free(n); }
    };
    explicit Network(PhutballNetwork *raw) : handle_(raw) {}
    std::unique_ptr<PhutballNetwork, Free> handle_;
};

// The engine (not copyable). By default it evaluates with the built-in
// network on the standard board and the hand evaluation elsewhere
// (PHUTBALL_EVALUATION_AUTO); set_network gives it a network of one's own
// (it keeps the weights: the Network may go).
class Engine {
public:
    explicit Engine(const PhutballEngineLimits &limits = phutball_engine_limits_default(), std::uint64_t seed = 0) {
        PhutballEngine *raw = nullptr;
        check(phutball_engine_new(&limits, seed, &raw));
        handle_.reset(raw);
    }
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    void set_network(const Network &network) { check(phutball_engine_set_network(handle_.get(), network.get())); }
    void use_hand_evaluation() { check(phutball_engine_set_evaluation(handle_.get(), PHUTBALL_EVALUATION_HAND)); }
    void use_default_evaluation() { check(phutball_engine_set_evaluation(handle_.get(), PHUTBALL_EVALUATION_AUTO)); }
    // PHUTBALL_EVALUATION_AUTO, _HAND or _NET.
    PhutballEvaluation evaluation() const {
        PhutballEvaluation kind = PHUTBALL_EVALUATION_AUTO;
        check(phutball_engine_evaluation(handle_.get(), &kind));
        return kind;
    }

    // The engine's move in notation. One search: a buffer that a long jump
    // path outgrows is grown and the search run again (read_text's size
    // query would search twice every time).
    std::string best_move(const Position &pos) const {
        std::vector<char> text(256);
        std::size_t written = 0;
        PhutballStatus status = phutball_engine_best_move(handle_.get(), pos.get(), text.data(), text.size(), &written);
        if (status == PHUTBALL_STATUS_BUFFER_TOO_SMALL) {
            text.resize(written + 1);
            status = phutball_engine_best_move(handle_.get(), pos.get(), text.data(), text.size(), &written);
        }
        check(status);
        return std::string(text.data(), written);
    }

private:
    struct Free {
        void operator()(PhutballEngine *e) const noexcept { phutball_engine_free(e); }
    };
    std::unique_ptr<PhutballEngine, Free> handle_;
};

} // namespace phutball

#endif
