#!/usr/bin/env bash
# Blu-ray folders authored by DiscKit from 1-second ffmpeg clips, one per audio/video coding a
# ripper meets (HEVC Main10 HDR10 + E-AC-3 5.1, DTS 5.1, TrueHD 5.1, LPCM 5.1 24-bit, AC-3
# stereo, HEVC Main SDR BT.709 + AC-3), into TestImages/generated/codecs/<name>; the
# stream-attribute tests compare what `disckit titles --json` reports about them with mkvmerge -J
# and ffprobe. Also raw HEVC elementary streams for the SPS/SEI parser tests (oracle: ffmpeg's
# trace_headers): hdr10.hevc (the HDR10 clip's video, copied out by ffmpeg) and
# sdr-422-full.hevc (Main 4:2:2 10, full range, BT.709, a sample aspect ratio, scaling lists).
# truehd-core: a TrueHD 5.1 stream with its AC-3 core interleaved on PID 0x1100. pg-forced: a
# PG stream whose captions are all forced. truehd-joins: a title of three such clips (two joins).
# audio-long: 16 s of TrueHD, DTS and AC-3 for the AAC and FLAC renditions of `disckit serve`.
# dolby-vision: UHD Blu-ray profile 7 dual layer (HDR10
# base layer on PID 0x1011, an enhancement layer with a Dolby Vision RPU in every access unit on
# 0x1015, the PMT's DOVI video descriptor); hdr10plus: HDR10 with an HDR10+ (ST 2094-40) SEI in
# every access unit. make-uhd-metadata.py adds the RPUs, SEI messages and descriptor; ffprobe
# reads them back (the tests' oracle). Also dv-el.hevc and hdr10plus.hevc, for the parser tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
. "$here/bluray-clips.sh"
disckit="$(disckit_bin "$root")"
out="$root/TestImages/generated/codecs"
rm -rf "$out" && mkdir -p "$out"
cd "$out"

