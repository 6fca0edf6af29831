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
