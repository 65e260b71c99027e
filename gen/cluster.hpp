// The processes of one `mpirun -np N dtb gen ...` run, which share the table
// directory and split the work (docs/GENERATOR.md, "Many machines"). Built
// without MPI, or started without mpirun, it is a cluster of one and every
// call is trivial.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace dtb {

class Cluster {
public:
    // Joins the MPI job when dtb was built with MPI and started by an MPI
    // launcher (mpirun, srun); otherwise stands alone.
    Cluster();
    ~Cluster();
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }

    // Whether this dtb was built with MPI (the CMake option found Open MPI).
    static bool built_with_mpi();

    // Every process waits here until all have arrived.
    void barrier() const;
    // On every process: whether `mine` is true on any of them. Collective: a
    // failure on one process stops all of them at the same point.
    bool any(bool mine) const;
    // On every process: the element-wise sum of `mine` over all processes
    // (each passes the same length). Collective.
    std::vector<std::uint64_t> sum(const std::vector<std::uint64_t>& mine) const;
    // On process 0: the records of every process (stats of what each
    // built), in rank order; elsewhere the process's own. Collective.
    template <class T>
    std::vector<T> gather(const std::vector<T>& mine) const {
        static_assert(std::is_trivially_copyable_v<T>, "gathered records travel as bytes");
        if (size_ == 1) return mine;
        const std::vector<std::byte> all = gather_bytes(mine.data(), mine.size() * sizeof(T));
        if (rank_ != 0) return mine;
        std::vector<T> out(all.size() / sizeof(T));
        std::memcpy(out.data(), all.data(), all.size());
        return out;
    }

private:
    // On process 0: every process's bytes, in rank order (elsewhere empty).
    std::vector<std::byte> gather_bytes(const void* mine, std::size_t bytes) const;

    int rank_ = 0;
    int size_ = 1;
    bool joined_ = false;
};

}  // namespace dtb
