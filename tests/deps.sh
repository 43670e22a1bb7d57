#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what pinbench needs to build, run and test, when it is missing.
# As root: apt-get.  Otherwise: print the exact command and stop.
#   tests/deps.sh --check   (make check) also the packages only tests use, to
#                           check the lab outputs with the lab's own tools
#                           (LAVA's schemas, python3-junitparser, xmllint
#                           for the JUnit schema); without
#                           them those tests skip, saying so, so a failure to
#                           install them is said and make check goes on.
PKGS="build-essential pkg-config libhwloc-dev libpfm4-dev libjansson-dev libcmocka-dev gnuplot-nox iproute2 linux-perf python3-jsonschema scdoc"
TEST_PKGS="lava-common python3-junitparser python3-yaml libxml2-utils"
missing_of() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
			printf ' %s' "$p"
	done
}
if [ "${1:-}" = --check ]; then
	tmissing=$(missing_of $TEST_PKGS)
	if [ -n "$tmissing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "pinbench: installing for the tests:$tmissing" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $tmissing >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
			  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $tmissing >/dev/null 2>&1; } ||
			echo "pinbench: could not install$tmissing: the lab-format tests will skip" >&2
	elif [ -n "$tmissing" ]; then
		echo "pinbench: the lab-format tests will skip without:$tmissing" \
			"(as root: apt-get install -y$tmissing)" >&2
	fi
	# LAVA's lava-test-case and lava-test-shell for tests/e2e/lava.sh: the whole
	# lava-dispatcher package pulls in hundreds of packages, so only its .deb is
	# kept, in $LAVA_DEB_DIR (the test unpacks it; as a user it downloads it).
	LAVA_DEB_DIR=/var/cache/pinbench
	if [ "$(id -u)" = 0 ] && ! ls "$LAVA_DEB_DIR"/lava-dispatcher_*.deb >/dev/null 2>&1 &&
	   [ ! -f /usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell/lava-test-case ]; then
		mkdir -p "$LAVA_DEB_DIR" && (cd "$LAVA_DEB_DIR" &&
			{ apt-get download lava-dispatcher >/dev/null 2>&1 ||
			  { apt-get update -qq >/dev/null 2>&1 &&
			    apt-get download lava-dispatcher >/dev/null 2>&1; }; }) ||
			echo "pinbench: could not download lava-dispatcher: tests/e2e/lava.sh" \
				"will skip its run" >&2
	fi
fi
missing=$(missing_of $PKGS)
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
