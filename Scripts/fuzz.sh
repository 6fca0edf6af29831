#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Tests/Fuzz, -sanitize=fuzzer,address) and runs each one.
#   FUZZ_SECONDS=60   time per harness (default 60)
#   FUZZ_RUNS=N       stop each harness after N executions instead (a campaign: 1000000)
#   FUZZ_TARGETS="mpls clpi"   which harnesses (default: all)
#   FUZZ_JOBS=1       harnesses run at once
# Runs under `nice -n 19`, with -timeout=1 (a hang is an input taking over 1 s) and
# -rss_limit_mb=256. A crash, leak, hang or out-of-memory input is saved in
# Tests/Fuzz/artifacts/ and the script fails; turn it into a regression fixture with
# `Scripts/fuzz.sh --keep ARTIFACT HARNESS` (copies it to Tests/Fuzz/regressions/HARNESS/, which
# `make test` replays). Figures (executions, edges, corpus size) go to Tests/Fuzz/artifacts/summary.txt.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzz="$root/Tests/Fuzz"
all="udf iso9660 index movieobject mpls clpi ifo navpack ts ps timeseek segment image"

if [ "${1:-}" = "--keep" ]; then
  artifact="$2" harness="$3"
  mkdir -p "$fuzz/regressions/$harness"
  cp "$artifact" "$fuzz/regressions/$harness/$(basename "$artifact")"
  echo "kept $(basename "$artifact") as a $harness regression fixture" >&2
  exit 0
fi

dict_for() {
  case "$1" in
    udf) echo udf ;; iso9660) echo iso9660 ;; index | movieobject | mpls | clpi) echo bdmv ;;
    ifo | navpack | ps) echo dvd ;; ts | timeseek) echo ts ;; segment) echo segment ;;
    image) echo image ;;
  esac
}

echo "fuzz: building the harnesses (release, -sanitize=fuzzer,address)" >&2
(cd "$fuzz" && nice -n 19 swift build -c release -Xswiftc -sanitize=fuzzer,address) >&2 || exit 1
bin="$(cd "$fuzz" && swift build -c release --show-bin-path)/disckit-fuzz"
[ -x "$bin" ] || { echo "fuzz: $bin was not built" >&2; exit 1; }

if [ ! -d "$fuzz/corpus/mpls" ] || [ -z "$(ls -A "$fuzz/corpus/mpls" 2>/dev/null)" ]; then
  "$fuzz/make-corpus.sh"
fi
mkdir -p "$fuzz/artifacts"
summary="$fuzz/artifacts/summary.txt"
: > "$summary.new"

run_one() {
  local h="$1" log="$fuzz/artifacts/$1.log"
  mkdir -p "$fuzz/corpus/$h"
  # Regression fixtures are part of the corpus so that the campaign keeps covering them.
  local limit=(-max_total_time="${FUZZ_SECONDS:-60}")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  local extra=()
  [ -d "$fuzz/regressions/$h" ] && extra=("$fuzz/regressions/$h")
  DISCKIT_FUZZ_TARGET="$h" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" nice -n 19 "$bin" \
    "$fuzz/corpus/$h" "${extra[@]}" -dict="$fuzz/dictionaries/$(dict_for "$h").dict" \
    "${limit[@]}" -timeout=1 -rss_limit_mb=256 -max_len="$([ "$h" = image ] || [ "$h" = udf ] || [ "$h" = iso9660 ] && echo 4194304 || echo 262144)" \
    -artifact_prefix="$fuzz/artifacts/$h-" -print_final_stats=1 -print_pcs=0 -reload=0 \
    > "$log" 2>&1
  local status=$?
  local execs edges corpus
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
  edges="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')"
  corpus="$(ls "$fuzz/corpus/$h" | wc -l)"
  local verdict="ok"
  [ "$status" -ne 0 ] && verdict="FAILED (exit $status, see $log)"
  printf '%-12s execs %10s  edges %6s  corpus %6s  %s\n' "$h" "${execs:-?}" "${edges:-?}" "$corpus" "$verdict" | tee -a "$summary.new"
  return "$status"
}

failed=0
targets="${FUZZ_TARGETS:-$all}"
jobs="${FUZZ_JOBS:-1}"
if [ "$jobs" -le 1 ]; then
  for h in $targets; do run_one "$h" || failed=1; done
else
  export -f run_one dict_for
  export fuzz bin summary
  export FUZZ_SECONDS="${FUZZ_SECONDS:-60}" FUZZ_RUNS="${FUZZ_RUNS:-}"
  printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one {}' || failed=1
fi
mv "$summary.new" "$summary"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a harness failed; its input is in $fuzz/artifacts/ (crash-*, leak-*, timeout-*, oom-*)" >&2
  exit 1
fi
