// dtb gen, dtb verify.
#include <omp.h>
#include <unistd.h>

#include <iostream>
#include <optional>

#include "cli/checksum_report.hpp"
#include "cli/options.hpp"
#include "cli/table_dirs.hpp"
#include "gen/cluster.hpp"
#include "gen/dtc_tables.hpp"
#include "gen/generate.hpp"
#include "gen/memory_budget.hpp"
#include "gen/verify.hpp"
#include "tables/manifest.hpp"
#include "tables/signatures.hpp"

namespace dtb {

namespace {

struct GenCommandOptions {
    std::string variant;
    int pieces = 0;
    std::string dir = kDefaultTableDir;
    int threads = 0;
    std::string only;
    std::string memory;
    std::uint64_t split_above = GenerateOptions{}.split_pair_positions;
    std::uint64_t side_by_side_below = GenerateOptions{}.side_by_side_positions;
    std::uint64_t hold_slices_below = GenerateOptions{}.held_slices_positions;
    bool keep_raw = false;
    bool keep_exact_values = false;
    std::uint32_t format = GenerateOptions{}.format_version;
    bool dtc = false;
    bool json = false;
};

// A built table in --json output: its manifest, the same text dtb gen
// writes to NAME.json (tables/manifest.hpp), so the fields are listed once.
Json stats_json(VariantId variant, const TableStats& s) { return Json::parse(manifest_json(variant, s)); }

void run_gen(const GenCommandOptions& c) {
    const Cluster cluster;  // first: under mpirun, this joins the other processes
    GenerateOptions o;
    o.cluster = &cluster;
    o.variant = variant_from_option(c.variant);
    o.max_pieces = c.pieces;
    o.dir = c.dir;
    o.threads = c.threads;
    o.progress = ::isatty(STDERR_FILENO) && !c.json && cluster.size() == 1;
    o.keep_raw = c.keep_raw;
    o.keep_exact_values = c.keep_exact_values;
    o.format_version = c.format;
    o.split_pair_positions = c.split_above;
    o.side_by_side_positions = c.side_by_side_below;
    o.held_slices_positions = c.hold_slices_below;
    o.keep_exact_levels = c.dtc;
    if (!c.memory.empty()) {
        const auto bytes = parse_memory_size(c.memory);
        if (!bytes) throw InputError("bad --memory '" + c.memory + "': give a size such as 2G, 1.5G or 512M");
        if (*bytes < (std::uint64_t{256} << 20))
            throw InputError("--memory " + c.memory + " is too little: dtb gen needs at least 256M");
        o.memory_bytes = *bytes;
    }
    if (!c.only.empty()) {
        o.only = MaterialSignature::parse(c.only);
        if (!o.only)
            throw InputError("bad signature '" + c.only +
                             "': write the side to move's kings (K) and men (M), 'v', the other side's, e.g. KKKvK");
        if (o.only->pieces(0) > max_pieces_per_side(o.variant) || o.only->pieces(1) > max_pieces_per_side(o.variant))
            throw InputError("signature " + c.only + " has more pieces on a side than the " + c.variant +
                             " board allows");
        // Both given and at odds: building past --pieces would not be what
        // the user asked for (--only alone builds what the table needs).
        if (c.pieces > 0 && o.only->total() > c.pieces)
            throw InputError("--only " + c.only + " has " + std::to_string(o.only->total()) +
                             " pieces, more than --pieces " + std::to_string(c.pieces) +
                             ": leave out --pieces, or name a smaller table");
    } else if (c.pieces < 2) {
        throw InputError("--pieces must be at least 2 (or give --only SIGNATURE)");
    }
    std::ostream& log = c.json ? std::cerr : std::cout;
    std::vector<TableStats> built;
    try {
        built = generate_tables(o, log);
    } catch (const std::exception& e) {
        // Every process of an MPI run stops at the same point; each says why.
        if (cluster.size() > 1)
            std::cerr << "dtb gen, process " << cluster.rank() << " of " << cluster.size() << ": " << e.what() << '\n';
        throw;
    }
    std::vector<DtcTableStats> dtc;
    if (c.dtc) {
        const std::vector<MaterialSignature> targets =
            o.only ? std::vector<MaterialSignature>{*o.only} : all_signatures(o.variant, c.pieces);
        DtcBuildOptions options;
        options.threads = c.threads;
        options.memory_bytes = o.memory_bytes ? o.memory_bytes : default_memory_bytes();
        options.show_progress = o.progress;
        options.cluster = &cluster;  // each process builds its share of the pairs
        try {
            dtc = build_dtc_tables(o.variant, targets, c.dir, log, options);
        } catch (const std::exception& e) {
            if (cluster.size() > 1)
                std::cerr << "dtb gen --dtc, process " << cluster.rank() << " of " << cluster.size() << ": " << e.what()
                          << '\n';
            throw;
        }
    }
    if (cluster.rank() != 0) return;  // process 0 reports for all
    if (c.json) {
        Json tables = Json::array();
        for (const TableStats& s : built) tables.push_back(stats_json(o.variant, s));
        Json out{{"variant", c.variant}, {"dir", c.dir}, {"built", tables}};
        if (c.dtc) {
            Json d = Json::array();
            for (const DtcTableStats& t : dtc)
                d.push_back(Json{{"signature", t.signature.name()},
                                 {"positions", t.positions},
                                 {"dtc_bytes", t.bytes},
                                 {"longest_win_dtc", t.longest_win},
                                 {"longest_loss_dtc", t.longest_loss},
                                 {"seconds", t.seconds}});
            out["built_dtc"] = d;
        }
        print_json(out);
    } else if (built.empty() && dtc.empty()) {
        std::cout << "nothing to do: every table is already in " << c.dir << '\n';
    }
}

struct VerifyCommandOptions {
    std::string variant;
    std::string dir;
    std::string positional_dir;  // dtb verify ... DIR, the same as --dir DIR
    std::vector<std::string> only;
    int threads = 0;
    std::string memory;
    std::string journal;
    std::string checksums;        // --checksums FILE: check DIR against a list
    std::string write_checksums;  // --write-checksums FILE: a list, once DIR is verified
    int checksum_pieces = 0;      // --pieces N with --checksums
    bool json = false;
};

// The one directory dtb verify checks: --dir, or the default of the
// commands that read tables when it names exactly one.
std::string verify_dir(const std::string& given) {
    if (!given.empty()) return given;
    const std::vector<std::string> dirs = table_dirs({});
    if (dirs.size() != 1)
        throw InputError("dtb verify checks one directory, and DTB_PATH names " + std::to_string(dirs.size()) +
                         ": give --dir");
    return dirs.front();
}

void run_verify(VerifyCommandOptions c) {
    if (!c.positional_dir.empty()) {
        if (!c.dir.empty() && c.dir != c.positional_dir)
            throw InputError("two directories, --dir " + c.dir + " and " + c.positional_dir +
                             ": dtb verify checks one");
        c.dir = c.positional_dir;
    }
    c.dir = verify_dir(c.dir);
    if (!c.checksums.empty()) {
        // The files against a list: no value is read, nothing recomputed.
        if (c.threads > 0) omp_set_num_threads(c.threads);
        run_checksum_check(c.checksums, c.dir, c.variant, c.checksum_pieces, c.json);
        return;
    }
    if (c.variant.empty())
        throw InputError("--variant is required (with --checksums FILE, the list names the variant)");
    const VariantId variant = variant_from_option(c.variant);
    // Said now, not after a verify that may take hours.
    if (!c.write_checksums.empty()) check_checksum_list_destination(c.write_checksums);
    std::vector<MaterialSignature> only;
    for (const std::string& name : c.only) {
        const auto sig = MaterialSignature::parse(name);
        if (!sig) throw InputError("bad signature '" + name + "'");
        only.push_back(*sig);
    }
    std::uint64_t window = default_memory_bytes() - kVerifyReserveBytes;
    if (!c.memory.empty()) {
        const auto bytes = parse_memory_size(c.memory);
        if (!bytes) throw InputError("bad --memory '" + c.memory + "': give a size such as 2G, 1.5G or 512M");
        if (*bytes < kVerifyReserveBytes + (std::uint64_t{16} << 20))
            throw InputError("--memory " + c.memory + " is too little: dtb verify needs at least " +
                             format_bytes(kVerifyReserveBytes + (std::uint64_t{16} << 20)));
        window = *bytes - kVerifyReserveBytes;
    }
    std::optional<VerifyJournal> journal;
    if (!c.journal.empty()) try {
            journal = VerifyJournal::open(c.journal, variant);
        } catch (const BadJournal& e) {
            throw InputError(e.what());
        }
    if (c.threads > 0) omp_set_num_threads(c.threads);
    std::ostream& log = c.json ? std::cerr : std::cout;
    auto reports = verify_tables(variant, c.dir, log, ::isatty(STDERR_FILENO) && !c.json, only, window,
                                 journal ? &*journal : nullptr);
    const std::size_t wdl_dtw = reports.size();
    // The .dtc tables, if any, each pair solved again from its successors' files.
    for (VerifyReport& r : verify_dtc_tables(variant, c.dir, log, only)) reports.push_back(std::move(r));
    if (reports.empty()) throw std::runtime_error("no " + c.variant + " tables in " + c.dir);
    // Named like a table file but not a table's name: not read, and said so
    // (a table renamed by hand would otherwise pass unnoticed).
    const std::vector<std::string> ignored =
        only.empty() ? unrecognised_table_files(variant, c.dir) : std::vector<std::string>{};
    for (const std::string& file : ignored)
        log << "ignored: " << file << " (not a table's name; tables are named like " << c.variant << "-KKvK.wdl)\n";
    std::uint64_t positions = 0, mismatches = 0;
    Json tables = Json::array();
    std::uint64_t damaged = 0, unchecked = 0, from_journal = 0;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const VerifyReport& r = reports[i];
        from_journal += r.journal_verified_at.empty() ? 0 : 1;
        positions += r.positions;
        mismatches += r.mismatches;
        damaged += r.damaged.empty() ? 0 : 1;
        unchecked += r.unchecked.empty() ? 0 : 1;
        tables.push_back(
            Json{{"signature", r.signature.name()},
                 {"files", i < wdl_dtw ? "wdl+dtw" : "dtc"},
                 {"positions", r.positions},
                 {"mismatches", r.mismatches},
                 {"examples", r.examples},
                 {"damaged", r.damaged},
                 {"unchecked", r.unchecked},
                 {"journal_verified_at", r.journal_verified_at.empty() ? Json() : Json(r.journal_verified_at)},
                 {"seconds", r.seconds}});
    }
    const bool ok = mismatches == 0 && damaged == 0 && unchecked == 0;
    // The checksum list, only of a directory found whole and consistent.
    std::optional<ChecksumList> list;
    if (ok && !c.write_checksums.empty()) {
        list = make_checksum_list(variant, c.dir, checksum_list_writer());
        write_checksum_list(c.write_checksums, *list);
    }
    if (c.json)
        print_json(Json{{"variant", c.variant},
                        {"dir", c.dir},
                        {"ok", ok},
                        {"damaged_tables", damaged},
                        {"unchecked_tables", unchecked},
                        {"positions", positions},
                        {"mismatches", mismatches},
                        {"journal", c.journal.empty() ? Json() : Json(c.journal)},
                        {"tables_from_journal", from_journal},
                        {"ignored_files", ignored},
                        {"checksums_written", list ? Json(c.write_checksums) : Json()},
                        {"tables", tables}});
    else
        std::cout << (ok ? "OK: " : "FAILED: ") << reports.size() << " tables, " << positions << " positions, "
                  << mismatches << " inconsistent, " << damaged << " damaged"
                  << (unchecked ? ", " + std::to_string(unchecked) + " not checked" : "")
                  << (from_journal ? " (" + std::to_string(from_journal) + " as found before, in " + c.journal + ")"
                                   : "")
                  << '\n';
    if (list && !c.json) std::cout << checksums_written_text(*list, c.write_checksums) << '\n';
    if (!ok && !c.write_checksums.empty())
        std::cerr << "dtb: no checksum list written to " << c.write_checksums
                  << ": a list is written only when every table is consistent and no file is damaged\n";
    if (!ok) throw VerificationFailed();
}

}  // namespace

