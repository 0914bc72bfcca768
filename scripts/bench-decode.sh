#!/usr/bin/env bash
# Throughput of `kwire decode` on a capture of 1 GiB or more, against just
# reading the file, timed from outside with farm-bench (medians of 3 runs).
#
# Usage: bash scripts/bench-decode.sh [--table-only] SEED.pcap [SIZE_MIB] [PORT...]
#   --table-only  time only `kwire decode --table-only`, not the full output;
#   SEED.pcap  a pcap of Kafka traffic (Ethernet, IPv4), e.g. the cluster.pcap
#              that `interop/scripts/capture-decode.sh OUT_DIR` keeps;
#   SIZE_MIB   size of the capture built from it (default 1024): the seed's
#              packets repeated, each copy's client side moved to its own
#              10.x.y.z address so that every copy is a connection of its own;
#   PORT...    the Kafka ports (default: the seven of the test cluster from 19700).
# The capture is built under $TMPDIR (default /tmp), which needs SIZE_MIB free,
# and removed at the end. Prints the table's totals (the frames decoded) and
# farm-bench's reports: --table-only, then the full output written to
# /dev/null, each against `cat` of the capture (the ratio A/B).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TABLE_ONLY=0
if [ "${1:-}" = "--table-only" ]; then TABLE_ONLY=1; shift; fi
SEED="${1:?usage: bench-decode.sh [--table-only] SEED.pcap [SIZE_MIB] [PORT...]}"
SIZE_MIB="${2:-1024}"
shift $(( $# >= 2 ? 2 : 1 ))
PORTS=("$@")
[ ${#PORTS[@]} -gt 0 ] || PORTS=(19700 19701 19702 19703 19704 19705 19706)
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

python3 - "$SEED" "$WORK/big.pcap" "$SIZE_MIB" "${PORTS[@]}" <<'PY'
import struct, sys
seed, out, size_mib, ports = sys.argv[1], sys.argv[2], int(sys.argv[3]), {int(p) for p in sys.argv[4:]}
data = open(seed, 'rb').read()
assert data[:4] == b'\xd4\xc3\xb2\xa1' and struct.unpack('<I', data[20:24])[0] == 1, 'little-endian Ethernet pcap expected'
records, at = [], 24
while at + 16 <= len(data):
    sec, usec, incl, orig = struct.unpack('<IIII', data[at:at + 16])
    records.append((data[at:at + 16], bytearray(data[at + 16:at + 16 + incl])))
    at += 16 + incl
with open(out, 'wb') as f:
    f.write(data[:24])
    written, copy = 24, 0
    while written < size_mib << 20:
        copy += 1
        client = bytes([10, (copy >> 16) & 255, (copy >> 8) & 255, copy & 255])
        for header, packet in records:
            p = bytearray(packet)
            if len(p) >= 54 and p[12:14] == b'\x08\x00':
                ihl = (p[14] & 15) * 4
                sport, dport = struct.unpack('>HH', p[14 + ihl:18 + ihl])
                if dport in ports:
                    p[26:30] = client
                elif sport in ports:
                    p[30:34] = client
            f.write(header)
            f.write(p)
            written += 16 + len(p)
print(f'{written >> 20} MiB, {copy} copies of {len(records)} packets', file=sys.stderr)
PY

KWIRE="$ROOT/target/release/kwire"
cargo build -q --release -p kwire-cli --manifest-path "$ROOT/Cargo.toml"
args=()
for p in "${PORTS[@]}"; do args+=(--port "$p"); done
"$KWIRE" decode --table-only "${args[@]}" "$WORK/big.pcap" > "$WORK/table.txt" || true
tail -n 1 "$WORK/table.txt"
farm-bench -n 3 --timeout 1800 --vs "sh -c 'cat $WORK/big.pcap > /dev/null'" \
    -- "$KWIRE" decode --table-only "${args[@]}" "$WORK/big.pcap"
[ "$TABLE_ONLY" = 1 ] && exit 0
# One line a frame: the full output, written to /dev/null.
farm-bench -n 3 --timeout 1800 --vs "sh -c 'cat $WORK/big.pcap > /dev/null'" \
    -- sh -c "exec $KWIRE decode ${args[*]} $WORK/big.pcap > /dev/null"
