# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the QEMU boot tests: Debian's own kernel, an initramfs with
# busybox, kexec and pinbench, a disk for what must survive a kexec, and a
# boot with a timeout.  Source after tests/e2e/lib.sh (it gives $T, ok, skip).
# Nothing is installed on the host but QEMU: the .debs are only unpacked.
#   boot_debs        the .debs in $BOOT_DEB_DIR (tests/deps.sh --check keeps
#                    them there), or downloaded into $T now
#   boot_images      $T/img/vmlinuz and $T/img/initrd.gz
#   boot_disk DIR    $T/disk.img: an ext2 file system holding DIR
#   boot_accel       $BOOT_ACCEL: kvm when a short KVM boot works, else tcg,
#                    with the CPU model $BOOT_CPU
#   boot_run NAME SECONDS [APPEND]   boot $T/disk.img; the serial log in $T/NAME.log
BOOT_DEB_DIR=${BOOT_DEB_DIR:-/var/cache/pinbench/boot}
BOOT_MEM=${BOOT_MEM:-512M}
BOOT_APPEND=${BOOT_APPEND:-console=ttyS0 quiet panic=-1}
# the initramfs's /init (tests/boot/lava.sh: tests/boot/lava-init, a shell)
BOOT_INIT=${BOOT_INIT:-tests/boot/init}
# under TCG, a CPU the kernel finds vulnerable (Meltdown, MDS, ITS), so that its
# default command line mitigates (page table isolation, VERW, return thunks) and
# mitigations=off changes the syscall path; TCG's default, qemu64, is found
# affected by Spectre v1 and v2 only (doc/measurements.md)
BOOT_CPU=${BOOT_CPU:-Skylake-Client-v1}
# the modules a virtio disk with an ext2 file system needs in Debian's 6.1,
# in load order (none of them is built in: CONFIG_VIRTIO_BLK=m, EXT4_FS=m)
BOOT_MODULES="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci
virtio_blk crc16 mbcache jbd2 crc32c_generic ext4"

# boot_debs: $DEBS, the folder of the guest's .debs
boot_debs() {
	DEBS=$BOOT_DEB_DIR
	ls "$DEBS"/linux-image-*.deb "$DEBS"/busybox-static_*.deb \
		"$DEBS"/kexec-tools_*.deb >/dev/null 2>&1 && return 0
	DEBS=$T/debs
	sh tests/deps.sh --boot-debs "$DEBS"
}

# boot_modules KDIR OUT: the modules of $BOOT_MODULES copied from the kernel's
# tree KDIR into OUT, their load order in OUT/order
boot_modules() {
	mkdir -p "$2"
	: >"$2/order"
	for m in $BOOT_MODULES; do
		f=$(find "$1" -name "$m.ko" | head -n 1)
		[ -n "$f" ] || { echo "no module $m in $1" >&2; return 1; }
		cp "$f" "$2/" && echo "$m.ko" >>"$2/order"
	done
}

# boot_copy_bin ROOT FILE...: each binary into ROOT/bin with every library
# ldd finds for it (under its host path), the unpacked .debs' first
boot_copy_bin() {
	_root=$1
	shift
	_lp=$(find "$T/x" -name '*.so*' -printf '%h\n' | sort -u | tr '\n' :)
	for b in "$@"; do
		cp "$b" "$_root/bin/" || return 1
		LD_LIBRARY_PATH=$_lp ldd "$b" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^\t\(\/[^ ]*\) .*/\1/p' |
		while read -r lib; do
			dst=$_root/$(echo "$lib" | sed "s|^$T/x/||; s|^/||")
			mkdir -p "$(dirname "$dst")" && cp -L "$lib" "$dst" || exit 1
		done || return 1
	done
}

