// Legal move generation for every variant (docs/RULES.md section 2).
//
// Captures are compulsory. A capture is searched square by square with the
// captured pieces left on the board until the move ends (Turkish strike): they
// block, and cannot be jumped twice. The capturing piece's start square counts
// as empty. Variant rules come from the traits type V:
//   V::majority_capture       only the sequences that take the most pieces
//   V::crowns_during_capture  a man reaching the last row mid-capture goes on
//                             as a king (Russian) or stays a man (international)
#pragma once

#include <cstdint>
#include <vector>

#include "rules/move_list.hpp"
#include "rules/position.hpp"

namespace dtb {

// How capture routes that start, end and capture alike are counted.
enum class Duplicates { Drop, Keep };

// One capture route with the squares the piece stood on (for notation): the
// start, each landing square it jumped from, and the end (bit indexes).
struct CaptureRoute {
    Move move;
    std::vector<std::uint8_t> path;
};

template <class V>
class MoveGenerator {
public:
    using Board = typename V::Board;
    using Pos = Position<V>;

    // Every legal move of the side to move.
    static void generate(const Pos& pos, MoveList& moves, Duplicates duplicates = Duplicates::Drop) {
        moves.clear();
        if (pos.side_to_move == White)
            generate_for<White>(pos, moves, duplicates, nullptr);
        else
            generate_for<Black>(pos, moves, duplicates, nullptr);
    }

    // Every capture of the side to move, for a caller that has seen
    // has_capture(pos) hold (generate() would test it again).
    static void generate_captures(const Pos& pos, MoveList& moves) {
        moves.clear();
        if (pos.side_to_move == White)
            generate_captures<White>(pos, moves, Duplicates::Drop, nullptr);
        else
            generate_captures<Black>(pos, moves, Duplicates::Drop, nullptr);
    }

    // Every capture route (duplicates kept) with its landing squares; empty
    // when the side to move has no capture.
    static std::vector<CaptureRoute> capture_routes(const Pos& pos) {
        MoveList moves;
        std::vector<CaptureRoute> routes;
        if (pos.side_to_move == White)
            generate_for<White>(pos, moves, Duplicates::Keep, &routes);
        else
            generate_for<Black>(pos, moves, Duplicates::Keep, &routes);
        return routes;
    }

    static bool has_capture(const Pos& pos) {
        return pos.side_to_move == White ? has_capture_for<White>(pos) : has_capture_for<Black>(pos);
    }

    // Number of legal moves (duplicates dropped); cheap when there is no
    // capture, which makes perft's last ply a popcount.
    static int count(const Pos& pos) {
        return pos.side_to_move == White ? count_for<White>(pos) : count_for<Black>(pos);
    }

    template <Color Us>
    static bool has_capture_for(const Pos& pos) {
        const Bitboard empty = pos.empty();
        const Bitboard enemy = pos.pieces[opponent(Us)];
        const Bitboard men = pos.men(Us);
        const Bitboard kings = pos.kings_of(Us);
        return can_capture<NorthWest>(men, kings, enemy, empty) || can_capture<NorthEast>(men, kings, enemy, empty) ||
               can_capture<SouthWest>(men, kings, enemy, empty) || can_capture<SouthEast>(men, kings, enemy, empty);
    }

    template <Color Us>
    static int count_for(const Pos& pos) {
        if (has_capture_for<Us>(pos)) return count_captures<Us>(pos);
        const Bitboard empty = pos.empty();
        const Bitboard men = pos.men(Us);
        const Bitboard kings = pos.kings_of(Us);
        int n = popcount(Board::template shift<forward_left<Us>()>(men) & empty) +
                popcount(Board::template shift<forward_right<Us>()>(men) & empty);
        if (kings) {
            // Rays of different kings in one direction never overlap.
            n += popcount(Board::template slide_fill<NorthWest>(kings, empty)) +
                 popcount(Board::template slide_fill<NorthEast>(kings, empty)) +
                 popcount(Board::template slide_fill<SouthWest>(kings, empty)) +
                 popcount(Board::template slide_fill<SouthEast>(kings, empty)) - 4 * popcount(kings);
        }
        return n;
    }

    // Calls f(move) for each plain move of `pos` (which must have no
    // capture), men first, until f returns false. Returns whether f accepted
    // every move: a check that stops at the first failure need not generate
    // the rest.
    template <class F>
    static bool all_plain_moves(const Pos& pos, F&& f) {
        return pos.side_to_move == White ? all_plain_moves_for<White>(pos, f) : all_plain_moves_for<Black>(pos, f);
    }

