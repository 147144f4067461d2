#!/usr/bin/env bash
# Two clean builds of the working tree must give byte-identical jars (project.build.outputTimestamp in
# pom.xml). Builds twice from empty target/ directories with `package` (tests skipped: they do not change the jars), compares the
# SHA-256 of every jar under */target, and for a jar that differs names the entries that differ.
#
#   scripts/check-reproducible.sh [extra Maven arguments, e.g. -o -Dmaven.repo.local=...]
#
# Exit status 0 when every jar is identical, 1 when one differs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() { # $1: the run's name
  echo "== build $1" >&2
  # A clean build: every module's target/ removed (not `mvn clean`, which would fetch the BOM's own
  # clean plugin, pinned nowhere, for no gain).
  rm -rf target ./*/target
  ./mvnw -B -q package -DskipTests -Djarvis.api.skip=true -Dinvoker.skip=true "${@:2}" >"$work/$1.log" 2>&1 || {
    tail -50 "$work/$1.log" >&2
    echo "build $1 failed" >&2
    exit 2
  }
  mkdir -p "$work/$1"
  # Every jar the reactor made, under a name that keeps its module.
  find . -path ./node_modules -prune -o -path '*/target/*.jar' -print | grep -v '/target/it' | sort |
    while read -r jar; do
      dest="$work/$1/${jar#./}"
      mkdir -p "$(dirname "$dest")"
      cp "$jar" "$dest"
    done
  (cd "$work/$1" && find . -name '*.jar' | sort | xargs sha256sum) >"$work/$1.sha256"
}

build first "$@"
build second "$@"

count=$(wc -l <"$work/first.sha256")
if [ "$count" -eq 0 ]; then
  echo "no jars were built" >&2
  exit 2
fi
if diff -q "$work/first.sha256" "$work/second.sha256" >/dev/null; then
  echo "reproducible: $count jars byte-identical across two clean builds"
  exit 0
fi

echo "NOT reproducible: these jars differ between two clean builds" >&2
diff "$work/first.sha256" "$work/second.sha256" | grep '^<' | awk '{print $3}' | while read -r jar; do
  echo "  $jar" >&2
  for run in first second; do
    rm -rf "$work/$run.x" && mkdir "$work/$run.x"
    unzip -q "$work/$run/$jar" -d "$work/$run.x" 2>/dev/null || true
    unzip -l "$work/$run/$jar" >"$work/$run.list" 2>/dev/null || true
  done
  # Entries whose content differs, then entries whose listing (size, time, order) differs.
  diff -rq "$work/first.x" "$work/second.x" | sed "s|$work/||g" | head -20 | sed 's/^/    /' >&2 || true
  diff "$work/first.list" "$work/second.list" | grep '^[<>]' | head -20 | sed 's/^/    /' >&2 || true
done
exit 1
