// The C API's view of the variant list (rules/variant.hpp): names, codes
// and the rules a move generator needs, so that a C program (the example
// engine) derives what it knows of a variant instead of listing it again.
#include <cstring>

#include "dtb/probe.h"
#include "probe/convert.hpp"

using namespace dtb;

extern "C" const char* dtb_variant_name(int variant) {
    const auto id = probe::variant_from_c(variant);
    // The names are string literals (rules/variant.hpp): NUL-terminated.
    return id ? variant_name(*id).data() : nullptr;
}

extern "C" int dtb_variant_from_name(const char* name) {
    if (name == nullptr) return -1;
    const auto id = parse_variant(std::string_view(name, std::strlen(name)));
    return id ? probe::c_variant(*id) : -1;
}

extern "C" int dtb_variant_rules_of(int variant, dtb_variant_rules* out) {
    const auto id = probe::variant_from_c(variant);
    if (!id || out == nullptr) return DTB_BAD_ARGUMENT;
    *out = with_variant(*id, []<class V>() {
        return dtb_variant_rules{.board_size = V::Board::width,
                                 .squares = V::Board::squares,
                                 .pieces_per_side = V::max_pieces_per_side,
                                 .majority_capture = V::majority_capture ? 1 : 0,
                                 .crowns_during_capture = V::crowns_during_capture ? 1 : 0,
                                 .algebraic_squares = V::algebraic_notation ? 1 : 0};
    });
    return DTB_OK;
}
