#!/usr/bin/env bash
# Browsers are never downloaded: the tests use Debian's Chromium (or CHROMIUM_PATH).
set -euo pipefail
path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$path" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium not found at $path: installing Debian's chromium package"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium not found at $path. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
