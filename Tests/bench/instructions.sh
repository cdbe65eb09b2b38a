#!/usr/bin/env bash
# Instructions a delivery, at the margin, counted by callgrind (repeatable where times
# on a shared machine are not): the hub bench runs a case with $LOW and with $HIGH
# edits, and the difference of the totals is divided by the difference of the
# deliveries (the hellos and set-up cancel out). Usage, from the package's root:
#   Tests/bench/instructions.sh ["case name prefix" ...]
# Without arguments: the photos demo's album at 200 widths (issue 15's fan-out with
# a layout per viewer) and one move among 2,000 items at 200 widths.
set -euo pipefail
LOW=${LOW:-40}
HIGH=${HIGH:-120}
BENCH=${BENCH:-.build/release/collection-bench}
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("shuffle a 12-item section, the photos" "move one item, 200 widths")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the debug information of a binary that links the
# server's packages: a copy without it.
strip --strip-debug -o "$work/bench" "$BENCH"
count() {   # edits → "instructions deliveries"
    local out
    out=$(HUB_DEBUG=1 HUB_CASE="$1" HUB_EDITS="$2" SWIFT_DETERMINISTIC_HASHING=1 \
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/bench" hub 2>&1)
    local instructions deliveries
    instructions=$(grep -o 'Collected : [0-9]*' <<<"$out" | awk '{print $3}')
    # HUB_DEBUG prints: name, deliveries, bytes, seconds.
    local line
    line=$(grep -F "$1" <<<"$out" | grep -v '^|' || true)
    # The total counts every case the prefix names: one case only.
    [ "$(grep -c . <<<"$line")" -le 1 ] || { echo "'$1' names more than one case:" >&2; echo "$line" >&2; exit 1; }
    deliveries=$(awk '{print $(NF-2)}' <<<"$line")
    [ -n "$instructions" ] && [ -n "$deliveries" ] || { echo "no count for '$1':" >&2; echo "$out" | tail -5 >&2; exit 1; }
    echo "$instructions $deliveries $(awk '{NF -= 3; print}' <<<"$line")"
}
echo "| hub case (callgrind, at the margin: $LOW → $HIGH edits) | instructions a delivery |"
echo "| --- | ---: |"
for c in "${cases[@]}"; do
    read -r i1 d1 name < <(count "$c" "$LOW")
    read -r i2 d2 name < <(count "$c" "$HIGH")
    awk -v c="$name" -v i1="$i1" -v i2="$i2" -v d1="$d1" -v d2="$d2" \
        'BEGIN { printf "| %s | %.0f |\n", c, (i2 - i1) / (d2 - d1) }'
done
