#include "tables/table_names.hpp"

namespace dtb {

namespace {

std::optional<compress::Metric> metric_of_extension(std::string_view extension) {
    for (const compress::Metric m :
         {compress::Metric::wdl, compress::Metric::dtw, compress::Metric::dtc, compress::Metric::exact})
        if (metric_extension(m) == extension) return m;
    return std::nullopt;
}

}  // namespace

std::optional<TableName> parse_table_file_name(std::string_view name) {
    const std::size_t dash = name.find('-');
    const std::size_t dot = name.rfind('.');
    if (dash == std::string_view::npos || dot == std::string_view::npos || dot < dash) return std::nullopt;
    const auto variant = parse_variant(name.substr(0, dash));
    const auto metric = metric_of_extension(name.substr(dot + 1));
    if (!variant || !metric) return std::nullopt;
    const auto sig = MaterialSignature::parse(name.substr(dash + 1, dot - dash - 1));
    if (!sig) return std::nullopt;
    // No side may have more pieces than it starts with, so that the index
    // of the signature exists (and every count fits 6 bits).
    const int per_side = max_pieces_per_side(*variant);
    if (sig->pieces(0) > per_side || sig->pieces(1) > per_side) return std::nullopt;
    // Only the canonical spelling: tables are looked up by that name.
    if (table_file_name(*variant, *sig, *metric) != name) return std::nullopt;
    return TableName{*variant, *sig, *metric};
}

}  // namespace dtb
