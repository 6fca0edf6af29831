SHELL := /bin/bash
# DiscKit: `make` installs what is missing, builds in release mode and runs the main job on the
# sample image; `make test` runs every test; `make bench` prints DiscKit/reference ratios.
SWIFT ?= swift
DISCKIT := .build/release/disckit
SAMPLE := TestImages/sample-bluray.iso

.PHONY: all deps build sample images test bench format clean

all: deps build sample

deps:
	@Scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product disckit

sample: build
	$(DISCKIT) info $(SAMPLE)
	$(DISCKIT) ls $(SAMPLE) --recursive
	$(DISCKIT) titles $(SAMPLE) --all
	$(DISCKIT) scan $(SAMPLE)

images: deps
	$(SWIFT) build --product disckit
	DISCKIT=$(CURDIR)/.build/debug/disckit TestImages/scripts/make-all.sh

test: deps
	$(SWIFT) build --build-tests
	DISCKIT=$(CURDIR)/.build/debug/disckit TestImages/scripts/make-all.sh
	$(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt; exit $${PIPESTATUS[0]}

bench: deps images
	$(SWIFT) build -c release --product disckit
	$(SWIFT) build -c release --product disckit-serve
	$(SWIFT) build -c release --product DiscKitBench
	.build/release/DiscKitBench

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build TestImages/generated
