// dtb serve: the tables over HTTP, a JSON API (serve_api.hpp) and the web
// explorer (cli/web/, built in: serve_assets.hpp), on cpp-httplib
// (Debian's libcpp-httplib-dev): one header and a small library, threads
// and timeouts built in, nothing else to run beside it.
//
// A fixed number of worker threads share one dtb_tablebase (thread-safe, as
// dtb/probe.h promises); connections wait in a bounded queue
// (serve_pool.hpp). SIGINT and SIGTERM stop the server cleanly: a thread
// waits for them with sigwait and calls stop(), which a signal handler may
// not.
#include <httplib.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include "cli/c_api.hpp"
#include "cli/options.hpp"
#include "cli/serve_api.hpp"
#include "cli/serve_assets.hpp"
#include "cli/serve_pool.hpp"

namespace dtb {

namespace {

struct ServeOptions {
    std::vector<std::string> dirs;
    int port = 8080;
    std::string bind = "127.0.0.1";
    int threads = 8;
    bool json = false;
};

// Connections waiting for a worker, at most (serve_pool.hpp).
constexpr std::size_t kMaxQueuedConnections = 1024;

void send_json(httplib::Response& res, const serve::Reply& reply) {
    res.status = reply.status;
    res.set_header("Access-Control-Allow-Origin", "*");
    // A FEN quoted in an error may hold bytes that are not UTF-8: replaced, not thrown on.
    res.set_content(reply.body.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json; charset=utf-8");
}

std::string_view content_type(std::string_view name) {
    if (name.ends_with(".html")) return "text/html; charset=utf-8";
    if (name.ends_with(".css")) return "text/css; charset=utf-8";
    if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
    if (name.ends_with(".svg")) return "image/svg+xml";
    if (name.ends_with(".png")) return "image/png";
    return "application/octet-stream";
}

// The explorer's files: "/" is index.html.
void add_web_routes(httplib::Server& server) {
    for (const serve::WebAsset& asset : serve::web_assets()) {
        const std::string path = asset.name == "index.html" ? "/" : "/" + std::string(asset.name);
        server.Get(path, [asset](const httplib::Request&, httplib::Response& res) {
            // The page may load only its own files: no other site, no inline script.
            res.set_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:");
            res.set_header("X-Content-Type-Options", "nosniff");
            res.set_header("Cache-Control", "no-cache");
            res.set_content(std::string(asset.body), std::string(content_type(asset.name)));
        });
    }
}

void add_api_routes(httplib::Server& server, dtb_tablebase* tb) {
    server.Get("/api/v1/?",
               [tb](const httplib::Request&, httplib::Response& res) { send_json(res, serve::api_index(tb)); });
    server.Get(R"(/api/v1/([^/]+)(?:/([^/]*))?)", [tb](const httplib::Request& req, httplib::Response& res) {
        send_json(res, serve::api_request(tb, req.matches[1], req.matches[2], req.params));
    });
}

// Limits and the JSON of every error, whatever refused the request.
//
// What they cannot do: cpp-httplib 0.11 reads a request line and its
// headers whole before anything checks their length, and its timeouts are
// per read, so one hostile client can grow a connection's memory with what
// it sends, or hold a worker by sending slowly. Hence 127.0.0.1 by default;
// on a public network a reverse proxy that limits requests belongs in front.
void add_guards(httplib::Server& server) {
    server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
        if (req.method != "GET" && req.method != "HEAD") {
            res.set_header("Allow", "GET, HEAD");
            send_json(res, serve::error_reply(405, "method " + req.method + " is not served: only GET and HEAD"));
            return httplib::Server::HandlerResponse::Handled;
        }
        if (req.target.size() > serve::kMaxUriBytes) {
            send_json(res, serve::error_reply(414, "the request URI is " + std::to_string(req.target.size()) +
                                                       " bytes long: at most " + std::to_string(serve::kMaxUriBytes)));
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    // httplib's own refusals (a path no route takes, a request it could not
    // read) come without a body: they get a JSON one.
    server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return;
        const std::string message =
            res.status == 404   ? "no such path: " + req.path + " (the explorer is at /, the API at /api/v1/{variant})"
            : res.status == 413 ? "the request is too large"
            : res.status == 414 ? "the request URI is too long"
                                : "the request could not be read (HTTP status " + std::to_string(res.status) + ")";
        send_json(res, serve::error_reply(res.status, message));
    });
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
        std::string what = "unknown exception";
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& ex) {
            what = ex.what();
        } catch (...) {
        }
        send_json(res, serve::error_reply(500, "internal error in dtb serve (please report): " + what));
    });
    server.set_payload_max_length(serve::kMaxUriBytes);  // GET requests carry no body to speak of
    server.set_read_timeout(5, 0);
    server.set_write_timeout(5, 0);
    // An idle connection holds a worker while it waits: not for long.
    server.set_keep_alive_timeout(2);
    server.set_keep_alive_max_count(10);
    // An answer goes out in two writes (head, body): without this, Nagle's
    // algorithm holds the second until the client's delayed ACK, 40 ms.
    server.set_tcp_nodelay(true);
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
        sizes.push_back(std::string(V::name) + " up to " + std::to_string(pieces) + " pieces");
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

