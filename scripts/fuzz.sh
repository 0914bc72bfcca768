#!/usr/bin/env bash
# Seeds the fuzz corpora from the shared captures, our schemas and sampled
# values of every message and version, then runs the cargo-fuzz targets.
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); RUSTC_BOOTSTRAP
# lets the stable toolchain accept the sanitizer flags it passes.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#       each target (default: all) for SECONDS (default 600)
#   scripts/fuzz.sh --ci [TOTAL] [--skip TARGET]...
#       CI: installs cargo-fuzz when missing, builds every target once, then
#       runs each target not skipped for an equal share of TOTAL seconds
#       (default 60), at most 10 s an input; fails on the first crash,
#       timeout or leak, printing the input's path and how to reproduce it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${KWIRE_SHARED:-$root/../shared}"
# Every target of fuzz/Cargo.toml; a new one is added here too (docs/fuzzing.md).
all_targets=(request_frame response record_batch schema internal_records json views envelope evolution server_codec)
export RUSTC_BOOTSTRAP=1

ci=false
if [ "${1:-}" = --ci ]; then
    ci=true
    shift
fi
seconds="${1:-}"
shift || true
targets=()
skip=()
while [ $# -gt 0 ]; do
    case "$1" in
        --skip) skip+=("$2"); shift 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for s in "${skip[@]+"${skip[@]}"}"; do
    kept=()
    for t in "${targets[@]}"; do [ "$t" = "$s" ] || kept+=("$t"); done
    targets=("${kept[@]}")
done

# The time in seconds, for the timings printed.
now() { date +%s; }

seed() {
    local c="fuzz/corpus"
    mkdir -p "$c/request_frame" "$c/response" "$c/record_batch" "$c/schema"
    cp schemas/*.json "$c/schema/"
    [ -d "$shared/captures" ] || return 0
    tail -n +2 "$shared/captures/index.tsv" | while IFS=$'\t' read -r file _client _peer dir key _api ver _rest; do
        local name
        name=$(basename "$file" .hex)
        if [ "$dir" = req ]; then
            xxd -r -p "$shared/captures/$file" > "$c/request_frame/$name"
        else
            # The response target reads api index and version from two leading bytes.
            { printf "\\x$(printf %02x "$key")\\x$(printf %02x "$ver")"; xxd -r -p "$shared/captures/$file" | tail -c +5; } > "$c/response/$name"
            xxd -r -p "$shared/captures/$file" > "$c/record_batch/$name"
        fi
    done
    # The server codec: each client's captured requests as one stream, read
    # with a 4 KiB limit until authenticated after the second frame, and
    # authenticated from the start (the target's three leading bytes).
    mkdir -p "$c/server_codec"
    python3 - "$shared/captures" "$c/server_codec" <<'PY'
import collections, csv, pathlib, sys
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
streams = collections.defaultdict(bytes)
with open(src / "index.tsv") as index:
    for row in csv.DictReader(index, delimiter="\t"):
        if row["direction"] == "req":
            streams[row["client"]] += bytes.fromhex((src / row["file"]).read_text().strip())
for client, stream in streams.items():
    (dst / f"{client}-stream").write_bytes(bytes([2, 255, 15]) + stream)
    (dst / f"{client}-stream-authenticated").write_bytes(bytes([0, 0, 6]) + stream)
PY
    # Record batches inside the captured frames: magic 2 at byte 16 and a length that fits.
    python3 - "$shared/captures" "$c/record_batch" <<'PY'
import pathlib, struct, sys
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for f in src.glob("*/*.hex"):
    b = bytes.fromhex(f.read_text().strip())
    for p in range(len(b) - 61):
        length = struct.unpack(">i", b[p + 8:p + 12])[0]
        if b[p + 16] == 2 and 49 <= length and p + 12 + length <= len(b):
            (dst / f"{f.stem}-batch-{p}").write_bytes(b[p:p + 12 + length])
PY
}

# The artifact libFuzzer wrote for a failed run, from its log.
artifact() {
    grep -oE "Test unit written to [^ ]+" "$1" | awk '{print $NF}' | tail -n 1 || true
}

run() {
    local t="$1" secs="$2" log="fuzz/$1.log" input
    echo "== $t for ${secs}s"
    if ! (cd fuzz && cargo fuzz run -O "$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 ${per_input:+-timeout="$per_input"}) > "$log" 2>&1; then
        tail -n 40 "$log"
        input=$(artifact "$log")
        # What failed, in one line: the panic's message or the sanitizer's
        # finding (a backtrace can push it out of the tail above).
        echo "fuzz: target $t failed: $(grep -m 1 -A 1 -E "panicked at|ERROR: " "$log" | tr '\n' ' ' | cut -c 1-400)" >&2
        echo "fuzz: log: $log" >&2
        if [ -n "$input" ]; then
            echo "fuzz: the failing input: $input" >&2
            echo "fuzz: reproduce with: (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O $t $input)" >&2
        fi
        return 1
    fi
    grep -E "^#[0-9]+ *DONE|^Done" "$log" | tail -n 2
}

start=$(now)
per_input=
if $ci; then
    if ! cargo fuzz --version >/dev/null 2>&1; then
        echo "== installing cargo-fuzz"
        cargo install cargo-fuzz --locked
        echo "fuzz: cargo-fuzz installed in $(($(now) - start)) s"
    fi
    per_input=10
fi
seed
# Seeds from encoded round-trip values: every api key and version, internal
# records, Kafka's JSON form, envelopes and schemas (interop/tests/fuzz_seeds.rs).
# All features, and without RUSTC_BOOTSTRAP (which cargo counts as a change
# of compiler): the build `cargo test --workspace --all-features` made serves.
FUZZ_SEEDS_DIR="$root/fuzz/corpus" env -u RUSTC_BOOTSTRAP cargo test -q --workspace --all-features --test fuzz_seeds > /dev/null
echo "fuzz: corpora seeded in $(($(now) - start)) s"
if $ci; then
    built=$(now)
    (cd fuzz && cargo fuzz build -O) > fuzz/build.log 2>&1 || { tail -n 40 fuzz/build.log; exit 1; }
    echo "fuzz: targets built in $(($(now) - built)) s"
    total="${seconds:-60}"
    seconds=$(( total / ${#targets[@]} ))
    [ "$seconds" -gt 0 ] || seconds=1
fi
for t in "${targets[@]}"; do
    run "$t" "${seconds:-600}"
done
echo "fuzz: done in $(($(now) - start)) s"
