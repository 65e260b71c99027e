#include "gen/generate.hpp"

#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "format/atomic_file.hpp"
#include "gen/child_tables.hpp"
#include "gen/raw_table.hpp"
#include "gen/solver.hpp"
#include "gen/table_writer.hpp"
#include "tables/manifest.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"

namespace dtb {

std::filesystem::path raw_table_path(const std::filesystem::path& dir, VariantId variant,
                                     const MaterialSignature& sig) {
    return dir / table_file_name(variant, sig, format::Metric::exact);
}

std::filesystem::path manifest_path(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig) {
    return dir / manifest_file_name(variant, sig);
}

void reset_peak_resident_bytes() {
    // Writing 5 to clear_refs resets the high-water mark (Linux 4.0 and later).
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::uint64_t peak_resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

namespace {

using Clock = std::chrono::steady_clock;

// A solved table: its raw file is complete. Files appear only by an atomic
// rename, and the header check catches anything else.
bool is_solved(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig) {
    const auto path = raw_table_path(dir, variant, sig);
    if (!std::filesystem::exists(path)) return false;
    RawTableHeader h;
    try {
        h = read_raw_header(path);
    } catch (const std::runtime_error&) {
        return false;  // unreadable: solve it again
    }
    // A table of another index layout cannot be mixed with new ones.
    const std::uint32_t version = with_variant(variant, []<class V>() { return PositionIndex<V>::kVersion; });
    if (h.index_version != version)
        throw std::runtime_error(path.string() + " was built with position index version " +
                                 std::to_string(h.index_version) + "; this dtb uses version " +
                                 std::to_string(version) + ": remove the directory's tables and generate again");
    return h.variant == variant && h.signature == sig;
}

// A finished table: solved, compressed, and its manifest written (last).
bool is_finished(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig) {
    return is_solved(dir, variant, sig) && std::filesystem::exists(manifest_path(dir, variant, sig)) &&
           std::filesystem::exists(dir / table_file_name(variant, sig, format::Metric::wdl)) &&
           std::filesystem::exists(dir / table_file_name(variant, sig, format::Metric::dtw));
}

// One line on a terminal, rewritten in place at most a few times a second.
class ProgressLine {
public:
    ProgressLine(bool enabled, std::string table) : enabled_(enabled), table_(std::move(table)) {}
    ~ProgressLine() {
        if (shown_) std::cerr << "\r\033[K" << std::flush;
    }
    void update(const std::string& stage, std::uint64_t done, std::uint64_t total) {
        if (!enabled_) return;
        const auto now = Clock::now();
        if (shown_ && now - last_ < std::chrono::milliseconds(250)) return;
        if (stage != stage_) {
            stage_ = stage;
            stage_start_ = now;
        }
        last_ = now;
        shown_ = true;
        std::ostringstream line;
        line << "\r\033[K" << table_ << "  " << stage;
        if (stage == "init" && total > 0) {
            const double seconds = std::chrono::duration<double>(now - stage_start_).count();
            const double rate = seconds > 0 ? done / seconds : 0;
            line << "  " << std::fixed << std::setprecision(1) << 100.0 * done / total << "%  " << rate / 1e6
                 << " M positions/s";
            if (rate > 0) line << "  ETA " << int((total - done) / rate) << " s";
        } else if (total > 0) {
            line << " of at least " << total;
        }
        std::cerr << line.str() << std::flush;
    }

private:
    bool enabled_;
    std::string table_;
    std::string stage_;
    bool shown_ = false;
    Clock::time_point last_{}, stage_start_{};
};

template <class T>
TableStats stats_of(const std::vector<T>& values, const MaterialSignature& sig) {
    TableStats s;
    s.signature = sig;
    s.positions = values.size();
    for (T v : values) {
        const int d = decode_value(v);
        if (d == kDraw) {
            ++s.draws;
        } else if (is_win(d)) {
            ++s.wins;
            s.longest_win = std::max(s.longest_win, d);
        } else {
            ++s.losses;
            s.longest_loss = std::max(s.longest_loss, d);
        }
    }
    return s;
}

void write_manifest(const std::filesystem::path& path, VariantId variant, const TableStats& s) {
    format::write_file_atomically(path, manifest_json(variant, s));
}

// Writes a solved table's raw file (unless present) and compressed files,
// and fills in the sizes.
template <class T>
void write_table_files(const GenerateOptions& o, const MaterialSignature& sig, std::span<const T> values,
                       std::uint32_t index_version, TableStats& st, const Bitmap* captures = nullptr) {
    const auto path = raw_table_path(o.dir, o.variant, sig);
    if (!is_solved(o.dir, o.variant, sig)) {
        const RawTableHeader h{o.variant,      sig, int(sizeof(T)), index_version, values.size(), st.longest_win,
                               st.longest_loss};
        write_raw_table(path, h, values);
    }
    const CompressedSizes sizes =
        write_compressed_tables(o.dir, o.variant, sig, values, {st.longest_win, st.longest_loss}, captures);
    st.symbol_bytes = int(sizeof(T));
    st.bytes = std::filesystem::file_size(path);
    st.wdl_bytes = sizes.wdl_bytes;
    st.dtw_bytes = sizes.dtw_bytes;
    st.capture_positions = sizes.capture_positions;
}

template <class V, class T>
std::vector<TableStats> solve_and_write(const MaterialSignature& key,
                                        const typename PairSolver<V, T>::ChildLoader& load_children,
                                        const GenerateOptions& o, ProgressLine& progress_line) {
    const auto start = Clock::now();
    PairSolver<V, T> solver(key, load_children, o.parallel_positions);
    solver.solve(SolveProgress{[&](const std::string& stage, std::uint64_t done, std::uint64_t total) {
        progress_line.update(stage, done, total);
    }});
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::uint64_t peak = peak_resident_bytes();
    std::vector<TableStats> out;
    for (int s = 0; s < solver.side_count(); ++s) {
        const MaterialSignature sig = solver.index(s).signature();
        const auto& values = solver.values(s);
        progress_line.update("compressing " + sig.name(), 0, 0);
        TableStats st = stats_of(values, sig);
        st.illegal_slots = solver.illegal_slots(s);
        st.seconds = seconds;
        st.positions_in_flight = solver.positions();
        st.peak_rss_bytes = peak;
        write_table_files(o, sig, std::span<const T>(values), PositionIndex<V>::kVersion, st, &solver.captures(s));
        out.push_back(st);
    }
    return out;
}

// A pair whose raw tables are complete but whose compressed files are not
// (the run was interrupted while compressing): compress again, no solving.
std::vector<TableStats> compress_solved(const MaterialSignature& key, const GenerateOptions& o) {
    std::vector<TableStats> out;
    const std::vector<MaterialSignature> sides =
        key.is_symmetric() ? std::vector<MaterialSignature>{key} : std::vector<MaterialSignature>{key, key.mirror()};
    for (const MaterialSignature& sig : sides) {
        const RawTable raw = read_raw_table(raw_table_path(o.dir, o.variant, sig));
        TableStats st;
        if (raw.header.symbol_bytes == 1) {
            st = stats_of(raw.bytes, sig);
            write_table_files(o, sig, std::span<const std::uint8_t>(raw.bytes), raw.header.index_version, st);
        } else {
            st = stats_of(raw.words, sig);
            write_table_files(o, sig, std::span<const std::uint16_t>(raw.words), raw.header.index_version, st);
        }
        st.peak_rss_bytes = peak_resident_bytes();
        out.push_back(st);
    }
    return out;
}

template <class V>
std::vector<TableStats> build_pair(const MaterialSignature& key, const GenerateOptions& o, std::ostream& log) {
    reset_peak_resident_bytes();  // so that each manifest's peak is its own pair's
    if (is_solved(o.dir, o.variant, key) && is_solved(o.dir, o.variant, key.mirror())) return compress_solved(key, o);
    auto load_children = [&](const MaterialSignature& side) {
        auto children = std::make_unique<ChildTables<V>>();
        for (const MaterialSignature& child : successor_signatures(side)) {
            const auto path = raw_table_path(o.dir, o.variant, child);
            if (!std::filesystem::exists(path))
                throw std::runtime_error("table " + path.string() + " (needed by " + key.name() + ") is missing");
            children->add(read_raw_table(path));
        }
        return children;
    };
    ProgressLine progress_line(o.progress, table_basename(o.variant, key));
    try {
        return solve_and_write<V, std::uint8_t>(key, load_children, o, progress_line);
    } catch (const DistanceOverflow&) {
        log << key.name() << ": distances do not fit a byte; solving again with 16-bit values\n";
        return solve_and_write<V, std::uint16_t>(key, load_children, o, progress_line);
    }
}

}  // namespace

std::vector<TableStats> generate_tables(const GenerateOptions& o, std::ostream& log) {
    std::filesystem::create_directories(o.dir);
    if (o.threads > 0) omp_set_num_threads(o.threads);
    std::vector<MaterialSignature> targets;
    if (o.only)
        targets.push_back(*o.only);
    else
        targets = all_signatures(o.variant, o.max_pieces);
    std::vector<TableStats> built;
    for (const MaterialSignature& key : solving_order(targets)) {
        if (is_finished(o.dir, o.variant, key) && is_finished(o.dir, o.variant, key.mirror())) continue;
        const auto stats = with_variant(o.variant, [&]<class V>() { return build_pair<V>(key, o, log); });
        for (const TableStats& s : stats) {
            write_manifest(manifest_path(o.dir, o.variant, s.signature), o.variant, s);
            log << std::left << std::setw(10) << s.signature.name() << std::right << std::setw(13) << s.positions
                << " positions (index waste " << std::fixed << std::setprecision(1) << s.index_waste_percent() << "%)  "
                << std::setw(11) << s.wins << " won " << std::setw(11) << s.draws << " drawn " << std::setw(11)
                << s.losses << " lost  longest win " << s.longest_win << "  " << std::setprecision(2) << s.seconds
                << " s\n";
            built.push_back(s);
        }
    }
    return built;
}

}  // namespace dtb
