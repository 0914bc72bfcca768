#!/usr/bin/env bash
# `kwire` as a user gets it: installed with `cargo install` from the packaged
# kwire-cli crate (no repository around it, no dev-dependencies), its
# dependencies kwire and kwire-codegen taken from their own packaged crates
# (not on crates.io yet: a `[patch]` given on the command line points at
# them), then each subcommand run once on real input.
#
# Usage: bash scripts/install-check.sh
#   INSTALL_CHECK_WORK  keep the unpacked crates and the install there
#                       (default: a temporary folder, removed on success)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
if [ -n "${INSTALL_CHECK_WORK:-}" ]; then
    WORK="$INSTALL_CHECK_WORK"
    rm -rf "$WORK"
    mkdir -p "$WORK"
else
    WORK="$(mktemp -d)"
fi

# The three packages, as `cargo publish` would upload them (what is
# committed: a dirty tree fails here).
cargo package -q --no-verify -p kwire-codegen -p kwire -p kwire-cli
for crate in kwire-codegen kwire kwire-cli; do
    version="$(cargo metadata --no-deps --format-version 1 |
        python3 -c "import json,sys; print(next(p['version'] for p in json.load(sys.stdin)['packages'] if p['name']=='$crate'))")"
    tar -xzf "target/package/$crate-$version.crate" -C "$WORK"
    eval "dir_${crate//-/_}=\"$WORK/$crate-$version\""
done
# shellcheck disable=SC2154
{
    # (cargo leaves an empty [dev-dependencies] table where the path-only
    # ones were; an entry in it, or a [dev-dependencies.NAME] table, fails.)
    if grep -q '^\[dev-dependencies\.' "$dir_kwire_cli/Cargo.toml" ||
        sed -n '/^\[dev-dependencies\]/,/^\[/p' "$dir_kwire_cli/Cargo.toml" | grep -q '='; then
        echo "install-check: the packaged kwire-cli has dev-dependencies" >&2
        exit 1
    fi
    cd "$WORK"
    # A debug build: what is checked is that the package installs and runs.
    cargo install -q --debug --path "$dir_kwire_cli" --root "$WORK/root" --target-dir "$ROOT/target/install-check" \
        --config "patch.crates-io.kwire.path=\"$dir_kwire\"" \
        --config "patch.crates-io.kwire-codegen.path=\"$dir_kwire_codegen\""
}
KWIRE="$WORK/root/bin/kwire"
"$KWIRE" --version

# gen and diff on two schemas of the repository.
mkdir -p "$WORK/schemas/old" "$WORK/schemas/new"
cp "$ROOT/schemas/ApiVersionsRequest.json" "$ROOT/schemas/ApiVersionsResponse.json" "$WORK/schemas/old/"
cp "$WORK/schemas/old/"*.json "$WORK/schemas/new/"
"$KWIRE" gen --out "$WORK/gen" "$WORK/schemas/old" | tail -n 1
test -f "$WORK/gen/api_versions_request.rs"
"$KWIRE" diff "$WORK/schemas/old" "$WORK/schemas/new"
# merge: the same schemas as a release change nothing.
"$KWIRE" merge "$WORK/schemas/new" "$WORK/schemas/old" | grep -q "no wire change"

# dump, on segments Kafka wrote, against Kafka's DumpLogSegments output for them.
(cd "$ROOT/cli/tests/data" && "$KWIRE" dump __transaction_state-2/00000000000000000000.log) >"$WORK/dump.txt"
diff "$ROOT/cli/tests/data/transaction_state.kafka.txt" "$WORK/dump.txt"
echo "dump: $(grep -c '^| offset:' "$WORK/dump.txt") records as Kafka prints them"

# decode: an ApiVersions request and its response as hex (v3, flexible).
printf '%s\n%s\n' \
    00000033001200030000000200136b61666b612d707974686f6e2d332e302e3132000d6b61666b612d707974686f6e07332e302e313200 \
    0000001a000000020000030012000000030000030000000c000000000000 |
    "$KWIRE" decode --format hex - | tee "$WORK/decode.txt"
grep -q ApiVersions "$WORK/decode.txt"

if [ -z "${INSTALL_CHECK_WORK:-}" ]; then
    rm -rf "$WORK"
fi
echo "install-check: kwire installed from its packaged crate; gen, diff, merge, dump and decode ran"
