#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Tests/Fuzz, -sanitize=fuzzer,address) and runs each one.
#   FUZZ_SECONDS=60   time per harness (default 60)
#   FUZZ_RUNS=N       stop each harness after N executions instead (a campaign: 1000000)
#   FUZZ_TARGETS="mpls clpi"   which harnesses (default: all)
#   FUZZ_JOBS=1       harnesses run at once
#   FUZZ_SKIP_BUILD=1 reuse the last build
#   FUZZ_NEW_CORPUS=1 seed and minimize the corpus again (Tests/Fuzz/make-corpus.sh)
# Each harness has its -max_len (Tests/Fuzz/fuzz-max-len.sh); udf, iso9660 and image take disc
# images in a sparse encoding of their metadata sectors (Tests/Fuzz/sparse-image.py).
# Runs under `nice -n 19` with -rss_limit_mb=256; a hang is an input taking over 1 s at normal
# priority (libFuzzer's inputs of 1 s or more under nice are run again to tell, see run_one;
# FUZZ_HANG_SECONDS=10 is libFuzzer's own wall-clock -timeout). A crash, leak, hang or out-of-memory input is saved in
# Tests/Fuzz/artifacts/ and the script fails; turn it into a regression fixture with
# `Scripts/fuzz.sh --keep ARTIFACT HARNESS` (copies it to Tests/Fuzz/regressions/HARNESS/, which
# `make test` replays). Figures (executions, edges, corpus size) go to Tests/Fuzz/artifacts/summary.txt.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzz="$root/Tests/Fuzz"
all="udf iso9660 index movieobject hdmv ics mpls clpi ifo navpack ts ps timeseek segment image dvdvm bdjo jar class range hevc dovi pgs dvdsub"

if [ "${1:-}" = "--keep" ]; then
  artifact="$2" harness="$3"
  mkdir -p "$fuzz/regressions/$harness"
  cp "$artifact" "$fuzz/regressions/$harness/$(basename "$artifact")"
  echo "kept $(basename "$artifact") as a $harness regression fixture" >&2
  exit 0
fi

dict_for() {
  case "$1" in
    udf) echo udf ;; iso9660) echo iso9660 ;; index | movieobject | hdmv | ics | mpls | clpi) echo bdmv ;;
    ifo | navpack | ps | dvdvm) echo dvd ;; ts | timeseek) echo ts ;; segment) echo segment ;;
    image) echo image ;;
    bdjo | jar | class) echo bdj ;;
    range) echo http ;;
    hevc) echo hevc ;;
    dovi) echo ts ;;
    pgs) echo pgs ;;
    dvdsub) echo dvdsub ;;
  esac
}

if [ -z "${FUZZ_SKIP_BUILD:-}" ]; then  # FUZZ_SKIP_BUILD=1: reuse the last build
  echo "fuzz: building the harnesses (release, -sanitize=fuzzer,address)" >&2
  (cd "$fuzz" && nice -n 19 swift build -c release -Xswiftc -sanitize=fuzzer,address) >&2 || exit 1
fi
bin="$(cd "$fuzz" && swift build -c release --show-bin-path)/disckit-fuzz"
[ -x "$bin" ] || { echo "fuzz: $bin was not built" >&2; exit 1; }

. "$fuzz/fuzz-max-len.sh"
# Seeds (cut to each -max_len, disc images in the sparse encoding) minimized into the corpus: on the
# first run, when the corpus format changed, or with FUZZ_NEW_CORPUS=1.
if [ -n "${FUZZ_NEW_CORPUS:-}" ] || [ "$(cat "$fuzz/corpus/.format" 2> /dev/null)" != "sparse-1" ]; then
  FUZZ_BIN="$bin" "$fuzz/make-corpus.sh"
fi
mkdir -p "$fuzz/artifacts"
summary="$fuzz/artifacts/summary.txt"
: > "$summary.new"

# LeakSanitizer on; ASan's quarantine of freed memory (256 MiB by default) would count against
# -rss_limit_mb on the harnesses that take whole images, so it is kept small. A single allocation
# over the limit is still an error (-malloc_limit_mb defaults to -rss_limit_mb).
asan_options="detect_leaks=1:quarantine_size_mb=16:malloc_context_size=8"

