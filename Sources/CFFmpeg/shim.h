#pragma once
#include <errno.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>

// Macros Swift cannot import, as functions.
static inline int disckit_av_error_eof(void) { return AVERROR_EOF; }
static inline int disckit_av_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int disckit_av_error_eio(void) { return AVERROR(EIO); }
static inline int64_t disckit_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int disckit_avseek_size(void) { return AVSEEK_SIZE; }

// Appends a chapter (times in 90 kHz ticks) to `s`; libavformat frees it with the context.
static inline int disckit_add_chapter(
    AVFormatContext *s, int64_t id, int64_t start_ms, int64_t end_ms, const char *title) {
  AVChapter **grown = av_realloc_array(s->chapters, s->nb_chapters + 1, sizeof(*grown));
  if (!grown) return AVERROR(ENOMEM);
  s->chapters = grown;
  AVChapter *chapter = av_mallocz(sizeof(*chapter));
  if (!chapter) return AVERROR(ENOMEM);
  chapter->id = id;
  chapter->time_base = (AVRational){1, 90000};
  chapter->start = start_ms;
  chapter->end = end_ms;
  if (title && av_dict_set(&chapter->metadata, "title", title, 0) < 0) {
    av_free(chapter);
    return AVERROR(ENOMEM);
  }
  s->chapters[s->nb_chapters++] = chapter;
  return 0;
}

#include <libavutil/mastering_display_metadata.h>

// Adds side data of `size` bytes to a stream being muxed, before its header is written: the
// codec parameters' coded side data where libavcodec has it (6.1 and later), the stream's side
// data before. Returns the zeroed buffer, or NULL when out of memory.
static inline uint8_t *disckit_stream_new_side_data(
    AVStream *st, enum AVPacketSideDataType type, size_t size) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
  AVPacketSideData *sd = av_packet_side_data_new(
      &st->codecpar->coded_side_data, &st->codecpar->nb_coded_side_data, type, size, 0);
  if (!sd) return NULL;
  memset(sd->data, 0, size);
  return sd->data;
#else
  uint8_t *data = av_stream_new_side_data(st, type, size);
  if (data) memset(data, 0, size);
  return data;
#endif
}

// SMPTE ST 2086 mastering display metadata on a stream: primaries red, green, blue and the white
// point as (x, y) in units of 0.00002; luminance in units of 0.0001 cd/m². Returns 0 or an
// AVERROR.
static inline int disckit_set_mastering_display(
    AVStream *st, const uint16_t rgb_xy[6], uint16_t white_x, uint16_t white_y,
    uint32_t max_luminance, uint32_t min_luminance) {
  AVMasteringDisplayMetadata *m = (AVMasteringDisplayMetadata *)disckit_stream_new_side_data(
      st, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, sizeof(AVMasteringDisplayMetadata));
  if (!m) return AVERROR(ENOMEM);
  for (int c = 0; c < 3; c++) {
    m->display_primaries[c][0] = av_make_q(rgb_xy[2 * c], 50000);
    m->display_primaries[c][1] = av_make_q(rgb_xy[2 * c + 1], 50000);
  }
  m->white_point[0] = av_make_q(white_x, 50000);
  m->white_point[1] = av_make_q(white_y, 50000);
  m->max_luminance = av_make_q((int)(max_luminance > INT32_MAX ? INT32_MAX : max_luminance), 10000);
  m->min_luminance = av_make_q((int)(min_luminance > INT32_MAX ? INT32_MAX : min_luminance), 10000);
  m->has_primaries = 1;
  m->has_luminance = 1;
  return 0;
}

// CTA-861.3 content light level (MaxCLL, MaxFALL in cd/m²) on a stream. Returns 0 or an AVERROR.
static inline int disckit_set_content_light_level(AVStream *st, unsigned max_cll, unsigned max_fall) {
  AVContentLightMetadata *c = (AVContentLightMetadata *)disckit_stream_new_side_data(
      st, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, sizeof(AVContentLightMetadata));
  if (!c) return AVERROR(ENOMEM);
  c->MaxCLL = max_cll;
  c->MaxFALL = max_fall;
  return 0;
}

// Copies the Dolby Vision configuration record (a transport stream's DOVI video descriptor, as
// libavformat's demuxer reads it) from an input stream to an output stream before the header is
// written; the Matroska muxer writes it as a BlockAdditionMapping (dvcC/dvvC). From libavcodec
// 6.1 the record is coded side data of the codec parameters, copied with them. Returns 1 when
// copied, 0 when the input has none, or an AVERROR.
static inline int disckit_copy_dovi_configuration(const AVStream *in, AVStream *out) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
  for (int i = 0; i < out->codecpar->nb_coded_side_data; i++)
    if (out->codecpar->coded_side_data[i].type == AV_PKT_DATA_DOVI_CONF) return 1;
  return 0;
#else
  size_t size = 0;
  const uint8_t *data = av_stream_get_side_data(in, AV_PKT_DATA_DOVI_CONF, &size);
  if (!data || !size) return 0;
  uint8_t *copy = disckit_stream_new_side_data(out, AV_PKT_DATA_DOVI_CONF, size);
  if (!copy) return AVERROR(ENOMEM);
  memcpy(copy, data, size);
  return 1;
#endif
}
