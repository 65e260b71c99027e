// dtb serve: the tables over HTTP, a JSON API (serve_api.hpp) and the web
// explorer (cli/web/, built in: serve_assets.hpp), on libmicrohttpd
// (http_server.hpp). This file decides what each request gets: the routes,
// the methods, the limits and the JSON of every error.
//
// The server's stance against slow and greedy clients, each point tested in
// tests/serve and measured by scripts/bench-serve.sh:
// - connections are read without blocking: a slow client holds a
//   connection, never a worker thread, so it delays no one else;
// - a request's line and headers must come whole within 10 s of the
//   connection opening (or of the last answer on it), and within 32 KiB;
//   a connection silent for 5 s is closed;
// - at most 1000 connections at once; more wait in the listen backlog;
// - answers are whole: a Range header is ignored, never honoured;
// - 127.0.0.1 by default. On a public network, where one client can open
//   every connection there is, a reverse proxy that limits connections per
//   client belongs in front.
#include <pthread.h>
#include <signal.h>

#include <csignal>
#include <iostream>

#include "cli/c_api.hpp"
#include "cli/http_server.hpp"
#include "cli/http_target.hpp"
#include "cli/options.hpp"
#include "cli/serve_api.hpp"
#include "cli/serve_assets.hpp"
#include "cli/table_dirs.hpp"
#include "cli/tables.hpp"

