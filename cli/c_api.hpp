// What dtb probe, dtb adjudicate and dtb serve share beside the tables'
// facade (cli/tables.hpp): variant codes and the words of the C API's
// values.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/tables.hpp"
#include "dtb/adjudication.h"
#include "dtb/probe.h"
#include "probe/convert.hpp"

namespace dtb {

// The C API's code (DTB_RUSSIAN, ...) for a --variant value.
inline int c_variant(const std::string& variant) { return probe::c_variant(variant_from_option(variant)); }

// "win", "draw" or "loss" for DTB_WIN, DTB_DRAW, DTB_LOSS.
inline const char* wdl_word(int wdl) { return wdl == DTB_WIN ? "win" : wdl == DTB_DRAW ? "draw" : "loss"; }

// The verdict of an adjudication in words (dtb_adjudication_verdict of
// dtb/adjudication.h).
inline std::string verdict_text(const dtb_adjudication& a) {
    std::size_t needed = 0;
    if (dtb_adjudication_verdict(&a, nullptr, 0, &needed) != DTB_BUFFER_TOO_SMALL)
        throw std::logic_error("dtb_adjudication_verdict refused an adjudication of dtb_adjudicate");
    std::string text(needed, '\0');
    dtb_adjudication_verdict(&a, text.data(), text.size(), nullptr);
    text.resize(needed - 1);
    return text;
}

}  // namespace dtb
