// The solved tables a signature's captures and crownings lead into, held in
// memory while that signature is solved.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gen/raw_table.hpp"
#include "tables/position_index.hpp"
#include "tables/values.hpp"

namespace dtb {

template <class V>
class ChildTables {
public:
    void add(RawTable table) {
        const MaterialSignature sig = table.header.signature;
        if (table.header.index_version != PositionIndex<V>::kVersion)
            throw std::runtime_error("table " + sig.name() + " was built with position index version " +
                                     std::to_string(table.header.index_version) + "; this dtb uses version " +
                                     std::to_string(PositionIndex<V>::kVersion) + ": generate it again");
        entries_.push_back(Entry{sig, PositionIndex<V>(sig), std::move(table)});
    }

    bool has(const MaterialSignature& sig) const { return find(sig) != nullptr; }

    // The value of `pos` for its side to move: a distance in plies or
    // kDraw. A side with no pieces left has lost (distance 0).
    int value(const Position<V>& pos) const {
        if (!pos.pieces[pos.side_to_move]) return 0;
        const Position<V> normal = normalize(pos);
        const Entry* e = find(signature_of(normal));
        if (!e) throw std::logic_error("ChildTables: table " + signature_of(normal).name() + " is not loaded");
        return e->table.value(e->index.rank(normal));
    }

    std::uint64_t bytes() const {
        std::uint64_t n = 0;
        for (const Entry& e : entries_) n += e.table.bytes.size() + 2 * e.table.words.size();
        return n;
    }

private:
    struct Entry {
        MaterialSignature sig;
        PositionIndex<V> index;
        RawTable table;
    };
    const Entry* find(const MaterialSignature& sig) const {
        for (const Entry& e : entries_)
            if (e.sig == sig) return &e;
        return nullptr;
    }
    std::vector<Entry> entries_;
};

}  // namespace dtb