# One harness. libFuzzer's -timeout is wall-clock time: on a loaded machine under `nice -n 19` a
# starved process can pass 1 s on a quick input, and every timeout restarts the run (reloading the
# corpus). So libFuzzer only reports inputs of 1 s or more (-report_slow_units=1, saved as
# slow-unit-*) and stops at FUZZ_HANG_SECONDS; each such input is run again at normal priority
# with -timeout=1: if it finishes there it was starvation (kept in artifacts/starved/, fuzzing goes
# on or resumes from the corpus); if not, it is a hang and the harness fails.
run_one() {
  local h="$1" log="$fuzz/artifacts/$1.log"
  local total=0 edges="" restarts=0 status=0 started slow_units=0 hung=""
  started="$(date +%s)"
  mkdir -p "$fuzz/corpus/$h" "$fuzz/artifacts/starved"
  local extra=()
  [ -d "$fuzz/regressions/$h" ] && extra=("$fuzz/regressions/$h")
  local max_len
  max_len="$(fuzz_max_len "$h")"
  : > "$log"
  while :; do
    local limit=()
    if [ -n "${FUZZ_RUNS:-}" ]; then
      [ "$total" -ge "$FUZZ_RUNS" ] && break
      limit=(-runs=$((FUZZ_RUNS - total)))
    else
      local left=$(( ${FUZZ_SECONDS:-60} - ($(date +%s) - started) ))
      [ "$left" -le 0 ] && break
      limit=(-max_total_time="$left")
    fi
    DISCKIT_FUZZ_TARGET="$h" ASAN_OPTIONS="${ASAN_OPTIONS:-$asan_options}" nice -n 19 "$bin" \
      "$fuzz/corpus/$h" "${extra[@]}" -dict="$fuzz/dictionaries/$(dict_for "$h").dict" \
      "${limit[@]}" -timeout="${FUZZ_HANG_SECONDS:-10}" -report_slow_units=1 \
      -rss_limit_mb=256 -max_len="$max_len" \
      -artifact_prefix="$fuzz/artifacts/$h-" -print_final_stats=1 -reload=0 \
      > "$log.part" 2>&1
    status=$?
    cat "$log.part" >> "$log"
    local n
    n="$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log.part" | grep -o '[0-9]*$' | tail -1)"
    total=$((total + ${n:-0}))
    local e
    e="$(grep -ao 'cov: [0-9]*' "$log.part" | tail -1 | grep -o '[0-9]*')"
    [ -n "$e" ] && edges="$e"
    # Inputs that took a second or more (libFuzzer's slow-unit-*): run again at normal priority;
    # within 1 s there, the time was starvation; over it, a hang.
    local slow
    for slow in "$fuzz/artifacts/$h-slow-unit-"*; do
      [ -f "$slow" ] || continue
      if DISCKIT_FUZZ_TARGET="$h" "$bin" -timeout=1 -rss_limit_mb=256 -runs=2 "$slow" > /dev/null 2>&1; then
        slow_units=$((slow_units + 1))
        mv "$slow" "$fuzz/artifacts/starved/"
      else
        mv "$slow" "${slow/slow-unit-/timeout-}"
        echo "fuzz: $h: an input takes over 1 s at normal priority: ${slow/slow-unit-/timeout-}" >> "$log"
        status=1
        hung=1
      fi
    done
    [ -n "$hung" ] && break
    [ "$status" -eq 0 ] && break
    local unit
    unit="$(grep -ao 'Test unit written to .*' "$log.part" | tail -1 | sed 's/Test unit written to //')"
    if grep -aq 'libFuzzer: timeout' "$log.part" && [ -f "$unit" ] \
      && DISCKIT_FUZZ_TARGET="$h" "$bin" -timeout=1 -rss_limit_mb=256 -runs=2 "$unit" > /dev/null 2>&1; then
      restarts=$((restarts + 1))
      mv "$unit" "$fuzz/artifacts/starved/"
      [ "$restarts" -le 50 ] && { status=0; continue; }
    fi
    break
  done
  rm -f "$log.part"
  local corpus verdict="ok"
  corpus="$(ls "$fuzz/corpus/$h" | wc -l)"
  [ "$status" -ne 0 ] && verdict="FAILED (exit $status, see $log)"
  [ "$restarts" -gt 0 ] && verdict="$verdict, $restarts starvation timeouts rechecked"
  [ "$slow_units" -gt 0 ] && verdict="$verdict, $slow_units slow units rechecked"
  local seconds=$(( $(date +%s) - started ))
  printf '%-12s execs %10s  edges %6s  corpus %6s  seconds %6s  exec/s %6s  %s\n' "$h" "$total" \
    "${edges:-?}" "$corpus" "$seconds" "$(( total / (seconds > 0 ? seconds : 1) ))" "$verdict" \
    | tee -a "$summary.new"
  return "$status"
}

failed=0
targets="${FUZZ_TARGETS:-$all}"
jobs="${FUZZ_JOBS:-1}"
if [ "$jobs" -le 1 ]; then
  for h in $targets; do run_one "$h" || failed=1; done
else
  export -f run_one dict_for fuzz_max_len
  export fuzz bin summary asan_options
  export FUZZ_SECONDS="${FUZZ_SECONDS:-60}" FUZZ_RUNS="${FUZZ_RUNS:-}"
  printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one {}' || failed=1
fi
mv "$summary.new" "$summary"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a harness failed; its input is in $fuzz/artifacts/ (crash-*, leak-*, timeout-*, oom-*)" >&2
  exit 1
fi
