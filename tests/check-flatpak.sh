#!/bin/sh
# The Flatpak manifest is valid JSON and names the app, the runtime and the yajl module.
root="$1"
m="$root/flatpak/io.github.inferview.Inferview.json"
python3 - "$m" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))
assert m["id"] == "io.github.inferview.Inferview", "id"
assert m["runtime"] == "org.gnome.Platform" and m["sdk"] == "org.gnome.Sdk", "runtime"
assert m["command"] == "inferview", "command"
names = [mod["name"] if isinstance(mod, dict) else mod for mod in m["modules"]]
assert "yajl" in names and names[-1] == "inferview", names
args = m["finish-args"]
for a in ("--socket=wayland", "--socket=fallback-x11", "--share=ipc", "--device=dri", "--filesystem=home:ro"):
    assert a in args, a
print("flatpak manifest ok: runtime", m["runtime-version"])
PY
