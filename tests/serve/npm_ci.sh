#!/usr/bin/env bash
# Installs the browser test's npm packages (package-lock.json) into DIR with
# `npm ci`: puppeteer-core only drives a browser, and nothing may download
# one (the test uses Debian's chromium). Skipped when DIR already holds
# this very lock file's packages.
#   tests/serve/npm_ci.sh SOURCE_DIR DIR
set -euo pipefail
src=$1
dir=$2
command -v npm > /dev/null || { echo "npm_ci: npm is not installed (scripts/install-deps.sh)" >&2; exit 1; }
mkdir -p "$dir"
if [ -d "$dir/node_modules" ] && cmp -s "$src/package-lock.json" "$dir/installed-lock.json"; then
  echo "npm_ci: node_modules is up to date in $dir"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dir/"
export PUPPETEER_SKIP_DOWNLOAD=1 PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1 PUPPETEER_SKIP_CHROME_DOWNLOAD=1 \
  PUPPETEER_SKIP_CHROME_HEADLESS_SHELL_DOWNLOAD=1
(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts)
cp "$src/package-lock.json" "$dir/installed-lock.json"
