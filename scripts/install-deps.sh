#!/usr/bin/env bash
# Installs the Debian packages dtb needs, when any is missing.
#   scripts/install-deps.sh           everything: the build, the tests and the
#                                     benchmarks (scripts/test.sh uses this)
#   scripts/install-deps.sh --build   only what building the dtb program and
#                                     its libraries needs (scripts/demo.sh)
# Needs root (or sudo) only if something must be installed.
set -euo pipefail

build=(build-essential cmake pkg-config libzstd-dev libxxhash-dev libcli11-dev nlohmann-json3-dev libmicrohttpd-dev)
# python3-*: the Python module and its tests (python/, tests/python).
# chromium and node: the browser test of dtb serve (tests/serve); node and
# npm from Debian only where no node is installed (another one may be).
# libcpp-httplib-dev: the HTTP client of the tests of dtb serve (tests/serve).
# curl: the curl commands the documents show, run by tests/docs.
tests=(libgtest-dev libgmock-dev libcpp-httplib-dev libbenchmark-dev clang-format libopenmpi-dev openmpi-bin
  python3-pybind11 python3-dev python3-pytest chromium curl)
command -v node > /dev/null || tests+=(nodejs)
command -v npm > /dev/null || tests+=(npm)

case "${1:-}" in
  "") packages=("${build[@]}" "${tests[@]}") ;;
  --build) packages=("${build[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [--build]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
