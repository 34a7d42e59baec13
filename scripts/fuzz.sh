#!/usr/bin/env bash
# Fuzz momlint's model loader and lint engine with libFuzzer for SECONDS seconds.
#
#   scripts/fuzz.sh SECONDS [libFuzzer flags…]      e.g. scripts/fuzz.sh 60, scripts/fuzz.sh 600 -max_len=4096
#
# Exits 0 when the time runs out without a finding ("no new coverage" is not a failure),
# and non-zero on a crash, a sanitizer report, a leak, an input slower than 10 s, or an input
# needing more than 2 GB. The input that did it is written to fuzz-artifacts/ (gitignored);
# make it a regression: copy it to Fixtures/Fuzz/regressions/, fix the bug, and add its
# expected outcome to Tests/LintingTests/FuzzRegressionTests.swift.
#
# Environment:
#   FUZZ_CORPUS  the working corpus, kept between runs (default .build-fuzz/corpus, gitignored)
#   FUZZ_JOBS    build jobs (default 1: the fuzzer shares small machines)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [libFuzzer flags…]  (SECONDS: a whole number above 0)" >&2
  exit 2
fi
seconds=$1
shift

corpus=${FUZZ_CORPUS:-.build-fuzz/corpus}
artifacts=fuzz-artifacts
mkdir -p "$corpus" "$artifacts"

echo "== building the fuzzer (release, -sanitize=fuzzer,address)" >&2
# Without --disable-build-manifest-caching SwiftPM reuses the build plan of the root package
# (a path dependency here) and misses source files added to it since the last fuzz build.
nice -n 10 swift build --package-path Fuzz --scratch-path .build-fuzz -c release -j "${FUZZ_JOBS:-1}" \
  --disable-build-manifest-caching -Xswiftc -sanitize=fuzzer,address --product LoaderFuzzer >&2
fuzzer=.build-fuzz/release/LoaderFuzzer

# Seeds: every committed model and every past regression, copied to a scratch folder so
# libFuzzer never writes next to a fixture.
seeds=$(mktemp -d "${TMPDIR:-/tmp}/momlint-fuzz-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
count=0
while IFS= read -r -d '' file; do
  count=$((count + 1))
  cp "$file" "$seeds/seed-$count"
done < <(find Fixtures/Models Fixtures/Fuzz/regressions -type f \( -name contents -o -path '*/regressions/*' \) \
           ! -name '*.md' -print0 2>/dev/null)
echo "== fuzzing for ${seconds}s from $count seeds; corpus in $corpus, findings in $artifacts/" >&2

status=0
nice -n 10 "$fuzzer" \
  -max_total_time="$seconds" \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -max_len=65536 \
  -dict=Fuzz/contents.dict \
  -artifact_prefix="$artifacts/" \
  -print_final_stats=1 \
  "$@" "$corpus" "$seeds" || status=$?

if ((status != 0)); then
  echo "error: the fuzzer found a problem (exit $status); the input is in $artifacts/ (listed below)." >&2
  ls -l "$artifacts" >&2
  echo "Replay it with: $fuzzer $artifacts/<file>" >&2
fi
exit "$status"
