// The table fuzz target for a short while in the test command, without
// libFuzzer: each seed (a file or folder argument) is mutated the way a
// damaged download or a hand-edited header would be, with a fixed seed,
// and every mutant goes through LLVMFuzzerTestOneInput.
//   fuzz_table_mutants MUTANTS_PER_SEED SEED_FILE_OR_DIR...
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_check.hpp"

namespace fs = std::filesystem;

namespace {

// One to three changes: a flipped bit anywhere, a header byte set to a
// value, a truncation, another name, checksums recomputed by the target.
std::vector<std::uint8_t> mutate(std::vector<std::uint8_t> input, std::mt19937_64& rng) {
    const int changes = 1 + static_cast<int>(rng() % 3);
    for (int c = 0; c < changes && input.size() > 1; ++c) {
        const std::size_t size = input.size();
        switch (rng() % 5) {
            case 0:
                input[1 + rng() % (size - 1)] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
                break;
            case 1:  // the header: 128 bytes after the selector
                input[1 + rng() % std::min<std::size_t>(size - 1, 128)] = static_cast<std::uint8_t>(rng());
                break;
            case 2:
                input.resize(1 + rng() % (size - 1));
                break;
            case 3:
                input[0] = static_cast<std::uint8_t>((input[0] & 0x80) | (rng() % 8));
                break;
            default:
                input[0] ^= 0x80;
                break;
        }
    }
    return input;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: " << argv[0] << " MUTANTS_PER_SEED SEED_FILE_OR_DIR...\n";
        return 2;
    }
    const int mutants = std::atoi(argv[1]);
    std::vector<fs::path> seeds;
    for (int i = 2; i < argc; ++i) {
        if (fs::is_directory(argv[i])) {
            for (const auto& entry : fs::directory_iterator(argv[i]))
                if (entry.is_regular_file()) seeds.push_back(entry.path());
        } else {
            seeds.emplace_back(argv[i]);
        }
    }
    std::sort(seeds.begin(), seeds.end());
    if (seeds.empty() || mutants <= 0) {
        std::cerr << "no seeds or no mutants: nothing would be checked\n";
        return 1;
    }
    std::mt19937_64 rng(14);
    std::size_t runs = 0;
    for (const fs::path& path : seeds) {
        std::ifstream in(path, std::ios::binary);
        const std::vector<std::uint8_t> seed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        for (int i = 0; i < mutants; ++i) {
            const std::vector<std::uint8_t> input = mutate(seed, rng);
            // Named on stderr only when it breaks an invariant (check aborts).
            LLVMFuzzerTestOneInput(input.data(), input.size());
            ++runs;
        }
    }
    std::cout << runs << " mutants of " << seeds.size() << " seeds checked\n";
    return 0;
}
