#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>

#include "rules/position.hpp"

namespace dtb {

// Fixed-capacity list of moves: no allocation on the hot path. The capacity
// is far above any position seen in play; exceeding it throws rather than
// writing past the end.
class MoveList {
public:
    static constexpr std::size_t capacity = 1024;

    void push(const Move& m) {
        if (size_ == capacity) [[unlikely]]
            overflow();
        moves_[size_++] = m;
    }
    void clear() { size_ = 0; }
    void resize_down(std::size_t n) { size_ = n; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Move& operator[](std::size_t i) const { return moves_[i]; }
    Move& operator[](std::size_t i) { return moves_[i]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }

private:
    // Out of line, so that push stays small enough to be inlined into the
    // capture search, which calls it for every route.
    [[noreturn, gnu::cold, gnu::noinline]] static void overflow() { throw std::length_error("move list overflow"); }

    std::array<Move, capacity> moves_;
    std::size_t size_ = 0;
};

}  // namespace dtb
