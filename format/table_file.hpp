// The compress module's whole API: write a table file (writer.hpp), open and
// probe one (reader.hpp) through a shared block cache (block_cache.hpp). The
// file layout is docs/FORMAT.md, mirrored by format.hpp.
#pragma once

#include "format/block_cache.hpp"
#include "format/error.hpp"
#include "format/format.hpp"
#include "format/reader.hpp"
#include "format/writer.hpp"
