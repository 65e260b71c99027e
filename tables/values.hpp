// How a solved value is stored: one symbol per position, the DTW in plies
// (docs/RULES.md 3.2) whose parity gives the result (even: the side to move loses, odd:
// it wins), or the draw code. Tables whose distances do not fit a byte use
// 16-bit symbols; nothing is ever clipped.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace dtb {

template <class T>
struct ValueCodec {
    static constexpr T kUnknown = std::numeric_limits<T>::max();  // only while solving
    static constexpr T kDraw = kUnknown - 1;
    static constexpr int kMaxDistance = kDraw - 1;
};

// Decoded value: a distance in plies, or kDrawValue.
inline constexpr int kDrawValue = -1;

inline bool is_win(int value) { return value >= 0 && value % 2 == 1; }
inline bool is_loss(int value) { return value >= 0 && value % 2 == 0; }

template <class T>
int decode_value(T symbol) {
    return symbol == ValueCodec<T>::kDraw ? kDrawValue : int(symbol);
}

// Thrown when a distance does not fit the symbol type; the caller solves the
// table again with wider symbols.
class DistanceOverflow : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace dtb
