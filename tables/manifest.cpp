#include "tables/manifest.hpp"

#include <charconv>
#include <string_view>

namespace dtb {

namespace {

// One "name": value member per line, as a JSON pretty-printer lays it out.
class ObjectText {
public:
    void name(std::string_view n) { text_ += (text_.empty() ? "{\n  \"" : ",\n  \"") + std::string(n) + "\": "; }
    void field(std::string_view n, std::string_view ascii) { name(n), text_ += "\"" + std::string(ascii) + "\""; }
    void field(std::string_view n, std::uint64_t v) { name(n), text_ += std::to_string(v); }
    void field(std::string_view n, int v) { name(n), text_ += std::to_string(v); }
    // -1 means "none": null.
    void optional_field(std::string_view n, int v) { name(n), text_ += v < 0 ? "null" : std::to_string(v); }
    // The shortest text that reads back as the same double; ".0" keeps a
    // whole number a floating-point one for readers that care.
    void field(std::string_view n, double v) {
        name(n);
        char buffer[64];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        const std::string_view number(buffer, static_cast<std::size_t>(end - buffer));
        text_ += number;
        if (number.find_first_of(".e") == std::string_view::npos) text_ += ".0";
    }
    std::string finish() { return text_ + "\n}\n"; }

private:
    std::string text_;
};

}  // namespace

std::string manifest_json(VariantId variant, const TableStats& s) {
    ObjectText o;
    o.field("variant", variant_name(variant));
    o.field("signature", s.signature.name());
    o.field("positions", s.positions);
    o.field("index_waste_percent", s.index_waste_percent());
    o.field("wins", s.wins);
    o.field("draws", s.draws);
    o.field("losses", s.losses);
    o.optional_field("longest_win", s.longest_win);
    o.optional_field("longest_loss", s.longest_loss);
    o.field("symbol_bytes", s.symbol_bytes);
    o.field("seconds", s.seconds);
    o.field("bytes", s.bytes);
    o.field("wdl_bytes", s.wdl_bytes);
    o.field("dtw_bytes", s.dtw_bytes);
    o.field("capture_positions", s.capture_positions);
    o.field("positions_in_flight", s.positions_in_flight);
    o.field("peak_rss_bytes", s.peak_rss_bytes);
    return o.finish();
}

}  // namespace dtb
