#!/usr/bin/env bash
# A release dry run (docs/releasing.md): builds the bundle Maven Central takes, signed with a
# throwaway key, uploads nothing, and checks it (scripts/check-central-bundle.sh) and its signatures.
#
#   scripts/release-dry-run.sh [extra Maven arguments, e.g. -Dmaven.repo.local=...]
#
# Online: the Central plugin skips itself offline (it uploads nothing here, with -DskipUpload=true).
#
# Central takes release versions only, so the run builds a copy of the committed tree (HEAD) whose
# version drops -SNAPSHOT (DRY_RUN_VERSION overrides it); the working tree is left as it is. The key
# lives in a temporary GNUPGHOME that is deleted at the end: it is never anyone's key and never
# committed. Tests are skipped: the dry run is about the artifacts (./mvnw -B verify is the test run).
# The bundle, the build's log and the check report are kept in target/release-dry-run/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
for arg in "$@"; do
  case "$arg" in
  -o | --offline)
    # The Central plugin's publish goal (which also builds the bundle) skips itself offline.
    echo "the dry run needs Maven online: the Central plugin builds no bundle offline" >&2
    exit 2
    ;;
  esac
done
current=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
version=${DRY_RUN_VERSION:-${current%-SNAPSHOT}}

work=$(mktemp -d)
export GNUPGHOME="$work/gnupg"
cleanup() {
  gpgconf --kill gpg-agent >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 700 "$GNUPGHOME"

out="$root/target/release-dry-run"
rm -rf "$out" && mkdir -p "$out"

echo "== throwaway signing key in $GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'Jarvis release dry run <dry-run@example.invalid>' ed25519 sign 1d
fingerprint=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')

echo "== the committed tree at version $version in $work/tree"
mkdir "$work/tree"
git archive HEAD | tar -x -C "$work/tree"
find "$work/tree" -name pom.xml -exec sed -i "s:<version>$current</version>:<version>$version</version>:" {} +

echo "== ./mvnw -Prelease deploy -DskipUpload=true"
(cd "$work/tree" && ./mvnw -B -Prelease deploy -DskipUpload=true -DskipTests -Djarvis.api.skip=true \
  -Dinvoker.skip=true -Dgpg.keyname="$fingerprint" "$@") >"$out/build.log" 2>&1 || {
  tail -80 "$out/build.log"
  echo "the release build failed (log above)" >&2
  exit 2
}
bundle="$work/tree/target/central-publishing/central-bundle.zip"
if [ ! -f "$bundle" ]; then
  echo "no bundle at $bundle; the build left:" >&2
  (cd "$work/tree" && find . -name 'central-bundle.zip' >&2)
  exit 2
fi
cp "$bundle" "$out/"

echo "== Central's requirements (scripts/CheckCentralBundle.java)"
status=0
java scripts/CheckCentralBundle.java "$out/central-bundle.zip" "$work/tree" | tee "$out/check.txt" || status=1

echo "== every signature verifies against the throwaway key"
mkdir "$work/unzipped"
unzip -q "$out/central-bundle.zip" -d "$work/unzipped"
signed=0
while read -r asc; do
  if gpg --batch --quiet --verify "$asc" "${asc%.asc}" 2>/dev/null; then
    signed=$((signed + 1))
  else
    echo "FAIL bad signature: ${asc#"$work/unzipped/"}" | tee -a "$out/check.txt"
    status=1
  fi
done < <(find "$work/unzipped" -name '*.asc' | sort)
echo "$signed signatures verified" | tee -a "$out/check.txt"
(cd "$work/unzipped" && find . -type f | sort) >"$out/contents.txt"
echo "bundle, its contents and the check report: $out"
exit $status
