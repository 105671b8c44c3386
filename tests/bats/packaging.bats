#!/usr/bin/env bats
# Packaging: make dist, make rpm (Debian's rpmbuild, --nodeps), rpmlint with the
# explained filters, and the anaconda updates image. Checked with rpm, rpm2cpio,
# cpio and gzip, not with the Makefile's own word.
load test_helper

setup_file() {
	export VERSION_STR
	VERSION_STR=$("$BATS_TEST_DIRNAME/../../scripts/version.sh")
}

@test "make dist: a tarball with the computed VERSION and a generated spec" {
	cd "$TOP"
	run -0 make -s dist
	tgz="build/storprov-$VERSION_STR.tar.gz"
	assert_file_exists "$tgz"
	run -0 tar -xzOf "$tgz" "storprov-$VERSION_STR/VERSION"
	assert_output "$VERSION_STR"
	run -0 tar -xzOf "$tgz" "storprov-$VERSION_STR/storprov.spec"
	assert_line "Version:        $VERSION_STR"
	refute_output --partial "@VERSION@"
	run -0 tar -tzf "$tgz"
	assert_line "storprov-$VERSION_STR/src/main.c"
	assert_line "storprov-$VERSION_STR/hooks/dracut/90storprov/module-setup.sh"
	refute_line --partial "storprov-$VERSION_STR/build/"
}

