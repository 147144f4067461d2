#!/usr/bin/env bash
# Accepts the current public API of every published module: rebuilds the modules jarvis-bom lists
# (without tests) and rewrites their committed snapshots <module>/api/<module>.api. Review the
# diff (git diff -- '*/api/*.api') and commit it with the change that caused it, plus a CHANGELOG
# entry with a migration note for anything removed or changed. Extra arguments go to Maven,
# e.g. scripts/accept-api.sh -Dmaven.repo.local=/path/to/repository
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q "$@" verify -pl jarvis-api-check -am \
  -Dmaven.test.skip=true -Dinvoker.skip=true -Dspotless.check.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
  -Djarvis.api.accept=true
git status --short -- '*/api/*.api'
