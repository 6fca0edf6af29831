# Sourced by Scripts/fuzz.sh and make-corpus.sh: each harness's -max_len (the largest input
# libFuzzer makes, and the size seeds are cut to). Disc images use the sparse encoding
# (sparse-image.py), so their metadata fits in 128 KiB; a few packets of a stream find what the
# scanners look for; navigation files are small.
fuzz_max_len() {
  case "$1" in
    udf | iso9660 | image) echo 131072 ;;
    ts | ps | timeseek | hevc) echo 65536 ;;
    index | mpls | ifo | bdjo) echo 16384 ;;
    dvdvm) echo 32768 ;;  # a VIDEO_TS.IFO, a VTS_01_0.IFO and menu NAV packs (the search)
    class) echo 65536 ;;
    range) echo 4096 ;;
    dovi) echo 256 ;;
    pgs | dvdsub) echo 65536 ;;  # a few display sets; one subpicture unit (at most 64 KiB)
    *) echo 262144 ;;
  esac
}