// cpp-httplib 0.11 listens with a backlog of 5 connections, compiled into
// Debian's library: a burst of clients beyond that has its connections
// dropped and retried a second later. Linux takes a second listen() on a
// listening socket as a new backlog, so the server's socket, found by its
// port, is given the system's largest.
void raise_listen_backlog(int port) {
    for (int fd = 3; fd < 1024; ++fd) {
        int listening = 0;
        socklen_t length = sizeof listening;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) != 0 || !listening) continue;
        sockaddr_storage address{};
        socklen_t address_length = sizeof address;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &address_length) != 0) continue;
        const int bound = address.ss_family == AF_INET ? ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port)
                          : address.ss_family == AF_INET6
                              ? ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port)
                              : -1;
        if (bound == port) ::listen(fd, SOMAXCONN);
    }
}

void run_serve(const ServeOptions& o) {
    if (o.port < 0 || o.port > 65535) throw InputError("--port " + std::to_string(o.port) + ": 0 to 65535");
    if (o.threads < 1 || o.threads > 256) throw InputError("--threads " + std::to_string(o.threads) + ": 1 to 256");
    Tables tables(o.dirs);

    // Blocked here, before any thread starts, so that every thread inherits
    // the mask and only the waiting thread below receives them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    // A client that closes its end while an answer is written must not end the server.
    std::signal(SIGPIPE, SIG_IGN);

    httplib::Server server;
    const auto threads = static_cast<std::size_t>(o.threads);
    server.new_task_queue = [threads] { return new serve::BoundedPool(threads, kMaxQueuedConnections); };
    add_guards(server);
    add_api_routes(server, tables.get());
    add_web_routes(server);

    const int port =
        o.port == 0 ? server.bind_to_any_port(o.bind) : (server.bind_to_port(o.bind, o.port) ? o.port : -1);
    if (port < 0)
        throw std::runtime_error("cannot listen on " + url_of(o.bind, o.port) +
                                 ": the address is in use or not one of this machine's");
    raise_listen_backlog(port);
    announce(o, tables.get(), port);

    std::atomic<bool> signalled = false, finished = false;
    std::thread waiter([&] {
        int signal = 0;
        sigwait(&stop_signals, &signal);
        signalled = true;
        // stop() does nothing before the server runs: a signal that comes
        // first waits for it.
        while (!server.is_running() && !finished) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        server.stop();
    });
    const bool listened = server.listen_after_bind();
    finished = true;
    // If the server ended on its own, the waiter still waits: wake it.
    if (!signalled) pthread_kill(waiter.native_handle(), SIGTERM);
    waiter.join();
    std::cerr << "dtb serve: stopped\n";
    if (!listened) throw std::runtime_error("the server stopped: it could not accept connections");
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
            "until Ctrl-C or SIGTERM. On a public network, put it behind a reverse proxy that limits requests.\n"
            "Examples:\n"
            "  dtb serve --dir tablebases                      then open http://127.0.0.1:8080/\n"
            "  curl 'http://127.0.0.1:8080/api/v1/russian?fen=W:WKa1,c3:BKh8'");
    cmd->add_option("--dir", o->dirs, "Directory holding the .wdl and .dtw files (repeat for several)")->required();
    cmd->add_option("--port", o->port, "TCP port; 0 picks a free one (printed)")->capture_default_str();
    cmd->add_option("--bind", o->bind, "Address to listen on: 127.0.0.1, ::1, or 0.0.0.0 for every network")
        ->capture_default_str();
    cmd->add_option("--threads", o->threads, "Worker threads, sharing one handle on the tables")->capture_default_str();
    cmd->add_flag("--json", o->json, "Print the listening line as JSON: url, bind, port, threads, max_pieces");
    cmd->callback([o] { run_serve(*o); });
}

}  // namespace dtb
