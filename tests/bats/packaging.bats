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
	run -0 rpmlint -r storprov.rpmlintrc "$main" "$dracut" "$srpm" "build/dist/storprov-$VERSION_STR/storprov.spec"
	assert_output --partial "0 errors, 0 warnings"
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
