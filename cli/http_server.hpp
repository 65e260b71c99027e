// The HTTP server under dtb serve: GNU libmicrohttpd (Debian's
// libmicrohttpd-dev), which reads every connection without blocking, so
// that a client that sends slowly, or keeps a connection open, holds no
// worker thread: a few threads serve thousands of connections, each within
// a fixed budget of memory. What this file adds is what the library leaves
// to its user: the listening socket (bound here, so that a port in use is
// an error with its reason, and never shared with another server), and a
// deadline for each request's head, so that a client trickling a byte at a
// time, which never goes silent long enough for the idle timeout, is cut
// off all the same.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace dtb::serve {

struct HttpRequest {
    std::string method;  // "GET", "HEAD", "OPTIONS", ...
    std::string target;  // as sent: path and query, not decoded
    // A request header's value, "" when absent.
    std::function<std::string(const char* name)> header;
};

struct HttpResponse {
    int status = 200;
    std::string content_type;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// What one client may take of the server.
struct HttpLimits {
    unsigned threads = 8;                // each serves many connections
    unsigned max_connections = 1000;     // beyond: clients wait in the listen backlog
    std::size_t request_memory = 32768;  // a request's line and headers, per connection
    std::chrono::seconds idle_timeout{5};
    std::chrono::seconds head_deadline{10};  // to send a request's line and headers whole
};

class HttpServer {
public:
    // Listens on `bind` (an IPv4 or IPv6 address) and `port` (0: a free
    // one) and serves at once; throws std::runtime_error with the system's
    // reason when it cannot (a port in use, an address not of this machine).
    HttpServer(const std::string& bind, int port, const HttpLimits& limits, HttpHandler handler);
    ~HttpServer();  // stops listening and closes every connection
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    int port() const;

    struct State;  // the library's daemon and the head deadline's watch

private:
    std::unique_ptr<State> state_;
};

}  // namespace dtb::serve