@test "make rpm: storprov, storprov-dracut and ansible-collection-storprov-core with the expected files; the timer's preset; rpmlint clean with explained filters" {
	cd "$TOP"
	run -0 make -s rpm
	main="build/rpm/RPMS/$(uname -m)/storprov-$VERSION_STR-1.$(uname -m).rpm"
	dracut="build/rpm/RPMS/noarch/storprov-dracut-$VERSION_STR-1.noarch.rpm"
	srpm="build/rpm/SRPMS/storprov-$VERSION_STR-1.src.rpm"
	cv=$(sed -n 's/^version: *//p' ansible_collections/storprov/core/galaxy.yml)
	coll="build/rpm/RPMS/noarch/ansible-collection-storprov-core-$cv-1.noarch.rpm"
	assert_file_exists "$main"
	assert_file_exists "$dracut"
	assert_file_exists "$srpm"
	assert_file_exists "$coll"
	run -0 rpm -qpl "$main"
	assert_line /usr/sbin/storprov
	# every page under man/, in its section
	for m in "$TOP"/man/*.[1-9]; do
		m=${m##*/}
		assert_line "/usr/share/man/man${m##*.}/$m.gz"
	done
	assert_line /usr/share/storprov/storprov.rng
	assert_line /usr/share/storprov/examples/grid-3ware-raid5.xml
	assert_line /usr/share/storprov/examples/md-raid6-lvm.xml
	assert_line /etc/storprov/profiles
	assert_line /usr/lib/systemd/system/storprov-verify.service
	assert_line /usr/lib/systemd/system/storprov-verify.timer
	assert_line /usr/libexec/storprov/storprov-verify-textfile
	assert_line /etc/storprov/verify.env
	assert_line /usr/lib/systemd/system-preset/50-storprov.preset
	refute_line --partial dracut
	refute_line --partial ansible
	# verify.env is the one config file, kept on upgrade (noreplace: flag n)
	run -0 rpm -qpc "$main"
	assert_output /etc/storprov/verify.env
	run -0 bash -c "rpm -qp --qf '[%{FILENAMES} %{FILEFLAGS:fflags} %{FILEMODES:perms}\n]' '$main' | grep '^/etc/storprov/verify.env '"
	assert_output --regexp '^/etc/storprov/verify\.env c?n[a-z]* -rw-r--r--$'
	run -0 rpm -qpl "$dracut"
	assert_line /usr/lib/dracut/modules.d/90storprov/module-setup.sh
	assert_line /usr/lib/dracut/modules.d/90storprov/storprov-persist.sh
	assert_line /usr/lib/dracut/modules.d/90storprov/storprov-provision.sh
	assert_line /usr/lib/dracut/modules.d/90storprov/storprov-lib.sh
	refute_line /usr/sbin/storprov
	run -0 rpm -qp --requires "$dracut"
	assert_line "storprov = $VERSION_STR-1"
	assert_line dracut
	run -0 rpm -qp --requires "$srpm"
	for br in parted-devel device-mapper-devel libxml2-devel json-c-devel libblkid-devel libmount-devel libselinux-devel libcmocka-devel; do
		assert_line "$br"
	done
	# the packaged binary is this version
	x=$BATS_TEST_TMPDIR/x
	mkdir -p "$x"
	(cd "$x" && rpm2cpio "$TOP/$main" | cpio --quiet -idm)
	run -0 "$x/usr/sbin/storprov" --version
	assert_output "storprov $VERSION_STR"
	# its commented defaults set nothing, and name the installed paths
	run -1 grep -v '^#' "$x/etc/storprov/verify.env"
	refute_output
	grep -qx '#STORPROV_PROFILE=/etc/storprov/profiles/NAME.xml' "$x/etc/storprov/verify.env"
	# the timer's preset: on EL, whose default preset disables every unit no preset names, the package's
	# %post (systemctl preset) enables the timer; without the preset file it would stay disabled
	run -0 cat "$x/usr/lib/systemd/system-preset/50-storprov.preset"
	assert_output "enable storprov-verify.timer"
	run -0 rpm -qp --scripts "$main"
	assert_output --regexp 'systemctl (--no-reload )?preset storprov-verify\.timer'
	printf 'disable *\n' >"$x/usr/lib/systemd/system-preset/99-default-disable.preset"
	run -0 systemctl --root="$x" preset storprov-verify.timer
	run -0 systemctl --root="$x" is-enabled storprov-verify.timer
	assert_output enabled
	[ "$(readlink "$x/etc/systemd/system/timers.target.wants/storprov-verify.timer")" = /usr/lib/systemd/system/storprov-verify.timer ]
	rm -rf "$x/etc/systemd" "$x/usr/lib/systemd/system-preset/50-storprov.preset"
	run -0 systemctl --root="$x" preset storprov-verify.timer
	run -1 systemctl --root="$x" is-enabled storprov-verify.timer
	assert_output disabled
	# the collection: noarch, at its own version, where EL's ansible-collection packages put theirs, as
	# ansible-galaxy builds it (MANIFEST.json, FILES.json; build_ignore left out), for ansible-core
	local cdir=/usr/share/ansible/collections/ansible_collections/storprov/core
	run -0 rpm -qp --qf '%{NAME} %{VERSION} %{ARCH}\n' "$coll"
	assert_output "ansible-collection-storprov-core $cv noarch"
	run -0 rpm -qp --requires "$coll"
	assert_line --regexp '^ansible-core >= 2\.1[4-9]'
	refute_line --regexp '^storprov'
	run -0 rpm -qpl "$coll"
	for f in MANIFEST.json FILES.json README.md meta/runtime.yml plugins/modules/storprov.py plugins/filter/fleet.py \
		plugins/filter/verify_env.py plugins/filter/storprov_fleet_html.yml roles/storprov/tasks/main.yml \
		roles/storprov/templates/verify.env.j2 roles/storprov/meta/argument_specs.yml playbooks/fleet_report.yml; do
		assert_line "$cdir/$f"
	done
	assert_line "/usr/share/licenses/ansible-collection-storprov-core-$cv/LICENSE"
	refute_line --regexp '/tests/output|\.gitignore|__pycache__|\.pyc$'
	# nothing outside the collection, its licence and the directories it owns
	run -0 bash -c "rpm -qpl '$coll' | grep -v -e '^$cdir/' -e '^/usr/share/licenses/ansible-collection-storprov-core-$cv'"
	assert_output "/usr/share/ansible/collections/ansible_collections/storprov
