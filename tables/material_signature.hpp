// Material signatures: how many men and kings each side has, seen from the
// side to move. A table holds the positions of one signature with that side
// to move; a position with the other side to move is looked up in the mirror
// signature after flipping the board (see flip() in position_index.hpp).
//
// Names: the side to move's pieces, 'v', the other side's; kings (K) before
// men (M). "KKKvK" is three kings to move against a lone king, "KMvK" a king
// and a man against a king, "MvKM" a man to move against a king and a man.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace dtb {

struct MaterialSignature {
    // [0] the side to move, [1] the other side.
    int men[2] = {0, 0};
    int kings[2] = {0, 0};

    int pieces(int side) const { return men[side] + kings[side]; }
    int total() const { return pieces(0) + pieces(1); }
    int total_men() const { return men[0] + men[1]; }

    MaterialSignature mirror() const { return {{men[1], men[0]}, {kings[1], kings[0]}}; }
    bool is_symmetric() const { return men[0] == men[1] && kings[0] == kings[1]; }

    std::string name() const {
        std::string s;
        for (int side = 0; side < 2; ++side) {
            if (side == 1) s += 'v';
            s.append(kings[side], 'K');
            s.append(men[side], 'M');
        }
        return s;
    }

    static std::optional<MaterialSignature> parse(std::string_view name) {
        MaterialSignature sig;
        int side = 0;
        for (char c : name) {
            if (c == 'v' || c == 'V') {
                if (side == 1) return std::nullopt;
                side = 1;
            } else if (c == 'K' || c == 'k') {
                if (sig.men[side] > 0) return std::nullopt;  // kings come first
                ++sig.kings[side];
            } else if (c == 'M' || c == 'm') {
                ++sig.men[side];
            } else {
                return std::nullopt;
            }
        }
        if (side != 1 || sig.pieces(0) == 0 || sig.pieces(1) == 0) return std::nullopt;
        return sig;
    }

    friend auto operator<=>(const MaterialSignature&, const MaterialSignature&) = default;
    friend bool operator==(const MaterialSignature&, const MaterialSignature&) = default;
};

}  // namespace dtb
