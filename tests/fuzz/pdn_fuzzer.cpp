// Fuzz target: read_pdn_games on arbitrary text, read as both variants.
// Games that read must be consistent (each ply legal in the position before
// it, the positions chained by the moves), must be writable, and must read
// back from what write_pdn_games writes as the same games.
#include <algorithm>

#include "rules/pdn.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace dtb {
namespace {

template <class V>
void check_game(const PdnGame<V>& game) {
    Position<V> pos = game.start;
    for (const PdnPly<V>& ply : game.plies) {
        fuzz::check(ply.before == pos, "each ply's position is the one the moves before it lead to");
        MoveList legal;
        MoveGenerator<V>::generate(pos, legal);
        fuzz::check(std::find(legal.begin(), legal.end(), ply.move) != legal.end(), "each ply is a legal move",
                    to_fen(pos) + " " + ply.text);
        pos = pos.after(ply.move);
    }
    fuzz::check(pos == game.final_position(), "final_position() is where the moves lead");
}

template <class V>
bool same_games(const std::vector<PdnGame<V>>& a, const std::vector<PdnGame<V>>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t g = 0; g < a.size(); ++g) {
        if (!(a[g].start == b[g].start) || a[g].result != b[g].result || a[g].plies.size() != b[g].plies.size())
            return false;
        for (std::size_t i = 0; i < a[g].plies.size(); ++i) {
            const PdnPly<V>& x = a[g].plies[i];
            const PdnPly<V>& y = b[g].plies[i];
            if (!(x.move == y.move) || x.annotation != y.annotation || x.nags != y.nags) return false;
        }
    }
    return true;
}

template <class V>
void check_pdn(std::string_view text) {
    std::vector<PdnGame<V>> games;
    try {
        games = read_pdn_games<V>(text);
    } catch (const InputError&) {
        return;
    }
    for (const PdnGame<V>& game : games) check_game(game);

    std::string written;
    std::vector<PdnGame<V>> again;
    try {
        written = write_pdn_games(games);
        again = read_pdn_games<V>(written);
    } catch (const InputError& e) {
        fuzz::check(false, "games that read can be written and read back", e.what());
    }
    fuzz::check(same_games(games, again), "write then read gives the same games", written);
    // The writer fills in what the record left out (GameType, SetUp); after
    // that its output is stable.
    fuzz::check(write_pdn_games(again) == written, "writing is stable", written);
}

}  // namespace
}  // namespace dtb

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = dtb::fuzz::as_text(data, size);
    dtb::check_pdn<dtb::Russian>(text);
    dtb::check_pdn<dtb::International>(text);
    return 0;
}
