// The format layer's whole API: write a table file (writer.hpp), open and
// probe one (reader.hpp) through a shared block cache (block_cache.hpp),
// read one whole (whole_table.hpp). The file layout is docs/FORMAT.md,
// mirrored by format.hpp; every file dtb writes goes through atomic_file.hpp.
#pragma once

#include "format/atomic_file.hpp"
#include "format/block_cache.hpp"
#include "format/error.hpp"
#include "format/format.hpp"
#include "format/reader.hpp"
#include "format/whole_table.hpp"
#include "format/writer.hpp"
