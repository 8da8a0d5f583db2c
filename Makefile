# coolcal — two commands on a fresh Debian machine with the Swift toolchain (README.md, Two commands):
#   sh ./run demo   install make and what the build needs, build, run the main job on samples/
#   sh ./run test   install make, the build's and the tests' packages, build, run every test
# (./run installs make and the libraries swift itself loads, then runs make demo / make test;
# with make at hand, make demo and make test do the same.)
# While working on the code:
#   make quick     build and run every test but the slow tier (the ...SlowTests targets): about 2 minutes
#   make unit      every Swift test, the slow tier too (make test runs it, with the rest)
# (one layer's unit tests alone, after a build: swift test --skip-build --filter CoolcalWritingTests;
# each layer's are a test target of their own, Tests/<layer>Tests: README.md, Layout)
# and for people who want it on their PATH:
#   make install   copy the release build (make release, as yourself) to PREFIX (default /usr/local)
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# What every build needs (make demo installs only these): the C libraries Package.swift's system
# library targets link, with their headers (CLibical, CSQLite, CGMime, CGio: GIO is in GLib's),
# pkg-config for libical's and sqlite3's .pc files, tzdata for zones by name. Their -dev packages
# bring libc6-dev; the Swift runtime and _FoundationICU come with the toolchain.
BUILD_PACKAGES := libical-dev libsqlite3-dev libgmime-3.0-dev libglib2.0-dev pkg-config tzdata
# The release build (make release, install, deb, bench): static Foundation links libcurl and libxml2,
# the static Swift runtime libstdc++.
RELEASE_PACKAGES := libcurl4-openssl-dev libxml2-dev libstdc++-12-dev
# What make test adds (make deps-test): the man page lint, GNU time, the shells of the completion
# tests, msmtp (mail tests), Python's venv (the differential test, Radicale, the SMTP server: from
# PyPI, so ca-certificates), dpkg-shlibdeps (dpkg-dev) and lintian for the package, systemd-analyze
# (systemd) for the units, and man (man-db: verify looks up their Documentation=man:coolcal(1)):
TEST_PACKAGES := mandoc time zsh fish msmtp python3 python3-venv ca-certificates dpkg-dev lintian systemd man-db
# review and the day view (tmux drives the terminal tests):
TEST_PACKAGES += tmux
# desktop notifications (a session bus and a notification server for the tests):
TEST_PACKAGES += dbus-daemon dbus-bin dunst xvfb
# coolcal process inside mail delivery agents (dovecot-lda with Pigeonhole's Sieve, procmail),
# without Recommends (they would bring a mail server's daemon):
MDA_PACKAGES := dovecot-core dovecot-sieve procmail maildrop
# An RFC 6638 scheduling server for invitations found in calendars (Cyrus IMAP's CalDAV, run from a
# temporary directory on 127.0.0.1 by the slow tier), without Recommends; a policy-rc.d that exits
# 101 keeps the postinst from starting its daemons (added only when none is there, removed after).
CYRUS_PACKAGES := cyrus-imapd cyrus-caldav cyrus-admin sasl2-bin
# Everything (make deps): what make test installs.
APT_PACKAGES := $(BUILD_PACKAGES) $(RELEASE_PACKAGES) $(TEST_PACKAGES) $(MDA_PACKAGES) $(CYRUS_PACKAGES)
PYENV := .build/pyenv
COOLCAL := .build/debug/coolcal
# Every build refuses an import of ours that the target does not declare (Package.swift's
# layers), on incremental builds too.
BUILD_FLAGS := --explicit-target-dependency-import-check error

.PHONY: all deps deps-build deps-release deps-test deps-cyrus pydeps build demo test unit quick streamed differential lint-man bench fuzz fuzz-smoke clean \
	release install uninstall deb install-test fresh-check

all: build

# Each installs only the Debian packages that are missing, saying which and why, with apt's
# own progress (apt-get needs root: sudo otherwise). The build's come without Recommends.
# $(call apt-install,PACKAGES,WHY[,APT OPTIONS])
define apt-install
	@missing=""; \
	for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q ' installed$$' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make $@: installing$$missing ($(2))"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $(3) $$missing; \
	fi
endef
deps-build:
	$(call apt-install,$(BUILD_PACKAGES),what the build links and includes,--no-install-recommends)
deps-release: deps-build
	$(call apt-install,$(RELEASE_PACKAGES),what the static release build links,--no-install-recommends)
deps-test: deps-release
	$(call apt-install,$(TEST_PACKAGES),what the tests run)
	$(call apt-install,$(MDA_PACKAGES),the mail delivery agents coolcal process is tested in,--no-install-recommends)
	@if [ -e /usr/sbin/policy-rc.d ]; then added=""; else added=yes; \
	  printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null && $(SUDO) chmod 755 /usr/sbin/policy-rc.d; fi; \
	$(MAKE) --no-print-directory deps-cyrus; status=$$?; \
	if [ -n "$$added" ]; then $(SUDO) rm -f /usr/sbin/policy-rc.d; fi; exit $$status
