#!/usr/bin/env bash
# `npm test`, the one test command: the unit specs, then the e2e projects (e2e on embedded
# PGlite, e2e-postgres on a real server), each in parallel workers. Three e2e workers on a
# 2-core box: a suite spends much of its time waiting (boots, loopback servers, Chromium,
# Postgres), and the suites assert no wall-clock times, so three at once stay correct; with
# two the box used 1.2 cores (user 11.5 min over 9.6 min wall).
# Arguments (paths, -t patterns, Jest flags) go to both runs; a run they select nothing in
# passes.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Debian packages the suites need (Redis, Chromium, Postgres 15 + pgvector from vendor/),
# installed when missing and run as root; otherwise it says what is missing.
bash scripts/system-packages.sh
jest=(node --experimental-vm-modules node_modules/jest/bin/jest.js --passWithNoTests)
workers=$(node -p "Math.max(2, require('node:os').availableParallelism() - 1)")
"${jest[@]}" "$@" --maxWorkers="$workers" --selectProjects unit
"${jest[@]}" "$@" --maxWorkers=3 --selectProjects e2e e2e-postgres