void add_gen_commands(CLI::App& app) {
    auto o = std::make_shared<GenCommandOptions>();
    CLI::App* gen = app.add_subcommand(
        "gen",
        "Build every missing table up to a number of pieces, smaller tables first. Interrupt it at any time:\n"
        "finished tables are kept and the next run goes on from there.\n"
        "The tables go to --dir, by default ./tablebases: where the commands that read tables look when\n"
        "neither --dir nor DTB_PATH names their directories.\n"
        "Example: dtb gen --variant russian --pieces 4 --dir tablebases\n"
        "On many machines (dtb built with MPI): mpirun -np 4 dtb gen --variant russian --pieces 7 --dir /shared/tb\n"
        "shares the work between the processes, which must all see DIR; the files are the same as one process\n"
        "writes. Each process uses --threads threads.");
    add_variant_option(gen, o->variant);
    gen->add_option("--pieces", o->pieces, "Build all tables with up to this many pieces on the board")
        ->check(CLI::Range(2, 8));
    gen->add_option("--dir", o->dir, "Directory for the tables (created if missing)")->capture_default_str();
    gen->add_option("--threads", o->threads, "Threads to use (default: all cores)")->check(CLI::Range(1, 1024));
    gen->add_option("--only", o->only,
                    "Build just this signature (e.g. KKKvK: three kings to move against one) and what it needs");
    gen->add_option("--memory", o->memory,
                    "Keep the process's own memory under this size (e.g. 2G, 512M; default: three quarters of the\n"
                    "machine's memory; the pages of the table files it reads, mapped, come on top and are given back\n"
                    "to the kernel when it needs them). A pair whose largest slice does not fit is refused, naming\n"
                    "what it needs")
        ->default_str(format_bytes(default_memory_bytes()));
    gen->add_option("--split-above", o->split_above,
                    "Under mpirun: a pair of at least this many positions is solved by every process together,\n"
                    "each taking a part of every slice; smaller pairs go whole to one process each")
        ->capture_default_str();
    gen->add_option("--side-by-side-below", o->side_by_side_below,
                    "With more than one thread: the pairs of fewer positions than this that do not depend on\n"
                    "each other are built side by side, each on one thread while enough are ready for every\n"
                    "thread, else on a part of the idle ones (their slices are too small to share well between\n"
                    "many); larger pairs one after another with every thread. 0: none side by side")
        ->capture_default_str();
    gen->add_option("--hold-slices-below", o->hold_slices_below,
                    "A pair of fewer positions than this keeps its solved slices in memory (when they fit\n"
                    "--memory) instead of writing them to scratch files, which is faster; a larger pair's slices\n"
                    "go to scratch files, so that an interrupted run goes on from its last slice. 0: always files")
        ->capture_default_str();
    gen->add_option("--format", o->format,
                    "Table format of the .wdl and .dtw files. 3 stores one side to move of each pair (KKvK or\n"
                    "KvKK: the one whose WDL file is smaller) and leaves the other out (docs/FORMAT.md): WDL and\n"
                    "DTW files less than half the size, but a probe of a position left out searches its moves\n"
                    "(a read of each, not one), and only dtb from format 3 on reads them. 2 stores both sides,\n"
                    "every position but the capture positions")
        ->check(CLI::IsMember({2, 3}))
        ->capture_default_str();
    gen->add_flag("--keep-raw", o->keep_raw,
                  "Also keep each table's exact values (NAME.raw, one value per position, captures included)\n"
                  "for tests and scripts; engines and dtb verify need only the .wdl and .dtw files");
    gen->add_flag("--keep-exact-values", o->keep_exact_values,
                  "Keep DIR/.dtb-work/exact-values/ after the run: every table's values, capture positions\n"
                  "included, which the run writes for the pairs built on them to read (a capture position of a\n"
                  "smaller table is then one read, not a search). A later run that builds larger tables on this\n"
                  "set reads them too; without them it searches, to the same files. About 2.5 bits a position");
    gen->add_flag("--dtc", o->dtc,
                  "Also build each table's values under the move-count draw rules (NAME.dtc: the distance to\n"
                  "conversion and the lone-king counts, docs/VALUES.md), which make dtb adjudicate exact for every\n"
                  "count. Each pair is solved after the tables it converts into, level by level (under mpirun, by\n"
                  "process 0), with two levels in memory and the others in scratch files under DIR/.dtb-work, so an\n"
                  "interrupted run goes on from the levels written; a pair that needs more than --memory stops with\n"
                  "an error naming it, before it starts");
    gen->add_flag("--json", o->json, "Print a JSON summary of the tables built on standard output");
    gen->callback([o] { run_gen(*o); });

    auto v = std::make_shared<VerifyCommandOptions>();
    CLI::App* verify = app.add_subcommand(
        "verify",
        "Check the checksums of every .wdl and .dtw file, recompute every stored value from the values of\n"
        "its successors (read from the same files and the smaller tables' files) and report each position\n"
        "where they disagree. The .dtc files (dtb gen --dtc), if any, likewise: each pair is solved again\n"
        "from the .dtc files it converts into and compared position by position.\n"
        "A table whose check needs a file that is missing or damaged is reported (\"not checked\", naming\n"
        "the file) and the others are still checked.\n"
        "Exit status 1 if any disagrees, a file is damaged or a table could not be checked.\n"
        "The directory: --dir DIR or DIR, else the one of DTB_PATH, else ./tablebases.\n"
        "Example: dtb verify --variant russian --dir tablebases\n"
        "Checksum lists (docs/FORMAT.md, \"Checksum lists\"): --write-checksums FILE records the size and\n"
        "XXH3-64 of every .wdl, .dtw and .dtc file once all of them are found consistent; --checksums FILE\n"
        "then shows a copy of the set to be the same, file by file, in the time it takes to read it.\n"
        "Example: dtb verify --variant russian --dir tablebases --write-checksums russian-5.txt\n"
        "Example: dtb verify --checksums russian-5.txt tablebases");
    add_variant_option(verify, v->variant, false,
                       " (required, except with --checksums, whose list names it; given, it must agree)");
    verify->add_option(
        "--dir", v->dir,
        "Directory holding the tables (default: the one directory of DTB_PATH, else ./tablebases if it exists)");
    verify->add_option("DIR", v->positional_dir, "The directory holding the tables, as --dir DIR")->type_name("DIR");
    CLI::Option* only = verify->add_option("--only", v->only, "Verify just these signatures (e.g. KKKvK)");
    verify->add_option("--threads", v->threads, "Threads to use (default: all cores)")->check(CLI::Range(1, 1024));
    verify
        ->add_option("--memory", v->memory,
                     "Keep the resident memory under about this size (e.g. 2G, 512M; default: three quarters of\n"
                     "the machine's memory). All but a small reserve may hold decompressed blocks of the tables,\n"
                     "a share for each thread; tables of kings, whose moves reach anywhere in them, verify about\n"
                     "three times as fast when each thread's share holds the table and its mirror whole")
        ->default_str(format_bytes(default_memory_bytes()));
    CLI::Option* journal =
        verify->add_option("--journal", v->journal,
                           "Record each table found consistent in FILE (created if missing), with the exact files\n"
                           "its check read; a later run with the same FILE checks those tables' checksums again but\n"
                           "does not recompute their values while every one of those files is unchanged. For sets\n"
                           "that take hours: an interrupted run goes on where it stopped. (.dtc files are always\n"
                           "checked in full.)");
    CLI::Option* write_checksums =
        verify
            ->add_option("--write-checksums", v->write_checksums,
                         "After the verify, if every table is consistent and no file damaged, write FILE\n"
                         "(atomically): the list of every .wdl, .dtw and .dtc file of the variant in DIR, with its\n"
                         "size and its XXH3-64; otherwise write nothing and say so. With or without --journal.\n"
                         "Example: dtb verify --variant russian --dir tablebases --write-checksums russian-5.txt")
            ->type_name("FILE");
    CLI::Option* checksums =
        verify
            ->add_option(
                "--checksums", v->checksums,
                "Check DIR against the checksum list FILE instead of recomputing any value: every listed\n"
                "file there, of its size and XXH3-64. Names each file missing, of another size or checksum\n"
                "(exit status 1) and each extra table file (not a failure). Takes the time to read the files.\n"
                "Example: dtb verify --checksums checksums/russian-6.txt tablebases")
            ->type_name("FILE");
    CLI::Option* pieces =
        verify
            ->add_option("--pieces", v->checksum_pieces,
                         "With --checksums: check only the listed tables of up to N pieces, so that a smaller\n"
                         "set checks against a larger list:\n"
                         "dtb verify --checksums checksums/russian-6.txt --pieces 5 tablebases")
            ->type_name("N")
            ->check(CLI::Range(2, 64));
    checksums->excludes(only)->excludes(journal)->excludes(write_checksums);
    verify->get_option("--memory")->excludes(checksums);
    write_checksums->excludes(only);
    pieces->needs(checksums);
    verify->add_flag("--json", v->json, "Print a JSON report on standard output");
    verify->callback([v] { run_verify(*v); });
}

}  // namespace dtb