deps-cyrus:
	$(call apt-install,$(CYRUS_PACKAGES),the RFC 6638 server invitations found in calendars are tested against,--no-install-recommends)
deps: deps-test

# The reference implementation for the differential test and the CalDAV server
# (Radicale) for the CalDAV tests, in one venv under .build/.
PYREQS := Tests/Differential/requirements.txt Tests/CalDAV/requirements.txt Tests/Mail/requirements.txt
pydeps: $(PYENV)/.installed
$(PYENV)/.installed: $(PYREQS) | deps-test
	python3 -m venv $(PYENV)
	$(PYENV)/bin/pip install -q --disable-pip-version-check $(addprefix -r ,$(PYREQS))
	touch $@

build: deps-build
	$(SWIFT) build $(BUILD_FLAGS)

# In the README's zone (its tour shows Los Angeles times); it ends saying where the binary
# is and the one line that puts it on PATH (the tour's commands run from the clone's root).
demo: build
	@echo '$$ TZ=America/Los_Angeles coolcal conflicts --me me@example.com samples/invite.json samples/work.ics samples/family.ics samples/vdir'
	@TZ=America/Los_Angeles $(COOLCAL) conflicts --me me@example.com samples/invite.json samples/work.ics samples/family.ics samples/vdir; \
	status=$$?; echo "(exit status $$status: 1 means busy)"; \
	echo; echo "coolcal is $(CURDIR)/$(COOLCAL); for this shell, put it on PATH with:"; \
	echo "  export PATH=\"$(CURDIR)/.build/debug:\$$PATH\" TZ=America/Los_Angeles"; \
	[ $$status -le 1 ]

test: deps-test build pydeps lint-man install-test differential fuzz-smoke unit streamed

lint-man: deps-test
	mandoc -Tlint -W warning man/coolcal.1

differential: build pydeps
	$(PYENV)/bin/python Tests/Differential/compare.py --coolcal $(COOLCAL)

# The tests' temporary files go to one directory of this run (TMPDIR), removed after it;
# others may enter it (a test runs coolcal as nobody on files in it).
# $(call swift-tests,SWIFT TEST ARGUMENTS[,ENVIRONMENT])
define swift-tests
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/coolcal-tests.XXXXXX") && chmod 0755 "$$scratch" && \
	  $(2) TMPDIR=$$scratch COOLCAL_BIN=$(CURDIR)/$(COOLCAL) COOLCAL_PYTHON=$(CURDIR)/$(PYENV)/bin/python $(SWIFT) test $(BUILD_FLAGS) $(1); \
	  status=$$?; rm -rf "$$scratch"; exit $$status
endef
# Every Swift test (make test runs it; so does CI).
unit: build pydeps
	$(call swift-tests,)
# The fast tier: every test but the slow tier's targets (CLISlowTests...: a suite over 5 s,
# or one needing a real server, root or a daemon), which --skip matches by module name (no
# other test target's name has SlowTests in it).
quick: build pydeps
	$(call swift-tests,--skip SlowTests)

# The tests that write calendars again, with every calendar file edited as a large one is
# (streamed: only the blocks an edit looks at in memory; CalendarFileEdit.streamFrom is 8 MiB):
# each write must come out byte for byte as the read-whole edit's does.
streamed: build pydeps
	$(call swift-tests,--filter 'CoolcalWritingTests|CoolcalAnsweringTests|CLITests' --skip 'SlowTests|RememberedBombTests',COOLCAL_TEST_STREAM_FROM=1)

# libFuzzer harnesses (Fuzz/): FUZZ_SECONDS per target (default 600), FUZZ_JOBS at once.
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 1
fuzz: deps-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash Fuzz/run.sh

# What `make test` runs: every target for 20 s with a fixed seed, so CI is repeatable.
fuzz-smoke: deps-build
	FUZZ_SECONDS=20 FUZZ_JOBS=2 FUZZ_SEED=1 FUZZ_TARGETS="FuzzInvite FuzzCalendar FuzzPreFilter FuzzArguments FuzzMessage" bash Fuzz/run.sh

# Speed: coolcal vs a bare libical parse vs cat, medians of 5 runs (see bench/README.md).
SIZES ?= 1000,10000,100000
# (the one release build, make release's: a plain -c release would replace the static binary)
bench: release pydeps
	python3 bench/run.py --sizes $(SIZES) --coolcal .build/release/coolcal --python $(PYENV)/bin/python

