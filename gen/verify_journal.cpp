#include "gen/verify_journal.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compress/atomic_file.hpp"
#include "gen/checksum_list.hpp"

namespace dtb {

namespace {

using Json = nlohmann::json;

constexpr int kJournalVersion = 1;
constexpr const char* kJournalKind = "dtb verify journal";

std::string now_utc() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

void sort_by_name(std::vector<FileFingerprint>& files) {
    std::sort(files.begin(), files.end(),
              [](const FileFingerprint& a, const FileFingerprint& b) { return a.name < b.name; });
}

}  // namespace

std::uint64_t header_fingerprint(const compress::Header& h) {
    return compress::section_checksum(compress::encode_header(h));
}

VerifyJournal VerifyJournal::open(const std::filesystem::path& path, VariantId variant) {
    VerifyJournal journal(path, variant);
    const std::string where = "verify journal " + path.string();
    const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
    if (!std::filesystem::is_directory(parent)) throw BadJournal(where + ": no directory " + parent.string());
    if (!std::filesystem::exists(path)) return journal;
    if (std::filesystem::is_directory(path)) throw BadJournal(where + ": is a directory, give a file's path");
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) throw BadJournal(where + ": cannot be read");
    // What a journal must hold, checked field by field so that the message
    // says which one is wrong.
    try {
        const Json j = Json::parse(text.str());
        if (!j.is_object() || j.value("kind", "") != kJournalKind)
            throw BadJournal(where + ": not a dtb verify journal (no \"kind\": \"" + kJournalKind + "\")");
        if (j.value("version", 0) != kJournalVersion)
            throw BadJournal(where + ": journal version " + j.value("version", Json()).dump() + " (this dtb reads " +
                             std::to_string(kJournalVersion) + ")");
        const std::string variant_text = j.value("variant", "");
        if (variant_text != variant_name(variant))
            throw BadJournal(where + ": it records " + variant_text + " tables, and this run verifies " +
                             std::string(variant_name(variant)) + " ones: give another file");
        for (const auto& [name, t] : j.at("tables").items()) {
            if (!MaterialSignature::parse(name)) throw BadJournal(where + ": bad signature '" + name + "'");
            Entry e;
            e.verified_at = t.at("verified_at").get<std::string>();
            e.positions = t.at("positions").get<std::uint64_t>();
            e.seconds = t.at("seconds").get<double>();
            for (const auto& [file, hash] : t.at("files").items()) {
                const std::string h = hash.get<std::string>();
                std::size_t used = 0;
                const std::uint64_t value = h.size() == 16 ? std::stoull(h, &used, 16) : 0;
                if (used != 16) throw BadJournal(where + ": table " + name + ", file " + file + ": bad fingerprint");
                e.files.push_back({file, value});
            }
            sort_by_name(e.files);
            journal.entries_[name] = std::move(e);
        }
    } catch (const Json::exception& e) {
        throw BadJournal(where + ": " + e.what());
    } catch (const std::logic_error& e) {  // std::stoull on a bad digit
        throw BadJournal(where + ": bad fingerprint (" + e.what() + ")");
    }
    return journal;
}

std::optional<std::string> VerifyJournal::vouches_for(const MaterialSignature& sig,
                                                      std::vector<FileFingerprint> files) const {
    const auto it = entries_.find(sig.name());
    if (it == entries_.end()) return std::nullopt;
    sort_by_name(files);
    if (files != it->second.files) return std::nullopt;
    return it->second.verified_at;
}

void VerifyJournal::record(const MaterialSignature& sig, std::vector<FileFingerprint> files, std::uint64_t positions,
                           double seconds) {
    sort_by_name(files);
    entries_[sig.name()] = Entry{now_utc(), positions, seconds, std::move(files)};
    save();
}

void VerifyJournal::forget(const MaterialSignature& sig) {
    if (entries_.erase(sig.name())) save();
}

void VerifyJournal::save() const {
    Json tables = Json::object();
    for (const auto& [name, e] : entries_) {
        Json files = Json::object();
        for (const FileFingerprint& f : e.files) files[f.name] = checksum_hex(f.header_hash);
        tables[name] = Json{{"verified_at", e.verified_at},
                            {"positions", e.positions},
                            {"seconds", e.seconds},
                            {"files", std::move(files)}};
    }
    const Json j{{"kind", kJournalKind},
                 {"version", kJournalVersion},
                 {"variant", std::string(variant_name(variant_))},
                 {"tables", std::move(tables)}};
    compress::write_file_atomically(path_, j.dump(2) + "\n");
}

}  // namespace dtb
