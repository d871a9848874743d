#!/bin/sh
# The app icons and the symbolic icons are well-formed SVG of the sizes GNOME expects.
root="$1"
status=0
command -v xmllint >/dev/null || { echo "xmllint missing (libxml2-utils)"; exit 77; }
for f in "$root"/data/icons/hicolor/scalable/apps/*.svg "$root"/data/icons/hicolor/symbolic/apps/*.svg "$root"/data/icons/scalable/actions/*.svg; do
  xmllint --noout "$f" || { echo "$f: not well-formed XML"; status=1; continue; }
  w=$(xmllint --xpath 'string(/*[local-name()="svg"]/@width)' "$f")
  case "$f" in
    *-symbolic.svg) want=16 ;;
    *) want=128 ;;
  esac
  [ "$w" = "$want" ] || { echo "$f: width $w, expected $want"; status=1; }
done
[ -f "$root/data/icons/hicolor/scalable/apps/io.github.inferview.Inferview.svg" ] || { echo "app icon missing"; status=1; }
[ -f "$root/data/icons/hicolor/symbolic/apps/io.github.inferview.Inferview-symbolic.svg" ] || { echo "symbolic app icon missing"; status=1; }
exit $status
