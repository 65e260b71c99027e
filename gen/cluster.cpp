#include "gen/cluster.hpp"

#include <cstdlib>
#include <stdexcept>
#include <type_traits>

#if defined(DTB_HAVE_MPI)
#include <mpi.h>
#endif

namespace dtb {

namespace {

// Set by every launcher we know of in the processes it starts.
bool started_by_a_launcher() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "SLURM_NTASKS"})
        if (std::getenv(name)) return true;
    return false;
}

}  // namespace

bool Cluster::built_with_mpi() {
#if defined(DTB_HAVE_MPI)
    return true;
#else
    return false;
#endif
}

#if defined(DTB_HAVE_MPI)

Cluster::Cluster() {
    if (!started_by_a_launcher()) return;
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised) {
        // Only the main thread calls MPI; OpenMP threads never do.
        int provided = 0;
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
        joined_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Cluster::~Cluster() {
    if (joined_) MPI_Finalize();
}

void Cluster::barrier() const {
    if (size_ > 1) MPI_Barrier(MPI_COMM_WORLD);
}

bool Cluster::any(bool mine) const {
    if (size_ == 1) return mine;
    int in = mine ? 1 : 0, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return out != 0;
}

std::vector<std::uint64_t> Cluster::sum(const std::vector<std::uint64_t>& mine) const {
    if (size_ == 1) return mine;
    static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
    std::vector<std::uint64_t> out(mine.size());
    MPI_Allreduce(mine.data(), out.data(), int(mine.size()), MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

std::vector<std::byte> Cluster::gather_bytes(const void* mine, std::size_t bytes) const {
    const int count = int(bytes);
    std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < size_; ++r) {
        offsets[std::size_t(r)] = total;
        total += counts[std::size_t(r)];
    }
    std::vector<std::byte> all(rank_ == 0 ? std::size_t(total) : 0);
    MPI_Gatherv(mine, count, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    return all;
}

#else

Cluster::Cluster() {
    if (started_by_a_launcher())
        throw std::runtime_error(
            "dtb was started by an MPI launcher but built without MPI: install libopenmpi-dev and build again "
            "(CMake finds it), or run dtb gen without mpirun");
}
Cluster::~Cluster() = default;
void Cluster::barrier() const {}
bool Cluster::any(bool mine) const { return mine; }
std::vector<std::uint64_t> Cluster::sum(const std::vector<std::uint64_t>& mine) const { return mine; }
std::vector<std::byte> Cluster::gather_bytes(const void* mine, std::size_t bytes) const {
    const auto* first = static_cast<const std::byte*>(mine);
    return {first, first + bytes};
}

#endif

}  // namespace dtb
