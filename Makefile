SHELL := /bin/bash
# DiscKit: `make` installs what is missing, builds in release mode and runs the main job on the
# sample image; `make test` runs every test; `make bench` prints DiscKit/reference ratios.
SWIFT ?= swift
# Release builds link the Swift runtime statically: `disckit` starts like a C tool (issue 11).
# Concrete generic types get their metadata through accessor functions, not by demangling a
# type name at run time (which checks each generic requirement with a scan of every conformance
# record in the program): measured, 15 % less CPU for a whole `disckit titles` run.
RELEASE := -c release --static-swift-stdlib \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
DISCKIT := .build/release/disckit
SAMPLE := TestImages/sample-bluray.iso

.PHONY: all deps build install install-files sample images test test-release bench format clean fuzz fuzz-smoke test-sanitize docs

# `make fuzz`: each libFuzzer harness for FUZZ_SECONDS (or FUZZ_RUNS executions), see Scripts/fuzz.sh.
FUZZ_SECONDS ?= 60
# ThreadSanitizer runs the tests whose names match this (concurrent readers; the server tests by
# module name once they exist).
TSAN_FILTER ?= [Cc]oncurrent|DiscKitServerTests|DiscKitStreamingTests

all: deps build sample

deps:
	@Scripts/install-deps.sh

build: deps
	$(SWIFT) build $(RELEASE) --product disckit
	$(SWIFT) build $(RELEASE) --product disckit-crosscheck
	$(SWIFT) build $(RELEASE) --product disckit-mkv
	$(SWIFT) build $(RELEASE) --product disckit-serve
	$(SWIFT) build $(RELEASE) --product disckit-subtitles

# `make install` copies `disckit` and its helper programs into $(DESTDIR)$(PREFIX)/bin (helpers
# are found beside `disckit`), and the bash, zsh and fish completions and the disckit(1) man page,
# all generated from the command tree (ArgumentParser's --generate-completion-script and
# --experimental-dump-help, the latter through Scripts/make-manpage.py). An installed copy also
# starts faster than the linker's output file (see the README's benchmark notes).
# `make install-files BIN=DIR` installs already built programs from DIR without building.
PREFIX ?= /usr/local
BIN ?= .build/release
SHARE = $(DESTDIR)$(PREFIX)/share
install: build install-files

install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)/bash-completion/completions \
	  $(SHARE)/zsh/site-functions $(SHARE)/fish/vendor_completions.d $(SHARE)/man/man1
	install -m 755 $(BIN)/disckit $(BIN)/disckit-crosscheck \
	  $(BIN)/disckit-mkv $(BIN)/disckit-serve $(BIN)/disckit-subtitles $(DESTDIR)$(PREFIX)/bin/
	$(BIN)/disckit --generate-completion-script bash > $(SHARE)/bash-completion/completions/disckit
	$(BIN)/disckit --generate-completion-script zsh > $(SHARE)/zsh/site-functions/_disckit
	$(BIN)/disckit --generate-completion-script fish > $(SHARE)/fish/vendor_completions.d/disckit.fish
	python3 Scripts/make-manpage.py $(BIN)/disckit > $(SHARE)/man/man1/disckit.1

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

# The end-to-end tests (DiscKitCLITests, DiscKitServerTests) against the release programs `make`
# builds, on Linux the static `disckit` among them: what users run is what these tests run.
test-release: build
	$(SWIFT) build --build-tests
	DISCKIT=$(CURDIR)/.build/debug/disckit TestImages/scripts/make-all.sh
	DISCKIT_EXECUTABLE_DIR=$(CURDIR)/.build/release $(SWIFT) test --skip-build \
	  --filter 'DiscKitCLITests|DiscKitServerTests' 2>&1 | tee .build/test-release-output.txt; exit $${PIPESTATUS[0]}

bench: deps images
	$(SWIFT) build $(RELEASE) --product disckit
	$(SWIFT) build $(RELEASE) --product disckit-mkv
	$(SWIFT) build $(RELEASE) --product disckit-serve
	$(SWIFT) build $(RELEASE) --product disckit-subtitles
	$(SWIFT) build $(RELEASE) --product DiscKitBench
	.build/release/DiscKitBench

# The DocC catalog with DiscKit's symbol graph into .build/docs; fails on an unresolved link.
docs: deps
	Scripts/docs.sh

fuzz: deps images
	FUZZ_SECONDS=$(FUZZ_SECONDS) Scripts/fuzz.sh

# CI's short run: builds the harnesses and runs each for 10 s.
fuzz-smoke: deps
	FUZZ_SECONDS=10 Scripts/fuzz.sh

# The suite under AddressSanitizer (whole suite) and ThreadSanitizer (TSAN_FILTER), each in its
# own build directory. Leak checking is the fuzzers' job (LeakSanitizer on in every harness).
test-sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	DISCKIT=$(CURDIR)/.build-asan/debug/disckit TestImages/scripts/make-all.sh
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address \
	  --scratch-path .build-asan 2>&1 | tee .build-asan/test-output.txt; exit $${PIPESTATUS[0]}
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan \
	  --filter '$(TSAN_FILTER)' 2>&1 | tee .build-tsan/test-output.txt; exit $${PIPESTATUS[0]}

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build TestImages/generated
