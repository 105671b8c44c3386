# storprov — see README.md
PREFIX     ?= /usr/local
SBINDIR    ?= $(PREFIX)/sbin
DATADIR    ?= $(PREFIX)/share/storprov
MANDIR     ?= $(PREFIX)/share/man
DESTDIR    ?=
SYSCONFDIR ?= /etc
LIBEXECDIR ?= $(PREFIX)/libexec/storprov
UNITDIR    ?= $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /usr/lib/systemd/system)
DRACUTDIR  ?= $(shell pkg-config --variable=dracutmodulesdir dracut 2>/dev/null || echo /usr/lib/dracut/modules.d)

# One source for the version: VERSION (refined by git describe on a release tag).
VERSION    := $(shell scripts/version.sh)

CC         ?= cc
PKGS       := libxml-2.0 json-c libparted devmapper blkid mount libselinux zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# -pthread: the disks' inspection runs in worker threads (src/apply/inspect_pool.c;
# glibc before 2.34, EL 8's, keeps them in libpthread)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS)) -pthread
# Warnings are ours; CFLAGS stays the user's. A string where an emitter takes
# a rule (enum rule_id, src/base/rules.def) is an error in every build.
WARN       := -Wall -Wextra -Wshadow -Wformat=2 -Wno-format-nonliteral -Werror=int-conversion
ifeq ($(CI),true)
WARN       += -Werror
endif
CFLAGS     ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -Isrc $(WARN) $(PKG_CFLAGS) $(CFLAGS)

B          := build
SRCS       := $(wildcard src/*.c src/*/*.c)
LIB_SRCS   := $(filter-out src/main.c,$(SRCS))
LIB_OBJS   := $(LIB_SRCS:src/%.c=$(B)/obj/%.o)
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

.PHONY: all check check-build check-layers check-unit check-bats check-root check-vm check-geometry-sweep install clean demo deps asan fuzz fuzz-build check-tools bench dist rpm updates-img unit-tests

all: $(B)/storprov

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/libstorprov.a: $(LIB_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

$(B)/storprov: $(B)/obj/main.o $(B)/libstorprov.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)

