#!/usr/bin/env bash
# The library's public API, per target (issue 27): `scripts/public-api.sh` prints the count of
# public declarations of each target; `scripts/public-api.sh --list` also lists them (file:line:
# declaration). A public declaration is a line whose modifiers include `public` or `open`
# (extensions included). Tests/TripSyncTests/PublicAPITests.swift holds every one to a `///`
# comment.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*((nonisolated|final|static|class|override|mutating|nonmutating|indirect|convenience|required|dynamic)[[:space:]]+)*(public|open)[[:space:]]'
total=0
for target in TripSyncPlatform TripSyncCore TripSyncHome TripSyncSync TripSync; do
    [ -d "Sources/$target" ] || continue
    count=$(grep -rhE "$pattern" --include='*.swift' "Sources/$target" | wc -l)
    total=$((total + count))
    printf '%-18s %5d\n' "$target" "$count"
    if [ "${1:-}" = "--list" ]; then
        grep -rnE "$pattern" --include='*.swift' "Sources/$target" | sed -E 's/[[:space:]]+/ /g; s/ \{.*$//' | sed 's/^/    /'
    fi
done
printf '%-18s %5d\n' total "$total"
