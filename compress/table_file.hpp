// The format layer's whole API: write a table file (writer.hpp), open and
// probe one (reader.hpp) through a shared block cache (block_cache.hpp),
// read one whole (whole_table.hpp). The file layout is docs/FORMAT.md,
// mirrored by format.hpp; every file dtb writes goes through atomic_file.hpp.
#pragma once

#include "compress/atomic_file.hpp"
#include "compress/block_cache.hpp"
#include "compress/error.hpp"
#include "compress/format.hpp"
#include "compress/reader.hpp"
#include "compress/whole_table.hpp"
#include "compress/writer.hpp"
