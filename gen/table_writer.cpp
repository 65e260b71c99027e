#include "gen/table_writer.hpp"

#include <omp.h>

#include <vector>

#include "format/table_file.hpp"
#include "gen/bitmap.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

namespace {

// Which positions of `sig` have a capture for the side to move (when the
// solver's own record of them is not at hand: tables compressed again).
template <class V>
Bitmap find_captures(const MaterialSignature& sig) {
    const PositionIndex<V> index(sig);
    Bitmap captures(index.size());
#pragma omp parallel
    {
        typename PositionIndex<V>::Cursor cursor(index);
#pragma omp for schedule(dynamic, 64)
        for (std::uint64_t w = 0; w < captures.word_count(); ++w) {
            std::uint64_t bits = 0;
            for (std::uint64_t i = w * 64; i < std::min(index.size(), (w + 1) * 64); ++i)
                if (MoveGenerator<V>::has_capture(cursor.at(i))) bits |= bit(int(i % 64));
            captures.word(w) = bits;
        }
    }
    return captures;
}

format::TableDescription describe(VariantId variant, const MaterialSignature& sig, format::Metric metric,
                                  std::uint32_t index_scheme, LongestValues extremes) {
    format::TableDescription d;
    d.variant = file_variant(variant);
    d.material = file_material(sig);
    d.metric = metric;
    d.index_scheme = index_scheme;
    d.longest_win = extremes.win;
    d.longest_loss = extremes.loss;
    return d;
}

// The symbols are made from the solver's values block by block as the
// writer asks for them; the only extra memory is one bit per position
// marking capture positions.
template <class V, class T>
CompressedSizes write_tables(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig,
                             const T* values, std::uint64_t n, LongestValues extremes, const Bitmap* known_captures) {
    Bitmap found;
    if (!known_captures) found = find_captures<V>(sig);
    const Bitmap& capture_bits = known_captures ? *known_captures : found;
    int longest = 0;
    std::uint64_t capture_count = 0;
#pragma omp parallel for schedule(static) reduction(max : longest) reduction(+ : capture_count)
    for (std::uint64_t w = 0; w < capture_bits.word_count(); ++w) {
        capture_count += std::uint64_t(popcount(capture_bits.word(w)));
        for (std::uint64_t i = w * 64; i < std::min(n, (w + 1) * 64); ++i) {
            const int v = decode_value(values[i]);
            if (v != kDraw) longest = std::max(longest, v);
        }
    }
    const auto is_capture = [&capture_bits](std::uint64_t i) { return capture_bits.test(i); };
    const auto is_draw_or_capture = [&](std::uint64_t i) {
        return decode_value(values[i]) == kDraw || capture_bits.test(i);
    };

    // Settings measured on Russian 5- and 6-piece tables (BENCHMARKS.md):
    // WDL packed two bits a symbol in blocks of 32768 positions (8 KiB) at
    // level 12, 3.5% larger than level 15 in 40% of the time; DTW a byte a
    // symbol in blocks of 8192 at level 7, as small as level 9 in half the
    // time and far under its size target.
    format::WriterOptions wdl_options;
    wdl_options.symbol_bits = 2;
    wdl_options.positions_per_block = 32768;
    wdl_options.zstd_level = 12;
    format::WriterOptions dtw_options;
    dtw_options.positions_per_block = 8192;
    dtw_options.zstd_level = 7;

    const auto wdl_description = describe(variant, sig, format::Metric::wdl, PositionIndex<V>::kVersion, extremes);
    const auto dtw_description = describe(variant, sig, format::Metric::dtw, PositionIndex<V>::kVersion, extremes);
    CompressedSizes sizes;
    sizes.capture_positions = capture_count;

    const auto wdl_path = dir / table_file_name(variant, sig, format::Metric::wdl);
    format::write_table(wdl_path, wdl_description, n,
                        format::SymbolSource<std::uint8_t>([values](std::uint64_t first, std::span<std::uint8_t> out) {
                            for (std::size_t j = 0; j < out.size(); ++j) {
                                const int v = decode_value(values[first + j]);
                                out[j] = v == kDraw ? kWdlDraw : is_win(v) ? kWdlWin : kWdlLoss;
                            }
                        }),
                        format::DontCare::predicate(is_capture), wdl_options);

    const auto dtw_path = dir / table_file_name(variant, sig, format::Metric::dtw);
    auto dtw_source = [values]<class S>(std::uint64_t first, std::span<S> out) {
        for (std::size_t j = 0; j < out.size(); ++j) {
            const int v = decode_value(values[first + j]);
            out[j] = v == kDraw ? S(0) : S(dtw_symbol(v));
        }
    };
    if (dtw_symbol(longest) <= 0xFF)
        format::write_table(
            dtw_path, dtw_description, n,
            format::SymbolSource<std::uint8_t>([&](std::uint64_t f, std::span<std::uint8_t> o) { dtw_source(f, o); }),
            format::DontCare::predicate(is_draw_or_capture), dtw_options);
    else
        format::write_table(
            dtw_path, dtw_description, n,
            format::SymbolSource<std::uint16_t>([&](std::uint64_t f, std::span<std::uint16_t> o) { dtw_source(f, o); }),
            format::DontCare::predicate(is_draw_or_capture), dtw_options);
    sizes.wdl_bytes = std::filesystem::file_size(wdl_path);
    sizes.dtw_bytes = std::filesystem::file_size(dtw_path);
    return sizes;
}

}  // namespace

template <class T>
CompressedSizes write_compressed_tables(const std::filesystem::path& dir, VariantId variant,
                                        const MaterialSignature& sig, std::span<const T> values, LongestValues longest,
                                        const Bitmap* captures) {
    return with_variant(variant, [&]<class V>() {
        return write_tables<V, T>(dir, variant, sig, values.data(), values.size(), longest, captures);
    });
}

template CompressedSizes write_compressed_tables<std::uint8_t>(const std::filesystem::path&, VariantId,
                                                               const MaterialSignature&, std::span<const std::uint8_t>,
                                                               LongestValues, const Bitmap*);
template CompressedSizes write_compressed_tables<std::uint16_t>(const std::filesystem::path&, VariantId,
                                                                const MaterialSignature&,
                                                                std::span<const std::uint16_t>, LongestValues,
                                                                const Bitmap*);

}  // namespace dtb