# boot_images: unpack the .debs into $T/x and build $T/img/{vmlinuz,initrd.gz}
boot_images() {
	boot_debs || return 1
	mkdir -p "$T/x" "$T/img" "$T/root"
	for d in "$DEBS"/*.deb; do
		case ${d##*/} in
		linux-image-*)	# only the image and the modules the disk needs
			dpkg-deb --fsys-tarfile "$d" | tar -x -C "$T/x" --wildcards './boot/vmlinuz-*' \
				$(for m in $BOOT_MODULES; do echo "*/$m.ko"; done) ;;
		*)	dpkg-deb -x "$d" "$T/x" ;;
		esac || return 1
	done
	cp "$T"/x/boot/vmlinuz-* "$T/img/vmlinuz" || return 1
	r=$T/root
	mkdir -p "$r/bin" "$r/dev" "$r/proc" "$r/sys" "$r/tmp" "$r/run" "$r/disk" \
		"$r/var/lib" "$r/lib64"
	cp "$T/x/bin/busybox" "$r/bin/" || return 1
	for a in $("$r/bin/busybox" --list); do
		[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
	done
	ln -s bin "$r/sbin"
	(cd "$r" && mkdir -p usr && ln -s ../bin usr/bin && ln -s ../bin usr/sbin)
	rm -f "$r/bin/kexec"
	boot_copy_bin "$r" "$T/x/sbin/kexec" "$PB" || return 1
	boot_modules "$T/x/lib/modules" "$r/lib/modules" || return 1
	cp "$BOOT_INIT" "$r/init" && chmod 755 "$r/init" || return 1
	(cd "$r" && find . | "$T/x/bin/busybox" cpio -o -H newc 2>/dev/null) |
		gzip -1 >"$T/img/initrd.gz"
}

# boot_disk DIR: $T/disk.img, an ext2 file system of 128 MiB holding DIR
boot_disk() {
	rm -f "$T/disk.img"
	mke2fs -q -t ext2 -F -d "$1" "$T/disk.img" 128M >"$T/mke2fs.log" 2>&1
}

# boot_readback DIR: the guest's disk copied back into DIR
boot_readback() {
	rm -rf "$1" && mkdir -p "$1" &&
		debugfs -R "rdump / $1" "$T/disk.img" >"$T/debugfs.log" 2>&1
}

# boot_qemu ACCEL SECONDS LOG APPEND: one QEMU run, killed after SECONDS;
# under TCG on $BOOT_CPU (under KVM on QEMU's default model)
boot_qemu() {
	_cpu=
	[ "$1" != tcg ] || _cpu="-cpu $BOOT_CPU"
	timeout -k 5 "$2" qemu-system-x86_64 -accel "$1" $_cpu -m "$BOOT_MEM" -smp 1 \
		-kernel "$T/img/vmlinuz" -initrd "$T/img/initrd.gz" -append "$4" \
		-nographic -no-reboot -nic none -monitor none -serial stdio \
		-drive "file=$T/disk.img,if=virtio,format=raw" </dev/null >"$3" 2>&1
}

# boot_accel: $BOOT_ACCEL = kvm when /dev/kvm is usable and a short boot
# under it reaches /init (nested KVM can hang in the boot), else tcg
boot_accel() {
	BOOT_ACCEL=tcg
	[ -w /dev/kvm ] || return 0
	mkdir -p "$T/probe"
	echo probe >"$T/probe/mode"
	boot_disk "$T/probe" || return 0
	boot_qemu kvm 10 "$T/kvm-probe.log" "$BOOT_APPEND" || true
	grep -q '=== pinbench-init' "$T/kvm-probe.log" && BOOT_ACCEL=kvm
	rm -rf "$T/probe"
}

# boot_run NAME SECONDS [APPEND]: boot the images on $T/disk.img under
# $BOOT_ACCEL; the serial log in $T/NAME.log; QEMU's exit code (124: timeout)
boot_run() {
	boot_qemu "$BOOT_ACCEL" "$2" "$T/$1.log" "${3:-$BOOT_APPEND}"
}

# boot_ids LOG: the boot_id of each boot the serial log shows, one a line
boot_ids() {
	sed -n 's/.*=== pinbench-init boot_id=\([^ ]*\).*/\1/p' "$1" | tr -d '\r'
}

# boot_cmdlines LOG: the /proc/cmdline of each boot, one a line
boot_cmdlines() {
	sed -n 's/.*=== pinbench-init boot_id=[^ ]* cmdline=//p' "$1" | tr -d '\r'
}

# boot_vulns LOG: the guest's vulnerabilities line of each boot ("name: state; ..."), one a line
boot_vulns() {
	sed -n 's/.*=== pinbench-vulns //p' "$1" | tr -d '\r'
}

# boot_setup: the start time ($start), a skip of the whole script without
# QEMU, the images built (check 1), the accelerator chosen and said
boot_setup() {
	start=$(date +%s)
	if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
		echo "1..0 # SKIP no qemu-system-x86_64 (tests/deps.sh --check installs qemu-system-x86)"
		exit 0
	fi
	boot_images >"$T/images.log" 2>&1
	ok $? "the images: Debian's kernel and an initramfs with busybox, kexec and pinbench" \
		"$T/images.log" || { echo "1..$n"; exit 1; }
	boot_accel
	echo "# accelerator: $BOOT_ACCEL"
}
