// What the table files of a signature are called and what their symbols
// mean: the contract between the generator that writes them and the probe
// that reads them (docs/FORMAT.md, "Table files of a signature").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "format/format.hpp"
#include "tables/material_signature.hpp"
#include "rules/variant.hpp"

namespace dtb {

// "russian-KKKvK": every file of a signature is this and an extension.
inline std::string table_basename(VariantId variant, const MaterialSignature& sig) {
    return std::string(variant_name(variant)) + "-" + sig.name();
}

// "russian-KKKvK.json": the manifest dtb gen writes beside the tables.
inline std::string manifest_file_name(VariantId variant, const MaterialSignature& sig) {
    return table_basename(variant, sig) + ".json";
}

// "russian-KKKvK.wdl", "international-KMvK.dtw".
inline std::string table_file_name(VariantId variant, const MaterialSignature& sig, format::Metric metric) {
    std::string name = table_basename(variant, sig);
    switch (metric) {
        case format::Metric::wdl: return name + ".wdl";
        case format::Metric::dtw: return name + ".dtw";
        default: return name + ".dtc";
    }
}

inline format::Material file_material(const MaterialSignature& sig) {
    return {std::uint8_t(sig.men[0]), std::uint8_t(sig.kings[0]), std::uint8_t(sig.men[1]), std::uint8_t(sig.kings[1])};
}

// WDL file symbols, for the side to move. Positions where the side to move
// has a capture are don't-care: the probe resolves them by searching the
// captures.
enum WdlSymbol : std::uint8_t { kWdlLoss = 0, kWdlDraw = 1, kWdlWin = 2 };

// DTW file symbols: half the distance, rounded down; the WDL file gives the
// parity (wins odd, losses even). Draws and capture positions are
// don't-care.
inline std::uint16_t dtw_symbol(int plies) { return std::uint16_t(plies / 2); }
inline int dtw_from_symbol(std::uint16_t symbol, bool win) { return 2 * int(symbol) + (win ? 1 : 0); }

}  // namespace dtb
