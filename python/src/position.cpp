#include "python/src/position.hpp"

#include <stdexcept>

#include "python/src/errors.hpp"

namespace dtb::python {

int variant_code(std::string_view name) {
    const int code = dtb_variant_from_name(std::string(name).c_str());
    if (code >= 0) return code;
    std::string choices;
    for (int v = 0; v < DTB_VARIANT_COUNT; ++v)
        choices += std::string(v == 0                       ? ""
                               : v + 1 == DTB_VARIANT_COUNT ? " or "
                                                            : ", ") +
                   "'" + dtb_variant_name(v) + "'";
    throw std::invalid_argument("unknown variant '" + std::string(name) + "': use " + choices);
}

dtb_position read_position(const std::string& variant, const std::string& fen) {
    const int code = variant_code(variant);
    dtb_position pos;
    char err[1024];
    if (dtb_position_from_fen(code, fen.c_str(), &pos, err, sizeof err) != DTB_OK)
        throw StatusError(DTB_BAD_POSITION, err);
    return pos;
}

std::string fen_of(const dtb_position& pos) {
    char text[512];
    dtb_position_to_fen(&pos, text, sizeof text);
    return text;
}

}  // namespace dtb::python
