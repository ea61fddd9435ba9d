#!/usr/bin/env bash
# Downloads the UCI "Relative location of CT slices on axial axis" data set (CC BY 4.0)
# into data/ctslice/ and prints the SHA-256 of what it got. Run from anywhere:
#
#   bash data/fetch.sh
#
# Needs curl and internet access. The Go loader (package data) reads the zip archive
# directly, so unzip is optional; when it is installed the CSV is also extracted.
set -euo pipefail

url="https://archive.ics.uci.edu/static/public/206/relative+location+of+ct+slices+on+axial+axis.zip"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dest="$here/ctslice"
archive="$dest/ctslice-uci.zip"

command -v curl >/dev/null || { echo "fetch.sh: curl is required" >&2; exit 1; }
mkdir -p "$dest"
echo "downloading $url"
curl -fL --retry 3 --connect-timeout 30 -o "$archive.part" "$url"
mv "$archive.part" "$archive"

sha() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi; }
sha "$archive"

if command -v unzip >/dev/null; then
  unzip -o -q "$archive" -d "$dest"
  # UCI may ship the CSV inside a nested zip.
  for inner in "$dest"/*.zip; do
    [ "$inner" = "$archive" ] && continue
    [ -f "$inner" ] && unzip -o -q "$inner" -d "$dest"
  done
  if [ -f "$dest/slice_localization_data.csv" ]; then
    sha "$dest/slice_localization_data.csv"
  else
    echo "fetch.sh: slice_localization_data.csv not found after unzip; the loader will read $archive" >&2
  fi
else
  echo "unzip not installed: the loader reads $archive directly"
fi
echo "done: the svr task now finds the data in $dest (lookup: -ctslice, \$DPGIBO_CTSLICE, data/ctslice/)"