# Installing (see README.md, Install). `make release` builds as you; `make install` copies
# what is built (building only when nothing is), so `sudo make install` leaves no root-owned
# files in .build/. The Swift runtime is linked in: the binary needs no /opt/swift.
PREFIX ?= /usr/local
DESTDIR ?=
RELEASE := .build/release/coolcal
# What sends coolcal's HTTP requests (the only program that loads libcurl), beside it in
# the build and in $(LIBEXECDIR) installed, where coolcal looks for it (../libexec/coolcal).
RELEASE_HTTP := $(dir $(RELEASE))coolcal-http
# The installed copy is stripped as Debian's tools strip (the build keeps its symbols).
STRIP := strip --remove-section=.comment --remove-section=.note --strip-unneeded
# No $$ORIGIN rpath (lintian's custom-library-search-path): nothing of Swift's is loaded.
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath $(BUILD_FLAGS)
# The one warning the static link prints (mktemp in the toolchain's libFoundationEssentials.a),
# filtered by that exact line, which packaging/link-warning.txt holds:
LINK_WARNING := packaging/link-warning.txt
BINDIR = $(PREFIX)/bin
LIBEXECDIR = $(PREFIX)/libexec/coolcal
MANDIR = $(PREFIX)/share/man/man1
DOCDIR = $(PREFIX)/share/doc/coolcal
USERUNITDIR = $(PREFIX)/lib/systemd/user
# zsh's default fpath has vendor-completions under /usr, site-functions under /usr/local.
ZSHDIR = $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
INSTALLED := $(BINDIR)/coolcal $(LIBEXECDIR)/coolcal-http $(MANDIR)/coolcal.1 $(PREFIX)/share/bash-completion/completions/coolcal \
	$(ZSHDIR)/_coolcal $(PREFIX)/share/fish/vendor_completions.d/coolcal.fish \
	$(USERUNITDIR)/coolcal-merge.service $(USERUNITDIR)/coolcal-merge.timer $(DOCDIR)/examples/crontab

release: deps-release
	@set -o pipefail; $(SWIFT) build $(RELEASE_FLAGS) 2>&1 | { grep -vxF -f $(LINK_WARNING) || true; }

install:
	@[ -x $(RELEASE) ] || $(MAKE) --no-print-directory release
	@for b in $(RELEASE) $(RELEASE_HTTP); do [ -x $$b ] && ! readelf -d $$b | grep -q 'NEEDED.*libswiftCore' || \
	  { echo "make install: $$b is missing or needs the toolchain's libswiftCore.so (not built by make release): run make release" >&2; exit 1; }; done
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(ZSHDIR) $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(USERUNITDIR) \
	  $(DESTDIR)$(DOCDIR)/examples
	install -m 755 $(RELEASE) $(DESTDIR)$(BINDIR)/coolcal
	$(STRIP) $(DESTDIR)$(BINDIR)/coolcal
	install -m 755 $(RELEASE_HTTP) $(DESTDIR)$(LIBEXECDIR)/coolcal-http
	$(STRIP) $(DESTDIR)$(LIBEXECDIR)/coolcal-http
	install -m 644 man/coolcal.1 $(DESTDIR)$(MANDIR)/coolcal.1
	$(RELEASE) completions bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/coolcal
	$(RELEASE) completions zsh > $(DESTDIR)$(ZSHDIR)/_coolcal
	$(RELEASE) completions fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/coolcal.fish
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/coolcal-merge.service.in > $(DESTDIR)$(USERUNITDIR)/coolcal-merge.service
	install -m 644 packaging/coolcal-merge.timer $(DESTDIR)$(USERUNITDIR)/coolcal-merge.timer
	sed 's|@BINDIR@|$(BINDIR)|g' packaging/crontab.in > $(DESTDIR)$(DOCDIR)/examples/crontab
	chmod 644 $(addprefix $(DESTDIR),$(filter-out $(BINDIR)/coolcal $(LIBEXECDIR)/coolcal-http,$(INSTALLED)))

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) $(DESTDIR)$(LIBEXECDIR) 2>/dev/null || true

# A Debian package from a PREFIX=/usr install of the same release build; prints its path last.
DEBDIR := .build/deb
deb: release
	rm -rf $(DEBDIR)/debian
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEBDIR)/debian/coolcal PREFIX=/usr
	bash packaging/build-deb.sh $(DEBDIR)

# make install and make deb, checked in DESTDIRs (never system-wide): Tests/Install/run.sh.
install-test: build release
	bash Tests/Install/run.sh

# The README's two commands, verbatim, as root in a fresh Debian bookworm minbase root (mmdebstrap)
# with the toolchain bound in and a clone of HEAD: not in CI nor in make test; needs root and
# the network, takes about as long as make test from nothing. Log: .build/fresh-check.log.
fresh-check:
	bash .ci/fresh-check.sh

clean:
	rm -rf .build
