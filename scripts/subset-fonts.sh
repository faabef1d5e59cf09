#!/bin/sh
# Cuts the Polish letters beyond Latin (ą ć ę ł ń ś ź ż and capitals) out of the Latin Extended fonts into
# app/fonts, keeping the weight axis. Needs fontTools with Brotli (Debian: python3-fonttools python3-brotli).
# The code points must match the `unicode-range` of the Polish faces in app/app.css.
set -e
cd "$(dirname "$0")/.."
POLISH='U+0104-0107,U+0118-0119,U+0141-0144,U+015A-015B,U+0179-017C'
for font in inter fraunces; do
  python3 -m fontTools.subset "node_modules/@fontsource-variable/$font/files/$font-latin-ext-wght-normal.woff2" \
    --unicodes="$POLISH" --layout-features='*' --flavor=woff2 \
    --output-file="app/fonts/$font-polish-wght-normal.woff2"
done
