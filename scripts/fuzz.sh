#!/usr/bin/env bash
# Fuzz momlint with libFuzzer for SECONDS seconds, shared between two targets:
#   LoaderFuzzer  the model loader and the lint engine (each input is a `contents` file);
#   StoreFuzzer   reading crafted SQLite stores as `momlint store` does (each input is a recipe:
#                 hostile schema objects and values, damaged pages, a -journal and a -wal of the
#                 input's bytes; a changed file in the store's folder is a finding too).
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
#   FUZZ_TARGETS the targets to run, each for an equal share of SECONDS (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [libFuzzer flags…]  (SECONDS: a whole number above 0)" >&2
  exit 2
fi
seconds=$1
shift

artifacts=fuzz-artifacts
mkdir -p "$artifacts"

targets=(${FUZZ_TARGETS:-LoaderFuzzer StoreFuzzer})
share=$((seconds / ${#targets[@]}))
((share >= 1)) || share=1

for target in "${targets[@]}"; do
  echo "== building $target (release, -sanitize=fuzzer,address)" >&2
  # Without --disable-build-manifest-caching SwiftPM reuses the build plan of the root package
  # (a path dependency here) and misses source files added to it since the last fuzz build.
  nice -n 10 swift build --package-path Fuzz --scratch-path .build-fuzz -c release -j "${FUZZ_JOBS:-1}" \
    --disable-build-manifest-caching -Xswiftc -sanitize=fuzzer,address --product "$target" >&2
done

# Seeds, copied to a scratch folder so libFuzzer never writes next to a fixture: for the loader
# every committed model and every past regression; for the store fuzzer one recipe per
# construct (CraftedStore.constructs), alone, with a -journal, with a -wal, and in WAL mode.
seeds=$(mktemp -d "${TMPDIR:-/tmp}/momlint-fuzz-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds/LoaderFuzzer" "$seeds/StoreFuzzer"
count=0
while IFS= read -r -d '' file; do
  count=$((count + 1))
  cp "$file" "$seeds/LoaderFuzzer/seed-$count"
done < <(find Fixtures/Models Fixtures/Fuzz/regressions -type f \( -name contents -o -path '*/regressions/*' \) \
           ! -name '*.md' -print0 2>/dev/null)
for construct in $(seq 0 27); do
  for flags in 0 2 4 12; do
    printf "\\x01\\x$(printf %02x "$construct")\\x$(printf %02x "$flags")%s" \
      "SQLite format 3 journal and wal bytes 0123456789abcdef" > "$seeds/StoreFuzzer/seed-$construct-$flags"
  done
  # An empty -journal and -wal (no data after the flags): the recipe that found the oracle's
  # own leak (Foundation's, reading an empty file; CraftedStore.bytes(of:) reads without it).
  printf "\\x01\\x$(printf %02x "$construct")\\x06" > "$seeds/StoreFuzzer/seed-$construct-empty"
done

status=0
for target in "${targets[@]}"; do
  corpus=${FUZZ_CORPUS:-.build-fuzz/corpus}/$target
  mkdir -p "$corpus"
  options=(-max_len=65536)
  [[ $target == LoaderFuzzer ]] && options+=(-dict=Fuzz/contents.dict)
  echo "== fuzzing $target for ${share}s; corpus in $corpus, findings in $artifacts/" >&2
  LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=Fuzz/lsan.supp} nice -n 10 ".build-fuzz/release/$target" \
    -max_total_time="$share" \
    -timeout=10 \
    -rss_limit_mb=2048 \
    "${options[@]}" \
    -artifact_prefix="$artifacts/$target-" \
    -print_final_stats=1 \
    "$@" "$corpus" "$seeds/$target" || status=$?
  if ((status != 0)); then
    echo "error: $target found a problem (exit $status); the input is in $artifacts/ (listed below)." >&2
    ls -l "$artifacts" >&2
    echo "Replay it with: .build-fuzz/release/$target $artifacts/<file>" >&2
    break
  fi
done
exit "$status"