    // The plain moves of `pos` that crown a man (only meaningful when the
    // side to move has no capture). The generator treats them apart: they
    // lead to another material signature.
    static void generate_crownings(const Pos& pos, MoveList& moves) {
        moves.clear();
        const Bitboard empty = pos.empty() & Board::promotion_row(pos.side_to_move);
        if (pos.side_to_move == White) {
            add_man_steps<forward_left<White>()>(pos.men(White), empty, Board::promotion_row(White), moves);
            add_man_steps<forward_right<White>()>(pos.men(White), empty, Board::promotion_row(White), moves);
        } else {
            add_man_steps<forward_left<Black>()>(pos.men(Black), empty, Board::promotion_row(Black), moves);
            add_man_steps<forward_right<Black>()>(pos.men(Black), empty, Board::promotion_row(Black), moves);
        }
    }

    // The plain moves of the men of `pos`, crownings included (only
    // meaningful when the side to move has no capture). The generator's
    // slices treat them apart: a man move leads to another slice.
    static void generate_man_moves(const Pos& pos, MoveList& moves) {
        moves.clear();
        const Color us = pos.side_to_move;
        const Bitboard empty = pos.empty();
        if (us == White) {
            add_man_steps<forward_left<White>()>(pos.men(White), empty, Board::promotion_row(White), moves);
            add_man_steps<forward_right<White>()>(pos.men(White), empty, Board::promotion_row(White), moves);
        } else {
            add_man_steps<forward_left<Black>()>(pos.men(Black), empty, Board::promotion_row(Black), moves);
            add_man_steps<forward_right<Black>()>(pos.men(Black), empty, Board::promotion_row(Black), moves);
        }
    }

    // How many plain moves the kings of the side to move have.
    static int count_king_moves(const Pos& pos) {
        const Bitboard kings = pos.kings_of(pos.side_to_move);
        if (!kings) return 0;
        const Bitboard empty = pos.empty();
        // Rays of different kings in one direction never overlap.
        return popcount(Board::template slide_fill<NorthWest>(kings, empty)) +
               popcount(Board::template slide_fill<NorthEast>(kings, empty)) +
               popcount(Board::template slide_fill<SouthWest>(kings, empty)) +
               popcount(Board::template slide_fill<SouthEast>(kings, empty)) - 4 * popcount(kings);
    }

    // Calls f(from, to) for each plain king move of the side to move until
    // f returns false; returns whether f accepted every move.
    template <class F>
    static bool all_king_moves(const Pos& pos, F&& f) {
        const Bitboard empty = pos.empty();
        for (int from : bits_of{pos.kings_of(pos.side_to_move)})
            for (Direction d : kAllDirections)
                for (Bitboard to = Board::shift(bit(from), d); to & empty; to = Board::shift(to, d))
                    if (!f(from, to)) return false;
        return true;
    }

    template <Color Us>
    static constexpr Direction forward_left() {
        return Us == White ? NorthWest : SouthWest;
    }
    template <Color Us>
    static constexpr Direction forward_right() {
        return Us == White ? NorthEast : SouthEast;
    }

private:
    // The number of captures (duplicates dropped). The men's single jumps,
    // the common case at perft's last ply, are counted for all the men at
    // once; only the men that could go on after their first jump, and the
    // kings, are searched.
    template <Color Us>
    static int count_captures(const Pos& pos) {
        const Bitboard empty = pos.empty();
        const Bitboard enemy = pos.pieces[opponent(Us)];
        const Bitboard men = pos.men(Us);
        // Squares from which a man could jump on in each direction.
        const Bitboard on_nw = jumps_from<NorthWest>(enemy, empty);
        const Bitboard on_ne = jumps_from<NorthEast>(enemy, empty);
        const Bitboard on_sw = jumps_from<SouthWest>(enemy, empty);
        const Bitboard on_se = jumps_from<SouthEast>(enemy, empty);
        // From its landing square a man cannot jump back over the piece it
        // took, and no other jump lands on its start square, so the squares
        // as they stand tell whether it could go on. A man crowned on
        // landing (Russian) may go on as a king: it is searched.
        constexpr Bitboard crowned = V::crowns_during_capture ? Board::promotion_row(Us) : 0;
        const Bitboard land_nw = landings<NorthWest>(men, enemy, empty);
        const Bitboard land_ne = landings<NorthEast>(men, enemy, empty);
        const Bitboard land_sw = landings<SouthWest>(men, enemy, empty);
        const Bitboard land_se = landings<SouthEast>(men, enemy, empty);
        const Bitboard searched = pos.kings_of(Us) | back_two<NorthWest>(land_nw & (on_nw | on_ne | on_sw | crowned)) |
                                  back_two<NorthEast>(land_ne & (on_nw | on_ne | on_se | crowned)) |
                                  back_two<SouthWest>(land_sw & (on_nw | on_sw | on_se | crowned)) |
                                  back_two<SouthEast>(land_se & (on_ne | on_sw | on_se | crowned));
        int n = 0;
        int most_taken = 0;
        if (searched) {
            MoveList moves;
            generate_captures<Us>(pos, moves, Duplicates::Drop, nullptr, searched);
            n = static_cast<int>(moves.size());
            if (n) most_taken = popcount(moves[0].captured);
        }
        // Under the majority rule a route that takes more than one piece
        // outweighs every single jump.
        if (V::majority_capture && most_taken > 1) return n;
        return n + single_jumps(men & ~searched, enemy, empty);
    }

