#!/usr/bin/env bash
# What a user's build pays for kwire, against kafka-protocol 0.18: clean
# builds of a hello-world binary whose only dependency is one of
#   kwire (every api key)   default-features = false, features admin, controller
#   kwire (core api keys)   default-features = false
#   kafka-protocol 0.18     default-features = false, features client, broker, messages_enums
# in debug and in release, CARGO_INCREMENTAL=0, the three in turn in each
# round so that a change in the machine's load falls on all of them.
# Figures are whole-process CPU seconds (user + sys of cargo and every rustc
# it runs: dependencies, build scripts and the link included), medians of
# the rounds; the ratio is the median of each round's ratio to
# kafka-protocol. The same builds also give the library alone: the CPU
# time of the one rustc run that compiles kwire or kafka-protocol (timed
# through a RUSTC_WRAPPER), medians and the median ratio alike. Results:
# docs/performance.md, "Build time of a crate depending on kwire".
#
# usage: scripts/build-cost.sh [--runs N] [--profiles "debug release"]
# Environment: CARGO_TARGET_DIR (default target); the scratch crates go
# under it, in build-cost/.
set -euo pipefail

RUNS=3
PROFILES="debug release"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) RUNS=$2; shift ;;
        --profiles) PROFILES=$2; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${CARGO_TARGET_DIR:-target}
case $TARGET in /*) ;; *) TARGET=$ROOT/$TARGET ;; esac
BASE=$TARGET/build-cost
mkdir -p "$BASE"
RESULTS=$BASE/results.tsv
: >"$RESULTS"
LIBS=$BASE/library.tsv
: >"$LIBS"

# Times each rustc run that compiles a crate, appending "crate user sys"
# to $BUILD_COST_LOG; cargo's own probes of rustc run untimed.
WRAPPER=$BASE/rustc-timed
cat >"$WRAPPER" <<'EOF'
#!/usr/bin/env bash
rustc=$1
shift
name= prev=
for a in "$@"; do
    [ "$prev" = --crate-name ] && name=$a
    prev=$a
done
[ -n "$name" ] || exec "$rustc" "$@"
exec /usr/bin/time -f "$name %U %S" -a -o "$BUILD_COST_LOG" "$rustc" "$@"
EOF
chmod +x "$WRAPPER"

# name -> dependency line
declare -A DEP=(
    [kwire]="dep = { package = \"kwire\", path = \"$ROOT\", default-features = false, features = [\"admin\", \"controller\"] }"
    [kwire-core]="dep = { package = \"kwire\", path = \"$ROOT\", default-features = false }"
    [kafka-protocol]='dep = { package = "kafka-protocol", version = "=0.18.0", default-features = false, features = ["client", "broker", "messages_enums"] }'
)
CRATES="kwire kafka-protocol kwire-core"

for name in $CRATES; do
    dir=$BASE/$name
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "hello-$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
${DEP[$name]}

[workspace]
EOF
    printf 'use dep as _;\n\nfn main() {\n    println!("hello");\n}\n' >"$dir/src/main.rs"
    (cd "$dir" && { [ -f Cargo.lock ] || cargo generate-lockfile -q; } && cargo fetch -q)
done

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$RUNS"); do
    for profile in $PROFILES; do
        flag=; [ "$profile" = release ] && flag=--release
        for name in $CRATES; do
            dir=$BASE/$name
            rm -rf "$dir/target"
            log=$dir/rustc-times
            : >"$log"
            out=$(cd "$dir" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$dir/target" \
                RUSTC_WRAPPER="$WRAPPER" BUILD_COST_LOG="$log" \
                /usr/bin/time -f '%U %S %e' cargo build -q --offline $flag 2>&1 >/dev/null | tail -n 1)
            read -r user sys wall <<<"$out"
            printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$profile" "$name" "$user $sys" "$wall" >>"$RESULTS"
            lib=$(awk '$1 == "kwire" || $1 == "kafka_protocol" { print $2 + $3 }' "$log")
            printf '%s\t%s\t%s\t%s\n' "$round" "$profile" "$name" "$lib" >>"$LIBS"
            echo "round $round $profile $name: cpu $(python3 -c "print(round($user + $sys, 2))") s (library $lib s), wall $wall s"
        done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$RESULTS" "$LIBS" <<'PY'
import collections, statistics, sys
whole = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    rnd, profile, name, us, _wall = line.rstrip("\n").split("\t")
    u, s = map(float, us.split())
    whole[(profile, name)][rnd] = u + s
library = collections.defaultdict(dict)
for line in open(sys.argv[2]):
    rnd, profile, name, cpu = line.rstrip("\n").split("\t")
    library[(profile, name)][rnd] = float(cpu)
for title, cpu in (("the hello-world build", whole), ("the library alone", library)):
    print()
    print(f"CPU time of {title}:")
    print("| build | kwire, every api key | kwire, core api keys | kafka-protocol |")
    print("|---|---:|---:|---:|")
    for profile in ("debug", "release"):
        kp = cpu.get((profile, "kafka-protocol"))
        if not kp:
            continue
        cells = []
        for name in ("kwire", "kwire-core"):
            runs = cpu[(profile, name)]
            ratio = statistics.median(runs[r] / kp[r] for r in runs)
            cells.append(f"{statistics.median(runs.values()):.1f} s ({ratio:.2f}×)")
        print(f"| {profile} | {cells[0]} | {cells[1]} | {statistics.median(kp.values()):.1f} s |")
PY
