#!/usr/bin/env bash
# Renders an answer as SVG with postfacto and screenshots it in headless
# Chromium, to check the picture in a real browser.
#   docs/render-svg.sh [RECORD] [OUT_PNG]
# Needs: chromium (Debian: apt-get install chromium), a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
record=${1:-tests/data/sample1.in}
png=${2:-docs/example.png}
dir=$(mktemp -d)
cargo run --release --quiet -- solve --format svg --out "$dir" "$record" >/dev/null
cp "$dir/0001.svg" docs/example.svg
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=864,464 --screenshot="$png" "file://$PWD/docs/example.svg" 2>/dev/null
echo "wrote docs/example.svg and $png"
