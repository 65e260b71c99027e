// A temporary directory of its own for each test, removed when it ends.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace dtb::test_support {

class ScratchDir {
public:
    ScratchDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        // Several in one test, and tests run in parallel by ctest, must not share a path.
        static std::atomic<int> count{0};
        std::string name = "dtb_test_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                           std::to_string(::getpid()) + "_" + std::to_string(count++);
        for (char& c : name)
            if (c == '/') c = '_';  // parameterised tests have '/' in their names
        path_ = std::filesystem::temp_directory_path() / name;
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace dtb::test_support
