// What dtb probe and dtb adjudicate share. Both go through the C API of
// dtb/probe.h, the calls an engine makes, so that what they print is what
// engines get.
#pragma once

#include <string>
#include <vector>

#include "dtb/probe.h"
#include "cli/options.hpp"

namespace dtb {

// A dtb_tablebase on some directories, closed at the end. A directory it
// cannot open is bad input (exit status 2).
class OpenTables {
public:
    explicit OpenTables(const std::vector<std::string>& dirs) {
        std::vector<const char*> paths;
        for (const std::string& d : dirs) paths.push_back(d.c_str());
        char err[1024];
        if (dtb_open(paths.data(), paths.size(), nullptr, &tb_, err, sizeof err) != DTB_OK) throw InputError(err);
    }
    ~OpenTables() { dtb_close(tb_); }
    OpenTables(const OpenTables&) = delete;
    OpenTables& operator=(const OpenTables&) = delete;

    dtb_tablebase* get() const { return tb_; }

private:
    dtb_tablebase* tb_ = nullptr;
};

// DTB_RUSSIAN or DTB_INTERNATIONAL for a --variant value.
inline int c_variant(const std::string& variant) {
    return variant_from_option(variant) == VariantId::Russian ? DTB_RUSSIAN : DTB_INTERNATIONAL;
}

// "win", "draw" or "loss" for DTB_WIN, DTB_DRAW, DTB_LOSS.
inline const char* wdl_word(int wdl) { return wdl == DTB_WIN ? "win" : wdl == DTB_DRAW ? "draw" : "loss"; }

}  // namespace dtb
