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
    // Format 3 leaves a symmetric table's threat positions out; a pair of
    // two tables leaves one whole side out instead (leave_out_larger_side), and
    // the side kept must then store its threat positions, which are searched
    // into the side left out.
    const bool threats = settings_.format_version >= 3 && indexes_.size() == 1;
    symbols.for_each_run([&](std::uint64_t first, std::span<const std::uint16_t> run) {
        std::uint64_t w = 0, d = 0, l = 0, c = 0;
        int longest_w = -1, longest_l = -1;
        typename PositionIndex<V>::Cursor cursor(index);
        // A run starts on a word of the bitmaps: each word is gathered here
        // and stored once (a locked instruction a position cost about 1% of
        // a Russian <= 5 build).
        std::uint64_t out_bits = 0, draw_bits = 0;
        for (std::size_t j = 0; j < run.size(); ++j) {
            const std::uint64_t i = first + j;
            const int v = level_value(run[j]);
            const bool capture = level_capture(run[j]);
            if (capture) ++c;
            const bool out = capture || (threats && is_unstored_threat(cursor.at(i)));
            out_bits |= std::uint64_t(out) << (i % 64);
            draw_bits |= std::uint64_t(out || v == kDraw) << (i % 64);
            if (i % 64 == 63 || j + 1 == run.size()) {
                left_out.set_word_bits(i / 64, out_bits);
                draws_or_left_out.set_word_bits(i / 64, draw_bits);
                out_bits = draw_bits = 0;
            }
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
    layout.threats_not_stored = threats;
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
    if (settings_.exact_values) {
        // Every value, capture positions included, for the pairs built on
        // this side in this run (exact_values_dir), before the .wdl and .dtw
        // files: a finished table's values are there whenever the run wrote
        // them. Read at random a value at a time, through the same windows
        // as the .dtw files: blocks of 16 KiB decompressed. Not flushed
        // (an fsync a table made a Russian <= 5 build two thirds longer):
        // after a crash a damaged block fails its checksum, and the reader
        // goes back to the .wdl and .dtw files (ChildTables).
        const auto kept = exact_values_dir(settings_.dir);
        std::filesystem::create_directories(kept);
        write_exact_table(kept, layout, values, symbol_bytes, std::uint32_t(16384 / symbol_bytes), false);
        if (read_errors.failed()) {
            std::filesystem::remove(kept / table_file_name(settings_.variant, st.signature, compress::Metric::exact));
            read_errors.rethrow();
        }
    }
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

// Format 3, a pair of two tables: the side whose WDL file came out larger
// stores nothing (kFlagSideNotStored); a reader finds its values one ply
// away, in the side kept. Measured on Russian <= 5: keeping the smaller
// side of each pair leaves 41% of the WDL bytes and 45% of the DTW bytes
// (BENCHMARKS.md, "Table format 3"). A side's two files go together (a
// probe reads WDL, then DTW at the same index), and WDL decides, being the
// file engines hold in memory; DTW choosing for itself would have been 9%
// smaller (7,752,620 bytes). Ties leave out the key's mirror, so every
// process and every run chooses alike.
template <class V>
void PairBuilder<V>::leave_out_larger_side(std::vector<TableStats>& written) const {
    const auto side_of = [&](const TableStats& st) { return st.signature == indexes_[0].signature() ? 0 : 1; };
    std::vector<std::uint64_t> wdl_bytes(2, 0);
    for (const TableStats& st : written) wdl_bytes[std::size_t(side_of(st))] = st.wdl_bytes;
    if (parts_ > 1) wdl_bytes = settings_.team->sum(wdl_bytes);
    const int left_out = wdl_bytes[0] > wdl_bytes[1] ? 0 : 1;
    team_step([&] {
        for (TableStats& st : written) {
            if (side_of(st) != left_out) continue;
            TableLayout layout;
            layout.variant = settings_.variant;
            layout.signature = st.signature;
            layout.positions = st.positions;
            layout.index_version = PositionIndex<V>::kVersion;
            layout.longest = {st.longest_win, st.longest_loss};
            layout.format_version = settings_.format_version;
            // The full files stay for the rest of the run, for the pairs
            // built on this one to read instead of searching (ChildTables).
            const auto kept = full_sides_dir(settings_.dir);
            std::filesystem::create_directories(kept);
            for (const compress::Metric metric : {compress::Metric::wdl, compress::Metric::dtw}) {
                const std::string name = table_file_name(settings_.variant, st.signature, metric);
                std::filesystem::rename(settings_.dir / name, kept / name);
            }
            const CompressedSizes sizes = write_unstored_tables(settings_.dir, layout);
            st.wdl_bytes = sizes.wdl_bytes;
            st.dtw_bytes = sizes.dtw_bytes;
        }
    });
}

}  // namespace dtb
