#!/usr/bin/env bash
# Seeds the fuzz corpora from the shared captures and our schemas, then runs
# each cargo-fuzz target for SECONDS (default 600). Needs cargo-fuzz
# (`cargo install cargo-fuzz`); RUSTC_BOOTSTRAP lets the stable toolchain
# accept the sanitizer flags it passes.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared="${KWIRE_SHARED:-$root/../shared}"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(request_frame response record_batch schema internal_records)
export RUSTC_BOOTSTRAP=1

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

seed
# Seeds from encoded round-trip values: every api key and version.
FUZZ_SEEDS_DIR="$root/fuzz/corpus" cargo test -q --features sample,internal-records --test fuzz_seeds > /dev/null
for t in "${targets[@]}"; do
    echo "== $t for ${seconds}s"
    log="fuzz/$t.log"
    (cd fuzz && cargo fuzz run -O "$t" -- -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536) > "$log" 2>&1 || { tail -n 40 "$log"; exit 1; }
    grep -E "^#[0-9]+ *DONE|^Done" "$log" | tail -n 2
done
