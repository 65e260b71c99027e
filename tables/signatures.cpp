#include "tables/signatures.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

namespace dtb {

std::vector<MaterialSignature> all_signatures(VariantId variant, int max_pieces) {
    const int per_side = max_pieces_per_side(variant);
    std::vector<MaterialSignature> out;
    for (int n = 2; n <= max_pieces; ++n)
        for (int a = 0; a <= n; ++a)
            for (int c = 0; a + c <= n; ++c)
                for (int b = 0; a + c + b <= n; ++b) {
                    const int d = n - a - b - c;
                    if (a + c == 0 || b + d == 0 || a + c > per_side || b + d > per_side) continue;
                    out.push_back(MaterialSignature{{a, b}, {c, d}});
                }
    return out;
}

std::vector<MaterialSignature> successor_signatures(const MaterialSignature& sig) {
    std::set<MaterialSignature> out;
    // The mover's material after its move: unchanged, or one man crowned.
    std::vector<std::pair<int, int>> movers{{sig.men[0], sig.kings[0]}};
    if (sig.men[0] > 0) movers.push_back({sig.men[0] - 1, sig.kings[0] + 1});
    for (const auto& [men, kings] : movers) {
        const bool crowned = men != sig.men[0];
        // Taken: x men and y kings of the other side (none: a plain crowning).
        for (int x = 0; x <= sig.men[1]; ++x)
            for (int y = 0; y <= sig.kings[1]; ++y) {
                if (x + y == 0 && !crowned) continue;  // a plain move stays in the table
                const int left_men = sig.men[1] - x, left_kings = sig.kings[1] - y;
                if (left_men + left_kings == 0) continue;  // the other side has lost
                out.insert(MaterialSignature{{left_men, men}, {left_kings, kings}});
            }
    }
    return {out.begin(), out.end()};
}

std::vector<MaterialSignature> reachable_signatures(const MaterialSignature& sig) {
    std::set<MaterialSignature> seen;
    std::vector<MaterialSignature> stack{sig, sig.mirror()}, out;
    while (!stack.empty()) {
        const MaterialSignature s = stack.back();
        stack.pop_back();
        for (const MaterialSignature& child : successor_signatures(s))
            for (const MaterialSignature& side : {child, child.mirror()})
                if (seen.insert(side).second) stack.push_back(side);
    }
    for (const MaterialSignature& s : seen)
        if (s != sig && s != sig.mirror()) out.push_back(s);
    return out;
}

MaterialSignature pair_key(const MaterialSignature& sig) { return std::max(sig, sig.mirror()); }

std::vector<MaterialSignature> solving_order(const std::vector<MaterialSignature>& targets) {
    std::vector<MaterialSignature> order;
    std::set<MaterialSignature> done, in_progress;
    // Depth-first, children before parents. Every move out of a table takes
    // a piece or crowns a man, so the graph has no cycles (in_progress guards).
    std::function<void(const MaterialSignature&)> visit = [&](const MaterialSignature& s) {
        const MaterialSignature key = pair_key(s);
        if (done.count(key)) return;
        if (!in_progress.insert(key).second) throw std::logic_error("cycle in the signature graph at " + key.name());
        for (const MaterialSignature& side : {key, key.mirror()})
            for (const MaterialSignature& child : successor_signatures(side)) visit(child);
        in_progress.erase(key);
        done.insert(key);
        order.push_back(key);
    };
    std::vector<MaterialSignature> sorted = targets;
    std::sort(sorted.begin(), sorted.end(), [](const MaterialSignature& x, const MaterialSignature& y) {
        return std::make_tuple(x.total(), x.total_men(), x) < std::make_tuple(y.total(), y.total_men(), y);
    });
    for (const MaterialSignature& t : sorted) visit(t);
    return order;
}

}  // namespace dtb
