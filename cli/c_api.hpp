// What dtb probe and dtb adjudicate share. Both go through the C API of
// dtb/probe.h, the calls an engine makes, so that what they print is what
// engines get.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "dtb/adjudication.h"
#include "dtb/probe.h"
#include "probe/convert.hpp"

namespace dtb {

// A dtb_tablebase on some directories, closed at the end. A directory that
// cannot be opened is a missing file (exit status 1); only an argument the
// C API refuses is bad input (2).
class OpenTables {
public:
    explicit OpenTables(const std::vector<std::string>& dirs) {
        std::vector<const char*> paths;
        for (const std::string& d : dirs) paths.push_back(d.c_str());
        char err[1024];
        const int status = dtb_open(paths.data(), paths.size(), nullptr, &tb_, err, sizeof err);
        if (status == DTB_BAD_ARGUMENT) throw InputError(err);
        if (status != DTB_OK) throw std::runtime_error(err);
    }
    ~OpenTables() { dtb_close(tb_); }
    OpenTables(const OpenTables&) = delete;
    OpenTables& operator=(const OpenTables&) = delete;

    dtb_tablebase* get() const { return tb_; }

private:
    dtb_tablebase* tb_ = nullptr;
};

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
