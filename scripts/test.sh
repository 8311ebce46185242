#!/usr/bin/env bash
# `npm test`, the one test command: the unit specs in parallel workers, then the e2e projects
# (e2e on embedded PGlite, e2e-postgres on a real server) in band, because each e2e suite
# boots the whole app (embedding workers, a database) and they would starve one another.
# Arguments (paths, -t patterns, Jest flags) go to both runs; a run they select nothing in
# passes. At least two unit workers even on a 2-core box: the specs wait on loopback
# servers, Redis and timers as much as they compute.
set -euo pipefail
cd "$(dirname "$0")/.."
jest=(node --experimental-vm-modules node_modules/jest/bin/jest.js --passWithNoTests)
workers=$(node -p "Math.max(2, require('node:os').availableParallelism() - 1)")
"${jest[@]}" "$@" --maxWorkers="$workers" --selectProjects unit
"${jest[@]}" "$@" --runInBand --selectProjects e2e e2e-postgres
