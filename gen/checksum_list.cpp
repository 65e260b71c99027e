#include "gen/checksum_list.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "compress/atomic_file.hpp"
#include "tables/table_names.hpp"

namespace dtb {

namespace {

constexpr std::size_t kReadBytes = std::size_t{1} << 20;

// checksum_file without the throw: 0, or the errno of what failed.
int try_checksum_file(const std::filesystem::path& path, FileChecksum& out) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
    if (!state || XXH3_64bits_reset(state.get()) != XXH_OK) {
        ::close(fd);
        return ENOMEM;
    }
    std::vector<char> buffer(kReadBytes);
    std::uint64_t size = 0;
    int error = 0;
    for (;;) {
        const ssize_t got = ::read(fd, buffer.data(), buffer.size());
        if (got < 0) {
            if (errno == EINTR) continue;
            error = errno;
            break;
        }
        if (got == 0) break;
        XXH3_64bits_update(state.get(), buffer.data(), std::size_t(got));
        size += std::uint64_t(got);
    }
    ::close(fd);
    if (error) return error;
    out = {size, XXH3_64bits_digest(state.get())};
    return 0;
}

// The metrics whose files a set is distributed with: what engines and dtb read.
constexpr compress::Metric kDistributedMetrics[] = {compress::Metric::wdl, compress::Metric::dtw,
                                                    compress::Metric::dtc};

bool distributed_metric(compress::Metric m) {
    return std::find(std::begin(kDistributedMetrics), std::end(kDistributedMetrics), m) !=
           std::end(kDistributedMetrics);
}

// ".wdl", ".dtw" or ".dtc": a distributed file's extension, whatever the rest of its name.
bool distributed_extension(std::string_view extension) {
    return std::any_of(std::begin(kDistributedMetrics), std::end(kDistributedMetrics), [&](compress::Metric m) {
        return extension.size() > 1 && extension.front() == '.' && extension.substr(1) == metric_extension(m);
    });
}

// The entries of `dir`'s regular files, by name; throws naming the directory.
std::vector<std::string> file_names(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec) throw std::runtime_error(dir.string() + ": " + ec.message());
    std::vector<std::string> names;
    for (const auto& entry : it) {
        std::error_code type_ec;
        if (entry.is_regular_file(type_ec)) names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> fields(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

std::optional<std::uint64_t> parse_hex16(std::string_view s) {
    if (s.size() != 16) return std::nullopt;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    std::uint64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v, 16);
    return v;
}

std::optional<std::uint64_t> parse_decimal(std::string_view s) {
    if (s.empty()) return std::nullopt;
    for (char c : s)
        if (c < '0' || c > '9') return std::nullopt;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

}  // namespace

std::string checksum_hex(std::uint64_t xxh3) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, xxh3 >>= 4) s[std::size_t(i)] = digits[xxh3 & 15];
    return s;
}

FileChecksum checksum_file(const std::filesystem::path& path) {
    FileChecksum out;
    if (const int error = try_checksum_file(path, out))
        throw std::runtime_error(path.string() + ": " + std::strerror(error));
    return out;
}

std::vector<std::string> distributed_table_files(VariantId variant, const std::filesystem::path& dir) {
    std::vector<std::string> out;
    for (const std::string& name : file_names(dir)) {
        const auto table = parse_table_file_name(name);
        if (table && table->variant == variant && distributed_metric(table->metric)) out.push_back(name);
    }
    return out;
}

ChecksumList make_checksum_list(VariantId variant, const std::filesystem::path& dir, std::string written_by) {
    ChecksumList list;
    list.variant = variant;
    list.written_by = std::move(written_by);
    const std::vector<std::string> names = distributed_table_files(variant, dir);
    list.entries.resize(names.size());
    std::vector<int> errors(names.size(), 0);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(names.size()); ++i) {
        ChecksumEntry& e = list.entries[std::size_t(i)];
        e.name = names[std::size_t(i)];
        FileChecksum sum;
        errors[std::size_t(i)] = try_checksum_file(dir / e.name, sum);
        e.size = sum.size;
        e.xxh3 = sum.xxh3;
    }
    std::set<std::string> signatures;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (errors[i]) throw std::runtime_error((dir / names[i]).string() + ": " + std::strerror(errors[i]));
        const auto table = parse_table_file_name(names[i]);
        list.entries[i].pieces = table->signature.total();
        list.pieces = std::max(list.pieces, list.entries[i].pieces);
        signatures.insert(table->signature.name());
    }
    list.tables = int(signatures.size());
    return list;
}

