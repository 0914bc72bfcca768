#!/usr/bin/env bash
# Prints facts of kafka-facts.json, one value a line, for scripts and CI:
# the target release (`release`), a list of releases (`releases.equivalence`,
# `releases.history`, `releases.oracle`), an api group's apis, ...
#
# Usage: bash scripts/kafka-facts.sh KEY...   (kwire-codegen facts --help lists the keys)
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet -p kwire-codegen -- facts kafka-facts.json "$@"
