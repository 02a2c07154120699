#!/usr/bin/env bash
# README's first shell block (the main job on the bundled samples, then the tests), run line by
# line exactly as README gives it, the way a newcomer runs it after README's one apt-get line:
# `python3` is Debian's own (/usr/bin/python3), which has none of the PyPI packages .ci/run
# installs for its other checks, so a test that needs one must say it was left out, never fail.
# Run by .ci/run as its last step; the last line printed is `swift test`'s summary.
set -euo pipefail
cd "$(dirname "$0")/../.."

block=$(awk '/^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' README.md)
if [ -z "$block" ]; then
    echo "Tests/readme/run.sh: README.md has no \`\`\`sh block" >&2
    exit 1
fi

shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
if [ -x /usr/bin/python3 ]; then
    printf '#!/bin/sh\nexec /usr/bin/python3 "$@"\n' >"$shim/python3"
    chmod +x "$shim/python3"
    echo "README's commands run with Debian's python3 ($(/usr/bin/python3 --version 2>&1)), no PyPI package"
else
    echo "README's commands run with no python3 at all (Debian's is not installed)"
    printf '#!/bin/sh\necho "python3: not installed" >&2\nexit 127\n' >"$shim/python3"
    chmod +x "$shim/python3"
fi

while IFS= read -r line; do
    [ -n "$line" ] || continue
    echo "+ $line"
    PATH="$shim:$PATH" bash -c "$line"
done <<<"$block"