namespace dtb {

namespace {

struct ServeOptions {
    std::vector<std::string> dirs;
    int port = 8080;
    std::string bind = "127.0.0.1";
    int threads = 8;
    bool json = false;
};

// Every answer may be read by a page of any origin: the tables are public.
const std::pair<std::string, std::string> kAnyOrigin{"Access-Control-Allow-Origin", "*"};

serve::HttpResponse json_response(const serve::Reply& reply) {
    // A FEN quoted in an error may hold bytes that are not UTF-8: replaced, not thrown on.
    return {reply.status,
            "application/json; charset=utf-8",
            reply.body.dump(-1, ' ', false, Json::error_handler_t::replace),
            {kAnyOrigin}};
}

serve::HttpResponse json_error(int status, const std::string& message) {
    return json_response(serve::error_reply(status, message));
}

std::string_view content_type(std::string_view name) {
    if (name.ends_with(".html")) return "text/html; charset=utf-8";
    if (name.ends_with(".css")) return "text/css; charset=utf-8";
    if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
    if (name.ends_with(".svg")) return "image/svg+xml";
    if (name.ends_with(".png")) return "image/png";
    return "application/octet-stream";
}

// The explorer's file at `path` ("/" is index.html), if there is one.
std::optional<serve::HttpResponse> web_asset(const std::string& path) {
    for (const serve::WebAsset& asset : serve::web_assets()) {
        if (path != (asset.name == "index.html" ? "/" : "/" + std::string(asset.name))) continue;
        return serve::HttpResponse{200,
                                   std::string(content_type(asset.name)),
                                   std::string(asset.body),
                                   {// The page may load only its own files: no other site, no inline script.
                                    {"Content-Security-Policy", "default-src 'self'; img-src 'self' data:"},
                                    {"X-Content-Type-Options", "nosniff"},
                                    {"Cache-Control", "no-cache"}}};
    }
    return std::nullopt;
}

// A browser asks before a cross-origin request that sets headers of its
// own (a JSON Content-Type, say): the answer allows what the API serves.
serve::HttpResponse preflight(const serve::HttpRequest& request) {
    const std::string asked = request.header("Access-Control-Request-Headers");
    return {204,
            "",
            "",
            {kAnyOrigin,
             {"Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"},
             {"Access-Control-Allow-Headers", asked.empty() ? "Content-Type" : asked},
             {"Access-Control-Max-Age", "86400"},
             {"Allow", "GET, HEAD, OPTIONS"}}};
}

// /api/v1, /api/v1/{variant}, /api/v1/{variant}/{what}
serve::HttpResponse api(dtb_tablebase* tb, const serve::RequestTarget& target) {
    constexpr std::string_view prefix = "/api/v1";
    std::string_view rest = std::string_view(target.path).substr(prefix.size());
    if (rest.empty() || rest == "/") return json_response(serve::api_index(tb));
    rest.remove_prefix(1);
    const std::size_t slash = rest.find('/');
    const std::string variant(rest.substr(0, slash));
    const std::string what(slash == std::string_view::npos ? "" : rest.substr(slash + 1));
    if (variant.empty() || what.find('/') != std::string::npos) return {};
    return json_response(serve::api_request(tb, variant, what, target.params));
}

serve::HttpResponse answer(dtb_tablebase* tb, const serve::HttpRequest& request) {
    if (request.method == "OPTIONS") return preflight(request);
    if (request.method != "GET" && request.method != "HEAD") {
        serve::HttpResponse r = json_error(405, "method " + request.method + " is not served: only GET and HEAD");
        r.headers.emplace_back("Allow", "GET, HEAD, OPTIONS");
        return r;
    }
    if (request.target.size() > serve::kMaxUriBytes)
        return json_error(414, "the request URI is too long: " + std::to_string(request.target.size()) +
                                   " bytes, at most " + std::to_string(serve::kMaxUriBytes));
    auto read = serve::read_target(request.target);
    if (auto* bad = std::get_if<serve::UnreadableTarget>(&read)) return json_error(400, bad->reason);
    const serve::RequestTarget& target = std::get<serve::RequestTarget>(read);
    if (target.path == "/api/v1" || target.path.starts_with("/api/v1/")) {
        serve::HttpResponse r = api(tb, target);
        if (r.status != 0) return r;
    } else if (auto asset = web_asset(target.path)) {
        return *asset;
    }
    return json_error(404, "no such path: " + target.path + " (the explorer is at /, the API at /api/v1/{variant})");
}

std::string url_of(const std::string& host, int port) {
    const bool ipv6 = host.find(':') != std::string::npos;
    return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/";
}

void announce(const ServeOptions& o, dtb_tablebase* tb, int port) {
    const std::string url = url_of(o.bind, port);
    Json max_pieces = Json::object();
    std::vector<std::string> sizes;
    for_each_variant([&]<class V>() {
        const int pieces = dtb_max_pieces(tb, probe::c_variant(V::id));
        max_pieces[std::string(V::name)] = pieces;
        // A variant without tables is left out of the sentence ("up to 0
        // pieces" reads as a table of no pieces); the JSON keeps its 0.
        if (pieces > 0) sizes.push_back(std::string(V::name) + " up to " + std::to_string(pieces) + " pieces");
    });
    if (o.json) {
        print_json(
            Json{{"url", url}, {"bind", o.bind}, {"port", port}, {"threads", o.threads}, {"max_pieces", max_pieces}});
    } else {
        std::cout << "dtb serve: listening on " << url << " (" << o.threads
                  << " threads; tables: " << choice_list(sizes, ", ") << "). Ctrl-C or SIGTERM stops it.\n";
    }
    std::cout.flush();  // a test or a supervisor reads this line to find the port
}

// A server with no table answers nothing but errors: refused at the start.
void require_some_table(const std::vector<std::string>& dirs_read, dtb_tablebase* tb) {
    int total = 0;
    for_each_variant([&]<class V>() { total += dtb_max_pieces(tb, probe::c_variant(V::id)); });
    if (total > 0) return;
    std::string dirs;
    for (const std::string& d : dirs_read) dirs += (dirs.empty() ? "" : ", ") + d;
    throw std::runtime_error("no tables in " + dirs +
                             ": make them with `dtb gen --variant russian --pieces 4 --dir DIR`");
}

void run_serve(const ServeOptions& o) {
    if (o.port < 0 || o.port > 65535) throw InputError("--port " + std::to_string(o.port) + ": 0 to 65535");
    if (o.threads < 1 || o.threads > 256) throw InputError("--threads " + std::to_string(o.threads) + ": 1 to 256");
    const std::vector<std::string> dirs = table_dirs(o.dirs);
    Tables tables(dirs);
    require_some_table(dirs, tables.get());

    // Blocked before any thread starts, so that every thread inherits the
    // mask and this one alone receives them, in sigwait below.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    // A client that closes its end while an answer is written must not end the server.
    std::signal(SIGPIPE, SIG_IGN);

    serve::HttpLimits limits;
    limits.threads = unsigned(o.threads);
    dtb_tablebase* tb = tables.get();
    serve::HttpServer server(o.bind, o.port, limits,
                             [tb](const serve::HttpRequest& request) { return answer(tb, request); });
    announce(o, tb, server.port());
    int signal = 0;
    sigwait(&stop_signals, &signal);
    std::cerr << "dtb serve: stopped\n";
}

}  // namespace

void add_serve_commands(CLI::App& app) {
    auto o = std::make_shared<ServeOptions>();
    std::string api;
    for (const serve::Endpoint& e : serve::kEndpoints)
        api += "  " + std::string(e.usage) + "\n      " + std::string(e.summary) + "\n";
    CLI::App* cmd = app.add_subcommand(
        "serve",
        "Serve the tables over HTTP: a JSON API and a web explorer at / (a board to set up, the value,\n"
        "every move with its value, the line to the end, the draw rules). The API, all GET, {variant} one of\n" +
            variant_choices() + ":\n  /api/v1\n      the variants, their boards and largest tables, the endpoints\n" +
            api +
            "Bad input gets status 400 and {\"error\": \"...\"} naming what is wrong; a missing table 404 naming it.\n"
            "Listens on 127.0.0.1 (this machine only) unless --bind says otherwise; prints the URL, then serves\n"
            "until Ctrl-C or SIGTERM. A slow client holds a connection, never a thread; a request's head must\n"
            "come whole within 10 s and 32 KiB; at most 1000 connections at once; Range is ignored. On a\n"
            "public network, put it behind a reverse proxy that limits connections per client.\n"
            "Examples:\n"
            "  dtb serve --dir tablebases                      then open http://127.0.0.1:8080/\n"
            "  curl 'http://127.0.0.1:8080/api/v1/russian?fen=W:WKa1,c3:BKh8'");
    cmd->add_option("--dir", o->dirs, kTableDirsHelp);
    cmd->add_option("--port", o->port, "TCP port; 0 picks a free one (printed)")->capture_default_str();
    cmd->add_option("--bind", o->bind, "Address to listen on: 127.0.0.1, ::1, or 0.0.0.0 for every network")
        ->capture_default_str();
    cmd->add_option("--threads", o->threads,
                    "Threads reading connections and answering, sharing one handle on the tables")
        ->capture_default_str();
    cmd->add_flag("--json", o->json, "Print the listening line as JSON: url, bind, port, threads, max_pieces");
    cmd->callback([o] { run_serve(*o); });
}

}  // namespace dtb
