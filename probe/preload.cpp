#include "probe/preload.hpp"

#include <vector>

namespace dtb::probe {

namespace {

Failure block_failure(const compress::Error& e) {
    return Failure{e.code == compress::ErrorCode::io ? Status::io_error : Status::corrupt_table, e.message};
}

}  // namespace

std::optional<Failure> preload(const Tablebase& tb, VariantId variant, int max_pieces, bool wdl, bool dtw,
                               PreloadReport& report) {
    std::vector<compress::Metric> metrics;
    if (wdl) metrics.push_back(compress::Metric::wdl);
    if (dtw) metrics.push_back(compress::Metric::dtw);
    bool full = false;  // once a block did not fit, the rest are only counted
    for (const compress::Metric metric : metrics) {
        for (const TableName& name : tb.tables_up_to(variant, max_pieces, metric)) {
            auto table = tb.table(variant, name.signature, metric);
            if (!table) return table.take_error();
            const compress::TableFile& file = *(*table)->file;
            ++report.tables;
            bool whole = true;
            for (std::uint64_t b = 0; b < file.header().block_count; ++b) {
                const std::uint64_t bytes = file.block_bytes(b);
                ++report.blocks;
                report.bytes += bytes;
                bool cached = false;
                if (full) {
                    cached = file.block_cached(b);
                } else {
                    auto r = file.cache_block(b, false);
                    if (!r) return block_failure(r.error());
                    cached = *r;
                    full = !cached;
                }
                if (cached) {
                    ++report.blocks_cached;
                    report.bytes_cached += bytes;
                }
                whole = whole && cached;
            }
            if (!whole && report.first_incomplete.empty()) report.first_incomplete = file.path().filename().string();
        }
    }
    return std::nullopt;
}

}  // namespace dtb::probe
