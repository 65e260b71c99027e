// SVG board diagrams (see board_svg.hpp).
#include "cli/board_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace dtb {

namespace {

constexpr const char* kLight = "#f0dcb4";
constexpr const char* kDark = "#8b5a2b";
constexpr const char* kPlayed = "#d62828";
constexpr const char* kBest = "#2a9d3a";
constexpr const char* kBoth = "#1d4ed8";  // the move played was the best move
constexpr int kCaptionLine = 18;

std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

template <class V>
std::pair<double, double> centre(BitIndex b) {
    using Board = typename V::Board;
    const Square sq = Board::square_of(b);
    return {SvgLayout::centre_x(Board::file_of(sq)), SvgLayout::centre_y(Board::rank_of(sq), Board::width)};
}

template <class V>
void draw_squares(std::ostringstream& out) {
    using Board = typename V::Board;
    constexpr int w = Board::width, s = SvgLayout::square, m = SvgLayout::margin;
    out << "<rect x=\"" << m << "\" y=\"" << m << "\" width=\"" << w * s << "\" height=\"" << w * s << "\" fill=\""
        << kLight << "\"/>\n";
    for (int rank = 1; rank <= w; ++rank)
        for (int file = 0; file < w; ++file) {
            const auto sq = Board::square_at(file, rank);
            if (!sq) continue;
            const int x = m + file * s, y = m + (w - rank) * s;
            out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << s << "\" height=\"" << s << "\" fill=\""
                << kDark << "\"/>\n";
            if constexpr (!V::algebraic_notation)
                out << "<text x=\"" << x + 3 << "\" y=\"" << y + 11 << "\" font-size=\"10\" fill=\"#f5e6c8\">"
                    << Board::pdn_number(*sq) << "</text>\n";
        }
    out << "<rect x=\"" << m << "\" y=\"" << m << "\" width=\"" << w * s << "\" height=\"" << w * s
        << "\" fill=\"none\" stroke=\"#333\" stroke-width=\"2\"/>\n";
    if constexpr (V::algebraic_notation) {
        for (int file = 0; file < w; ++file)
            out << "<text x=\"" << SvgLayout::centre_x(file) << "\" y=\"" << m + w * s + 16
                << "\" font-size=\"13\" text-anchor=\"middle\">" << char('a' + file) << "</text>\n";
        for (int rank = 1; rank <= w; ++rank)
            out << "<text x=\"" << m / 2 << "\" y=\"" << SvgLayout::centre_y(rank, w) + 5
                << "\" font-size=\"13\" text-anchor=\"middle\">" << rank << "</text>\n";
    }
}

template <class V>
void draw_pieces(std::ostringstream& out, const Position<V>& pos) {
    const double r = SvgLayout::square * 0.38;
    for (Color c : {White, Black}) {
        for (int b : bits_of{pos.pieces[c]}) {
            const BitIndex bi{b};
            const bool king = (pos.kings & bit(bi)) != 0;
            const auto [x, y] = centre<V>(bi);
            const char* fill = c == White ? "#fbfbf5" : "#1e1e1e";
            out << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"" << r << "\" fill=\"" << fill << "\" stroke=\""
                << (c == White ? "#222" : "#000") << "\" stroke-width=\"2\" data-square=\"" << square_name<V>(bi)
                << "\" data-piece=\"" << (c == White ? "white" : "black") << "-" << (king ? "king" : "man") << "\"/>\n";
            if (king)
                out << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"" << r * 0.55
                    << "\" fill=\"none\" stroke=\"#d4a017\" stroke-width=\"4\"/>\n";
        }
    }
}

// The squares a move stops on: its start, each landing, its end.
template <class V>
std::vector<BitIndex> stops_of(const Position<V>& pos, const Move& m) {
    if (m.is_capture())
        for (const CaptureRoute& route : MoveGenerator<V>::capture_routes(pos))
            if (route.move == m) {
                std::vector<BitIndex> stops;
                for (std::uint8_t b : route.path) stops.push_back(BitIndex{b});
                return stops;
            }
    return {BitIndex{m.from}, BitIndex{m.to}};
}

// Each piece `m` captures ringed and crossed out in the arrow's colour,
// over the arrow that passes it: one <path> with data-square (the piece's
// square) and data-by (whose move takes it). `size`: the ring's radius, in
// squares, so that two moves taking the same piece show two rings.
template <class V>
void draw_captures(std::ostringstream& out, const Move& m, const char* colour, const char* kind, double size) {
    for (int b : bits_of{m.captured}) {
        const BitIndex bi{b};
        const auto [x, y] = centre<V>(bi);
        const double r = SvgLayout::square * size, d = SvgLayout::square * 0.2;
        out << "<path class=\"captured\" data-square=\"" << square_name<V>(bi) << "\" data-by=\"" << kind
            << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"4\" stroke-linecap=\"round\" d=\"M" << x - r
            << "," << y << " a" << r << "," << r << " 0 1,0 " << 2 * r << ",0 a" << r << "," << r << " 0 1,0 " << -2 * r
            << ",0 M" << x - d << "," << y - d << " L" << x + d << "," << y + d << " M" << x - d << "," << y + d << " L"
            << x + d << "," << y - d << "\"/>\n";
    }
}

template <class V>
void draw_arrow(std::ostringstream& out, const Position<V>& pos, const Move& m, const char* colour, const char* marker,
                const char* kind) {
    out << "<polyline class=\"" << kind << "\" fill=\"none\" stroke=\"" << colour
        << "\" stroke-width=\"6\" stroke-opacity=\"0.85\" stroke-linecap=\"round\" stroke-linejoin=\"round\" "
           "marker-end=\"url(#"
        << marker << ")\" points=\"";
    const std::vector<BitIndex> stops = stops_of(pos, m);
    for (std::size_t i = 0; i < stops.size(); ++i) {
        auto [x, y] = centre<V>(stops[i]);
        if (i + 1 == stops.size()) {  // stop short, so that the head ends on the square's centre
            const auto [px, py] = centre<V>(stops[i - 1]);
            const double dx = x - px, dy = y - py, len = std::max(1.0, std::sqrt(dx * dx + dy * dy));
            x -= dx / len * 12;
            y -= dy / len * 12;
        }
        out << (i ? " " : "") << x << "," << y;
    }
    out << "\"/>\n";
}

}  // namespace

