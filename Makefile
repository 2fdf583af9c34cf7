# artpipe — the README's commands. `make test` is what CI runs.
SWIFT ?= swift
SOURCES := Sources Tests Package.swift

.PHONY: setup build test lint format bench gallery-check

setup:
	@scripts/ensure-system-packages.sh

build: setup
	$(SWIFT) build

lint: setup
	$(SWIFT) format lint --strict --recursive $(SOURCES)

format:
	$(SWIFT) format format --in-place --recursive $(SOURCES)

test: setup lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: setup
	bench/consume-vs-kcat.sh
	bench/fetch.sh
	bench/thumbs.sh
	bench/index.sh

# Renders a sample gallery in headless Chromium; prints where the screenshot is.
gallery-check: setup
	scripts/gallery-check.sh