    // How many single jumps `men` have. A jump is fixed by its start and
    // direction: no two coincide.
    static int single_jumps(Bitboard men, Bitboard enemy, Bitboard empty) {
        return popcount(landings<NorthWest>(men, enemy, empty)) + popcount(landings<NorthEast>(men, enemy, empty)) +
               popcount(landings<SouthWest>(men, enemy, empty)) + popcount(landings<SouthEast>(men, enemy, empty));
    }

    // Where a man could jump to in direction D.
    template <Direction D>
    static Bitboard landings(Bitboard men, Bitboard enemy, Bitboard empty) {
        return Board::template shift<D>(Board::template shift<D>(men) & enemy) & empty;
    }

    // The squares from which a man could jump in direction D.
    template <Direction D>
    static Bitboard jumps_from(Bitboard enemy, Bitboard empty) {
        constexpr Direction back = opposite(D);
        return Board::template shift<back>(Board::template shift<back>(empty) & enemy);
    }

    // The squares two steps back from `b` along direction D.
    template <Direction D>
    static Bitboard back_two(Bitboard b) {
        constexpr Direction back = opposite(D);
        return Board::template shift<back>(Board::template shift<back>(b));
    }

    template <Direction D>
    static bool can_capture(Bitboard men, Bitboard kings, Bitboard enemy, Bitboard empty) {
        Bitboard attackers = men;
        if (kings) attackers |= Board::template slide_fill<D>(kings, empty);
        return landings<D>(attackers, enemy, empty) != 0;
    }

    template <Color Us>
    static void generate_for(const Pos& pos, MoveList& moves, Duplicates duplicates,
                             std::vector<CaptureRoute>* routes) {
        if (has_capture_for<Us>(pos))
            generate_captures<Us>(pos, moves, duplicates, routes);
        else if (!routes)
            generate_quiet<Us>(pos, moves);
    }

    template <Color Us>
    static void generate_quiet(const Pos& pos, MoveList& moves) {
        const Bitboard empty = pos.empty();
        const Bitboard men = pos.men(Us);
        const Bitboard crown_row = Board::promotion_row(Us);
        add_man_steps<forward_left<Us>()>(men, empty, crown_row, moves);
        add_man_steps<forward_right<Us>()>(men, empty, crown_row, moves);
        for (int from : bits_of{pos.kings_of(Us)}) {
            for (Direction d : kAllDirections) {
                for (Bitboard to = Board::shift(bit(from), d); to & empty; to = Board::shift(to, d))
                    moves.push(Move{0, std::uint8_t(from), std::uint8_t(lowest_bit(to)), false});
            }
        }
    }