template <class V>
std::string board_svg(const BoardDiagram<V>& d) {
    constexpr int w = V::Board::width, s = SvgLayout::square, m = SvgLayout::margin;
    const std::vector<std::string> caption = lines_of(d.caption);
    // Wide enough for the longest caption line (about 8 pixels a character at 14 px).
    std::size_t longest = 0;
    for (const std::string& line : caption) longest = std::max(longest, line.size());
    const int width = std::max(2 * m + w * s, m + int(longest) * 8);
    // Under the board: the row of file letters on an algebraic board; a
    // numbered one has its numbers on the squares, so the caption follows.
    const int caption_top = m + w * s + (V::algebraic_notation ? m : 8);
    const int height = caption_top + 8 + kCaptionLine * int(caption.size());
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
        << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
        << "<defs>\n";
    for (const auto& [id, colour] : {std::pair{"played", kPlayed}, std::pair{"best", kBest}, std::pair{"both", kBoth}})
        out << "<marker id=\"" << id << "\" viewBox=\"0 0 10 10\" refX=\"3\" refY=\"5\" markerWidth=\"3.2\" "
            << "markerHeight=\"3.2\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"" << colour
            << "\"/></marker>\n";
    out << "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    draw_squares<V>(out);
    draw_pieces(out, d.position);
    if (d.played && d.best && *d.played == *d.best) {  // one arrow, both kinds
        draw_arrow(out, d.position, *d.played, kBoth, "both", "played-move best-move");
        draw_captures<V>(out, *d.played, kBoth, "played best", 0.46);
    } else {
        if (d.played) draw_arrow(out, d.position, *d.played, kPlayed, "played", "played-move");
        if (d.best) draw_arrow(out, d.position, *d.best, kBest, "best", "best-move");
        if (d.played) draw_captures<V>(out, *d.played, kPlayed, "played", 0.46);
        if (d.best) draw_captures<V>(out, *d.best, kBest, "best", 0.4);
    }
    for (std::size_t i = 0; i < caption.size(); ++i)
        out << "<text x=\"" << m << "\" y=\"" << caption_top + 10 + kCaptionLine * int(i) << "\" font-size=\"14\">"
            << escaped(caption[i]) << "</text>\n";
    out << "</svg>\n";
    return out.str();
}

#define DTB_INSTANTIATE_BOARD_SVG(V) template std::string board_svg<V>(const BoardDiagram<V>&);
DTB_FOR_EACH_VARIANT(DTB_INSTANTIATE_BOARD_SVG)

}  // namespace dtb
