#!/usr/bin/env bash
# Packs a dtb built with MPI, and the Open MPI runtime it was built with
# (Debian's libopenmpi-dev), into one folder that runs on an x86-64 Linux
# machine that has neither: a benchmark machine, a cluster node without
# Open MPI. glibc is the one thing not packed (the target's must be at least
# as new as the one dtb was linked against; `ldd --version` says).
#   scripts/pack-with-mpi.sh DTB KIT
# Then, on the target:  . KIT/env.sh && mpirun -np 4 --bind-to none dtb gen ...
# (env.sh puts dtb and mpirun on PATH and points Open MPI at KIT through its
# OPAL_* variables; it also lets Open MPI run as root.)
set -euo pipefail
[ $# -eq 2 ] || { sed -n 2,11p "$0" >&2; exit 2; }
dtb=$1 kit=$2
ldd "$dtb" | grep -q libmpi || { echo "$dtb is not built with MPI" >&2; exit 1; }
ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib
[ -d "$ompi/openmpi3" ] || { echo "Debian's Open MPI is not installed (libopenmpi-dev)" >&2; exit 1; }
rm -rf "$kit"
mkdir -p "$kit"/{bin,lib,etc,share}
cp "$dtb" "$kit/bin/dtb"
cp /usr/bin/orterun /usr/bin/orted /usr/bin/ompi_info "$kit/bin/"
ln -s orterun "$kit/bin/mpirun"
cp -a "$ompi/openmpi3" "$kit/openmpi3"
cp -a /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix "$kit/pmix"
cp -a /etc/openmpi/. "$kit/etc/"
cp -a /usr/share/openmpi "$kit/share/openmpi"
# Every library these load, except glibc's own.
for f in "$kit"/bin/{dtb,orterun,orted,ompi_info} "$kit"/openmpi3/*.so "$kit"/pmix/*.so; do ldd "$f" 2>/dev/null; done |
  awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$kit/lib/"; done
cat > "$kit/env.sh" <<'ENV'
K=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$K/bin:$PATH LD_LIBRARY_PATH=$K/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OPAL_PREFIX=$K OPAL_BINDIR=$K/bin OPAL_LIBDIR=$K/lib OPAL_PKGLIBDIR=$K/openmpi3 \
       OPAL_DATADIR=$K/share OPAL_DATAROOTDIR=$K/share OPAL_PKGDATADIR=$K/share/openmpi OPAL_SYSCONFDIR=$K/etc
export PMIX_MCA_mca_base_component_path=$K/pmix PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ENV
echo "$kit: $(du -sh "$kit" | cut -f1), $(ls "$kit/lib" | wc -l) libraries; on the target: . $kit/env.sh"
