#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what pinbench needs to build, run and test, when it is missing.
# As root: apt-get.  Otherwise: print the exact command and stop.
#   tests/deps.sh --check   (make check) also the packages only tests use, to
#                           check the lab outputs with the lab's own tools
#                           (LAVA's schemas, python3-junitparser, xmllint
#                           for the JUnit schema; git for git bisect
#                           run in tests/e2e/bisect.sh); without
#                           them those tests skip, saying so, so a failure to
#                           install them is said and make check goes on;
#                           and QEMU and lava-dispatcher for make check-boot,
#                           with the .debs its guest is made of kept in
#                           /var/cache/pinbench/boot and lava-server's (its
#                           device-type templates, unpacked by the test, never
#                           installed) in /var/cache/pinbench
#   tests/deps.sh --boot-debs DIR   only download the guest's .debs into DIR
PKGS="build-essential pkg-config libhwloc-dev libpfm4-dev libjansson-dev r-mathlib libdw-dev libcmocka-dev gnuplot-nox iproute2 linux-perf python3-jsonschema scdoc"
TEST_PKGS="lava-common python3-junitparser python3-yaml libxml2-utils procps git ethtool"
# make check-boot (tests/boot/): QEMU on the host, and LAVA's dispatcher
# for tests/boot/lava.sh (lava-run; about 120 packages, 300 MB), without
# their recommends (lava-dispatcher's would bring a kernel, 1.2 GB in all)
BOOT_PKGS="qemu-system-x86 e2fsprogs"
LAVA_RUN_PKGS="lava-dispatcher"
missing_of() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
			printf ' %s' "$p"
	done
}
# boot_debs_pkgs: what the QEMU guest is made of, never installed here: the
# kernel linux-image-amd64 depends on, busybox-static, kexec-tools and the
# libraries of kexec's that this host lacks (Debian's kexec links libxenctrl)
boot_debs_pkgs() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1
	echo busybox-static
	q=kexec-tools
	seen=
	while [ -n "$q" ]; do
		set -- $q
		p=$1
		shift
		q=$*
		case " $seen " in *" $p "*) continue ;; esac
		seen="$seen $p"
		echo "$p"
		q="$q$(missing_of $(apt-cache depends "$p" 2>/dev/null |
			sed -n 's/^ *|\{0,1\}Depends: \([^< ][^ ]*\)$/\1/p'))"
	done
}
# boot_debs DIR: the guest's .debs downloaded into DIR
boot_debs() {
	mkdir -p "$1" && rm -f "$1"/*.deb && (cd "$1" && pkgs=$(boot_debs_pkgs) &&
		{ apt-get download $pkgs >/dev/null 2>&1 ||
		  { apt-get update -qq >/dev/null 2>&1 && apt-get download $pkgs >/dev/null 2>&1; }; })
}
if [ "${1:-}" = --boot-debs ]; then
	boot_debs "$2" || { echo "pinbench: could not download the QEMU guest's packages" >&2; exit 1; }
	exit 0
fi
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
	# each on its own: QEMU's tests need no LAVA
	for p in "$BOOT_PKGS" "$LAVA_RUN_PKGS"; do
		bmissing=$(missing_of $p)
		[ -n "$bmissing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
			continue
		echo "pinbench: installing for make check-boot:$bmissing" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$bmissing >/dev/null 2>&1 ||
			echo "pinbench: could not install$bmissing: make check-boot will skip" \
				"what needs it" >&2
	done
	if [ "$(id -u)" = 0 ] && ! ls /var/cache/pinbench/lava-server_*.deb >/dev/null 2>&1; then
		mkdir -p /var/cache/pinbench && (cd /var/cache/pinbench &&
			apt-get download lava-server >/dev/null 2>&1) ||
			echo "pinbench: could not download lava-server: tests/boot/lava.sh" \
				"will download it" >&2
	fi
	BOOT_DEB_DIR=/var/cache/pinbench/boot
	if [ "$(id -u)" = 0 ] && ! ls "$BOOT_DEB_DIR"/linux-image-*.deb >/dev/null 2>&1; then
		boot_debs "$BOOT_DEB_DIR" ||
			echo "pinbench: could not download the QEMU guest's packages:" \
				"make check-boot will download them" >&2
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
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
	echo "pinbench: apt-get install failed for:$missing" >&2
	exit 1
}