    template <Color Us, class F>
    static bool all_plain_moves_for(const Pos& pos, F& f) {
        const Bitboard empty = pos.empty();
        const Bitboard crown_row = Board::promotion_row(Us);
        for (int to : bits_of{Board::template shift<forward_left<Us>()>(pos.men(Us)) & empty})
            if (!f(Move{0, std::uint8_t(to - Board::step[forward_left<Us>()]), std::uint8_t(to),
                        (bit(to) & crown_row) != 0}))
                return false;
        for (int to : bits_of{Board::template shift<forward_right<Us>()>(pos.men(Us)) & empty})
            if (!f(Move{0, std::uint8_t(to - Board::step[forward_right<Us>()]), std::uint8_t(to),
                        (bit(to) & crown_row) != 0}))
                return false;
        for (int from : bits_of{pos.kings_of(Us)})
            for (Direction d : kAllDirections)
                for (Bitboard to = Board::shift(bit(from), d); to & empty; to = Board::shift(to, d))
                    if (!f(Move{0, std::uint8_t(from), std::uint8_t(lowest_bit(to)), false})) return false;
        return true;
    }

    template <Direction D>
    static void add_man_steps(Bitboard men, Bitboard empty, Bitboard crown_row, MoveList& moves) {
        for (int to : bits_of{Board::template shift<D>(men) & empty})
            moves.push(Move{0, std::uint8_t(to - Board::step[D]), std::uint8_t(to), (bit(to) & crown_row) != 0});
    }

    // State of the search for the capture routes of the side to move, one
    // capturing piece after another. The directions are unrolled at compile
    // time (each step a constant shift), and the route's squares are kept
    // only when routes are wanted: this is perft's and the generator's
    // innermost loop.
    struct CaptureSearch {
        Bitboard enemy;      // opponent pieces; captured ones stay until the move ends
        Bitboard empty;      // empty squares, the capturing piece's start included
        Bitboard crown_row;  // where our men are crowned
        MoveList& moves;
        Duplicates duplicates;
        std::vector<CaptureRoute>* routes;
        std::vector<std::uint8_t>* path;  // squares the piece stood on, when routes are wanted
        std::uint8_t from = 0;
        std::size_t first = 0;  // index in moves of this piece's first capture
        int most_taken = 0;     // majority rule: most pieces taken by any route so far
        bool crowned = false;   // a man crowned during this capture (Russian)

        void land(int sq) {
            if (path) path->push_back(std::uint8_t(sq));
        }
        void lift() {
            if (path) path->pop_back();
        }

        void finish(int to, Bitboard captured, bool crowns) {
            const Move m{captured, from, std::uint8_t(to), crowns || crowned};
            if constexpr (V::majority_capture) {
                const int taken = popcount(captured);
                if (taken < most_taken) return;
                if (taken > most_taken) {
                    // Every route found so far takes fewer pieces.
                    most_taken = taken;
                    moves.resize_down(0);
                    first = 0;
                    if (routes) routes->clear();
                }
            }
            if (routes) {
                routes->push_back(CaptureRoute{m, *path});
                routes->back().path.push_back(std::uint8_t(to));
            }
            if (duplicates == Duplicates::Drop) {
                for (std::size_t i = first; i < moves.size(); ++i)
                    if (moves[i] == m) return;
            }
            moves.push(m);
        }

        // A man on `sq` that has taken `captured` goes on capturing while it can.
        void man_captures(int sq, Bitboard captured) {
            // One statement each: the routes come out in the same order every time.
            bool went_on = man_jump<NorthWest>(sq, captured);
            went_on |= man_jump<NorthEast>(sq, captured);
            went_on |= man_jump<SouthWest>(sq, captured);
            went_on |= man_jump<SouthEast>(sq, captured);
            if (!went_on && captured) finish(sq, captured, (bit(sq) & crown_row) != 0);
        }

        // The man's jump from `sq` in direction D, if it has one; returns
        // whether it had.
        template <Direction D>
        bool man_jump(int sq, Bitboard captured) {
            const Bitboard over = Board::template shift<D>(bit(sq)) & enemy & ~captured;
            if (!over) return false;
            const Bitboard onto = Board::template shift<D>(over) & empty;
            if (!onto) return false;
            const int to = lowest_bit(onto);
            land(sq);
            if (V::crowns_during_capture && (onto & crown_row)) {
                crowned = true;
                if (!king_captures(to, captured | over, all_directions)) finish(to, captured | over, true);
                crowned = false;
            } else {
                man_captures(to, captured | over);
            }
            lift();
            return true;
        }

        // A king on `sq` that has taken `captured` looks for the next capture
        // along the directions in `directions` (a bit mask). Completed routes
        // are finished; returns whether any capture was found.
        bool king_captures(int sq, Bitboard captured, unsigned directions) {
            bool found = false;
            if (directions & (1u << NorthWest)) found |= king_jump<NorthWest>(sq, captured);
            if (directions & (1u << NorthEast)) found |= king_jump<NorthEast>(sq, captured);
            if (directions & (1u << SouthWest)) found |= king_jump<SouthWest>(sq, captured);
            if (directions & (1u << SouthEast)) found |= king_jump<SouthEast>(sq, captured);
            return found;
        }

