#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kexec inside the QEMU guest, without the campaign: Debian's kernel boots
# with the test's initramfs, kexecs into the same kernel with
# mitigations=off and comes up with a new boot_id and that command line.
# What the campaign test (tests/boot/campaign.sh) stands on.
. "$(dirname "$0")/../e2e/lib.sh"
. tests/boot/lib.sh

boot_setup

mkdir -p "$T/d"
cp "$T/img/vmlinuz" "$T/img/initrd.gz" "$T/d/"
cat >"$T/d/hook.sh" <<'HOOK'
if [ ! -f /disk/kexeced ]; then
	echo 1 >/disk/kexeced
	kexec -l /disk/vmlinuz --initrd=/disk/initrd.gz \
		--append="$(cat /proc/cmdline) mitigations=off" && sync && kexec -e
	echo "=== pinbench-kexec-failed"
fi
echo "=== pinbench-version $(pinbench --version 2>&1)"
HOOK
boot_disk "$T/d"
boot_run kexec 240
WHY=$T/kexec.log
ok $? "QEMU powered off by itself"
boot_ids "$T/kexec.log" >"$T/ids"
[ "$(sort -u "$T/ids" | wc -l)" = 2 ] && [ "$(wc -l <"$T/ids")" = 2 ]
ok $? "two boots, two boot_ids"
boot_cmdlines "$T/kexec.log" >"$T/cmdlines"
[ "$(sed -n 1p "$T/cmdlines")" = "$BOOT_APPEND" ] &&
	[ "$(sed -n 2p "$T/cmdlines")" = "$BOOT_APPEND mitigations=off" ]
ok $? "the first on the default command line, the second on it with mitigations=off"
tr -d '\r' <"$T/kexec.log" | grep -q '^=== pinbench-version pinbench '
ok $? "pinbench runs in the guest"
boot_readback "$T/back"
[ -f "$T/back/kexeced" ]
ok $? "the disk read back on the host" "$T/debugfs.log"
echo "# wall time: $(($(date +%s) - start)) s, accelerator: $BOOT_ACCEL"
echo "1..$n"
[ $nfail = 0 ]
