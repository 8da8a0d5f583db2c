# coolcal — two commands on a fresh Debian machine with the Swift toolchain:
#   make demo   install what is missing, build, run the main job on samples/
#   make test   install what is missing, build, run every test
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libical-dev libsqlite3-dev libgmime-3.0-dev pkg-config tzdata mandoc time zsh fish libxml2 libcurl4 msmtp
# install and package (make install, make deb):
APT_PACKAGES +=
# review and the day view (tmux drives the terminal tests):
APT_PACKAGES += tmux
# desktop notifications (a session bus and a notification server for the tests):
APT_PACKAGES += libglib2.0-dev dbus-daemon dbus-bin dunst xvfb
PYENV := .build/pyenv
COOLCAL := .build/debug/coolcal

.PHONY: all deps pydeps build demo test unit differential lint-man bench fuzz fuzz-smoke clean

all: build

# Installs only the Debian packages that are missing (apt-get needs root: sudo otherwise).
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing="$$missing python3 python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# The reference implementation for the differential test and the CalDAV server
# (Radicale) for the CalDAV tests, in one venv under .build/.
PYREQS := Tests/Differential/requirements.txt Tests/CalDAV/requirements.txt Tests/Mail/requirements.txt
pydeps: $(PYENV)/.installed
$(PYENV)/.installed: $(PYREQS) | deps
	python3 -m venv $(PYENV)
	$(PYENV)/bin/pip install -q --disable-pip-version-check $(addprefix -r ,$(PYREQS))
	touch $@

build: deps
	$(SWIFT) build

demo: build
	@echo '$$ coolcal conflicts --me me@example.com samples/invite.json samples/work.ics samples/family.ics samples/vdir'
	@$(COOLCAL) conflicts --me me@example.com samples/invite.json samples/work.ics samples/family.ics samples/vdir; \
	status=$$?; echo "(exit status $$status: 1 means busy)"; [ $$status -le 1 ]

test: build pydeps lint-man differential fuzz-smoke unit

lint-man: deps
	mandoc -Tlint -W warning man/coolcal.1

differential: build pydeps
	$(PYENV)/bin/python Tests/Differential/compare.py --coolcal $(COOLCAL)

unit: build pydeps
	$(SWIFT) build --build-tests
	COOLCAL_BIN=$(CURDIR)/$(COOLCAL) COOLCAL_PYTHON=$(CURDIR)/$(PYENV)/bin/python $(SWIFT) test

# libFuzzer harnesses (Fuzz/): FUZZ_SECONDS per target (default 600), FUZZ_JOBS at once.
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 1
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash Fuzz/run.sh

# What `make test` runs: every target for 20 s with a fixed seed, so CI is repeatable.
fuzz-smoke: deps
	FUZZ_SECONDS=20 FUZZ_JOBS=2 FUZZ_SEED=1 FUZZ_TARGETS="FuzzInvite FuzzCalendar FuzzPreFilter FuzzArguments FuzzMessage" bash Fuzz/run.sh

# Speed: coolcal vs a bare libical parse vs cat, medians of 5 runs (see bench/README.md).
SIZES ?= 1000,10000,100000
bench: deps pydeps
	$(SWIFT) build -c release
	python3 bench/run.py --sizes $(SIZES) --coolcal .build/release/coolcal --python $(PYENV)/bin/python

clean:
	rm -rf .build
