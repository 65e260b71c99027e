#include "gen/raw_table.hpp"

#include <stdexcept>
#include <string>

#include "format/table_file.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

namespace {

std::runtime_error file_error(const std::filesystem::path& path, const std::string& what) {
    return std::runtime_error(path.string() + ": " + what);
}

// Exact tables are read whole, once, by the generator: blocks as large as
// the format allows (2^20 positions: 1 MiB of bytes, 2 MiB of 16-bit
// symbols, kMaxBlockBytes) and zstd's fastest regular level keep the
// writing to a fraction of the solving time.
format::WriterOptions raw_options() {
    format::WriterOptions o;
    o.positions_per_block = format::kMaxPositionsPerBlock;
    o.zstd_level = 1;
    return o;
}

format::TableDescription describe(const RawTableHeader& h) {
    format::TableDescription d;
    d.variant = file_variant(h.variant);
    d.material = file_material(h.signature);
    d.metric = format::Metric::exact;
    d.index_scheme = h.index_version;
    d.longest_win = h.longest_win;
    d.longest_loss = h.longest_loss;
    return d;
}

RawTableHeader raw_header(const std::filesystem::path& path, const format::Header& h) {
    const auto variant = variant_from_file(h.table.variant);
    if (h.table.metric != format::Metric::exact) throw file_error(path, "not an exact (raw) table");
    if (!variant) throw file_error(path, "unknown variant code " + std::to_string(h.table.variant));
    if (h.symbol_bits != 8 && h.symbol_bits != 16)
        throw file_error(path, "bad symbol width " + std::to_string(h.symbol_bits) + " bits");
    RawTableHeader r;
    r.variant = *variant;
    r.signature = signature_from_file(h.table.material);
    r.symbol_bytes = h.symbol_bits / 8;
    r.index_version = h.table.index_scheme;
    r.positions = h.position_count;
    r.longest_win = h.table.longest_win;
    r.longest_loss = h.table.longest_loss;
    return r;
}

template <class T>
void write_values(const std::filesystem::path& path, const RawTableHeader& header, std::span<const T> values) {
    if (values.size() != header.positions || sizeof(T) != std::size_t(header.symbol_bytes))
        throw std::logic_error("write_raw_table: data size does not match the header");
    try {
        format::write_table(path, describe(header), values, {}, raw_options());
    } catch (const std::invalid_argument& e) {
        throw file_error(path, e.what());
    }
}

}  // namespace

int RawTable::value(std::uint64_t i) const {
    return header.symbol_bytes == 1 ? decode_value(bytes[i]) : decode_value(words[i]);
}

void write_raw_table(const std::filesystem::path& path, const RawTableHeader& header,
                     std::span<const std::uint8_t> values) {
    write_values(path, header, values);
}

void write_raw_table(const std::filesystem::path& path, const RawTableHeader& header,
                     std::span<const std::uint16_t> values) {
    write_values(path, header, values);
}

RawTableHeader read_raw_header(const std::filesystem::path& path) {
    auto file = format::TableFile::open(path, nullptr);
    if (!file) throw std::runtime_error(file.error().message);
    return raw_header(path, (*file)->header());
}

RawTable read_raw_table(const std::filesystem::path& path) {
    auto whole = format::read_whole_table(path);
    if (!whole) throw std::runtime_error(whole.error().message);
    RawTable t;
    t.header = raw_header(path, whole->header);
    t.bytes = std::move(whole->bytes);
    t.words = std::move(whole->words);
    return t;
}

}  // namespace dtb
