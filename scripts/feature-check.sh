#!/usr/bin/env bash
# Every feature set builds and tests:
#   1. each feature of each workspace crate alone compiles (`cargo check`
#      through cargo-hack: no default features, each feature by itself, and
#      the default set; dev-dependencies left out, so a library feature that
#      only compiles thanks to a test dependency fails here);
#   2. the workspace's tests build and pass with default features, as a
#      user's `cargo test --workspace` runs them (CI's main run covers
#      `--all-features`), but for those of kwire-interop, which need the
#      cluster CI has stopped by then (the main run has them).
# Installs cargo-hack when missing. Each stage is bounded in time
# (FEATURE_CHECK_TIMEOUT seconds, default 1800) and prints its duration.
#
#   scripts/feature-check.sh [--check-only]
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${FEATURE_CHECK_TIMEOUT:-1800}"
check_only=false
[ "${1:-}" = --check-only ] && check_only=true

if ! cargo hack --version >/dev/null 2>&1; then
    echo "feature-check: installing cargo-hack"
    cargo install cargo-hack --locked
fi

stage() {
    local name="$1"
    shift
    local start=$SECONDS
    echo "feature-check: $name"
    if ! timeout "$limit" "$@"; then
        echo "feature-check: $name failed (or exceeded ${limit} s) after $((SECONDS - start)) s" >&2
        exit 1
    fi
    echo "feature-check: $name took $((SECONDS - start)) s"
}

# `fuzz/` is outside the workspace; the workspace's own crates only.
stage "each feature alone compiles" \
    cargo hack check --workspace --each-feature --no-dev-deps
$check_only && exit 0
stage "default features: workspace tests" \
    cargo test --workspace --exclude kwire-interop --no-fail-fast
