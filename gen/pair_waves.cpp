#include "gen/pair_waves.hpp"

#include <algorithm>
#include <map>

#include "tables/position_index.hpp"
#include "tables/signatures.hpp"

namespace dtb {

std::vector<std::vector<MaterialSignature>> waves_of(const std::vector<MaterialSignature>& order) {
    std::map<MaterialSignature, int> wave;
    std::vector<std::vector<MaterialSignature>> waves;
    for (const MaterialSignature& key : order) {  // dependencies come first in `order`
        int w = 0;
        for (const MaterialSignature& side : {key, key.mirror()})
            for (const MaterialSignature& child : successor_signatures(side))
                if (const auto it = wave.find(pair_key(child)); it != wave.end()) w = std::max(w, it->second + 1);
        wave[key] = w;
        if (std::size_t(w) >= waves.size()) waves.resize(std::size_t(w) + 1);
        waves[std::size_t(w)].push_back(key);
    }
    return waves;
}

std::uint64_t pair_positions(VariantId variant, const MaterialSignature& key) {
    return with_variant(variant, [&]<class V>() { return PositionIndex<V>(key).size(); });
}

std::vector<MaterialSignature> share_of(VariantId variant, std::vector<MaterialSignature> wave, int rank, int size) {
    std::stable_sort(wave.begin(), wave.end(), [&](const MaterialSignature& a, const MaterialSignature& b) {
        return pair_positions(variant, a) > pair_positions(variant, b);
    });
    std::vector<std::uint64_t> load(std::size_t(size), 0);
    std::vector<MaterialSignature> mine;
    for (const MaterialSignature& key : wave) {
        const auto least = std::size_t(std::min_element(load.begin(), load.end()) - load.begin());
        load[least] += pair_positions(variant, key);
        if (int(least) == rank) mine.push_back(key);
    }
    return mine;
}

}  // namespace dtb
