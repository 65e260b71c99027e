#include "cli/http_server.hpp"

#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace dtb::serve {

namespace {

using Clock = std::chrono::steady_clock;

// A request on its way through the library: its target as the client sent
// it (the library decodes its own copy; the API reads this one) and
// whether its head has been seen.
struct RequestContext {
    std::string target;
    bool head_seen = false;
};

std::string url_text(const std::string& host, int port) {
    const bool ipv6 = host.find(':') != std::string::npos;
    return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

// A socket bound to bind:port and listening, non-blocking (the library's
// threads share it). No SO_REUSEPORT: a second server on the same port
// must fail here, not share the port's connections with the first.
int listening_socket(const std::string& bind, int port, bool& ipv6) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (const int e = ::getaddrinfo(bind.c_str(), service.c_str(), &hints, &found); e != 0)
        throw std::runtime_error("cannot listen on " + url_text(bind, port) + ": " + ::gai_strerror(e));
    const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owned(found, ::freeaddrinfo);
    ipv6 = found->ai_family == AF_INET6;
    const int fd = ::socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, found->ai_protocol);
    if (fd < 0) throw std::runtime_error("cannot make a socket: " + std::string(std::strerror(errno)));
    const int yes = 1;
    // A restarted server may listen again at once, though the last one's
    // connections still linger (TIME_WAIT); on Linux this lets no second
    // listener share the port.
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (ipv6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof yes);
    if (::bind(fd, found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
        const int e = errno;
        ::close(fd);
        const std::string why = e == EADDRINUSE      ? "the port is in use by another program"
                                : e == EADDRNOTAVAIL ? "the address is not one of this machine's"
                                                     : std::strerror(e);
        throw std::runtime_error("cannot listen on " + url_text(bind, port) + ": " + why);
    }
    return fd;
}

int bound_port(int fd) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
    if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    return -1;
}

// Room for every connection the server may hold, and a few files more.
void raise_open_files_limit(unsigned connections) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    const rlim_t wanted = rlim_t(connections) + 64;
    if (limit.rlim_cur >= wanted) return;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

// The head deadline. Each connection is watched from when it opens, and
// again from when each answer is done, until the library has read a
// request's line and headers whole; past the deadline its socket is shut
// down, which the library sees as the client leaving and closes. The
// library says when a connection closes before it closes the socket, under
// the same lock, so a socket number is never shut down once it is reused.
struct HttpServer::State {
    HttpHandler handler;
    HttpLimits limits;
    int listen_fd = -1;
    MHD_Daemon* daemon = nullptr;

    struct Watched {
        int fd = -1;
        Clock::time_point since;
        bool waiting = true;  // for a request's head
    };
    std::mutex mutex;
    std::unordered_map<MHD_Connection*, Watched> watched;
    std::condition_variable wake;
    bool stopping = false;
    std::thread watch;

    void opened(MHD_Connection* c) {
        const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        std::lock_guard lock(mutex);
        watched[c] = Watched{info ? info->connect_fd : -1, Clock::now(), true};
    }
    void closed(MHD_Connection* c) {
        std::lock_guard lock(mutex);
        watched.erase(c);
    }
    void head_read(MHD_Connection* c) {
        std::lock_guard lock(mutex);
        if (auto it = watched.find(c); it != watched.end()) it->second.waiting = false;
    }
    void answered(MHD_Connection* c) {
        std::lock_guard lock(mutex);
        if (auto it = watched.find(c); it != watched.end()) it->second = {it->second.fd, Clock::now(), true};
    }
    void watch_heads() {
        std::unique_lock lock(mutex);
        while (!wake.wait_for(lock, std::chrono::milliseconds(250), [&] { return stopping; })) {
            const Clock::time_point now = Clock::now();
            for (auto& [connection, w] : watched)
                if (w.waiting && w.fd >= 0 && now - w.since > limits.head_deadline) {
                    ::shutdown(w.fd, SHUT_RDWR);
                    w.waiting = false;  // once
                }
        }
    }
};

