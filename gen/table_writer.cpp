#include "gen/table_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "compress/table_file.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

namespace {

compress::TableDescription describe(const TableLayout& t, compress::Metric metric, bool side_not_stored = false) {
    compress::TableDescription d;
    d.variant = file_variant(t.variant);
    d.material = file_material(t.signature);
    d.metric = metric;
    d.index_scheme = t.index_version;
    d.longest_win = t.longest.win;
    d.longest_loss = t.longest.loss;
    // Format 2 files stay byte for byte what format 2 writers wrote; the
    // exact table stores every position.
    if (t.format_version >= 3 && metric != compress::Metric::exact)
        d.flags = compress::kFlagCapturesNotStored | (side_not_stored        ? compress::kFlagSideNotStored
                                                      : t.threats_not_stored ? compress::kFlagThreatsNotStored
                                                                             : 0);
    return d;
}

// Symbols made from the values block by block, as the writer asks for them.
template <class S, class F>
compress::SymbolSource<S> symbols_of(const ValueSource& values, F symbol) {
    return [&values, symbol](std::uint64_t first, std::span<S> out) {
        std::vector<int> v(out.size());
        values(first, v);
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = S(symbol(v[j]));
    };
}

}  // namespace

CompressedSizes write_compressed_tables(const std::filesystem::path& dir, const TableLayout& t,
                                        const ValueSource& values) {
    // Settings measured on Russian 5- and 6-piece tables (BENCHMARKS.md):
    // WDL packed two bits a symbol in blocks of 32768 positions (8 KiB) at
    // level 12, 3.5% larger than level 15 in 40% of the time; DTW a byte a
    // symbol in blocks of 8192 at level 7, as small as level 9 in half the
    // time and far under its size target.
    compress::WriterOptions wdl_options;
    wdl_options.symbol_bits = 2;
    wdl_options.positions_per_block = 32768;
    wdl_options.zstd_level = 12;
    compress::WriterOptions dtw_options;
    dtw_options.positions_per_block = 8192;
    dtw_options.zstd_level = 7;
    wdl_options.format_version = dtw_options.format_version = t.format_version;

    const auto wdl_path = dir / table_file_name(t.variant, t.signature, compress::Metric::wdl);
    compress::write_table(
        wdl_path, describe(t, compress::Metric::wdl), t.positions,
        symbols_of<std::uint8_t>(values, [](int v) { return v == kDraw  ? kWdlDraw
                                                            : is_win(v) ? kWdlWin
                                                                        : kWdlLoss; }),
        compress::DontCare::bitmap(t.wdl_dont_care->words()), wdl_options);

    const auto dtw_path = dir / table_file_name(t.variant, t.signature, compress::Metric::dtw);
    const auto dtw = [](int v) { return v == kDraw ? std::uint16_t(0) : dtw_symbol(v); };
    const auto dont_care = compress::DontCare::bitmap(t.dtw_dont_care->words());
    const int longest = std::max(t.longest.win, t.longest.loss);
    if (longest < 0 || dtw_symbol(longest) <= 0xFF)
        compress::write_table(dtw_path, describe(t, compress::Metric::dtw), t.positions,
                              symbols_of<std::uint8_t>(values, dtw), dont_care, dtw_options);
    else
        compress::write_table(dtw_path, describe(t, compress::Metric::dtw), t.positions,
                              symbols_of<std::uint16_t>(values, dtw), dont_care, dtw_options);
    return {std::filesystem::file_size(wdl_path), std::filesystem::file_size(dtw_path)};
}

CompressedSizes write_unstored_tables(const std::filesystem::path& dir, const TableLayout& t) {
    if (t.format_version < 3) throw std::invalid_argument("only format 3 leaves a whole side out");
    compress::WriterOptions options;
    options.positions_per_block = compress::kMaxPositionsPerBlock;
    options.format_version = t.format_version;
    const auto nothing = [](std::uint64_t, std::span<std::uint8_t> out) { std::fill(out.begin(), out.end(), 0); };
    const auto every = compress::DontCare::predicate([](std::uint64_t) { return true; });
    CompressedSizes sizes;
    for (const compress::Metric metric : {compress::Metric::wdl, compress::Metric::dtw}) {
        options.symbol_bits = metric == compress::Metric::wdl ? 2 : 8;
        const auto path = dir / table_file_name(t.variant, t.signature, metric);
        compress::write_table(path, describe(t, metric, true), t.positions,
                              compress::SymbolSource<std::uint8_t>(nothing), every, options);
        (metric == compress::Metric::wdl ? sizes.wdl_bytes : sizes.dtw_bytes) = std::filesystem::file_size(path);
    }
    return sizes;
}

void write_exact_table(const std::filesystem::path& dir, const TableLayout& t, const ValueSource& values,
                       int symbol_bytes, std::uint32_t positions_per_block, bool durable) {
    // zstd's fastest regular level: written once, read once or twice.
    compress::WriterOptions o;
    o.positions_per_block = positions_per_block;
    o.durable = durable;
    o.zstd_level = 1;
    const auto path = dir / table_file_name(t.variant, t.signature, compress::Metric::exact);
    if (symbol_bytes == 1)
        compress::write_table(path, describe(t, compress::Metric::exact), t.positions,
                              symbols_of<std::uint8_t>(values, [](int v) { return encode_value<std::uint8_t>(v); }), {},
                              o);
    else
        compress::write_table(path, describe(t, compress::Metric::exact), t.positions,
                              symbols_of<std::uint16_t>(values, [](int v) { return encode_value<std::uint16_t>(v); }),
                              {}, o);
}

}  // namespace dtb
