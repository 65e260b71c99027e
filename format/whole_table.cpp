#include "format/whole_table.hpp"

#include "format/reader.hpp"

namespace dtb::format {

Result<WholeTable> read_whole_table(const std::filesystem::path& path, int threads) {
    auto file = TableFile::open(path, nullptr);
    if (!file) return file.take_error();
    WholeTable table;
    table.header = (*file)->header();
    std::optional<Error> failure;
    if (table.header.symbol_bits == 16) {
        table.words.resize(table.header.position_count);
        failure = (*file)->read_all(std::span<std::uint16_t>(table.words), threads);
    } else {
        table.bytes.resize(table.header.position_count);
        failure = (*file)->read_all(std::span<std::uint8_t>(table.bytes), threads);
    }
    if (failure) return std::move(*failure);
    return table;
}

}  // namespace dtb::format