std::string checksum_list_text(const ChecksumList& list) {
    std::string text = std::string(kChecksumListTitle) + "\n";
    text += "# variant: " + std::string(variant_name(list.variant)) + "\n";
    text += "# pieces: " + std::to_string(list.pieces) + "\n";
    text += "# tables: " + std::to_string(list.tables) + "\n";
    if (!list.written_by.empty()) text += "# written by: " + list.written_by + "\n";
    text += "# columns: XXH3-64 of the whole file (16 hex digits), size in bytes, file name\n";
    for (const ChecksumEntry& e : list.entries)
        text += checksum_hex(e.xxh3) + "  " + std::to_string(e.size) + "  " + e.name + "\n";
    return text;
}

ChecksumList parse_checksum_list(std::string_view text, const std::string& where) {
    const auto fail = [&](std::size_t line, const std::string& what) -> BadChecksumList {
        return BadChecksumList(where + (line ? ":" + std::to_string(line) : std::string()) + ": " + what);
    };
    struct Header {
        std::string value;
        std::size_t line = 0;
    };
    std::map<std::string, Header> header;  // variant, pieces, tables, written by
    struct Line {
        ChecksumEntry entry;
        std::size_t line;
    };
    std::vector<Line> lines;
    bool titled = false;
    std::size_t number = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++number;
        if (line.empty()) continue;
        if (!titled) {
            if (line != kChecksumListTitle)
                throw fail(number,
                           "not a dtb checksum list: its first line must be '" + std::string(kChecksumListTitle) + "'");
            titled = true;
            continue;
        }
        if (line.front() == '#') {
            // "# key: value" for the keys a reader needs; any other comment is free text.
            const std::string_view body = trim(line.substr(1));
            const std::size_t colon = body.find(':');
            if (colon == std::string_view::npos) continue;
            const std::string key(trim(body.substr(0, colon)));
            if (key != "variant" && key != "pieces" && key != "tables" && key != "written by") continue;
            if (header.count(key))
                throw fail(number, "a second '# " + key + ":' line (the first is line " +
                                       std::to_string(header[key].line) + ")");
            header[key] = {std::string(trim(body.substr(colon + 1))), number};
            continue;
        }
        const std::vector<std::string_view> f = fields(line);
        const auto hash = f.size() == 3 ? parse_hex16(f[0]) : std::nullopt;
        const auto size = f.size() == 3 ? parse_decimal(f[1]) : std::nullopt;
        if (!hash || !size)
            throw fail(number,
                       "not an entry: expected the XXH3-64 (16 hex digits, 0-9 a-f), the size in bytes and "
                       "the file name, separated by spaces; found '" +
                           std::string(line) + "'");
        lines.push_back({ChecksumEntry{std::string(f[2]), *size, *hash, 0}, number});
    }
    if (!titled) throw fail(0, "empty: not a dtb checksum list");

    ChecksumList list;
    const auto required = [&](const char* key) -> const Header& {
        const auto it = header.find(key);
        if (it == header.end()) throw fail(0, std::string("no '# ") + key + ":' line");
        return it->second;
    };
    const Header& variant = required("variant");
    const auto id = parse_variant(variant.value);
    if (!id || variant.value != variant_name(*id))
        throw fail(variant.line, "unknown variant '" + variant.value + "' (" + variant_choices() + ")");
    list.variant = *id;
    const auto count = [&](const char* key, std::uint64_t least) {
        const Header& h = required(key);
        const auto n = parse_decimal(h.value);
        if (!n || *n < least || *n > 1'000'000)
            throw fail(h.line, std::string("bad '") + key + ":' value '" + h.value + "'");
        return int(*n);
    };
    list.pieces = count("pieces", 2);
    list.tables = count("tables", 1);
    if (const auto it = header.find("written by"); it != header.end()) list.written_by = it->second.value;

    std::map<std::string, std::size_t> seen;  // name -> line
    std::set<std::string> signatures;
    for (Line& l : lines) {
        ChecksumEntry& e = l.entry;
        const auto table = parse_table_file_name(e.name);
        if (!table || table->variant != list.variant || !distributed_metric(table->metric))
            throw fail(l.line, "'" + e.name + "' is not the name of a " + std::string(variant_name(list.variant)) +
                                   " table file (.wdl, .dtw or .dtc), such as " +
                                   std::string(variant_name(list.variant)) + "-KKvK.wdl");
        if (const auto [it, fresh] = seen.emplace(e.name, l.line); !fresh)
            throw fail(l.line, e.name + " is listed twice (first on line " + std::to_string(it->second) + ")");
        e.pieces = table->signature.total();
        if (e.pieces > list.pieces)
            throw fail(l.line, e.name + " has " + std::to_string(e.pieces) +
                                   " pieces, more than the list's '# pieces: " + std::to_string(list.pieces) + "'");
        signatures.insert(table->signature.name());
        list.entries.push_back(std::move(e));
    }
    if (list.entries.empty()) throw fail(0, "no entries");
    if (int(signatures.size()) != list.tables)
        throw fail(header["tables"].line, "'# tables: " + std::to_string(list.tables) + "', and the entries name " +
                                              std::to_string(signatures.size()) + " (is the list cut short?)");
    std::sort(list.entries.begin(), list.entries.end(),
              [](const ChecksumEntry& a, const ChecksumEntry& b) { return a.name < b.name; });
    return list;
}

