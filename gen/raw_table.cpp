#include "gen/raw_table.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <xxhash.h>

#include "tables/values.hpp"

namespace dtb {

namespace {

constexpr char kMagic[8] = {'D', 'T', 'B', 'R', 'A', 'W', '\0', '\1'};

void put_u32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = std::uint8_t(v >> (8 * i));
}
void put_u64(std::uint8_t* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = std::uint8_t(v >> (8 * i));
}
std::uint32_t get_u32(const std::uint8_t* p) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t(p[i]) << (8 * i);
    return v;
}
std::uint64_t get_u64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[i]) << (8 * i);
    return v;
}

std::runtime_error file_error(const std::filesystem::path& path, const std::string& what) {
    return std::runtime_error(path.string() + ": " + what);
}

std::array<std::uint8_t, kRawHeaderSize> encode_header(const RawTableHeader& h, std::uint64_t data_checksum) {
    std::array<std::uint8_t, kRawHeaderSize> out{};
    std::memcpy(out.data(), kMagic, 8);
    out[8] = h.variant == VariantId::Russian ? 0 : 1;
    out[9] = std::uint8_t(h.signature.men[0]);
    out[10] = std::uint8_t(h.signature.kings[0]);
    out[11] = std::uint8_t(h.signature.men[1]);
    out[12] = std::uint8_t(h.signature.kings[1]);
    out[13] = std::uint8_t(h.symbol_bytes);
    put_u32(out.data() + 16, h.index_version);
    put_u64(out.data() + 24, h.positions);
    put_u64(out.data() + 32, data_checksum);
    put_u64(out.data() + 40, XXH3_64bits(out.data(), 40));
    return out;
}

RawTableHeader decode_header(const std::filesystem::path& path, const std::uint8_t* p, std::uint64_t file_size) {
    if (file_size < kRawHeaderSize) throw file_error(path, "truncated: shorter than a table header");
    if (std::memcmp(p, kMagic, 8) != 0) throw file_error(path, "not a dtb raw table (bad magic number)");
    if (get_u64(p + 40) != XXH3_64bits(p, 40)) throw file_error(path, "header checksum mismatch: the file is corrupt");
    if (p[8] > 1) throw file_error(path, "unknown variant code " + std::to_string(p[8]));
    if (p[13] != 1 && p[13] != 2) throw file_error(path, "bad symbol width " + std::to_string(p[13]));
    if (p[14] || p[15] || get_u32(p + 20)) throw file_error(path, "reserved header bytes are not zero");
    RawTableHeader h;
    h.variant = p[8] == 0 ? VariantId::Russian : VariantId::International;
    h.signature = MaterialSignature{{p[9], p[11]}, {p[10], p[12]}};
    h.symbol_bytes = p[13];
    h.index_version = get_u32(p + 16);
    h.positions = get_u64(p + 24);
    if (h.positions > (file_size - kRawHeaderSize) / std::uint64_t(h.symbol_bytes) ||
        kRawHeaderSize + h.positions * h.symbol_bytes != file_size)
        throw file_error(path, "size does not match the header: truncated or padded");
    return h;
}

}  // namespace

int RawTable::value(std::uint64_t i) const {
    return header.symbol_bytes == 1 ? decode_value(bytes[i]) : decode_value(words[i]);
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> data) {
    const std::initializer_list<std::span<const std::uint8_t>> parts{data};
    write_file_atomically(path, parts);
}

void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<std::span<const std::uint8_t>> parts) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw file_error(tmp, std::string("cannot create: ") + std::strerror(errno));
    for (const auto data : parts) {
        std::size_t done = 0;
        while (done < data.size()) {
            const ssize_t n = ::write(fd, data.data() + done, std::min<std::size_t>(data.size() - done, 1 << 30));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const int err = errno;
                ::close(fd);
                throw file_error(tmp, std::string("write failed: ") + std::strerror(err));
            }
            done += std::size_t(n);
        }
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) throw file_error(tmp, std::string("cannot flush: ") + std::strerror(errno));
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw file_error(path, "cannot rename the finished file into place: " + ec.message());
    // Make the rename itself durable.
    const int dir = ::open(path.parent_path().empty() ? "." : path.parent_path().c_str(), O_RDONLY | O_DIRECTORY);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

void write_raw_table(const std::filesystem::path& path, const RawTableHeader& header,
                     std::span<const std::uint8_t> symbol_bytes) {
    if (symbol_bytes.size() != header.positions * std::uint64_t(header.symbol_bytes))
        throw std::logic_error("write_raw_table: data size does not match the header");
    const auto head = encode_header(header, XXH3_64bits(symbol_bytes.data(), symbol_bytes.size()));
    // Written straight from the solver's array: a copy would cost as much
    // memory as the table.
    write_file_atomically(path, {std::span<const std::uint8_t>(head), symbol_bytes});
}

namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path, std::size_t limit) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw file_error(path, "cannot open (missing or unreadable)");
    in.seekg(0, std::ios::end);
    const std::uint64_t size = std::uint64_t(in.tellg());
    in.seekg(0);
    std::vector<std::uint8_t> bytes(std::min<std::uint64_t>(size, limit));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
        throw file_error(path, "read failed");
    return bytes;
}

}  // namespace

RawTableHeader read_raw_header(const std::filesystem::path& path) {
    const auto head = read_bytes(path, kRawHeaderSize);
    return decode_header(path, head.data(), std::filesystem::file_size(path));
}

RawTable read_raw_table(const std::filesystem::path& path) {
    RawTable t;
    t.header = read_raw_header(path);
    std::ifstream in(path, std::ios::binary);
    in.seekg(kRawHeaderSize);
    std::vector<std::uint8_t> data(t.header.positions * std::uint64_t(t.header.symbol_bytes));
    if (!in.read(reinterpret_cast<char*>(data.data()), std::streamsize(data.size())))
        throw file_error(path, "read failed");
    const auto head = read_bytes(path, kRawHeaderSize);
    if (get_u64(head.data() + 32) != XXH3_64bits(data.data(), data.size()))
        throw file_error(path, "data checksum mismatch: the file is corrupt");
    if (t.header.symbol_bytes == 1) {
        t.bytes = std::move(data);
    } else {
        t.words.resize(t.header.positions);
        for (std::uint64_t i = 0; i < t.header.positions; ++i)
            t.words[i] = std::uint16_t(data[2 * i] | (data[2 * i + 1] << 8));
    }
    return t;
}

}  // namespace dtb
