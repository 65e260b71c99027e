// The generator's progress on a terminal: one line per table in progress
// (dtb gen, stderr), rewritten in place.
#pragma once

#include <chrono>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

namespace dtb {

// One line on a terminal, rewritten in place at most a few times a second.
class ProgressLine {
public:
    using Clock = std::chrono::steady_clock;

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
        if (stage.ends_with("init") && total > 0) {
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

}  // namespace dtb
