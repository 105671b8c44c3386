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

@test "make rpm: storprov and storprov-dracut with the expected files; rpmlint clean with explained filters" {
	cd "$TOP"
	run -0 make -s rpm
	main="build/rpm/RPMS/$(uname -m)/storprov-$VERSION_STR-1.$(uname -m).rpm"
	dracut="build/rpm/RPMS/noarch/storprov-dracut-$VERSION_STR-1.noarch.rpm"
	srpm="build/rpm/SRPMS/storprov-$VERSION_STR-1.src.rpm"
	assert_file_exists "$main"
	assert_file_exists "$dracut"
	assert_file_exists "$srpm"
	run -0 rpm -qpl "$main"
	assert_line /usr/sbin/storprov
	assert_line --regexp '^/usr/share/man/man8/storprov\.8'
	assert_line /usr/share/storprov/storprov.rng
	assert_line /usr/share/storprov/examples/grid-3ware-raid5.xml
	assert_line /usr/share/storprov/examples/md-raid6-lvm.xml
	assert_line /etc/storprov/profiles
	refute_line --partial dracut
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
	for br in parted-devel device-mapper-devel libxml2-devel json-c-devel libblkid-devel; do
		assert_line "$br"
	done
	# the packaged binary is this version
	x=$BATS_TEST_TMPDIR/x
	mkdir -p "$x"
	(cd "$x" && rpm2cpio "$TOP/$main" | cpio --quiet -idm)
	run -0 "$x/usr/sbin/storprov" --version
	assert_output "storprov $VERSION_STR"
	run -0 rpmlint -c storprov.rpmlint.toml -r storprov.rpmlintrc "$main" "$dracut" "$srpm" "build/dist/storprov-$VERSION_STR/storprov.spec"
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
	assert_file_exists "$x/usr/share/man/man8/storprov.8.gz"
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
	[ "$(grep -c '^addFilter' storprov.rpmlintrc)" -le 8 ]
}

@test "make updates-img: a gzipped newc cpio with storprov, the profiles and only the libraries the installer lacks" {
	cd "$TOP"
	run -0 make -s updates-img
	img=build/storprov-updates.img
	run -0 gzip -t "$img"
	run -0 bash -c "gzip -dc $img | cpio --quiet -it"
	assert_line usr/sbin/storprov
	assert_line usr/share/storprov/storprov.rng
	for p in profiles/*.xml; do
		assert_line "usr/share/storprov/examples/${p##*/}"
	done
	# glibc and what the list says the installer has are left out; libxml2 is carried
	refute_line --regexp 'libc\.so'
	refute_line usr/lib64/libparted.so.2
	refute_line usr/lib64/libblkid.so.1
	assert_line usr/lib64/libxml2.so.2
	# newc format, owned by root
	run -0 bash -c "gzip -dc $img | head -c 6"
	assert_output 070701
	run -0 bash -c "gzip -dc $img | cpio --quiet -itv usr/sbin/storprov"
	assert_output --regexp '^-rwxr-xr-x +1 root +root '
}

@test "mk-updates-img: --installer-root leaves out what the installer has; site profiles and RPMs go in" {
	inst=$BATS_TEST_TMPDIR/stage2
	mkdir -p "$inst/usr/lib64" "$BATS_TEST_TMPDIR/site"
	# an installer that has every library storprov loads
	while read -r so; do touch "$inst/usr/lib64/$so"; done < <(ldd "$SP" | awk '{print $1}' | sed 's|.*/||')
	cp "$TOP/profiles/many-luns.xml" "$BATS_TEST_TMPDIR/site/rack7.xml"
	echo fake >"$BATS_TEST_TMPDIR/storprov-9.rpm"
	run -0 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" \
		--installer-root "$inst" --profiles "$BATS_TEST_TMPDIR/site" --rpm "$BATS_TEST_TMPDIR/storprov-9.rpm" --list
	refute_output --partial usr/lib64
	assert_line etc/storprov/profiles/rack7.xml
	assert_line usr/share/storprov/rpms/storprov-9.rpm
	# an empty installer root: every library goes in
	rm -f "$inst"/usr/lib64/*
	run -0 "$TOP/scripts/mk-updates-img.sh" --binary "$SP" --output "$BATS_TEST_TMPDIR/u.img" --installer-root "$inst" --list
	assert_line usr/lib64/libc.so.6
	assert_line usr/lib64/libparted.so.2
}

@test "EL 8 headers: without <linux/openat2.h> the compat definitions match the kernel's ABI and confine" {
	cd "$TOP"
	# only the compat header includes the kernel's
	run -0 grep -rl 'linux/openat2.h' src
	assert_output src/openat2_compat.h
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
		-DSTORPROV_NO_OPENAT2_H -c -o "$BATS_TEST_TMPDIR/rootfs.o" src/rootfs.c
}