$cdir"
	run -0 rpm -qpd "$coll"
	assert_output "$cdir/README.md"
	# installed, ansible finds it there: the module's documentation, the role's, the collection's version
	c=$BATS_TEST_TMPDIR/c
	mkdir -p "$c"
	(cd "$c" && rpm2cpio "$TOP/$coll" | cpio --quiet -idm)
	[ "$(jq -r '.collection_info | "\(.namespace).\(.name) \(.version)"' "$c$cdir/MANIFEST.json")" = "storprov.core $cv" ]
	if command -v ansible-doc >/dev/null; then
		export LC_ALL=C.UTF-8 HOME="$BATS_TEST_TMPDIR/home"
		ANSIBLE_COLLECTIONS_PATH="$c/usr/share/ansible/collections" run -0 ansible-doc -t module storprov.core.storprov
		assert_output --partial "$c$cdir/plugins/modules/storprov.py"
		ANSIBLE_COLLECTIONS_PATH="$c/usr/share/ansible/collections" run -0 ansible-doc -t role storprov.core.storprov
		run -0 ansible-galaxy collection list -p "$c/usr/share/ansible/collections" storprov.core
		assert_output --regexp "storprov\.core +$cv"
		# make collection: the same collection as a tarball for ansible-galaxy
		run -0 make -s collection
		run -0 tar -tzf "build/storprov-core-$cv.tar.gz"
		assert_line MANIFEST.json
		assert_line plugins/modules/storprov.py
	fi
	run -0 rpmlint -c storprov.rpmlint.toml -r storprov.rpmlintrc "$main" "$dracut" "$coll" "$srpm" "build/dist/storprov-$VERSION_STR/storprov.spec"
	assert_output --partial "0 errors, 0 warnings"
	# the licence file, read back from the package; URL, licence tag
	run -0 rpm -qpl "$main"
	assert_line "/usr/share/licenses/storprov-$VERSION_STR/LICENSE"
	run -0 bash -c "rpm -qp --qf '[%{FILENAMES} %{FILEFLAGS:fflags}\n]' '$main' | grep '/LICENSE '"
	assert_output --regexp ' l$'
	cmp "$x/usr/share/licenses/storprov-$VERSION_STR/LICENSE" LICENSE
	run -0 rpm -qp --qf '%{URL}|%{LICENSE}\n' "$srpm"
	assert_output --regexp '^https://[^|]+\|GPL-2\.0-or-later$'
	# a man page rpmlint's own check sees compressed, a stripped binary
	run -0 file "$x/usr/sbin/storprov"
	refute_output --partial "not stripped"
	for m in "$TOP"/man/*.[1-9]; do
		m=${m##*/}
		assert_file_exists "$x/usr/share/man/man${m##*.}/$m.gz"
	done
}

@test "the spec: %license, URL, a %check that runs the unit tests; every rpmlint filter explained" {
	cd "$TOP"
	spec=storprov.spec.in
	grep -qx '%license LICENSE' "$spec"
	grep -qE '^URL: +@URL@$' "$spec"
	grep -qE '^BuildRequires: +libcmocka-devel$' "$spec"
	# %check builds the unit tests and runs each (its body, up to %files)
	run -0 sed -n '/^%check$/,/^%files/p' "$spec"
	assert_line --partial "unit-tests"
	assert_line --regexp '^ +"\$t"$'
	# the unit tests' binaries the Makefile target builds are the ones make check runs
	run -0 make -s -n unit-tests
	# the licence the sources declare is the one shipped
	[ "$(grep -rhoE 'SPDX-License-Identifier: [^ *]+' src | sort -u)" = "SPDX-License-Identifier: GPL-2.0-or-later" ]
	grep -q '^License: *GPL-2.0-or-later$' "$spec"
	head -2 LICENSE | grep -q 'Version 2, June 1991'
	# every filter has a comment above it (a run of filters shares one)
	awk '/^addFilter/ { if (!c) { print "unexplained: " $0; bad = 1 } next } /^#/ { c = 1; next } { c = 0 } END { exit bad }' storprov.rpmlintrc
	[ "$(grep -c '^addFilter' storprov.rpmlintrc)" -le 9 ]
}

