# storprov — see README.md
PREFIX     ?= /usr/local
SBINDIR    ?= $(PREFIX)/sbin
DATADIR    ?= $(PREFIX)/share/storprov
MANDIR     ?= $(PREFIX)/share/man
DESTDIR    ?=
DRACUTDIR  ?= $(shell pkg-config --variable=dracutmodulesdir dracut 2>/dev/null || echo /usr/lib/dracut/modules.d)

CC         ?= cc
PKGS       := libxml-2.0 json-c libparted devmapper blkid
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
# Warnings are ours; CFLAGS stays the user's.
WARN       := -Wall -Wextra -Wshadow -Wformat=2 -Wno-format-nonliteral
ifeq ($(CI),true)
WARN       += -Werror
endif
CFLAGS     ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(PKG_CFLAGS) $(CFLAGS)

B          := build
SRCS       := $(wildcard src/*.c)
LIB_SRCS   := $(filter-out src/main.c,$(SRCS))
LIB_OBJS   := $(LIB_SRCS:src/%.c=$(B)/obj/%.o)
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

.PHONY: all check check-unit check-bats check-root check-vm install clean demo deps bench

all: $(B)/storprov

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/libstorprov.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

$(B)/storprov: $(B)/obj/main.o $(B)/libstorprov.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDFLAGS)

$(B)/tests/%: tests/unit/%.c $(B)/libstorprov.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(B)/libstorprov.a $(PKG_LIBS) -lcmocka $(LDFLAGS)

# The schema is assembled into the binary (src/schema.c uses .incbin).
$(B)/obj/schema.o: src/schema.c profiles/storprov.rng
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSTORPROV_SCHEMA_PATH='"$(CURDIR)/profiles/storprov.rng"' -c -o $@ $<

-include $(LIB_OBJS:.o=.d) $(B)/obj/main.d

# Every suite reports into build/results/*.tap-like counts; tests/summary.sh
# prints the one closing line "N passed, N failed".
check: all $(UNIT_BINS)
	@tests/run-all.sh

check-unit: $(UNIT_BINS)
	@SUITES=unit tests/run-all.sh

check-bats: all
	@SUITES=bats tests/run-all.sh

check-root: all
	@SUITES=root tests/run-all.sh

check-vm: all
	@SUITES=vm tests/run-all.sh

# A throwaway VM with sparse disks, a bundled profile applied for real.
demo:
	scripts/install-deps.sh
	$(MAKE) all
	tests/vm/demo.sh

deps:
	scripts/install-deps.sh

# Benchmarks (not part of check): storprov's layout and tuning against the
# usual defaults in the same VM boots; bench/README.md. BENCH_QUICK=1 for a
# shorter run, BENCH_ONLY="rmw reads sync prov scale" for a subset.
bench:
	bench/deps.sh
	$(MAKE) all
	bench/run.sh

install: all
	install -D -m 0755 $(B)/storprov $(DESTDIR)$(SBINDIR)/storprov
	install -D -m 0644 profiles/storprov.rng $(DESTDIR)$(DATADIR)/storprov.rng
	for p in profiles/*.xml; do install -D -m 0644 $$p $(DESTDIR)$(DATADIR)/profiles/$$(basename $$p); done
	install -D -m 0644 man/storprov.8 $(DESTDIR)$(MANDIR)/man8/storprov.8
	for f in hooks/dracut/90storprov/*; do install -D -m 0755 $$f $(DESTDIR)$(DRACUTDIR)/90storprov/$$(basename $$f); done

clean:
	rm -rf $(B)/obj $(B)/tests $(B)/storprov $(B)/libstorprov.a $(B)/results