ChecksumList read_checksum_list(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(path.string() + ": " + std::strerror(errno));
    std::string text;
    std::vector<char> buffer(std::size_t{1} << 16);
    for (;;) {
        const ssize_t got = ::read(fd, buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            throw std::runtime_error(path.string() + ": " + std::strerror(error));
        }
        if (got == 0) break;
        // A list of the largest sets is tens of kilobytes: anything far
        // larger is not one, and is not read whole into memory.
        if (text.size() + std::size_t(got) > (std::size_t{64} << 20)) {
            ::close(fd);
            throw BadChecksumList(path.string() + ": over 64 MiB: not a dtb checksum list");
        }
        text.append(buffer.data(), std::size_t(got));
    }
    ::close(fd);
    return parse_checksum_list(text, path.string());
}

void write_checksum_list(const std::filesystem::path& path, const ChecksumList& list) {
    compress::write_file_atomically(path, checksum_list_text(list));
}

ChecksumCheck check_checksum_list(const ChecksumList& list, const std::filesystem::path& dir, int max_pieces) {
    const std::vector<std::string> present = file_names(dir);  // first: a directory that cannot be read stops here
    const auto in_scope = [&](int pieces) { return max_pieces <= 0 || pieces <= max_pieces; };
    std::vector<const ChecksumEntry*> checked;
    std::set<std::string> signatures;
    for (const ChecksumEntry& e : list.entries)
        if (in_scope(e.pieces)) {
            checked.push_back(&e);
            signatures.insert(parse_table_file_name(e.name)->signature.name());
        }
    std::vector<FileChecksum> found(checked.size());
    std::vector<int> errors(checked.size(), 0);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(checked.size()); ++i)
        errors[std::size_t(i)] = try_checksum_file(dir / checked[std::size_t(i)]->name, found[std::size_t(i)]);

    ChecksumCheck out;
    out.files_checked = checked.size();
    out.tables_checked = signatures.size();
    for (std::size_t i = 0; i < checked.size(); ++i) {
        const ChecksumEntry& e = *checked[i];
        if (errors[i] == ENOENT)
            out.missing.push_back(e.name);
        else if (errors[i])
            out.unreadable.push_back({e.name, std::strerror(errors[i])});
        else if (found[i].size != e.size || found[i].xxh3 != e.xxh3)
            out.mismatched.push_back({e.name, e.size, found[i].size, e.xxh3, found[i].xxh3});
    }
    // Extra: named like a distributed file of the variant ("russian-*.wdl"),
    // a table's name or not (a renamed copy is worth saying), not listed.
    std::set<std::string> listed;
    for (const ChecksumEntry& e : list.entries) listed.insert(e.name);
    const std::string prefix = std::string(variant_name(list.variant)) + "-";
    for (const std::string& name : present) {
        if (!name.starts_with(prefix) || !distributed_extension(std::filesystem::path(name).extension().string()) ||
            listed.count(name))
            continue;
        const auto table = parse_table_file_name(name);
        if (table && !in_scope(table->signature.total())) continue;
        out.extra.push_back(name);
    }
    return out;
}

}  // namespace dtb
