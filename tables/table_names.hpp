// What the files of a signature are called, the one parser of those names,
// how the format's opaque header bytes (variant, material) are numbered,
// and what the symbols mean: the contract between the generator that
// writes the files and the probe that reads them (docs/FORMAT.md, "Files
// of a signature").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "compress/format.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// "russian-KKKvK": every file of a signature is this and an extension.
inline std::string table_basename(VariantId variant, const MaterialSignature& sig) {
    return std::string(variant_name(variant)) + "-" + sig.name();
}

// "russian-KKKvK.json": the manifest dtb gen writes beside the tables.
inline std::string manifest_file_name(VariantId variant, const MaterialSignature& sig) {
    return table_basename(variant, sig) + ".json";
}

// The extension of a metric's table files: "wdl", "dtw", "dtc", and "raw"
// for the generator's exact values.
inline std::string_view metric_extension(compress::Metric metric) {
    switch (metric) {
        case compress::Metric::wdl:
            return "wdl";
        case compress::Metric::dtw:
            return "dtw";
        case compress::Metric::dtc:
            return "dtc";
        case compress::Metric::exact:
            return "raw";
    }
    return "dtc";
}

// "russian-KKKvK.wdl", "international-KMvK.dtw", "russian-KvK.raw".
inline std::string table_file_name(VariantId variant, const MaterialSignature& sig, compress::Metric metric) {
    return table_basename(variant, sig) + "." + std::string(metric_extension(metric));
}

// A table file name: "russian-KKvK.wdl".
struct TableName {
    VariantId variant;
    MaterialSignature signature;
    compress::Metric metric;
};

// The one parser of table file names: the exact spelling table_file_name
// writes (never "kkVk"), for a signature whose index exists (no side with
// more pieces than it starts with); nullopt for any other name. Manifests
// (".json") are not table files.
std::optional<TableName> parse_table_file_name(std::string_view name);

// The header's variant byte: the variant's id (rules/variant.hpp).
inline std::uint8_t file_variant(VariantId variant) { return static_cast<std::uint8_t>(variant); }
inline std::optional<VariantId> variant_from_file(std::uint8_t byte) { return variant_from_number(byte); }

// The header's four material bytes: the side to move's men and kings, then
// the other side's.
inline compress::Material file_material(const MaterialSignature& sig) {
    return {std::uint8_t(sig.men[0]), std::uint8_t(sig.kings[0]), std::uint8_t(sig.men[1]), std::uint8_t(sig.kings[1])};
}
inline MaterialSignature signature_from_file(const compress::Material& m) { return {{m[0], m[2]}, {m[1], m[3]}}; }

// WDL file symbols, for the side to move. Positions where the side to move
// has a capture are don't-care: the probe resolves them by searching the
// captures.
enum WdlSymbol : std::uint8_t { kWdlLoss = 0, kWdlDraw = 1, kWdlWin = 2 };

// DTW file symbols: half the distance, rounded down; the WDL file gives the
// parity (wins odd, losses even). Draws and capture positions are
// don't-care.
inline std::uint16_t dtw_symbol(int plies) { return std::uint16_t(plies / 2); }
inline int dtw_from_symbol(std::uint16_t symbol, bool win) { return 2 * int(symbol) + (win ? 1 : 0); }

// Exact ("raw") file symbols are the generator's values (tables/values.hpp),
// 8 or 16 bits, every position included.

}  // namespace dtb
