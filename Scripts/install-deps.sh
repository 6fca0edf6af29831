#!/usr/bin/env bash
# Installs what DiscKit needs on a Debian machine, non-interactively, only when missing.
# Uses sudo only when not root.
set -euo pipefail

APT_PACKAGES=(
  # C reference libraries for the bridge target (tests, `disckit crosscheck`, benchmarks)
  libbluray-dev libudfread-dev libdvdread-dev libdvdnav-dev libavformat-dev pkg-config
  # libavcodec and libswresample: the AAC and FLAC audio renditions of `disckit serve` (DiscKitTranscode)
  libavcodec-dev libswresample-dev
  # reference tools (oracles) and test-image makers
  libbluray-bin lsdvd ffmpeg genisoimage xorriso dvdauthor udftools p7zip-full openssl
  # whole-process benchmarks (`make bench`: medians and peak RSS)
  hyperfine time
  # Matroska oracles (mkvmerge, mkvinfo) and ISO 639 tables for the MKV language checks
  mkvtoolnix iso-codes
  # GStreamer itself, for the segment-math oracle, and pycdlib for UDF 2.60 images
  python3 python3-gi python3-gst-1.0 gir1.2-gstreamer-1.0 python3-pycdlib
  # the JSON Schema validator every `--json` document is checked with (Tests/oracles/validate_json.py)
  python3-jsonschema
  # prlimit and unshare (failing-write tests), sha256sum, ldd: essential on Debian, listed so that a
  # slimmed image gets them too
  util-linux coreutils libc-bin
  # `disckit serve` tests and benchmark: HTTP clients (curl, GStreamer's souphttpsrc + tsdemux),
  # nginx as the reference server, wrk as the load generator, nm to check what disckit links
  curl gstreamer1.0-plugins-good gstreamer1.0-plugins-bad nginx wrk binutils
  # cc for the LD_PRELOAD shims of the failing-write and listing-cost tests (Tests/oracles/*.c)
  gcc libc6-dev
  # javac: the BD-J tests compile class files with string constants (the class-file oracle)
  openjdk-17-jdk-headless
  # a player for the clip-join tests (plays and seeks a multi-clip title over HTTP)
  mpv
  # fMP4 HLS (issue 28): a real browser for the library page's player (driven by selenium, below)
  # and GStreamer's gst-launch-1.0 for playbin over HLS
  chromium chromium-driver gstreamer1.0-tools python3-pip
  # subtitles as text (disckit-subtitles): libtesseract and the language data the tests read;
  # the `tesseract` command (bench reference), PIL and fonts for the caption generator
  libtesseract-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-deu
  tesseract-ocr-spa tesseract-ocr-jpn python3-pil fonts-dejavu-core fonts-dejavu-extra fonts-noto-cjk
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pycdlib: Debian's package above; fall back to PyPI when it is unavailable.
if ! /usr/bin/python3 -c 'import pycdlib' 2>/dev/null; then
  echo "install-deps: installing pycdlib from PyPI" >&2
  $SUDO /usr/bin/python3 -m pip install -q pycdlib 2>/dev/null \
    || $SUDO /usr/bin/python3 -m pip install -q --break-system-packages pycdlib
fi

# selenium (PyPI only): drives Debian's chromium through chromedriver in the library page test.
if ! /usr/bin/python3 -c 'import selenium' 2>/dev/null; then
  echo "install-deps: installing selenium from PyPI" >&2
  $SUDO /usr/bin/python3 -m pip install -q selenium 2>/dev/null \
    || $SUDO /usr/bin/python3 -m pip install -q --break-system-packages selenium
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: no Swift toolchain on PATH (Swift 6.1 or later is needed)" >&2
  exit 1
fi
