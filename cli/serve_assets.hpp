// The web explorer's files (cli/web/), built into the dtb program so that
// dtb serve needs nothing beside it: web/embed.cmake turns each file into
// bytes of a generated source file at build time.
#pragma once

#include <span>
#include <string_view>

namespace dtb::serve {

struct WebAsset {
    std::string_view name;  // the file's name in cli/web/: "index.html"
    std::string_view body;
};

// Every file of cli/web/ the build embedded.
std::span<const WebAsset> web_assets();

}  // namespace dtb::serve
