// The compress module's whole API: write a table file (writer.hpp), open and
// probe one (reader.hpp) through a shared block cache (block_cache.hpp). The
// file layout is docs/FORMAT.md, mirrored by format.hpp.
#pragma once

#include "compress/block_cache.hpp"
#include "compress/error.hpp"
#include "compress/format.hpp"
#include "compress/reader.hpp"
#include "compress/writer.hpp"
