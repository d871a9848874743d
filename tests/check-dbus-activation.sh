#!/bin/sh
# D-Bus activation as the desktop uses it (DBusActivatable=true, `gapplication launch`):
# on a private session bus whose only service is Inferview's service file (pointing at this
# build), `gapplication launch` must start the application through the bus, the name must
# then be owned, and the app.quit action must end it.
# Usage: check-dbus-activation.sh SERVICE_FILE_IN BINARY SCHEMA_DIR
set -eu
service_in=$1 binary=$2 schemas=$3
app_id=io.github.inferview.Inferview
command -v dbus-daemon >/dev/null || { echo "skipped: install dbus"; exit 77; }
command -v gapplication >/dev/null || { echo "skipped: install libglib2.0-bin"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/services"
# The installed file's Exec line, with this build's binary and an uninstalled schema.
wrapper="$tmp/inferview"
cat > "$wrapper" <<SH
#!/bin/sh
export GSETTINGS_SCHEMA_DIR="$schemas" GSETTINGS_BACKEND=memory GSK_RENDERER=cairo NO_AT_BRIDGE=1
exec "$binary" "\$@"
SH
chmod +x "$wrapper"
sed "s|@bindir@/inferview|$wrapper|" "$service_in" > "$tmp/services/$app_id.service"
grep -q "^Exec=$wrapper --gapplication-service\$" "$tmp/services/$app_id.service"
cat > "$tmp/session.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=$tmp</listen>
  <servicedir>$tmp/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
cat > "$tmp/inside.sh" <<SH
set -eu
owned () {
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner $app_id | grep -q true
}
if owned; then echo "the name is owned before activation"; exit 1; fi
gapplication launch $app_id
i=0
while ! owned; do
  i=\$((i + 1)); [ \$i -lt 100 ] || { echo "not activated within 10 s"; exit 1; }
  sleep 0.1
done
echo "activated through the service file"
gapplication action $app_id quit
i=0
while owned; do
  i=\$((i + 1)); [ \$i -lt 100 ] || { echo "app.quit did not end it within 10 s"; exit 1; }
  sleep 0.1
done
echo "quit"
SH
dbus-run-session --config-file="$tmp/session.conf" -- sh "$tmp/inside.sh"
