// The JSON API of dtb serve, apart from HTTP: a request's variant and query
// parameters in, a status and a JSON body out. serve_command.cpp wires it to
// the server; tests/serve checks it through HTTP (api_test.cpp) and called
// directly (table_test.cpp).
//
//   GET /api/v1                      the variants, their boards and largest tables, the endpoints
//   GET /api/v1/{variant}...         the endpoints of kEndpoints below
//
// Statuses: 200; 400 for bad input (the error names the parameter and what
// is wrong with it, a material too large to scan included); 404 for a
// position whose table is missing (the error names the table, never where
// the server looked for it) and for an unknown path; 500 only when the
// tables themselves fail (a damaged file), never for what a request says.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "cli/http_target.hpp"
#include "cli/options.hpp"
#include "dtb/probe.h"

namespace dtb::serve {

// Limits on what one request may ask, checked before anything is probed.
inline constexpr std::size_t kMaxUriBytes = 4096;  // the request target, query included
inline constexpr std::size_t kMaxFenBytes = 512;   // a FEN of 40 pieces takes under 200
inline constexpr int kMaxMovesPlayed = 10000;      // far beyond any draw rule's count

// The query parameters arrive as cli/http_target.hpp reads them (QueryParams:
// a name may come more than once; the API refuses that).

struct Reply {
    int status = 200;
    Json body;
};

// {"error": message} with an HTTP status.
Reply error_reply(int status, const std::string& message);

// An endpoint of the API: the one list that the server, its index
// (GET /api/v1), its 404 and `dtb serve --help` all read.
struct Endpoint {
    std::string_view what;     // the path's last part after the variant: "" (the position), "line", ...
    std::string_view usage;    // the path with its parameters, as a user writes it
    std::string_view summary;  // what it answers
};
inline constexpr Endpoint kEndpoints[] = {
    {"", "/api/v1/{variant}?fen=FEN", "wdl, dtw, best_move, pv, must_capture, moves"},
    {"line", "/api/v1/{variant}/line?fen=FEN", "the line to the end, the position after each ply"},
    {"adjudicate", "/api/v1/{variant}/adjudicate?fen=FEN&moves_played=K[&king_moves=L][&conversion_moves=C]",
     "as dtb adjudicate --json"},
    {"table", "/api/v1/{variant}/table?fen=FEN or ?material=KKKvK",
     "the material's tables, per side to move: wins, draws, losses, the longest win and loss with example FENs "
     "(materials of up to 5,000,000 positions)"},
};

// GET /api/v1: the API's index: each variant with its board and largest
// tables (the web explorer builds its boards from it), and the endpoints.
Reply api_index(const dtb_tablebase* tb);

// GET /api/v1/{variant}[/what]: what is "" (the position), "line",
// "adjudicate" or "table"; variant is the path's text, checked here.
Reply api_request(dtb_tablebase* tb, const std::string& variant, const std::string& what, const QueryParams& params);

}  // namespace dtb::serve
