# artpipe — the README's commands. `make demo` runs the pipeline; `make test` is what CI runs.
SWIFT ?= swift
# debug or release; `make demo CONFIG=release` for the faster binary (a longer first build).
CONFIG ?= debug
DEMO_FLAGS ?=
SOURCES := Sources Tests Package.swift

.PHONY: setup build demo test lint deploy-check format bench fuzz gallery-check image-check test-runtime-libraries

setup:
	@scripts/ensure-system-packages.sh

build: setup
	$(SWIFT) build

demo: setup
	$(SWIFT) build -c $(CONFIG) --product artpipe
	$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/artpipe demo $(DEMO_FLAGS)

lint: setup
	$(SWIFT) format lint --strict --recursive $(SOURCES)

# The Dockerfile, compose file and Kubernetes manifests, checked without Docker or a cluster.
deploy-check:
	scripts/check-deploy.sh

format:
	$(SWIFT) format format --in-place --recursive $(SOURCES)

# How many tests run at once. Unbounded (Swift Testing's default) runs thirty-odd worker
# processes together: on a slower 2-core machine a dozen tests then ran out of time, the
# same dozen each run, and all passed at eight, in the same time.
TEST_WIDTH ?= 8

# Suites that keep both cores busy for a minute with synchronous work (the fuzz targets, the
# random histories) hold the test process's cooperative threads, which the tests waiting on a
# broker with a deadline need: they run after the others, in a process of their own.
CPU_BOUND_SUITES := Fuzz|HistoryModel

test: setup lint deploy-check
	$(SWIFT) build --build-tests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build --skip '$(CPU_BOUND_SUITES)'
	$(SWIFT) test --skip-build --filter '$(CPU_BOUND_SUITES)'
	SWIFT=$(SWIFT) scripts/test-on-tansu.sh

bench: setup
	bench/consume-vs-kcat.sh
	bench/fetch.sh
	bench/harvest.sh
	bench/thumbs.sh
	bench/thumb-worker.sh
	bench/vips-stages.sh
	bench/index.sh
	BROKER=tansu VERSIONED=1 COMPRESSION=lz4 bench/index.sh 5000 200
	bench/tansu-latency.sh
	bench/assembly.sh
	bench/thumb-store.sh
	bench/index-store.sh
	bench/demo.sh

# The fuzz targets (suites named *Fuzz*) for FUZZ_SECONDS each; `make test` runs them briefly
# from a fixed seed. Saves an input that ends the process under fuzz-crashes/.
fuzz: setup
	scripts/fuzz.sh

# Renders a sample gallery in headless Chromium; prints where the screenshot is.
gallery-check: setup
	scripts/gallery-check.sh

# deploy/Dockerfile built as it is with buildah (its base images made locally), then the demo
# as user 10001 in a container of the image it made. Root.
image-check: setup
	scripts/image-check.sh

# The whole test suite against the image's librdkafka 2.8.0 and libvips 8.16, in a trixie chroot.
test-runtime-libraries: setup
	scripts/test-runtime-libraries.sh
