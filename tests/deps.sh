#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what pinbench needs to build, run and test, when it is missing.
# As root: apt-get.  Otherwise: print the exact command and stop.
PKGS="build-essential pkg-config libhwloc-dev libpfm4-dev libjansson-dev libcmocka-dev gnuplot-nox iproute2 linux-perf python3-jsonschema"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "pinbench: missing packages:$missing" >&2
	echo "pinbench: as root, run: apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "pinbench: missing packages:$missing, and no apt-get here: install them by hand" >&2
	exit 1
fi
echo "pinbench: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq $missing >/dev/null || {
	echo "pinbench: apt-get install failed for:$missing" >&2
	exit 1
}
