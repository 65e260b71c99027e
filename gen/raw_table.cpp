#include "gen/raw_table.hpp"

#include <stdexcept>
#include <string>

#include "compress/table_file.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

namespace {

std::runtime_error file_error(const std::filesystem::path& path, const std::string& what) {
    return std::runtime_error(path.string() + ": " + what);
}

RawTableHeader raw_header(const std::filesystem::path& path, const compress::Header& h) {
    const auto variant = variant_from_file(h.table.variant);
    if (h.table.metric != compress::Metric::exact) throw file_error(path, "not an exact (raw) table");
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

}  // namespace

int RawTable::value(std::uint64_t i) const {
    return header.symbol_bytes == 1 ? decode_value(bytes[i]) : decode_value(words[i]);
}

RawTableHeader read_raw_header(const std::filesystem::path& path) {
    auto file = compress::TableFile::open(path, nullptr);
    if (!file) throw std::runtime_error(file.error().message);
    return raw_header(path, (*file)->header());
}

RawTable read_raw_table(const std::filesystem::path& path) {
    auto whole = compress::read_whole_table(path);
    if (!whole) throw std::runtime_error(whole.error().message);
    RawTable t;
    t.header = raw_header(path, whole->header);
    t.bytes = std::move(whole->bytes);
    t.words = std::move(whole->words);
    return t;
}

}  // namespace dtb
