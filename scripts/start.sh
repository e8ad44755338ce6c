#!/usr/bin/env bash
# Builds what is missing or out of date, then serves the page on localhost (Vite prints the
# URL). The core is built each time, incrementally (under a second when nothing changed): a
# clone that pulled a change to core/ since its last build would otherwise serve the old core
# under the new page.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh wasm
exec npx vite --config vite.config.mjs --host 127.0.0.1 "$@"