# elf_versions IMG_DIR: "FILE VERSION" for every GLIBC_/GLIBCXX_ version an
# ELF file under IMG_DIR asks for (readelf, not the script's word)
elf_versions() {
	local f
	while IFS= read -r -d '' f; do
		[ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		readelf --version-info -W "$f" | sed -n 's/.*Name: \(GLIBC[A-Z]*_[0-9.]*\) .*/\1/p' | sort -u | sed "s|^|${f#"$1"/} |"
	done < <(find "$1" -type f -print0)
}
# above VERSIONS_FILE RELEASE: the lines of VERSIONS_FILE above RELEASE's table row
above() {
	local row glibc cxx f v
	row=$(sed 's/#.*//' "$TOP/scripts/el-releases.txt" | awk -v r="$2" '$1 == r')
	glibc=$(awk '{print $2}' <<<"$row") cxx=$(awk '{print $3}' <<<"$row")
	[ -n "$glibc" ] && [ -n "$cxx" ]
	while read -r f v; do
		case $v in
		GLIBC_*) [ "$(printf '%s\n%s\n' "${v#GLIBC_}" "$glibc" | sort -V | tail -n1)" = "$glibc" ] || echo "$f $v" ;;
		GLIBCXX_*) [ "$(printf '%s\n%s\n' "${v#GLIBCXX_}" "$cxx" | sort -V | tail -n1)" = "$cxx" ] || echo "$f $v" ;;
		esac
	done <"$1"
}

@test "el-releases.txt: the glibc and GLIBCXX table for EL 8, 9 and 10" {
	run -0 sh -c "sed 's/#.*//' '$TOP/scripts/el-releases.txt' | awk 'NF {print \$1, \$2, \$3}'"
	assert_output "8 2.28 3.4.25
9 2.34 3.4.29
10 2.39 3.4.33"
}

@test "make updates-img: refused for EL 9 on a newer host, naming both versions; nothing left behind" {
	cd "$TOP"
	host_glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
	# only meaningful where this host is newer than EL 9 (Debian 12: 2.36)
	[ "$(printf '%s\n2.34\n' "$host_glibc" | sort -V | tail -n1)" != 2.34 ] || skip "this host's glibc $host_glibc is not newer than EL 9's"
	echo stale >build/storprov-updates.img
	run -2 make -s updates-img EL_RELEASE=9
	assert_output --partial "refused, nothing written: this host's glibc is $host_glibc, EL 9's installer has 2.34"
	assert_output --partial "build the image on EL 9"
	assert_file_not_exists build/storprov-updates.img
	run -1 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" --el-release 8
	assert_output --partial "EL 8's installer has 2.28"
	assert_file_not_exists "$BATS_TEST_TMPDIR/u.img"
	run -2 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" --el-release 7
	assert_output --partial "--el-release '7' is not in"
}

@test "updates image for EL 10: a gzipped newc cpio with no installer library and no symbol above EL 10's" {
	cd "$TOP"
	host_glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
	[ "$(printf '%s\n2.39\n' "$host_glibc" | sort -V | tail -n1)" = 2.39 ] || skip "this host's glibc $host_glibc is newer than EL 10's"
	img=$BATS_TEST_TMPDIR/u10.img
	run -0 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$img" --el-release 10
	run -0 gzip -t "$img"
	run -0 bash -c "gzip -dc '$img' | cpio --quiet -it"
	assert_line usr/sbin/storprov
	assert_line usr/share/storprov/storprov.rng
	for p in profiles/*.xml; do
		assert_line "usr/share/storprov/examples/${p##*/}"
	done
	# no library anaconda has: libxml2, ICU, libparted, libblkid, libmount, json-c, device-mapper, glibc, libstdc++
	refute_line --regexp 'lib(xml2|icu[a-z]*|parted|blkid|mount|json-c|devmapper|c|m|stdc\+\+|gcc_s)\.so'
	# newc format, owned by root
	run -0 bash -c "gzip -dc '$img' | head -c 6"
	assert_output 070701
	run -0 bash -c "gzip -dc '$img' | cpio --quiet -itv usr/sbin/storprov"
	assert_output --regexp '^-rwxr-xr-x +1 root +root '
	# every ELF file's required versions, read back with readelf, within EL 10's
	x=$BATS_TEST_TMPDIR/x
	mkdir -p "$x"
	(cd "$x" && gzip -dc "$img" | cpio --quiet -idm)
	elf_versions "$x" >"$BATS_TEST_TMPDIR/versions"
	grep -q '^usr/sbin/storprov GLIBC_2\.' "$BATS_TEST_TMPDIR/versions"
	run -0 above "$BATS_TEST_TMPDIR/versions" 10
	assert_output ""
	# and the check can fail: this binary asks for more than EL 8 offers
	run -0 above "$BATS_TEST_TMPDIR/versions" 8
	assert_output --regexp '^usr/sbin/storprov GLIBC_2\.(29|3[0-9])'
}

@test "mk-updates-img: the ELF check refuses a binary above the release even when the host check is skipped" {
	inst=$BATS_TEST_TMPDIR/stage2
	mkdir -p "$inst/usr/lib64"
	# an EL 8 installer that has every soname storprov loads: only the symbol versions can stop it
	while read -r so; do touch "$inst/usr/lib64/$so"; done < <(ldd "$SP" | awk '{print $1}' | sed 's|.*/||')
	run -1 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" \
		--installer-root "$inst" --el-release 8 --skip-host-check
	assert_output --regexp "refused, nothing written: usr/sbin/storprov needs GLIBC_2\.[0-9]+ \(EL 8: GLIBC_2\.28\)"
	assert_file_not_exists "$BATS_TEST_TMPDIR/u.img"
	# without the list's json-c for EL 8, a binary linked with libjson-c.so.5 is for another release
	run -1 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" --el-release 8 --skip-host-check
	assert_output --partial "storprov needs libjson-c.so.5, which the EL 8 installer does not have under that name"
}

@test "mk-updates-img: --installer-root leaves out what the installer has; site profiles and RPMs go in" {
	inst=$BATS_TEST_TMPDIR/stage2
	mkdir -p "$inst/usr/lib64" "$BATS_TEST_TMPDIR/site"
	# an installer that has every library storprov loads
	while read -r so; do touch "$inst/usr/lib64/$so"; done < <(ldd "$SP" | awk '{print $1}' | sed 's|.*/||')
	cp "$TOP/profiles/many-luns.xml" "$BATS_TEST_TMPDIR/site/rack7.xml"
	echo fake >"$BATS_TEST_TMPDIR/storprov-9.rpm"
	run -0 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" \
		--installer-root "$inst" --profiles "$BATS_TEST_TMPDIR/site" --rpm "$BATS_TEST_TMPDIR/storprov-9.rpm" --list \
		--el-release 9 --skip-host-check
	refute_output --partial usr/lib64
	assert_line etc/storprov/profiles/rack7.xml
	assert_line usr/share/storprov/rpms/storprov-9.rpm
	# an installer without libxml2: storprov would need the host's, and an image never overlays it
	rm -f "$inst"/usr/lib64/libxml2.so.*
	run -1 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" --installer-root "$inst" \
		--el-release 9 --skip-host-check
	assert_output --partial "storprov needs libxml2.so.2"
	# with libxml2 back, and libxml2's own dependencies (ICU, liblzma) gone from the
	# installer root: not storprov's direct needs, so still nothing is carried
	touch "$inst/usr/lib64/libxml2.so.2"
	rm -f "$inst"/usr/lib64/libicu*.so.* "$inst"/usr/lib64/liblzma.so.*
	run -0 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" --installer-root "$inst" \
		--el-release 9 --skip-host-check --list
	refute_output --partial usr/lib64
}

@test "EL 8 headers: without <linux/openat2.h> the compat definitions match the kernel's ABI and confine" {
	cd "$TOP"
	# only the compat header includes the kernel's
	run -0 grep -rl 'linux/openat2.h' src
	assert_output src/base/openat2_compat.h
	mkdir -p "$BATS_TEST_TMPDIR/root/etc"
	echo inside >"$BATS_TEST_TMPDIR/root/etc/marker"
	ln -s .. "$BATS_TEST_TMPDIR/root/up"
	for mode in system compat; do
		flag=
		[ $mode = compat ] && flag=-DSTORPROV_NO_OPENAT2_H
		cc -std=c11 -D_GNU_SOURCE -Isrc -Wall -Wextra -Werror $flag -o "$BATS_TEST_TMPDIR/check-$mode" tests/tools/openat2_check.c
		run -0 "$BATS_TEST_TMPDIR/check-$mode" "$BATS_TEST_TMPDIR/root"
		echo "$output" >"$BATS_TEST_TMPDIR/$mode.out"
	done
	diff -u "$BATS_TEST_TMPDIR/system.out" "$BATS_TEST_TMPDIR/compat.out"
	assert_line "sizeof=24 flags@0 mode@8 resolve@16"
	if ! grep -q ENOSYS <<<"$output"; then
		assert_line "in-root: inside"
		assert_line "no-symlinks: ELOOP"
	fi
	# the confined file code builds warning-free that way too
	cc -std=c11 -D_GNU_SOURCE -Isrc $(pkg-config --cflags libxml-2.0 json-c) -Wall -Wextra -Wshadow -Werror \
		-DSTORPROV_NO_OPENAT2_H -c -o "$BATS_TEST_TMPDIR/rootfs.o" src/base/rootfs.c
}
