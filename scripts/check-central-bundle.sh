#!/usr/bin/env bash
# Checks a Central Portal bundle against Maven Central's requirements and this repository's list of
# published modules (scripts/CheckCentralBundle.java says which rules).
#
#   scripts/check-central-bundle.sh [BUNDLE.zip]     (default: target/central-publishing/central-bundle.zip)
#
# scripts/release-dry-run.sh builds a signed bundle and runs this check on it.
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-target/central-publishing/central-bundle.zip}
exec java scripts/CheckCentralBundle.java "$bundle" .
