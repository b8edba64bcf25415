#!/usr/bin/env bash
# The browser tests drive Debian's Chromium; install it when it is missing and we are allowed to.
set -euo pipefail
command -v chromium >/dev/null && exit 0
if [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing: run 'sudo apt-get install -y chromium' for the browser tests (they are skipped)." >&2
fi
