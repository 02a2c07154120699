#!/usr/bin/env bash
# The library's public API, per target (issue 27): `scripts/public-api.sh` prints the count of
# public declarations of each target; `scripts/public-api.sh --list` also lists them (file:line:
# declaration). A public declaration is a line whose modifiers include `public` or `open`
# followed by a declaration keyword (func, var, let, init, subscript, struct, class, enum,
# protocol, extension, typealias, case, actor, associatedtype), so a local variable named `open`
# is not one (issue 39). Tests/TripSyncTests/PublicAPITests.swift counts them the same way and
# holds every one to a `///` comment.
set -euo pipefail
cd "$(dirname "$0")/.."
modifiers='(nonisolated|final|static|class|override|mutating|nonmutating|indirect|convenience|required|dynamic|private\(set\)|internal\(set\)|fileprivate\(set\)|package\(set\))'
keywords='(func|var|let|init|subscript|struct|class|enum|protocol|extension|typealias|case|actor|associatedtype)'
pattern="^[[:space:]]*(@[A-Za-z_]+(\\([^)]*\\))?[[:space:]]+)*(${modifiers}[[:space:]]+)*(public|open)[[:space:]]+(${modifiers}[[:space:]]+)*${keywords}([^A-Za-z0-9_]|\$)"
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
