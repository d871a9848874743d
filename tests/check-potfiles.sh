#!/bin/sh
# Every source with a translatable string is in po/POTFILES.in, and every listed file exists.
root="$1"
cd "$root" || exit 1
status=0
listed=$(grep -v '^#' po/POTFILES.in | grep -v '^$')
for f in $listed; do
  [ -f "$f" ] || { echo "po/POTFILES.in lists $f, which does not exist"; status=1; }
done
found=$( (grep -rlE '\b(N?_|C_|g_dngettext)\s*\(' src --include='*.c';
          grep -rl 'translatable="yes"' ui data --include='*.ui' --include='*.xml' --include='*.in';
          ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml) 2>/dev/null | sort -u)
for f in $found; do
  echo "$listed" | grep -qx "$f" || { echo "$f has translatable strings but is not in po/POTFILES.in"; status=1; }
done
[ $status -eq 0 ] && echo "po/POTFILES.in is complete ($(echo "$listed" | wc -l) files)"
exit $status