namespace {

using State = HttpServer::State;

void* on_request_line(void* cls, const char* uri, MHD_Connection*) {
    (void)cls;
    return new RequestContext{uri ? uri : "", false};
}

void on_connection(void* cls, MHD_Connection* c, void** socket_context, MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    auto* state = static_cast<State*>(cls);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) state->opened(c);
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) state->closed(c);
}

void on_completed(void* cls, MHD_Connection* c, void** request_context, MHD_RequestTerminationCode) {
    delete static_cast<RequestContext*>(*request_context);
    *request_context = nullptr;
    static_cast<State*>(cls)->answered(c);
}

MHD_Result queue(MHD_Connection* c, const HttpResponse& r) {
    MHD_Response* response =
        MHD_create_response_from_buffer(r.body.size(), const_cast<char*>(r.body.data()), MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    if (!r.content_type.empty()) MHD_add_response_header(response, "Content-Type", r.content_type.c_str());
    for (const auto& [name, value] : r.headers) MHD_add_response_header(response, name.c_str(), value.c_str());
    const MHD_Result queued = MHD_queue_response(c, unsigned(r.status), response);
    MHD_destroy_response(response);
    return queued;
}

// The library calls this once the head is read, then again for each part
// of a body, then once more with none left: the answer is queued then, on
// the last call. (Queued on the first, it would also close the connection
// after it, losing keep-alive and pipelined requests.) A body, which no
// request of this server takes, is read and dropped.
MHD_Result on_request(void* cls, MHD_Connection* c, const char* url, const char* method, const char*, const char*,
                      size_t* upload_data_size, void** request_context) {
    auto* state = static_cast<State*>(cls);
    auto* context = static_cast<RequestContext*>(*request_context);
    if (!context) *request_context = context = new RequestContext{url ? url : "", false};
    if (!context->head_seen) {
        context->head_seen = true;  // the head is read
        state->head_read(c);
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    HttpRequest request{method ? method : "", context->target, [c](const char* name) {
                            const char* value = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
                            return std::string(value ? value : "");
                        }};
    HttpResponse response;
    try {
        response = state->handler(request);
    } catch (const std::exception& e) {
        response = {500, "text/plain; charset=utf-8", std::string("internal error: ") + e.what() + "\n", {}};
    }
    return queue(c, response);
}

}  // namespace

HttpServer::HttpServer(const std::string& bind, int port, const HttpLimits& limits, HttpHandler handler)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.handler = std::move(handler);
    s.limits = limits;
    bool ipv6 = false;
    s.listen_fd = listening_socket(bind, port, ipv6);
    raise_open_files_limit(limits.max_connections);

    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD;
    if (ipv6) flags |= MHD_USE_IPv6;
    s.daemon = MHD_start_daemon(flags, 0, nullptr, nullptr, &on_request, &s, MHD_OPTION_LISTEN_SOCKET, s.listen_fd,
                                MHD_OPTION_THREAD_POOL_SIZE, limits.threads, MHD_OPTION_CONNECTION_LIMIT,
                                limits.max_connections, MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.request_memory,
                                MHD_OPTION_CONNECTION_TIMEOUT, unsigned(limits.idle_timeout.count()),
                                MHD_OPTION_NOTIFY_CONNECTION, &on_connection, &s, MHD_OPTION_NOTIFY_COMPLETED,
                                &on_completed, &s, MHD_OPTION_URI_LOG_CALLBACK, &on_request_line, &s, MHD_OPTION_END);
    if (!s.daemon) {
        ::close(s.listen_fd);
        throw std::runtime_error("cannot start the HTTP server on " + url_text(bind, port) +
                                 " (libmicrohttpd refused its settings)");
    }
    s.watch = std::thread([&s] { s.watch_heads(); });
}

HttpServer::~HttpServer() {
    State& s = *state_;
    MHD_stop_daemon(s.daemon);  // closes the connections and the listening socket
    {
        std::lock_guard lock(s.mutex);
        s.stopping = true;
    }
    s.wake.notify_all();
    s.watch.join();
}

int HttpServer::port() const { return bound_port(state_->listen_fd); }

}  // namespace dtb::serve
