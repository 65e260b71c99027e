// PairBuilder::write_side: a side's files from the pair's solved levels (its
// scratch files, or the levels held in memory), in index order (included by
// pair_builder.hpp).
#pragma once

#include <mutex>

#include "gen/pair_builder.hpp"
#include "gen/parallel_errors.hpp"
#include "tables/stored_positions.hpp"

namespace dtb {

template <class V>
TableStats PairBuilder<V>::write_side(int s, int symbol_bytes) const {
    const PositionIndex<V>& index = indexes_[std::size_t(s)];
    std::vector<std::unique_ptr<compress::TableFile>> files(static_cast<std::size_t>(level_count_));
    std::vector<LevelReader> levels_read;
    std::vector<std::uint64_t> base(static_cast<std::size_t>(level_count_), 0);
    for (int level = 0; level < level_count_; ++level) {
        if (level_positions(level) != 0 && !holding()) {
            auto file = compress::TableFile::open(level_file_path(work_, level), nullptr);
            if (!file) throw std::runtime_error(file.error().message);
            files[std::size_t(level)] = std::move(*file);
        }
        levels_read.push_back(level_reader(level, files[std::size_t(level)].get()));
        if (s == 1) base[std::size_t(level)] = levels_[0].placements(level) * indexes_[0].king_ways();
    }
    SideSymbols<V> symbols(index, levels_[std::size_t(s)], levels_read, base);

    // First pass: what the side holds, and its don't-care positions.
    const std::uint64_t n = index.size();
    Bitmap left_out(n), draws_or_left_out(n);
    TableStats st;
    st.signature = index.signature();
    st.positions = n;
    std::uint64_t wins = 0, draws = 0, losses = 0, capture_count = 0;
    int longest_win = -1, longest_loss = -1;
    std::mutex merge;
    const bool threats = settings_.format_version >= 3;
    symbols.for_each_run([&](std::uint64_t first, std::span<const std::uint16_t> run) {
        std::uint64_t w = 0, d = 0, l = 0, c = 0;
        int longest_w = -1, longest_l = -1;
        typename PositionIndex<V>::Cursor cursor(index);
        for (std::size_t j = 0; j < run.size(); ++j) {
            const std::uint64_t i = first + j;
            const int v = level_value(run[j]);
            const bool capture = level_capture(run[j]);
            if (capture) ++c;
            const bool out = capture || (threats && is_unstored_threat(cursor.at(i)));
            if (out) left_out.set(i);
            if (out || v == kDraw) draws_or_left_out.set(i);
            if (v == kDraw) {
                ++d;
            } else if (is_win(v)) {
                ++w;
                longest_w = std::max(longest_w, v);
            } else {
                ++l;
                longest_l = std::max(longest_l, v);
            }
        }
        const std::lock_guard<std::mutex> lock(merge);
        wins += w;
        draws += d;
        losses += l;
        capture_count += c;
        longest_win = std::max(longest_win, longest_w);
        longest_loss = std::max(longest_loss, longest_l);
    });
    st.wins = wins;
    st.draws = draws;
    st.losses = losses;
    st.longest_win = longest_win;
    st.longest_loss = longest_loss;
    st.capture_positions = capture_count;
    st.illegal_slots = illegal_[std::size_t(s)];
    st.symbol_bytes = symbol_bytes;

    TableLayout layout;
    layout.variant = settings_.variant;
    layout.signature = st.signature;
    layout.positions = n;
    layout.index_version = PositionIndex<V>::kVersion;
    layout.longest = {longest_win, longest_loss};
    layout.wdl_dont_care = &left_out;
    layout.dtw_dont_care = &draws_or_left_out;
    layout.format_version = settings_.format_version;
    // The first pass read every block already, so a failure here is an I/O
    // error at worst: it is kept, and the files written are removed below.
    ParallelErrors read_errors;
    const ValueSource values = [&symbols, &read_errors](std::uint64_t first, std::span<int> out) {
        std::vector<std::uint16_t> raw(out.size(), kLevelDraw);
        read_errors.run([&] { symbols.fill(first, raw); });
        for (std::size_t j = 0; j < out.size(); ++j) out[j] = level_value(raw[j]);
    };
    const auto check_reads = [&](compress::Metric metric) {
        if (!read_errors.failed()) return;
        std::filesystem::remove(settings_.dir / table_file_name(settings_.variant, st.signature, metric));
        read_errors.rethrow();
    };
    settings_.progress("compressing " + st.signature.name(), 0, 0);
    const CompressedSizes sizes = write_compressed_tables(settings_.dir, layout, values);
    check_reads(compress::Metric::wdl);
    check_reads(compress::Metric::dtw);
    st.wdl_bytes = sizes.wdl_bytes;
    st.dtw_bytes = sizes.dtw_bytes;
    if (settings_.keep_raw) {
        write_exact_table(settings_.dir, layout, values, symbol_bytes);
        check_reads(compress::Metric::exact);
        st.bytes = std::filesystem::file_size(
            settings_.dir / table_file_name(settings_.variant, st.signature, compress::Metric::exact));
    }
    st.seconds = solve_seconds_;
    st.positions_in_flight = positions_in_flight();
    return st;
}

}  // namespace dtb