        // The king's capture from `sq` along direction D, if it has one.
        template <Direction D>
        bool king_jump(int sq, Bitboard captured) {
            const Bitboard in_way = Board::ray(sq, D) & ~empty;
            if (!in_way) return false;
            const int target = Board::nearest(in_way, D);
            if (!(bit(target) & enemy & ~captured)) return false;
            // The empty squares behind the target, up to the next piece.
            const Bitboard behind = Board::ray(target, D);
            const Bitboard stop = behind & ~empty;
            Bitboard landing = behind;
            if (stop) {
                const int next = Board::nearest(stop, D);
                landing &= ~(bit(next) | Board::ray(next, D));
            }
            if (!landing) return false;
            const Bitboard taken = captured | bit(target);
            land(sq);
            // 2.1.5.6: the king must land where it can go on capturing,
            // if there is such a square. Turning happens from a chosen
            // landing square; going straight on is one route, whatever
            // the landing square. Landing squares in order from the target.
            constexpr unsigned turns = (1u << turn_left(D)) | (1u << turn_right(D));
            bool goes_on = false;
            // Most captures end here: one test over all the landing squares
            // at once tells whether any of them can turn and capture again.
            const Bitboard targets = enemy & ~taken;
            const bool may_turn =
                can_jump<turn_left(D)>(landing, targets, empty) || can_jump<turn_right(D)>(landing, targets, empty);
            for (Bitboard rest = may_turn ? landing : 0; rest;) {
                const int l = Board::nearest(rest, D);
                rest ^= bit(l);
                goes_on |= king_captures(l, taken, turns);
            }
            // The farthest landing square: the nearest seen the other way.
            goes_on |= king_jump<D>(Board::nearest(landing, opposite(D)), taken);
            if (!goes_on) {
                for (Bitboard rest = landing; rest;) {
                    const int l = Board::nearest(rest, D);
                    rest ^= bit(l);
                    finish(l, taken, false);
                }
            }
            lift();
            return true;
        }
    };

    // Whether a king on any of `from` could capture one of `targets` in
    // direction D: over empty squares to a target with an empty square
    // behind it.
    template <Direction D>
    static bool can_jump(Bitboard from, Bitboard targets, Bitboard empty) {
        const Bitboard reach = Board::template slide_fill<D>(from, empty);
        return (Board::template shift<D>(Board::template shift<D>(reach) & targets) & empty) != 0;
    }

    static constexpr unsigned all_directions = 0xF;
    static constexpr Direction turn_left(Direction d) { return Direction(d ^ 1); }
    static constexpr Direction turn_right(Direction d) { return Direction(d ^ 2); }

    // Our pieces that can take something at once: men next to an enemy piece
    // with an empty square behind it, and every king (checked one by one).
    template <Color Us>
    static Bitboard capturers(const Pos& pos) {
        const Bitboard empty = pos.empty();
        const Bitboard enemy = pos.pieces[opponent(Us)];
        const Bitboard men = jumps_from<NorthWest>(enemy, empty) | jumps_from<NorthEast>(enemy, empty) |
                             jumps_from<SouthWest>(enemy, empty) | jumps_from<SouthEast>(enemy, empty);
        return (men & pos.men(Us)) | pos.kings_of(Us);
    }

    template <Color Us>
    static void generate_captures(const Pos& pos, MoveList& moves, Duplicates duplicates,
                                  std::vector<CaptureRoute>* routes, Bitboard only = ~Bitboard(0)) {
        const Bitboard empty = pos.empty();
        std::vector<std::uint8_t> path;
        CaptureSearch search{pos.pieces[opponent(Us)], empty, Board::promotion_row(Us), moves, duplicates, routes,
                             routes ? &path : nullptr};
        for (int from : bits_of{capturers<Us>(pos) & only}) {
            search.empty = empty | bit(from);
            search.from = std::uint8_t(from);
            search.first = moves.size();
            if (pos.kings & bit(from))
                search.king_captures(from, 0, all_directions);
            else
                search.man_captures(from, 0);
        }
    }
};

}  // namespace dtb