UNIT_HDRS  := $(wildcard tests/unit/*.h)

$(B)/tests/%: tests/unit/%.c $(UNIT_HDRS) $(B)/libstorprov.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(B)/libstorprov.a $(PKG_LIBS) -lcmocka $(LDFLAGS)

# The schema is assembled into the binary (src/input/schema.c uses .incbin).
$(B)/obj/input/schema.o: src/input/schema.c profiles/storprov.rng
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSTORPROV_SCHEMA_PATH='"$(CURDIR)/profiles/storprov.rng"' -c -o $@ $<

# Rebuilt when the version changes (the stamp is rewritten only then).
$(shell mkdir -p $(B) && echo '$(VERSION)' | cmp -s - $(B)/version.stamp || echo '$(VERSION)' >$(B)/version.stamp)
$(B)/obj/base/version.o: src/base/version.c $(B)/version.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSTORPROV_VERSION='"$(VERSION)"' -MMD -MP -c -o $@ $<

-include $(LIB_OBJS:.o=.d) $(B)/obj/main.d

# ---- hostile input: the strict reader, sanitizers, fuzzers -----------------
# build/tests/render-check: the independent reader of rendered files (tests/tools).
$(B)/tests/render-check: tests/tools/render_check.c tests/tools/render_check.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -DRENDER_CHECK_MAIN -Itests/tools -o $@ $<

# build/tests/eio-shim.so: read errors in a byte range of one device (LD_PRELOAD, root tests).
$(B)/tests/eio-shim.so: tests/tools/eio_shim.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# build/tests/img-sum: a sparse disk image's CRC-32 without reading its holes (root tests).
$(B)/tests/img-sum: tests/tools/img_sum.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -o $@ $< -lz

check-tools: $(B)/tests/render-check $(B)/tests/eio-shim.so $(B)/tests/img-sum

# ASan + UBSan: the library, the CLI and the unit tests built again under
# build/asan, run by the "asan" suite of tests/run-all.sh (unit and bats).
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
AB         := $(B)/asan
ASAN_OBJS  := $(LIB_SRCS:src/%.c=$(AB)/obj/%.o)
ASAN_UNIT  := $(UNIT_SRCS:tests/unit/%.c=$(AB)/tests/%)

$(AB)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN_FLAGS) -MMD -MP -c -o $@ $<
$(AB)/obj/input/schema.o: src/input/schema.c profiles/storprov.rng
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN_FLAGS) -DSTORPROV_SCHEMA_PATH='"$(CURDIR)/profiles/storprov.rng"' -c -o $@ $<
$(AB)/obj/base/version.o: src/base/version.c $(B)/version.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN_FLAGS) -DSTORPROV_VERSION='"$(VERSION)"' -c -o $@ $<
$(AB)/libstorprov.a: $(ASAN_OBJS)
	rm -f $@ && $(AR) rcs $@ $^
$(AB)/storprov: $(AB)/obj/main.o $(AB)/libstorprov.a
	$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)
$(AB)/tests/%: tests/unit/%.c $(UNIT_HDRS) $(AB)/libstorprov.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN_FLAGS) -Isrc -o $@ $< $(AB)/libstorprov.a $(PKG_LIBS) -lcmocka $(LDFLAGS)
-include $(ASAN_OBJS:.o=.d) $(AB)/obj/main.d

asan: $(AB)/storprov $(ASAN_UNIT)

# libFuzzer targets (clang): fuzz/*.c against the library built with
# -fsanitize=fuzzer-no-link,address,undefined. `make fuzz FUZZ_SECONDS=N`
# runs each for N seconds from its seed corpus (fuzz/corpus/NAME) and
# replays fuzz/regressions/NAME/* first; make check runs a short pass.
CLANG        ?= clang
FUZZ_SECONDS ?= 60
FB           := $(B)/fuzz
FUZZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -g -O1 $(WARN) -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=undefined $(PKG_CFLAGS) -Isrc -Itests/tools -DSTORPROV_TOP='"$(CURDIR)"'
FUZZ_SRCS    := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS    := $(FUZZ_SRCS:fuzz/%.c=$(FB)/%)
FUZZ_OBJS    := $(LIB_SRCS:src/%.c=$(FB)/obj/%.o) $(FB)/obj/render_check.o

$(FB)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
$(FB)/obj/input/schema.o: src/input/schema.c profiles/storprov.rng
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -DSTORPROV_SCHEMA_PATH='"$(CURDIR)/profiles/storprov.rng"' -c -o $@ $<
$(FB)/obj/base/version.o: src/base/version.c $(B)/version.stamp
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -DSTORPROV_VERSION='"$(VERSION)"' -c -o $@ $<
$(FB)/obj/render_check.o: tests/tools/render_check.c tests/tools/render_check.h
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -c -o $@ $<
# From an archive and --as-needed: the targets never reach apply or the GPT
# writer, so libparted (whose constructor reads past a heap buffer under
# ASan, see tests/asan.supp) is not even loaded.
$(FB)/libstorprov.a: $(FUZZ_OBJS)
	rm -f $@ && $(AR) rcs $@ $^
$(FB)/fuzz_%: fuzz/fuzz_%.c $(wildcard fuzz/*.h) $(FB)/libstorprov.a
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FB)/libstorprov.a -Wl,--as-needed $(PKG_LIBS) $(LDFLAGS)
-include $(FUZZ_OBJS:.o=.d)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz.sh

# Every suite reports into build/results/*.tap-like counts; tests/summary.sh
# prints the one closing line "N passed, N failed".
# The builds before the tests take minutes on one core: as many jobs as CPUs
# unless make already runs with -j.
NPROC      := $(shell nproc 2>/dev/null || echo 2)
check:
	@$(MAKE) $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(NPROC)) check-build
	@tests/run-all.sh
check-build: all $(UNIT_BINS) check-tools asan fuzz-build

# The unit tests built, not run (the spec's %check runs them).
unit-tests: $(UNIT_BINS)

# The shape of src/ (scripts/check-layers.py): rooms, include direction, no
# include or call circle (nm of the objects), function and file lengths.
check-layers: $(LIB_OBJS)
	@SUITES=layers tests/run-all.sh

check-unit: $(UNIT_BINS)
	@SUITES=unit tests/run-all.sh

check-bats: all check-tools
	@SUITES=bats tests/run-all.sh

check-root: all $(B)/tests/eio-shim.so $(B)/tests/img-sum
	@SUITES=root tests/run-all.sh

check-vm: all
	@SUITES="vm vm-harness" tests/run-all.sh

# Randomized property test of the geometry against an independent model
# (tests/geometry/README.md): 10,000 layouts; SEED=N replays a seed.
check-geometry-sweep: all
	python3 tests/geometry/sweep.py --count 10000 $(if $(SEED),--seed $(SEED))

# A throwaway VM with sparse disks, a bundled profile applied for real.
demo:
	scripts/install-deps.sh
	$(MAKE) all
	tests/vm/demo.sh

deps:
	scripts/install-deps.sh

# Benchmarks (not part of check): storprov's layout and tuning against the
# usual defaults in the same VM boots; bench/README.md. BENCH_QUICK=1 for a
# shorter run, BENCH_ONLY="rmw reads sync prov prov-par scale" for a subset.
bench:
	bench/deps.sh
	$(MAKE) all
	bench/run.sh

# The fleet report playbook against 3 local inventory hosts (scripts/fleet-demo.sh)
.PHONY: fleet-demo
fleet-demo: all
	scripts/fleet-demo.sh

install: all systemd-units
	install -D -m 0755 $(B)/storprov $(DESTDIR)$(SBINDIR)/storprov
	install -D -m 0644 profiles/storprov.rng $(DESTDIR)$(DATADIR)/storprov.rng
	for p in profiles/*.xml; do install -D -m 0644 $$p $(DESTDIR)$(DATADIR)/examples/$$(basename $$p); done
	for m in man/*.8; do install -D -m 0644 $$m $(DESTDIR)$(MANDIR)/man8/$$(basename $$m); done
	for m in man/*.5; do install -D -m 0644 $$m $(DESTDIR)$(MANDIR)/man5/$$(basename $$m); done
	for f in hooks/dracut/90storprov/*; do install -D -m 0755 $$f $(DESTDIR)$(DRACUTDIR)/90storprov/$$(basename $$f); done
	install -D -m 0755 $(B)/systemd/storprov-verify-textfile $(DESTDIR)$(LIBEXECDIR)/storprov-verify-textfile
	install -D -m 0644 $(B)/systemd/storprov-verify.service $(DESTDIR)$(UNITDIR)/storprov-verify.service
	install -D -m 0644 systemd/storprov-verify.timer $(DESTDIR)$(UNITDIR)/storprov-verify.timer
	test -e $(DESTDIR)$(SYSCONFDIR)/storprov/verify.env || \
		install -D -m 0644 $(B)/systemd/verify.env $(DESTDIR)$(SYSCONFDIR)/storprov/verify.env

# The scheduled verify's unit and script, with the install paths filled in
# (a rule, not a stamp: PREFIX and friends differ between install and rpm).
.PHONY: systemd-units
systemd-units:
	mkdir -p $(B)/systemd
	for f in storprov-verify.service storprov-verify-textfile verify.env; do \
		sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
			systemd/$$f.in >$(B)/systemd/$$f; \
	done

# Source tarball: the files git tracks (as they are in the work tree), with the
# computed VERSION and storprov.spec generated from storprov.spec.in. (Not
# `rpmbuild -ta`: the test fixtures hold files named *.spec, which -ta takes
# for spec files; build with -ba on the spec, as `make rpm` does.)
DIST       := storprov-$(VERSION)
# The Ansible collection's own version (galaxy.yml): its RPM's, and its tarball's
COLLECTION := ansible_collections/storprov/core
COLLECTION_VERSION := $(shell sed -n 's/^version: *//p' $(COLLECTION)/galaxy.yml)
# The spec's URL (Source0 is URL/releases/TARBALL). A placeholder until the
# project has a public home: set URL=... for a real release.
URL        ?= https://storprov.example.org
dist: $(B)/$(DIST).tar.gz
$(B)/$(DIST).tar.gz: FORCE
	rm -rf $(B)/dist && mkdir -p $(B)/dist/$(DIST)
	git ls-files -z | xargs -0 cp -P --parents -t $(B)/dist/$(DIST)
	echo '$(VERSION)' >$(B)/dist/$(DIST)/VERSION
	sed -e 's/@VERSION@/$(VERSION)/g' -e 's|@URL@|$(URL)|g' -e 's/@COLLECTION_VERSION@/$(COLLECTION_VERSION)/g' \
		storprov.spec.in >$(B)/dist/$(DIST)/storprov.spec
	tar -C $(B)/dist --owner=0 --group=0 --sort=name -czf $@ $(DIST)
	@echo "wrote $@"

# RPMs with the local rpmbuild (Debian's works: --nodeps, as EL's BuildRequires
# are not Debian package names; no debuginfo, find-debuginfo is EL's, so the
# binary is stripped at link time instead; Debian's brp-compress needs bash,
# its #!/bin/sh is dash and it would leave the man page uncompressed).
RPMBUILD_FLAGS ?= --nodeps --define "debug_package %{nil}" --define "build_ldflags -Wl,-s" \
	--define "__os_install_post bash %{_rpmconfigdir}/brp-compress %{_prefix}"
rpm: dist
	rm -rf $(B)/rpm && mkdir -p $(B)/rpm
	rpmbuild -ba $(RPMBUILD_FLAGS) --define "_topdir $(CURDIR)/$(B)/rpm" \
		--define "_sourcedir $(CURDIR)/$(B)" $(B)/dist/$(DIST)/storprov.spec
	@find $(B)/rpm/RPMS $(B)/rpm/SRPMS -name '*.rpm' -printf 'wrote %p\n'

# The Ansible collection's tarball, as ansible-galaxy builds it (the RPM
# ansible-collection-storprov-core installs the same): `ansible-galaxy
# collection install $(B)/storprov-core-VERSION.tar.gz` on a controller.
.PHONY: collection
collection:
	LC_ALL=C.UTF-8 ansible-galaxy collection build --force --output-path $(B) $(COLLECTION)

# Anaconda updates image (inst.updates=) for EL_RELEASE (8, 9 or 10): see
# scripts/mk-updates-img.sh. It refuses on a host newer than that release
# (scripts/el-releases.txt), so on Debian 12 for EL 8 and 9.
UPDATES_BIN   ?= $(B)/storprov
EL_RELEASE    ?= 9
updates-img: all
	scripts/mk-updates-img.sh --binary $(UPDATES_BIN) --output $(B)/storprov-updates.img --el-release $(EL_RELEASE)

FORCE:

clean:
	rm -rf $(B)/obj $(B)/tests $(B)/storprov $(B)/libstorprov.a $(B)/results $(B)/asan $(B)/fuzz $(B)/dist $(B)/rpm $(B)/*.tar.gz $(B)/storprov-updates.img $(B)/version.stamp