common=(-hide_banner -loglevel error -y -threads 1
  -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=1"
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=1")
h264=(-c:v libx264 -preset ultrafast -threads 1 -pix_fmt yuv420p)
ts=(-metadata:s:a:0 language=eng -mpegts_m2ts_mode 1 -fflags +bitexact)

ffmpeg "${common[@]}" -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le \
  -x265-params "log-level=error:pools=1:frame-threads=1:hdr10=1:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400" \
  -c:a eac3 -ac 6 "${ts[@]}" hdr10-eac3.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a dca -strict -2 -ac 6 "${ts[@]}" dts.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a truehd -strict -2 -ac 6 "${ts[@]}" truehd.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a pcm_bluray -sample_fmt s32 -ac 6 "${ts[@]}" lpcm.m2ts
ffmpeg "${common[@]}" "${h264[@]}" -c:a ac3 -ac 2 "${ts[@]}" ac3.m2ts
ffmpeg "${common[@]}" -c:v libx265 -preset ultrafast -pix_fmt yuv420p \
  -x265-params "log-level=error:pools=1:frame-threads=1:colorprim=bt709:transfer=bt709:colormatrix=bt709:range=full" \
  -c:a ac3 -ac 2 "${ts[@]}" hevc-sdr.m2ts

ffmpeg -hide_banner -loglevel error -y -i hdr10-eac3.m2ts -map 0:v -c copy -f hevc hdr10.hevc
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc2=size=176x100:rate=25:duration=0.2" \
  -c:v libx265 -preset ultrafast -pix_fmt yuv422p10le -vf setsar=4/3 \
  -x265-params "log-level=error:pools=1:frame-threads=1:colorprim=bt709:transfer=bt709:colormatrix=bt709:range=full:scaling-list=default" \
  -f hevc sdr-422-full.hevc

for clip in hdr10-eac3 dts truehd lpcm ac3 hevc-sdr; do
  "$disckit" author --clips "$clip.m2ts" --folder "$out/$clip" >/dev/null
done

# TrueHD with its AC-3 core on one PID, as Blu-ray discs carry it (ffmpeg's truehd encoder
# writes no core): ffmpeg encodes both on their own PIDs (French), make-truehd-core.py interleaves
# the AC-3 frames into the TrueHD PID (stream_id_extension 0x76 beside TrueHD's 0x72).
ffmpeg "${common[@]}" -map 0:v -map 1:a -map 1:a "${h264[@]}" \
  -c:a:0 truehd -strict -2 -ac:a:0 6 -c:a:1 ac3 -ac:a:1 6 \
  -metadata:s:a:0 language=fra -metadata:s:a:1 language=fra -mpegts_m2ts_mode 1 -fflags +bitexact \
  truehd-ac3-separate.m2ts
python3 "$here/make-truehd-core.py" truehd-ac3-separate.m2ts 0x1100 0x1101 truehd-core.ts 2>/dev/null
"$disckit" author --clips truehd-core.ts --folder "$out/truehd-core" >/dev/null

# PG whose every caption is forced (forced_on_flag in each composition object), for the
# Matroska FlagForced comparison with mkvmerge.
python3 "$here/make-pgs-sup.py" pg-forced.sup 320 180 forced
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc2=size=320x180:rate=24000/1001:duration=5" -i pg-forced.sup \
  -map 0:v -map 1 "${h264[@]}" -c:s copy -mpegts_m2ts_mode 1 -fflags +bitexact pg-forced.m2ts
"$disckit" author --clips pg-forced.m2ts --folder "$out/pg-forced" --language ger >/dev/null

# Dolby Vision profile 7 (1080p base and enhancement layers, as mkvmerge pairs them; no B-frames,
# so the raw streams mux with timestamps from their frame rate).
x265uhd="log-level=error:pools=1:frame-threads=1:bframes=0:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc"
hdr10="hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400"
uhdsrc=(-hide_banner -loglevel error -y -threads 1 -f lavfi
  -i "testsrc2=size=1920x1080:rate=24000/1001:duration=0.5")
ffmpeg "${uhdsrc[@]}" -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le \
  -x265-params "$x265uhd:$hdr10" uhd-bl.hevc
ffmpeg "${uhdsrc[@]}" -vf negate -c:v libx265 -preset ultrafast -pix_fmt yuv420p10le \
  -x265-params "$x265uhd" uhd-el.hevc
python3 "$here/make-uhd-metadata.py" rpu uhd-el.hevc dv-el.hevc
python3 "$here/make-uhd-metadata.py" hdr10plus uhd-bl.hevc hdr10plus.hevc
sine=(-f lavfi -i "sine=frequency=440:sample_rate=48000:duration=0.5")
ffmpeg -hide_banner -loglevel error -y -framerate 24000/1001 -i uhd-bl.hevc \
  -framerate 24000/1001 -i dv-el.hevc "${sine[@]}" -map 0:v -map 1:v -map 2:a -c:v copy \
  -c:a ac3 -streamid 0:0x1011 -streamid 1:0x1015 -streamid 2:0x1100 "${ts[@]}" dv-plain.m2ts
python3 "$here/make-uhd-metadata.py" pmt dv-plain.m2ts dolby-vision.m2ts 0x1015 0x1011
# The same as a 188-byte stream on other PIDs: the builder moves the layers to 0x1011 and 0x1015
# and the descriptor's dependency_pid with them.
ffmpeg -hide_banner -loglevel error -y -i dolby-vision.m2ts -map 0 -c copy -streamid 0:0x200 \
  -streamid 1:0x201 -streamid 2:0x202 -fflags +bitexact dv-plain.ts
python3 "$here/make-uhd-metadata.py" pmt dv-plain.ts dolby-vision-188.ts 0x201 0x200
ffmpeg -hide_banner -loglevel error -y -framerate 24000/1001 -i hdr10plus.hevc "${sine[@]}" \
  -map 0:v -map 1:a -c:v copy -c:a ac3 "${ts[@]}" hdr10plus.m2ts
rm -f uhd-bl.hevc uhd-el.hevc dv-plain.m2ts dv-plain.ts
for clip in dolby-vision hdr10plus; do
  "$disckit" author --clips "$clip.m2ts" --folder "$out/$clip" >/dev/null
done
"$disckit" author --clips dolby-vision-188.ts --folder "$out/dolby-vision-188" >/dev/null

# truehd-joins: three 2-second clips, each TrueHD 5.1 with its AC-3 core on PID 0x1100 (a
# different tone each, encoded separately: three TrueHD streams), played by one title across two
# non-seamless joins; for the join checks of `extract` and `serve` (ServerTrueHDJoinTests).
for i in 1 2 3; do
  ffmpeg -hide_banner -loglevel error -y -threads 1 \
    -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=2" \
    -f lavfi -i "sine=frequency=$((300 + i * 110)):sample_rate=48000:duration=2" \
    -map 0:v -map 1:a -map 1:a "${h264[@]}" \
    -c:a:0 truehd -strict -2 -ac:a:0 6 -c:a:1 ac3 -ac:a:1 6 \
    -metadata:s:a:0 language=fra -metadata:s:a:1 language=fra -mpegts_m2ts_mode 1 -fflags +bitexact \
    "thd-join-separate$i.m2ts"
  python3 "$here/make-truehd-core.py" "thd-join-separate$i.m2ts" 0x1100 0x1101 "thd-join$i.ts" 2>/dev/null
done
"$disckit" author --clips thd-join1.ts thd-join2.ts thd-join3.ts \
  --title thd-join1.ts,thd-join2.ts,thd-join3.ts --folder "$out/truehd-joins" >/dev/null

# audio-long: 16 s (three HLS segments, a key frame every second) with TrueHD 5.1 (eng), DTS 5.1
# (fra) and AC-3 stereo (deu) on their own PIDs, from one signal: a quiet 300 Hz tone with a
# 100 ms 1 kHz burst at every whole second (the onsets the AAC sync test finds in both the
# disc's decode and the HLS rendition's); for the AAC and FLAC renditions of `disckit serve`
# across segment joins (ServerAudioRenditionTests).
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=16" \
  -f lavfi -i "aevalsrc=if(lt(mod(t\,1)\,0.1)\,0.5*sin(2*PI*1000*t)\,0.05*sin(2*PI*300*t)):s=48000:d=16" \
  -map 0:v -map 1:a -map 1:a -map 1:a "${h264[@]}" -g 24 \
  -c:a:0 truehd -strict -2 -ac:a:0 6 -c:a:1 dca -strict -2 -ac:a:1 6 -c:a:2 ac3 -ac:a:2 2 \
  -metadata:s:a:0 language=eng -metadata:s:a:1 language=fra -metadata:s:a:2 language=deu \
  -mpegts_m2ts_mode 1 -fflags +bitexact audio-long.m2ts
"$disckit" author --clips audio-long.m2ts --folder "$out/audio-long" >/dev/null

# hevc-opengop: 14 s of HEVC in open GOPs (x265 open-gop: a CRA every 24 pictures, after it in
# decode order three RASL pictures that refer to the GOP before) with AC-3: fMP4 HLS segments
# that start at a CRA (ServerFMP4HLSTests).
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=14" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=14" \
  -c:v libx265 -preset ultrafast -pix_fmt yuv420p \
  -x265-params "log-level=error:pools=1:frame-threads=1:keyint=24:min-keyint=24:open-gop=1:bframes=3:b-adapt=0:scenecut=0" \
  -c:a ac3 -ac 2 "${ts[@]}" hevc-opengop.m2ts
"$disckit" author --clips hevc-opengop.m2ts --folder "$out/hevc-opengop" >/dev/null

# h264-opengop: 14 s of H.264 in open GOPs (x264 open-gop: an IDR first, then every 24 pictures
# an I picture with a recovery point SEI, after it in decode order three B pictures (one a
# reference, B-pyramid) that refer to the GOP before) with AC-3; the builder puts the EP entries
# at those I pictures, as retail discs have them: fMP4 HLS segments that start at an H.264 I
# picture that is not an IDR (ServerFMP4HLSTests).
ffmpeg -hide_banner -loglevel error -y -threads 1 \
  -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=14" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=14" \
  "${h264[@]}" -x264opts "open_gop=1:keyint=24:min-keyint=24:bframes=3:b-adapt=0:scenecut=0" \
  -c:a ac3 -ac 2 "${ts[@]}" h264-opengop.m2ts
"$disckit" author --clips h264-opengop.m2ts --folder "$out/h264-opengop" >/dev/null

# audio-gaps: a title of two 14 s clips (H.264, a key frame a second) whose audio (AC-3 stereo,
# DTS 5.1) stops early, 2 s and 3 s into each: fMP4 HLS audio segments in which the audio ends
# before the video, segments without audio between the clips and at the title's end (empty
# fragments), a gap taken up at a segment's end (ServerFMP4HLSTests). The audio is encoded first
# and muxed by its timestamps, one frame a PES (-pes_payload_size 0), so that no audio PES is
# left to the end of the clip's bytes, as a disc's multiplexer has them.
for i in 1 2; do
  ffmpeg -hide_banner -loglevel error -y -threads 1 \
    -f lavfi -i "sine=frequency=$((300 + i * 200)):sample_rate=48000:duration=$((i + 1))" \
    -map 0:a -map 0:a -c:a:0 ac3 -ac:a:0 2 -c:a:1 dca -strict -2 -ac:a:1 6 "audio-gaps$i.mka"
  ffmpeg -hide_banner -loglevel error -y -threads 1 \
    -f lavfi -i "testsrc2=size=160x90:rate=24000/1001:duration=14" -i "audio-gaps$i.mka" \
    -map 0:v -map 1:a:0 -map 1:a:1 "${h264[@]}" -g 24 -c:a copy \
    -metadata:s:a:0 language=eng -metadata:s:a:1 language=eng -mpegts_m2ts_mode 1 \
    -pes_payload_size 0 -fflags +bitexact "audio-gaps$i.m2ts"
  rm -f "audio-gaps$i.mka"
done
"$disckit" author --clips audio-gaps1.m2ts audio-gaps2.m2ts \
  --title audio-gaps1.m2ts,audio-gaps2.m2ts --folder "$out/audio-gaps" >/dev/null
