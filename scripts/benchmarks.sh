#!/usr/bin/env bash
# Runs momlint's benchmarks and writes reports/benchmarks.md.
#
#   scripts/benchmarks.sh           full run (several minutes; run it on a quiet machine)
#   scripts/benchmarks.sh --smoke   one iteration on tiny models: proves the benchmarks still
#                                   build and run (CI); writes .build/benchmarks-smoke.md instead
#
# 1. builds momlint in release and generates the synthetic models (10 … 10,000 entities);
# 2. runs the ordo-one harness in Benchmarks/ (load, load + all rules, conformance suite on
#    each adapter, the SQLite store's cascade deletions against plain SQL), which reads the
#    same models;
# 3. times the floors and `momlint lint` as processes on the same files, in the same run, and
#    writes the figures and the ratios against the targets (scripts/benchmarks-report.py). The
#    floors: `xmllint --noout` (a DOM tree), `xmllint --stream --noout` (libxml2's streaming
#    reader: the target is set against it) and `sax-floor` (libxml2's SAX2 parser with no
#    callbacks, Benchmarks/SAXFloor/sax-floor.c, compiled here).
# Timings are reported, never asserted: a slow machine must not fail CI.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
case "${1:-}" in
  "") ;;
  --smoke) mode=smoke ;;
  -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
  *) echo "error: unknown option '$1'; use --smoke or nothing" >&2; exit 2 ;;
esac

log() { printf '\n== %s\n' "$*"; }

seed=1
if [[ $mode == smoke ]]; then
  sizes=(10 100)
  export MOMLINT_BENCHMARK_SMOKE=1
  report=.build/benchmarks-smoke.md
else
  sizes=(10 100 1000 10000)
  report=reports/benchmarks.md
fi
load_before=$(uptime)

log "tools"
missing=()
command -v xmllint >/dev/null || missing+=(libxml2-utils)
if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || true
  else
    echo "note: not root; install ${missing[*]} to complete the run" >&2
  fi
fi
command -v xmllint >/dev/null || { echo "error: xmllint is missing; install libxml2-utils" >&2; exit 2; }
command -v cc >/dev/null || command -v clang >/dev/null || { echo "error: no C compiler (cc or clang) for sax-floor" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/momlint-benchmarks.XXXXXX")
trap 'rm -rf "$work"' EXIT
export MOMLINT_BENCHMARK_MODELS="$work/models" MOMLINT_BENCHMARK_SEED=$seed

if [[ $mode == smoke ]]; then
  # CI has just built the debug binary; a release build would only slow the smoke run down.
  log "momlint, debug build"
  swift build --product momlint
  momlint="$(swift build --show-bin-path)/momlint"
else
  # Linked as a release binary is shipped and as the pre-commit hook builds it on Linux: the
  # Swift libraries statically (binding libswiftCore and Foundation dynamically is a third of a
  # small model's start to exit), and exporting no symbols (docs/benchmarks.md, "Start-up").
  # Its own build folder, since the flags change every module.
  static=()
  [[ $(uname -s) == Linux ]] && static=(--static-swift-stdlib -Xlinker --no-export-dynamic)
  log "momlint, release build ${static[*]}"
  swift build -c release "${static[@]}" --scratch-path .build-release-static --product momlint
  momlint="$(swift build -c release "${static[@]}" --scratch-path .build-release-static --show-bin-path)/momlint"
fi

log "sax-floor (libxml2's SAX2 parse, no callbacks)"
sax_floor="$work/sax-floor"
# -O2 like a distribution's build of xmllint; the same libxml2 that momlint links.
"$(command -v cc || command -v clang)" -O2 -o "$sax_floor" Benchmarks/SAXFloor/sax-floor.c \
  $(pkg-config --cflags --libs libxml-2.0)

log "synthetic models: ${sizes[*]} entities, seed $seed"
for size in "${sizes[@]}"; do
  "$momlint" generate-model --entities "$size" --seed "$seed" --output "$MOMLINT_BENCHMARK_MODELS"
done

log "ordo-one benchmark harness (Benchmarks/)"
mkdir -p "$work/results"
swift package --package-path Benchmarks --allow-writing-to-directory "$work/results" \
  benchmark --no-progress --format influx --path "$work/results"

log "floors (xmllint --noout, xmllint --stream --noout, sax-floor), momlint lint as a process, report"
mkdir -p "$(dirname "$report")"
python3 scripts/benchmarks-report.py --mode "$mode" --momlint "$momlint" \
  --models "$MOMLINT_BENCHMARK_MODELS" --sizes "$(IFS=,; echo "${sizes[*]}")" --seed "$seed" \
  --influx "$(ls "$work/results/"*.influx.csv)" --sax-floor "$sax_floor" --small-model Fixtures/Models/Notes.xcdatamodeld \
  --load-before "$load_before" --output "$report"
cat "$report"
