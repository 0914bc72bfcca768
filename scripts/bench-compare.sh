#!/usr/bin/env bash
# kwire against kafka-protocol 0.18: codec speed, codegen speed, build time.
# Results and how to read them: docs/performance.md.
#
# usage: scripts/bench-compare.sh [options] [criterion filter]
#   --runs N           run the criterion benches N times; each figure is the
#                      median of the N per-run medians (default 1)
#   --quick            shorter criterion runs (1 s warm-up, 3 s measurement)
#   --callgrind        also count instructions of one encode/size/decode per crate
#                      under valgrind --tool=callgrind (stable on a busy machine)
#   --no-criterion     skip the criterion benches (e.g. with --callgrind)
#   --no-codegen       skip (a), timing the codegen CLI on the Kafka corpus
#   --no-build         skip (b), clean debug and release builds of a hello-world
#                      on each crate (one round of scripts/build-cost.sh)
#
# Environment: CARGO_TARGET_DIR (default target), KWIRE_SHARED (default
# ../shared; the corpus is $KWIRE_SHARED/kafka-messages). Needs cargo and
# python3; hyperfine and valgrind when there.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TARGET" in /*) ;; *) TARGET=$ROOT/$TARGET ;; esac
export CARGO_TARGET_DIR=$TARGET
SHARED=${KWIRE_SHARED:-$ROOT/../shared}

RUNS=1 QUICK=0 CALLGRIND=0 CRITERION=1 CODEGEN=1 BUILD=1 FILTER=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift ;;
        --quick) QUICK=1 ;;
        --callgrind) CALLGRIND=1 ;;
        --no-criterion) CRITERION=0 ;;
        --no-codegen) CODEGEN=0 ;;
        --no-build) BUILD=0 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) FILTER+=("$1") ;;
    esac
    shift
done

section() { printf '\n== %s ==\n' "$*"; }

section "machine"
echo "nproc:  $(nproc)"
echo "cpu:    $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "rustc:  $(rustc --version)"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"

# --- codec benchmarks --------------------------------------------------------

# Prints the table of one criterion run directory set: message, op, both
# times, ratio. Arguments: directories holding copies of target/criterion.
criterion_table() {
    python3 - "$@" <<'PY'
import json, os, statistics, sys

def load(root):
    out = {}
    for dirpath, _, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "estimates.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            b = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            e = json.load(f)
        fn = b["function_id"] if b.get("value_str") is None else f'{b["function_id"]}@{b["value_str"]}'
        out[(b["group_id"], fn)] = e["median"]["point_estimate"]
    return out

runs = [load(d) for d in sys.argv[1:]]
keys = sorted(set().union(*runs))

def med(key):
    vals = [r[key] for r in runs if key in r]
    return statistics.median(vals), min(vals), max(vals)

def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"

order = ["MetadataResponse", "ProduceRequest", "FetchResponse", "ApiVersionsResponse", "CreateTopicsRequest", "RequestHeader"]
groups = sorted({g for g, _ in keys}, key=lambda g: (next((i for i, o in enumerate(order) if g.startswith(o)), 99), "zero-copy" in g, g))
spread = len(runs) > 1
print(f"median of {len(runs)} criterion run(s); ratio = kafka-protocol time / kwire time (above 1: kwire is faster)")
print()
print("| message | op | kwire | kafka-protocol | ratio |")
print("|---|---|---:|---:|---:|")
for g in groups:
    if "zero-copy" in g:
        continue
    message, op = g.rsplit(" ", 1)
    if (g, "kwire") not in keys or (g, "kafka-protocol") not in keys:
        continue
    (w, wlo, whi), (k, klo, khi) = med((g, "kwire")), med((g, "kafka-protocol"))
    ws = f"{fmt(w)} ({fmt(wlo)}–{fmt(whi)})" if spread else fmt(w)
    ks = f"{fmt(k)} ({fmt(klo)}–{fmt(khi)})" if spread else fmt(k)
    print(f"| {message} | {op} | {ws} | {ks} | {k / w:.2f} |")
    # kwire's own ways, each against kafka-protocol's encode or decode
    # (it has no counterpart): the chunked encode (records shared, not
    # copied), decoding into a reused value, and decoding a borrowed view.
    for function, label in (("encode_vectored", "records shared"), ("decode_into", "reused value"), ("decode_view", "borrowed view")):
        if (g, f"kwire {function}") in keys:
            v, vlo, vhi = med((g, f"kwire {function}"))
            vs = f"{fmt(v)} ({fmt(vlo)}–{fmt(vhi)})" if spread else fmt(v)
            print(f"| | {function} ({label}) | {vs} | {ks} | {k / v:.2f} |")
zc = [g for g in groups if "zero-copy" in g]
for g in zc:
    print()
    print(f"{g}: decode time by record bytes per partition (16 partitions)")
    print()
    print("| crate | 1 KiB | 1 MiB | 1 MiB / 1 KiB |")
    print("|---|---:|---:|---:|")
    for crate in ("kwire", "kafka-protocol"):
        a, b = (g, f"{crate}@1 KiB"), (g, f"{crate}@1 MiB")
        if a in keys and b in keys:
            print(f"| {crate} | {fmt(med(a)[0])} | {fmt(med(b)[0])} | {med(b)[0] / med(a)[0]:.2f} |")
PY
}

