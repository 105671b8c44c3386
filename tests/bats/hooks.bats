#!/usr/bin/env bats
# The dracut module and the kickstart snippets: shellcheck-clean shell, the
# sections kickstart needs, and the %include contract between %pre and the
# command section.
load test_helper

# ks_sections FILE: writes every %pre/%post body to $BATS_TEST_TMPDIR/sec-N.sh
ks_sections() {
	awk -v dir="$BATS_TEST_TMPDIR" -v base="$(basename "$1")" '
		/^%(pre|post)/ { n++; f = dir "/" base "-" n ".sh"; print "#!/bin/bash" > f; inside = 1; next }
		/^%end/ { inside = 0; close(f); next }
		inside { print > f }' "$1"
}

@test "kickstart: every %pre/%post body is shellcheck-clean" {
	for ks in "$TOP"/kickstart/*.ks; do
		ks_sections "$ks"
	done
	n=$(ls "$BATS_TEST_TMPDIR"/*.sh | wc -l)
	[ "$n" -ge 4 ]
	run shellcheck -s bash "$BATS_TEST_TMPDIR"/*.sh
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "kickstart: sections are closed, fail the install on error, and need no python" {
	for ks in "$TOP"/kickstart/*.ks; do
		opens=$(grep -cE '^%(pre|post|packages)' "$ks")
		ends=$(grep -cE '^%end' "$ks")
		[ "$opens" = "$ends" ]
		# every script section stops the install when it fails
		while read -r line; do
			[[ $line == *--erroronfail* ]] || { echo "$ks: $line has no --erroronfail"; false; }
		done < <(grep -E '^%(pre|post)' "$ks")
		run grep -n 'python' "$ks"
		refute_output --regexp ':[^#]*python'
		# settings come from the kernel command line, never the environment
		# (%post writes STORPROV_PROFILE into the target's verify.env, $venv)
		run bash -c "grep -nE 'STORPROV_(PROFILE|WIPE)|\\\$\\{?STORPROV\\b' '$ks' | grep -vE '^[0-9]+:#|venv'"
		assert_output ""
		# never a bare clearpart --all
		run grep -nE '^[[:space:]]*clearpart' "$ks"
		refute_output --regexp 'clearpart --all( --initlabel)?$'
	done
	grep -q '^%include /tmp/storprov-include.ks' "$TOP/kickstart/storage-node.ks"
	grep -q -- '--ks-include /tmp/storprov-include.ks' "$TOP/kickstart/storprov-pre.ks"
	grep -q '/proc/cmdline' "$TOP/kickstart/storprov-pre.ks"
	grep -q '^%post --nochroot' "$TOP/kickstart/storprov-post.ks"
	grep -q 'dracut --force' "$TOP/kickstart/storprov-post.ks"
	# storage-node.ks: the include is the only ignoredisk/clearpart source
	run grep -nE '^[[:space:]]*(ignoredisk|clearpart)' "$TOP/kickstart/storage-node.ks"
	assert_output ""
}

# pre_world: a fake installer: fixture devices, a storprov wrapper on the
# captured sysfs, /proc/cmdline and /tmp redirected into the test directory.
# Writes the %pre body of $1 to $BATS_TEST_TMPDIR/pre.sh.
pre_world() {
	ks_sections "$1"
	local body=$BATS_TEST_TMPDIR/$(basename "$1")-1.sh
	export STORPROV_DEVROOT="$BATS_TEST_TMPDIR/devroot" FAKE_LOG="$BATS_TEST_TMPDIR/log" FAKE_STATE="$BATS_TEST_TMPDIR/st"
	cp -rL "$SYSROOT/grid-3ware" "$BATS_TEST_TMPDIR/w"
	mkdir -p "$STORPROV_DEVROOT/dev" "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/tmp"
	for d in "$BATS_TEST_TMPDIR"/w/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
	printf '#!/bin/sh\necho "$*" >>%s\nexec %s "$@" --sysroot %s --seed 1\n' "$BATS_TEST_TMPDIR/argv.log" "$SP" \
		"$BATS_TEST_TMPDIR/w" >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	sed -e 's|/tmp/|'"$BATS_TEST_TMPDIR"'/tmp/|g' -e 's|/dev/console|/dev/stderr|g' \
		-e 's|/proc/cmdline|'"$BATS_TEST_TMPDIR"'/cmdline|' "$body" >"$BATS_TEST_TMPDIR/pre.sh"
}

# post_sh SECTION: a %post body (ks_sections) as post.sh, /mnt/sysimage at $sysimage
post_sh() {
	sed -e 's|/tmp/|'"$BATS_TEST_TMPDIR"'/tmp/|g' -e 's|/dev/console|/dev/stderr|g' \
		-e 's|/proc/cmdline|'"$BATS_TEST_TMPDIR"'/cmdline|' -e 's|/mnt/sysimage|'"$sysimage"'|g' \
		-e 's|/usr/share/storprov/|'"$BATS_TEST_TMPDIR"'/share/|g' "$1" >"$BATS_TEST_TMPDIR/post.sh"
}

run_pre() { # CMDLINE
	echo "$1" >"$BATS_TEST_TMPDIR/cmdline"
	rm -f "$BATS_TEST_TMPDIR/tmp/storprov-include.ks" "$FAKE_STATE"/* 2>/dev/null || true
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/pre.sh"
}

@test "kickstart %pre: settings from /proc/cmdline; the include ignores exactly the profile's disks" {
	pre_world "$TOP/kickstart/storprov-pre.ks"
	run_pre "BOOT_IMAGE=vmlinuz ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml quiet"
	assert_success
	run -0 cat "$BATS_TEST_TMPDIR/tmp/storprov-include.ks"
	assert_line "ignoredisk --drives=sdb,sdc"
	refute_output --partial "only-use"
	refute_line --regexp "^clearpart"
	# the profile used is kept for %post
	cmp "$TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/tmp/storprov-profile.xml"
	# --mdadm-conf for EL by default, or from storprov.mdadm-conf=
	run -0 grep -c -- '--mdadm-conf /etc/mdadm.conf ' "$BATS_TEST_TMPDIR/argv.log"
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.mdadm-conf=/etc/mdadm/mdadm.conf"
	assert_success
	run -0 grep -c -- '--mdadm-conf /etc/mdadm/mdadm.conf ' "$BATS_TEST_TMPDIR/argv.log"
}

@test "kickstart %pre: storprov.os-disks= gives ignoredisk --only-use= and a clearpart limited to them" {
	pre_world "$TOP/kickstart/storprov-pre.ks"
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sda storprov.wipe=1"
	assert_success
	run -0 cat "$BATS_TEST_TMPDIR/tmp/storprov-include.ks"
	assert_line "ignoredisk --only-use=sda"
	assert_line "clearpart --all --initlabel --drives=sda"
	refute_output --partial -- "--drives=sdb"
	[ "$(grep -c '^ignoredisk' "$BATS_TEST_TMPDIR/tmp/storprov-include.ks")" = 1 ]
	# an OS disk that is one of the profile's: refused before anything is written
	: >"$FAKE_LOG"
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sdb"
	assert_failure
	assert_output --partial "left out: sdb matches too, but it is a system disk (--os-disks sdb)"
	[ ! -e "$BATS_TEST_TMPDIR/tmp/storprov-include.ks" ]
	[ ! -s "$FAKE_LOG" ]
}

@test "kickstart %pre: the profile over http, and a clear failure without one" {
	pre_world "$TOP/kickstart/storprov-pre.ks"
	mkdir -p "$BATS_TEST_TMPDIR/www"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/www/node.xml"
	port=$((20000 + RANDOM % 20000))
	python3 -m http.server "$port" --bind 127.0.0.1 --directory "$BATS_TEST_TMPDIR/www" >/dev/null 2>&1 &
	srv=$!
	for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.1; done
	run_pre "ro storprov.profile=http://127.0.0.1:$port/node.xml"
	kill "$srv"
	assert_success
	cmp "$TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/tmp/storprov-profile.xml"
	assert_line --partial "ignoredisk --drives=sdb,sdc"
	rm -f "$BATS_TEST_TMPDIR/tmp/storprov-profile.xml"
	run_pre "ro quiet"
	assert_failure
	assert_output --partial "no storprov.profile= on the kernel command line"
}

@test "storage-node.ks: %pre requires the OS disks (storprov.os-disks= or system=\"true\") and writes the --only-use include" {
	pre_world "$TOP/kickstart/storage-node.ks"
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml"
	assert_failure
	assert_output --partial "give storprov.os-disks="
	[ ! -s "$FAKE_LOG" ]   # refused before anything was provisioned
	# or the profile names them: no storprov.os-disks= needed, the OS disk goes by its by-id link
	sed 's|^  <disks id="lun"|  <disks id="os" count="1" system="true"><match vendor="ATA"/></disks>\n&|' \
		"$TOP/profiles/grid-3ware-raid5.xml" >"$BATS_TEST_TMPDIR/sys.xml"
	grep -q 'system="true"' "$BATS_TEST_TMPDIR/sys.xml"
	run_pre "ro storprov.profile=$BATS_TEST_TMPDIR/sys.xml"
	assert_success
	grep -Fx 'clearpart --all --initlabel --drives=disk/by-id/ata-WDC_WD2500JS-60NCB1_WD-WCANK7381924' \
		"$BATS_TEST_TMPDIR/tmp/storprov-include.ks"
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sda"
	assert_success
	# the whole kickstart as anaconda sees it: exactly one ignoredisk form, one clearpart, limited
	sed "s|^%include /tmp/storprov-include.ks|cat $BATS_TEST_TMPDIR/tmp/storprov-include.ks|" "$TOP/kickstart/storage-node.ks" |
		awk -v inc="$BATS_TEST_TMPDIR/tmp/storprov-include.ks" '/^cat / { while ((getline l < inc) > 0) print l; next } { print }' \
		>"$BATS_TEST_TMPDIR/full.ks"
	[ "$(grep -c '^ignoredisk' "$BATS_TEST_TMPDIR/full.ks")" = 1 ]
	[ "$(grep -c '^clearpart' "$BATS_TEST_TMPDIR/full.ks")" = 1 ]
	grep -q '^clearpart --all --initlabel --drives=sda$' "$BATS_TEST_TMPDIR/full.ks"
	if command -v ksvalidator >/dev/null; then
		for v in RHEL8 RHEL9 RHEL10; do
			run -0 ksvalidator -v "$v" "$BATS_TEST_TMPDIR/full.ks"
		done
	fi
}

@test "kickstart %post: files into the target with nofail, storprov and the profile copied" {
	pre_world "$TOP/kickstart/storprov-pre.ks"
	# a profile with one filesystem the node can boot without
	sed 's|mount-options="noatime,inode64"/>|mount-options="noatime,inode64" boot-critical="false"/>|' \
		"$TOP/profiles/grid-3ware-raid5.xml" >"$BATS_TEST_TMPDIR/node.xml"
	run_pre "ro storprov.profile=$BATS_TEST_TMPDIR/node.xml storprov.os-disks=/dev/disk/by-path/pci-0000:00:1f.2-ata-1"
	assert_success
	grep -Fx 'ignoredisk --only-use=disk/by-path/pci-0000:00:1f.2-ata-1' "$BATS_TEST_TMPDIR/tmp/storprov-include.ks"
	ks_sections "$TOP/kickstart/storprov-post.ks"
	sysimage=$BATS_TEST_TMPDIR/sysimage
	mkdir -p "$sysimage/root" "$sysimage/etc"
	echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
	post_sh "$BATS_TEST_TMPDIR/storprov-post.ks-1.sh"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
	assert_success
	run -0 findmnt --tab-file "$sysimage/etc/fstab" --noheadings -o OPTIONS /storage/data1
	assert_output --regexp '(^|,)nofail(,|$)'
	run -0 findmnt --tab-file "$sysimage/etc/fstab" --noheadings -o TARGET,FSTYPE /
	assert_file_exists "$sysimage/usr/sbin/storprov"
	cmp "$BATS_TEST_TMPDIR/node.xml" "$sysimage/etc/storprov/profiles/grid-3ware-raid5.xml"
	assert_file_exists "$sysimage/etc/udev/rules.d/70-storprov.rules"
	# %post planned with the same OS disk as %pre
	tail -n 1 "$BATS_TEST_TMPDIR/argv.log" | grep -F -- '--root '"$sysimage"
	tail -n 1 "$BATS_TEST_TMPDIR/argv.log" | grep -F -- '--os-disks /dev/disk/by-path/pci-0000:00:1f.2-ata-1'
	[ "$(grep -c -- '--os-disks /dev/disk/by-path/pci-0000:00:1f.2-ata-1' "$BATS_TEST_TMPDIR/argv.log")" -eq 2 ]
}

@test "dracut module: shellcheck-clean, sourced hooks return and never exit" {
	d="$TOP/hooks/dracut/90storprov"
	run shellcheck -s bash "$d/module-setup.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run shellcheck -s sh "$d/storprov-lib.sh" "$d/storprov-provision.sh" "$d/storprov-persist.sh" "$d/storprov-wait.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run grep -nE '^[[:space:]]*exit\b|[;&|][[:space:]]*exit\b' "$d/storprov-lib.sh" "$d/storprov-provision.sh" "$d/storprov-persist.sh" "$d/storprov-wait.sh"
	assert_output ""
	grep -q 'inst_hook pre-mount' "$d/module-setup.sh"
	grep -q 'inst_hook pre-pivot' "$d/module-setup.sh"
	grep -q 'inst_hook initqueue/finished' "$d/module-setup.sh"
	# no awk in an initramfs: the hooks must not need it
	run grep -nw awk "$d/storprov-lib.sh" "$d/storprov-provision.sh" "$d/storprov-persist.sh" "$d/storprov-wait.sh"
	assert_output ""
}

# dracut_env: dracut-lib stand-ins (getarg reads $CMDLINE), a fake storprov
dracut_env() {
	cat >"$BATS_TEST_TMPDIR/env.sh" <<'SH'
getarg() {
	for _w in $CMDLINE; do
		case $_w in "$1"*) printf '%s\n' "${_w#"$1"}"; return 0 ;; esac
	done
	return 1
}
getargbool() { _v=$(getarg "$2=") || return 1; [ "$_v" = 1 ]; }
check_quiet() { DRACUT_QUIET=no; }
info() { echo "INFO: $*" >>"$LOG"; }
warn() { echo "WARN: $*" >>"$LOG"; }
die() { echo "DIE: $*" >>"$LOG"; }
SH
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	export LOG=$BATS_TEST_TMPDIR/log storprov_rundir=$BATS_TEST_TMPDIR/run
	: >"$LOG"
}

@test "dracut lib: mdadm.conf from the command line, the root's file, the distribution" {
	dracut_env
	r=$BATS_TEST_TMPDIR/root
	mkdir -p "$r/etc/mdadm"
	check() { # CMDLINE -> path
		CMDLINE=$1 run -0 sh -c ". '$BATS_TEST_TMPDIR/env.sh'; . '$TOP/hooks/dracut/90storprov/storprov-lib.sh'; storprov_mdadm_conf '$r'"
	}
	check ""
	assert_output /etc/mdadm/mdadm.conf
	echo 'ID_LIKE="rhel centos fedora"' >"$r/etc/os-release"
	check ""
	assert_output /etc/mdadm.conf
	touch "$r/etc/mdadm/mdadm.conf"
	check ""
	assert_output /etc/mdadm/mdadm.conf
	touch "$r/etc/mdadm.conf"
	check ""
	assert_output /etc/mdadm.conf
	check "ro rd.storprov.mdadm-conf=/etc/x.conf"
	assert_output /etc/x.conf
}

@test "dracut lib: the finished hook waits until storprov validate passes, then for no longer than the timeout" {
	dracut_env
	# a storprov that finds the disks once $BATS_TEST_TMPDIR/present exists
	printf '#!/bin/sh\n[ -e %s/present ] && exit 0\necho "p.xml:3: error: disks lun: expected 2 disks, found 1 [disk-count]" >&2\nexit 2\n' \
		"$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	ready() {
		CMDLINE=$1 PATH="$BATS_TEST_TMPDIR/bin:$PATH" run sh -c ". '$BATS_TEST_TMPDIR/env.sh'; . '$TOP/hooks/dracut/90storprov/storprov-lib.sh'; storprov_disks_ready"
	}
	# no profile: nothing to wait for
	ready "ro"
	assert_success
	ready "rd.storprov.profile=/p.xml rd.storprov.timeout=300"
	assert_failure
	ready "rd.storprov.profile=/p.xml rd.storprov.timeout=300"
	assert_failure
	# said once, with storprov's reason
	[ "$(grep -c 'waiting up to 300s' "$LOG")" = 1 ]
	grep -q 'expected 2 disks, found 1' "$LOG"
	# 300 s is above dracut's default rd.retry (180): said, with the fix
	grep -q "WARN: storprov: rd.storprov.timeout=300 is above dracut's rd.retry=180: .*add rd.retry=330" "$LOG"
	touch "$BATS_TEST_TMPDIR/present"
	ready "rd.storprov.profile=/p.xml rd.storprov.timeout=300"
	assert_success
	grep -q 'the disks of /p.xml are all there after' "$LOG"
	# the timeout: the start was long ago
	rm -rf "$storprov_rundir" "$BATS_TEST_TMPDIR/present"
	mkdir -p "$storprov_rundir"
	echo 0 >"$storprov_rundir/wait-start"
	ready "rd.storprov.profile=/p.xml rd.storprov.timeout=5"
	assert_success
	grep -q 'WARN: storprov: gave up waiting for the disks of /p.xml after 5s (rd.storprov.timeout=): p.xml:3: error: disks lun: expected 2 disks, found 1' "$LOG"
}

@test "dracut lib: rd.retry at or above the timeout is not warned about" {
	dracut_env
	printf '#!/bin/sh\nexit 2\n' >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	for c in "rd.storprov.timeout=300 rd.retry=330" "rd.storprov.timeout=120" ""; do
		rm -rf "$storprov_rundir"
		CMDLINE="rd.storprov.profile=/p.xml $c" PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -1 sh -c ". '$BATS_TEST_TMPDIR/env.sh'; . '$TOP/hooks/dracut/90storprov/storprov-lib.sh'; storprov_disks_ready"
	done
	[ "$(grep -c 'waiting up to' "$LOG")" = 3 ]
	run grep -c 'rd.retry' "$LOG"
	assert_output 0
}

@test "dracut module-setup: only site profiles are candidates, examples apart; kernel modules with hostonly=optional" {
	sysroot=$BATS_TEST_TMPDIR/sysroot initdir=$BATS_TEST_TMPDIR/initdir
	mkdir -p "$sysroot/etc/storprov/profiles" "$sysroot/usr/share/storprov/examples" "$initdir"
	echo site >"$sysroot/etc/storprov/profiles/node.xml"
	echo shipped >"$sysroot/usr/share/storprov/examples/node.xml"
	echo shipped-only >"$sysroot/usr/share/storprov/examples/other.xml"
	cat >"$BATS_TEST_TMPDIR/stubs.sh" <<SH
dracutsysrootdir=$sysroot
initdir=$initdir
moddir=/moddir
# inst_simple: the first copy wins, as dracut's does
inst_simple() { [ -e "\$initdir\$2" ] && return 0; mkdir -p "\$(dirname "\$initdir\$2")"; cp "\$dracutsysrootdir\$1" "\$initdir\$2"; }
inst() { :; }
inst_multiple() { :; }
inst_hook() { echo "hook \$1 \$2 \$3" >>$BATS_TEST_TMPDIR/hooks; }
dinfo() { echo "dinfo: \$*" >>$BATS_TEST_TMPDIR/hooks; }
find_binary() { echo /usr/sbin/storprov; }
optional_hostonly() { echo "-h-optional"; }
instmods() { echo "instmods hostonly=\${hostonly-unset} \$*" >>$BATS_TEST_TMPDIR/hooks; }
SH
	run -0 bash -c ". '$BATS_TEST_TMPDIR/stubs.sh'; . '$TOP/hooks/dracut/90storprov/module-setup.sh'; install; installkernel"
	run -0 cat "$initdir/etc/storprov/profiles/node.xml"
	assert_output site
	# the candidates are the site's profiles alone; the examples sit apart
	run -0 ls "$initdir/etc/storprov/profiles"
	assert_output node.xml
	run -0 cat "$initdir/usr/share/storprov/examples/other.xml"
	assert_output shipped-only
	run -0 cat "$initdir/usr/share/storprov/examples/node.xml"
	assert_output shipped
	run -0 cat "$BATS_TEST_TMPDIR/hooks"
	assert_line "hook initqueue/finished 90 /moddir/storprov-wait.sh"
	assert_line "hook pre-mount 10 /moddir/storprov-provision.sh"
	assert_line "hook pre-pivot 10 /moddir/storprov-persist.sh"
	assert_line --regexp '^instmods hostonly=-h-optional raid0 raid1 raid10 raid456 '
	# no site profile uses multipath: no multipath modules
	refute_line --partial dm-multipath
	# a site profile that does: dm-multipath and its path selector
	cp "$TOP/profiles/multipath-2path.xml" "$sysroot/etc/storprov/mp.xml"
	: >"$BATS_TEST_TMPDIR/hooks"
	run -0 bash -c ". '$BATS_TEST_TMPDIR/stubs.sh'; . '$TOP/hooks/dracut/90storprov/module-setup.sh'; installkernel"
	run -0 cat "$BATS_TEST_TMPDIR/hooks"
	assert_line "instmods hostonly=-h-optional dm-multipath dm-service-time"
	# a shipped example that uses multipath does not count
	rm "$sysroot/etc/storprov/mp.xml"
	cp "$TOP/profiles/multipath-2path.xml" "$sysroot/usr/share/storprov/examples/"
	: >"$BATS_TEST_TMPDIR/hooks"
	run -0 bash -c ". '$BATS_TEST_TMPDIR/stubs.sh'; . '$TOP/hooks/dracut/90storprov/module-setup.sh'; installkernel"
	run -0 cat "$BATS_TEST_TMPDIR/hooks"
	refute_line --partial dm-multipath
}

@test "kickstart %pre: a profile directory goes through storprov select" {
	pre_world "$TOP/kickstart/storprov-pre.ks"
	# --seed applies to apply only
	printf '#!/bin/sh\nv=$1; shift\n[ "$v" = apply ] && set -- "$@" --seed 1\nexec %s "$v" "$@" --sysroot %s\n' \
		"$SP" "$BATS_TEST_TMPDIR/w" >"$BATS_TEST_TMPDIR/bin/storprov"
	# this node: the md RAID6 of 8 disks capture
	rm -rf "$BATS_TEST_TMPDIR/w" "$STORPROV_DEVROOT/dev"/*
	cp -rL "$SYSROOT/md-raid6-8" "$BATS_TEST_TMPDIR/w"
	for d in "$BATS_TEST_TMPDIR"/w/sys/block/*; do
		truncate -s $(($(cat "$d/size") * 512)) "$STORPROV_DEVROOT/dev/$(basename "$d")"
	done
	run_pre "ro storprov.profile=$FIX/fleet quiet"
	assert_success
	cmp "$FIX/fleet/md-raid6-8.xml" "$BATS_TEST_TMPDIR/tmp/storprov-profile.xml"
	run -0 cat "$BATS_TEST_TMPDIR/tmp/storprov-include.ks"
	assert_line "ignoredisk --drives=sdb,sdc,sdd,sde,sdf,sdg,sdh,sdi"
	# a node no profile fits stops the install, with the near miss
	rm -rf "$BATS_TEST_TMPDIR/w/sys/block/sdi"
	run_pre "ro storprov.profile=$FIX/fleet"
	assert_failure
	assert_output --partial "expected 8 disks, found 7 (1 missing)"
	assert_output --partial "no single profile in $FIX/fleet fits this node"
}

@test "storage-node.ks: select over the updates image's profiles or a directory; %post makes the profile's own mountpoints" {
	pre_world "$TOP/kickstart/storage-node.ks"
	# --seed applies to apply and plan only
	printf '#!/bin/sh\necho "$*" >>%s\nv=$1; shift\n[ "$v" = select ] || set -- "$@" --seed 1\nexec %s "$v" "$@" --sysroot %s\n' \
		"$BATS_TEST_TMPDIR/argv.log" "$SP" "$BATS_TEST_TMPDIR/w" >"$BATS_TEST_TMPDIR/bin/storprov"
	# the updates image's site profiles: a fleet whose grid profile mounts elsewhere
	site=$BATS_TEST_TMPDIR/site
	mkdir -p "$site"
	cp "$FIX"/fleet/*.xml "$site/"
	sed -i 's|mountpoint="/storage/data%n"|mountpoint="/srv/grid%n"|' "$site/grid-3ware-raid5.xml"
	sed -i 's|/etc/storprov/profiles|'"$site"'|g' "$BATS_TEST_TMPDIR/pre.sh"
	fresh() { # a blank node again between installs
		rm -rf "$BATS_TEST_TMPDIR/w" "$FAKE_STATE" "$STORPROV_DEVROOT/dev"/*
		fake_world grid-3ware "$BATS_TEST_TMPDIR/w"
	}
	run_pre "ro storprov.os-disks=sda"
	assert_success
	cmp "$site/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/tmp/storprov-profile.xml"
	grep -q '^select --profiles '"$site"'$' "$BATS_TEST_TMPDIR/argv.log"
	# a directory on the command line goes through select as well
	fresh
	run_pre "ro storprov.profile=$FIX/fleet storprov.os-disks=sda"
	assert_success
	cmp "$FIX/fleet/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/tmp/storprov-profile.xml"
	# two profiles that fit: the install stops, naming both
	cp "$site/grid-3ware-raid5.xml" "$site/grid-copy.xml"
	run_pre "ro storprov.os-disks=sda"
	assert_failure
	assert_output --partial "no single profile in $site fits this node"
	rm "$site/grid-copy.xml"
	# %post on the site profile: its mountpoints, not a hard-coded /storage/data1
	fresh
	run_pre "ro storprov.os-disks=sda"
	assert_success
	sysimage=$BATS_TEST_TMPDIR/sysimage
	mkdir -p "$sysimage/root" "$sysimage/etc"
	echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
	post_sh "$BATS_TEST_TMPDIR/storage-node.ks-2.sh"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
	assert_success
	run -0 findmnt --tab-file "$sysimage/etc/fstab" --noheadings -o TARGET
	assert_line /srv/grid1
	assert_line /srv/grid2
	assert_dir_exists "$sysimage/srv/grid1"
	assert_dir_exists "$sysimage/srv/grid2"
	assert_not_exists "$sysimage/storage"
	run grep -n 'storage/data' "$TOP/kickstart/storage-node.ks"
	refute_output --regexp ':[^#]*mkdir'
}

# node_world ROOT: the node as it boots after the install: the kernel state of
# an applied grid node (tests/tools/applied-node.sh, $BATS_TEST_TMPDIR/booted)
# with ROOT as its /; `make install` into $I for storprov-verify-textfile; and
# $BATS_TEST_TMPDIR/node-storprov, a storprov that reads the profile path as
# the node would (under ROOT) and verifies that node
node_world() {
	I=$BATS_TEST_TMPDIR/inst
	make -s -C "$TOP" install PREFIX="$I" SYSCONFDIR="$I/etc" UNITDIR="$I/units" >/dev/null
	"$TOP/tests/tools/applied-node.sh" "$SP" "$TOP/profiles/grid-3ware-raid5.xml" "$SYSROOT/grid-3ware" \
		"$BATS_TEST_TMPDIR/booted" "$BATS_TEST_TMPDIR/rendered"
	cat >"$BATS_TEST_TMPDIR/node-storprov" <<SH
#!/bin/bash
echo "\$*" >>"$BATS_TEST_TMPDIR/node-argv.log"
a=()
while [ \$# -gt 0 ]; do
	case \$1 in
	--profile) a+=(--profile "$1\$2"); shift 2 ;;
	*) a+=("\$1"); shift ;;
	esac
done
exec "$SP" "\${a[@]}" --sysroot "$BATS_TEST_TMPDIR/booted" --root "$1" --seed 1
SH
	chmod +x "$BATS_TEST_TMPDIR/node-storprov"
}

# daily_verify ROOT: storprov-verify-textfile as the service runs it, its
# settings from ROOT's /etc/storprov/verify.env and nothing else (but the
# sanitizers' options, when the suite runs the ASan build: libparted's
# start-up report is excused there, tests/asan.supp)
daily_verify() {
	run env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
		${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} sh -c "set -a; . '$1/etc/storprov/verify.env'; set +a
		STORPROV='$BATS_TEST_TMPDIR/node-storprov' STORPROV_TEXTFILE_DIR='$BATS_TEST_TMPDIR/textfile' exec '$I/libexec/storprov/storprov-verify-textfile'"
}

@test "kickstart %post: verify.env names the profile kept on the target, and the daily verify of the installed node is clean" {
	node_world "$BATS_TEST_TMPDIR/sysimage"
	pre_world "$TOP/kickstart/storprov-pre.ks"
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sda"
	assert_success
	ks_sections "$TOP/kickstart/storprov-post.ks"
	ks_sections "$TOP/kickstart/storage-node.ks"
	for post in storprov-post.ks-1 storage-node.ks-2; do
		sysimage=$BATS_TEST_TMPDIR/sysimage
		rm -rf "$sysimage" "$BATS_TEST_TMPDIR/textfile"
		mkdir -p "$sysimage/root" "$sysimage/etc/storprov"
		echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
		# the RPM's verify.env (commented defaults), with a stale setting
		{ cat "$I/etc/storprov/verify.env"; echo "STORPROV_PROFILE=/etc/storprov/profile.xml"; } >"$sysimage/etc/storprov/verify.env"
		post_sh "$BATS_TEST_TMPDIR/$post.sh"
		PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
		assert_success
		run -0 grep '^STORPROV_' "$sysimage/etc/storprov/verify.env"
		assert_output "STORPROV_PROFILE='/etc/storprov/profiles/grid-3ware-raid5.xml'
STORPROV_VERIFY_ARGS='--os-disks sda --mdadm-conf /etc/mdadm.conf'"
		grep -qx '#STORPROV_TEXTFILE_DIR=/var/lib/node_exporter/textfile_collector' "$sysimage/etc/storprov/verify.env"
		# the installed node's daily verify: the profile found, the node clean
		daily_verify "$sysimage"
		assert_success
		run -0 grep -x 'storprov_verify_exit_code 0' "$BATS_TEST_TMPDIR/textfile/storprov.prom"
		run -0 grep -x 'storprov_verify_objects{status="drift"} 0' "$BATS_TEST_TMPDIR/textfile/storprov.prom"
		tail -n 1 "$BATS_TEST_TMPDIR/node-argv.log" | grep -qFx "verify --profile /etc/storprov/profiles/grid-3ware-raid5.xml --format prometheus --os-disks sda --mdadm-conf /etc/mdadm.conf"
	done
	# an mdadm.conf path that neither systemd nor sh would read back as it is: left out, said, the rest written
	echo "ro storprov.os-disks=sda storprov.mdadm-conf=/etc/md'\$x\\.conf" >"$BATS_TEST_TMPDIR/cmdline"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
	assert_success
	assert_output --partial "--mdadm-conf /etc/md'\$x\\.conf has characters verify.env cannot carry"
	run -0 grep '^STORPROV_' "$sysimage/etc/storprov/verify.env"
	assert_output "STORPROV_PROFILE='/etc/storprov/profiles/grid-3ware-raid5.xml'
STORPROV_VERIFY_ARGS='--os-disks sda'"
	daily_verify "$sysimage"
	assert_success
}

@test "dracut persist hook: the profile applied goes into the new root's verify.env, quoted safely, and the daily verify after switch-root is clean" {
	dracut_env
	local r=$BATS_TEST_TMPDIR/rendered img=$BATS_TEST_TMPDIR/img
	node_world "$r"
	# the hook as dracut sources it, its lib from this tree
	sed "s|/lib/storprov-lib.sh|$TOP/hooks/dracut/90storprov/storprov-lib.sh|" "$TOP/hooks/dracut/90storprov/storprov-persist.sh" >"$BATS_TEST_TMPDIR/persist.sh"
	printf '#!/bin/sh\necho "$*" >>%s\nexit 0\n' "$BATS_TEST_TMPDIR/argv.log" >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	persist() { # CMDLINE
		CMDLINE=$1 NEWROOT=$r PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -0 sh -c ". '$BATS_TEST_TMPDIR/env.sh'; . '$BATS_TEST_TMPDIR/persist.sh'"
		run grep DIE "$LOG"
		assert_output ""
	}
	mkdir -p "$img" "$r/etc/storprov"
	{ cat "$I/etc/storprov/verify.env"; echo "STORPROV_PROFILE=/etc/storprov/profile.xml"; } >"$r/etc/storprov/verify.env"
	# a profile whose path neither systemd nor sh would read back as it is: copied under a plain name
	odd="$img/it's\$HOME\"\\x.xml"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$odd"
	persist "ro rd.storprov.profile=$odd"
	grep -qF -- "--profile $odd --yes" "$BATS_TEST_TMPDIR/argv.log"
	cmp "$odd" "$r/etc/storprov/provisioned/profile.xml"
	run -0 grep '^STORPROV_' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_PROFILE=/etc/storprov/provisioned/profile.xml"
	grep -qx '#STORPROV_TEXTFILE_DIR=/var/lib/node_exporter/textfile_collector' "$r/etc/storprov/verify.env"
	daily_verify "$r"
	assert_success
	run -0 grep -x 'storprov_verify_exit_code 0' "$BATS_TEST_TMPDIR/textfile/storprov.prom"
	# a profile the root holds at the same path, the same text: named where it is, the line replaced
	mkdir -p "$r$img"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$img/grid.xml"
	cp "$img/grid.xml" "$r$img/grid.xml"
	persist "ro rd.storprov.profile=$img/grid.xml"
	run -0 grep '^STORPROV_' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_PROFILE=$img/grid.xml"
	daily_verify "$r"
	assert_success
	# not the same text there: the image's copy, not the root's
	echo '<!-- edited -->' >>"$r$img/grid.xml"
	persist "ro rd.storprov.profile=$img/grid.xml"
	run -0 grep '^STORPROV_' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_PROFILE=/etc/storprov/provisioned/grid.xml"
	cmp "$img/grid.xml" "$r/etc/storprov/provisioned/grid.xml"
	# an mdadm.conf of the command line: verify reads the same file (and one sh cannot carry is left out, warned)
	persist "ro rd.storprov.profile=$img/grid.xml rd.storprov.mdadm-conf=/etc/mdadm-site.conf"
	run -0 grep '^STORPROV_' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_VERIFY_ARGS='--mdadm-conf /etc/mdadm-site.conf'
STORPROV_PROFILE=/etc/storprov/provisioned/grid.xml"
	daily_verify "$r"
	assert_success
	tail -n 1 "$BATS_TEST_TMPDIR/node-argv.log" | grep -qFx "verify --profile /etc/storprov/provisioned/grid.xml --format prometheus --mdadm-conf /etc/mdadm-site.conf"
	persist "ro rd.storprov.profile=$img/grid.xml rd.storprov.mdadm-conf=/etc/md'\$x.conf"
	grep -qF "rd.storprov.mdadm-conf=/etc/md'\$x.conf has characters verify.env cannot carry" "$LOG"
	run -0 grep '^STORPROV_' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_VERIFY_ARGS='--mdadm-conf /etc/mdadm-site.conf'
STORPROV_PROFILE=/etc/storprov/provisioned/grid.xml"
}

# rpm_world: the storprov RPM as %post meets it: a package file where the
# updates image puts them, and an rpm that lays out the RPM's files (make
# install with the spec's paths, into $BATS_TEST_TMPDIR/pkgtree) under --root
# and runs no scriptlet, so nothing but %post itself enables the timer
rpm_world() {
	local p=$BATS_TEST_TMPDIR/pkgtree
	make -s -C "$TOP" install DESTDIR="$p" PREFIX=/usr SYSCONFDIR=/etc LIBEXECDIR=/usr/libexec/storprov \
		UNITDIR=/usr/lib/systemd/system DRACUTDIR=/usr/lib/dracut/modules.d >/dev/null
	mkdir -p "$BATS_TEST_TMPDIR/share/rpms" "$BATS_TEST_TMPDIR/bin"
	: >"$BATS_TEST_TMPDIR/share/rpms/storprov-0.2.0-1.x86_64.rpm"
	cat >"$BATS_TEST_TMPDIR/bin/rpm" <<SH
#!/bin/sh
echo "rpm \$*" >>"$BATS_TEST_TMPDIR/rpm.log"
[ "\$1" = --root ] || exit 1
cp -a "$p/." "\$2/"
SH
	chmod +x "$BATS_TEST_TMPDIR/bin/rpm"
}

# first_run ROOT: storprov-verify.service's first run in the installed ROOT,
# as systemd starts it: its ExecStart= and its EnvironmentFile= read from the
# unit in ROOT, storprov being the node's (node_world); the metrics in
# $BATS_TEST_TMPDIR/textfile
first_run() {
	local unit=$1/usr/lib/systemd/system/storprov-verify.service exe envf
	exe=$(sed -n 's/^ExecStart=//p' "$unit")
	envf=$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$unit")
	[ "$exe" = /usr/libexec/storprov/storprov-verify-textfile ]
	[ "$envf" = /etc/storprov/verify.env ]
	rm -rf "$BATS_TEST_TMPDIR/textfile"
	run env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
		${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} sh -c "set -a; . '$1$envf'; set +a
		STORPROV='$BATS_TEST_TMPDIR/node-storprov' STORPROV_TEXTFILE_DIR='$BATS_TEST_TMPDIR/textfile' exec '$1$exe'"
}

@test "kickstart %post into a target root: storprov-verify.timer enabled there, and its first run green" {
	node_world "$BATS_TEST_TMPDIR/sysimage"
	pre_world "$TOP/kickstart/storprov-pre.ks"
	rpm_world
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sda"
	assert_success
	ks_sections "$TOP/kickstart/storprov-post.ks"
	ks_sections "$TOP/kickstart/storage-node.ks"
	sysimage=$BATS_TEST_TMPDIR/sysimage
	for post in storprov-post.ks-1 storage-node.ks-2; do
		rm -rf "$sysimage" "$BATS_TEST_TMPDIR/rpm.log"
		mkdir -p "$sysimage/root" "$sysimage/etc"
		echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
		post_sh "$BATS_TEST_TMPDIR/$post.sh"
		PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
		assert_success
		grep -q "^rpm --root $sysimage -Uvh --replacepkgs $BATS_TEST_TMPDIR/share/rpms/storprov-0.2.0-1.x86_64.rpm\$" "$BATS_TEST_TMPDIR/rpm.log"
		# enabled as `systemctl enable` does it, and systemctl reads it so
		run -0 readlink "$sysimage/etc/systemd/system/timers.target.wants/storprov-verify.timer"
		assert_output /usr/lib/systemd/system/storprov-verify.timer
		run -0 systemctl --root="$sysimage" is-enabled storprov-verify.timer
		assert_output enabled
		# the timer's first run, as the installed unit says: green against the node
		first_run "$sysimage"
		assert_success
		run -0 cat "$BATS_TEST_TMPDIR/textfile/storprov.prom"
		assert_line 'storprov_verify_exit_code 0'
		assert_line 'storprov_verify_objects{status="drift"} 0'
		assert_line 'storprov_verify_objects{status="missing"} 0'
		refute_line --regexp '^storprov_verify_drift\{'
	done
	# a timer masked in the target stays masked
	rm -rf "$sysimage"
	mkdir -p "$sysimage/root" "$sysimage/etc/systemd/system"
	echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
	ln -s /dev/null "$sysimage/etc/systemd/system/storprov-verify.timer"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
	assert_success
	assert_output --partial "storprov-verify.timer is masked in the target: left masked"
	assert_not_exists "$sysimage/etc/systemd/system/timers.target.wants/storprov-verify.timer"
	# storprov copied without its RPM: no unit to enable, and the console says so
	rm -rf "$sysimage" "$BATS_TEST_TMPDIR/share/rpms"
	mkdir -p "$sysimage/root" "$sysimage/etc"
	echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
	PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
	assert_success
	assert_output --partial "no storprov-verify.timer in the target (storprov was copied without its RPM): the daily verify is not scheduled"
	assert_not_exists "$sysimage/etc/systemd/system/timers.target.wants"
}

@test "kickstart storprov.tuning=: apply in %pre and %post gets it, verify.env carries it, tuned's active profile is storprov, the first run green in that mode" {
	node_world "$BATS_TEST_TMPDIR/sysimage"
	pre_world "$TOP/kickstart/storprov-pre.ks"
	rpm_world
	# a value storprov has no mode for stops the install before anything is done
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sda storprov.tuning=sysfs"
	assert_failure
	assert_output --partial "storprov.tuning=sysfs: give udev, tuned or both"
	[ ! -e "$BATS_TEST_TMPDIR/argv.log" ]
	run_pre "ro storprov.profile=$TOP/profiles/grid-3ware-raid5.xml storprov.os-disks=sda storprov.tuning=tuned"
	assert_success
	run -0 grep -c '^apply .* --tuning tuned' "$BATS_TEST_TMPDIR/argv.log"
	ks_sections "$TOP/kickstart/storprov-post.ks"
	ks_sections "$TOP/kickstart/storage-node.ks"
	sysimage=$BATS_TEST_TMPDIR/sysimage
	for post in storprov-post.ks-1 storage-node.ks-2; do
		rm -rf "$sysimage"
		mkdir -p "$sysimage/root" "$sysimage/etc"
		echo "UUID=1111 / xfs defaults 0 0" >"$sysimage/etc/fstab"
		post_sh "$BATS_TEST_TMPDIR/$post.sh"
		# no tuned in the target: the install stops, saying what to add
		PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
		assert_failure
		assert_output --partial "storprov.tuning=tuned, but tuned is not installed in the target: add tuned to %packages"
		# with tuned there
		mkdir -p "$sysimage/usr/sbin"
		printf '#!/bin/sh\n' >"$sysimage/usr/sbin/tuned"
		chmod +x "$sysimage/usr/sbin/tuned"
		PATH="$BATS_TEST_TMPDIR/bin:$FIX/fakebin:$PATH" run bash "$BATS_TEST_TMPDIR/post.sh"
		assert_success
		tail -n 1 "$BATS_TEST_TMPDIR/argv.log" | grep -q -- "^apply .*--root $sysimage .*--tuning tuned"
		assert_file_exists "$sysimage/etc/tuned/storprov/tuned.conf"
		run -0 cat "$sysimage/etc/tuned/active_profile" "$sysimage/etc/tuned/profile_mode"
		assert_output "storprov
manual"
		run -0 grep '^STORPROV_VERIFY_ARGS=' "$sysimage/etc/storprov/verify.env"
		assert_output "STORPROV_VERIFY_ARGS='--os-disks sda --mdadm-conf /etc/mdadm.conf --tuning tuned'"
		# the daily verify in the same mode: green (in udev mode tuned.conf would be a file too many)
		first_run "$sysimage"
		assert_success
		run -0 tail -n 1 "$BATS_TEST_TMPDIR/node-argv.log"
		assert_output "verify --profile /etc/storprov/profiles/grid-3ware-raid5.xml --format prometheus --os-disks sda --mdadm-conf /etc/mdadm.conf --tuning tuned"
		run -0 grep -x 'storprov_verify_exit_code 0' "$BATS_TEST_TMPDIR/textfile/storprov.prom"
	done
}

@test "dracut persist hook: rd.storprov.tuning= goes to apply and verify.env; storprov-verify.timer enabled in the new root, a masked one left, none there warned" {
	dracut_env
	local r=$BATS_TEST_TMPDIR/newroot
	sed "s|/lib/storprov-lib.sh|$TOP/hooks/dracut/90storprov/storprov-lib.sh|" "$TOP/hooks/dracut/90storprov/storprov-persist.sh" >"$BATS_TEST_TMPDIR/persist.sh"
	printf '#!/bin/sh\necho "$*" >>%s\nexit 0\n' "$BATS_TEST_TMPDIR/argv.log" >"$BATS_TEST_TMPDIR/bin/storprov"
	chmod +x "$BATS_TEST_TMPDIR/bin/storprov"
	persist() { # CMDLINE
		CMDLINE=$1 NEWROOT=$r PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -0 sh -c ". '$BATS_TEST_TMPDIR/env.sh'; . '$BATS_TEST_TMPDIR/persist.sh'"
		run grep DIE "$LOG"
		assert_output ""
	}
	mkdir -p "$r/usr/lib/systemd/system" "$r/etc/storprov/profiles"
	cp "$TOP/systemd/storprov-verify.timer" "$r/usr/lib/systemd/system/"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$r/etc/storprov/profiles/grid.xml"
	mkdir -p "$BATS_TEST_TMPDIR/img/etc/storprov/profiles"
	cp "$TOP/profiles/grid-3ware-raid5.xml" "$BATS_TEST_TMPDIR/img/etc/storprov/profiles/grid.xml"
	persist "ro rd.storprov.profile=$BATS_TEST_TMPDIR/img/etc/storprov/profiles/grid.xml rd.storprov.tuning=tuned"
	run -0 tail -n 1 "$BATS_TEST_TMPDIR/argv.log"
	assert_output --regexp "^apply --profile $BATS_TEST_TMPDIR/img/etc/storprov/profiles/grid.xml --yes --tuning tuned --root $r --mdadm-conf [^ ]+ --report "
	run -0 grep '^STORPROV_' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_VERIFY_ARGS='--tuning tuned'
STORPROV_PROFILE=/etc/storprov/provisioned/grid.xml"
	# the timer: the link systemctl enable makes, which systemctl reads back as enabled
	run -0 readlink "$r/etc/systemd/system/timers.target.wants/storprov-verify.timer"
	assert_output /usr/lib/systemd/system/storprov-verify.timer
	run -0 systemctl --root="$r" is-enabled storprov-verify.timer
	assert_output enabled
	grep -q "INFO: storprov: persist: storprov-verify.timer enabled in $r" "$LOG"
	# the next boot: already enabled, left as it is; both settings in verify.env
	persist "ro rd.storprov.profile=$BATS_TEST_TMPDIR/img/etc/storprov/profiles/grid.xml rd.storprov.tuning=both rd.storprov.mdadm-conf=/etc/mdadm-site.conf"
	run -0 grep '^STORPROV_VERIFY_ARGS=' "$r/etc/storprov/verify.env"
	assert_output "STORPROV_VERIFY_ARGS='--mdadm-conf /etc/mdadm-site.conf --tuning both'"
	run -0 systemctl --root="$r" is-enabled storprov-verify.timer
	assert_output enabled
	# masked by the admin: left masked
	rm -rf "$r/etc/systemd/system/timers.target.wants"
	ln -s /dev/null "$r/etc/systemd/system/storprov-verify.timer"
	persist "ro rd.storprov.profile=$BATS_TEST_TMPDIR/img/etc/storprov/profiles/grid.xml"
	assert_not_exists "$r/etc/systemd/system/timers.target.wants/storprov-verify.timer"
	grep -q "storprov-verify.timer is masked in $r: left masked" "$LOG"
	# a root without the storprov package: warned, the boot goes on
	rm -rf "$r/etc/systemd" "$r/usr/lib/systemd"
	persist "ro rd.storprov.profile=$BATS_TEST_TMPDIR/img/etc/storprov/profiles/grid.xml"
	grep -q "WARN: storprov: persist: no storprov-verify.timer in $r (install the storprov package there): the daily verify is not scheduled" "$LOG"
	assert_not_exists "$r/etc/systemd/system/timers.target.wants"
}