if [ "$CRITERION" = 1 ]; then
    section "codec: criterion (cargo bench --features borrowed --bench codec_compare --bench zero_copy)"
    ARGS=()
    [ "$QUICK" = 1 ] && ARGS+=(--warm-up-time 1 --measurement-time 3)
    cargo bench --features borrowed --bench codec_compare --bench zero_copy --no-run 2>&1 | tail -n 3
    KEEP=$TARGET/bench-compare/criterion-runs
    rm -rf "$KEEP"
    mkdir -p "$KEEP"
    for run in $(seq 1 "$RUNS"); do
        echo "criterion run $run of $RUNS"
        rm -rf "$TARGET/criterion"
        cargo bench --features borrowed --bench codec_compare --bench zero_copy -- "${ARGS[@]}" "${FILTER[@]}" >"$KEEP/run$run.log" 2>&1 || {
            tail -n 30 "$KEEP/run$run.log"
            exit 1
        }
        cp -r "$TARGET/criterion" "$KEEP/run$run"
    done
    echo
    criterion_table "$KEEP"/run*/
fi

# --- instruction counts ------------------------------------------------------

if [ "$CALLGRIND" = 1 ]; then
    section "codec: instructions per operation (valgrind --tool=callgrind)"
    command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install -y valgrind)"; exit 1; }
    BIN=$(cargo bench --features borrowed --bench codec_compare --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "codec_compare" and m.get("executable"):
        print(m["executable"])')
    OUT=$TARGET/bench-compare/callgrind
    mkdir -p "$OUT"
    echo "one operation after one warm-up round, counted inside profiled_section; ratio = kafka-protocol / kwire"
    echo
    echo "| message | op | kwire instructions | kafka-protocol instructions | ratio |"
    echo "|---|---|---:|---:|---:|"
    for m in metadata produce fetch api_versions create_topics header; do
        for op in encode encode_vectored encoded_size decode decode_into decode_view; do
            row=()
            # encode_vectored, decode_into and decode_view are kwire's
            # alone: compared with kafka-protocol's encode and decode.
            kp_op=${op/_vectored/}
            kp_op=${kp_op/_into/}
            kp_op=${kp_op/_view/}
            for spec in "$op:kwire" "$kp_op:kafka-protocol"; do
                f=$OUT/$m.${spec/:/.}.out
                KWIRE_PROFILE=$m:$spec valgrind --tool=callgrind --callgrind-out-file="$f" \
                    --toggle-collect='*profiled_section*' "$BIN" 2>"$f.log"
                row+=("$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$f.log")")
            done
            python3 -c "import sys; w, k = int(sys.argv[3]), int(sys.argv[4]); print(f'| {sys.argv[1]} | {sys.argv[2]} | {w:,} | {k:,} | {k / w:.2f} |')" \
                "$m" "$op" "${row[0]}" "${row[1]}"
        done
    done
    echo
    echo "profiles: $OUT (callgrind_annotate --inclusive=no FILE | head -40)"
fi

# --- (a) codegen over the Kafka corpus ---------------------------------------

if [ "$CODEGEN" = 1 ]; then
    section "(a) codegen: all schemas of $SHARED/kafka-messages"
    CORPUS=$SHARED/kafka-messages
    if [ ! -d "$CORPUS" ]; then
        echo "corpus not found at $CORPUS (set KWIRE_SHARED)"
    else
        echo "$(ls "$CORPUS"/*.json | wc -l) schema files"
        cargo build --release -p kwire-codegen --bin kwire-codegen 2>&1 | tail -n 1
        CLI=$TARGET/release/kwire-codegen
        "$CLI" gen --quiet "$CORPUS"
        if command -v hyperfine >/dev/null; then
            hyperfine --warmup 3 --runs 30 --style basic "$CLI gen --quiet $CORPUS"
        else
            echo "hyperfine not installed (apt-get install -y hyperfine): 10 runs of time"
            for _ in $(seq 10); do /usr/bin/env time -f '%e s wall, %U s user, %M KiB max RSS' "$CLI" gen --quiet "$CORPUS" >/dev/null; done
        fi
    fi
fi

# --- (b) clean builds of a crate depending on each -------------------------

if [ "$BUILD" = 1 ]; then
    section "(b) clean builds of a hello-world on each crate, CPU time (scripts/build-cost.sh)"
    bash scripts/build-cost.sh --runs 1
fi
