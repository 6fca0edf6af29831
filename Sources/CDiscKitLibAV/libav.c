// The libavcodec/libavutil/libswresample functions DiscKitTranscode calls, each forwarding to
// the library loaded with dlopen(3) on the first call (see CDiscKitLibAV.h). The libraries are
// the ones the headers belong to (their major versions, as the dynamic linker would have
// chosen). The definitions are hidden: only the program's own calls reach them, never another
// library's (a program that also links libavformat, as the benchmark does, keeps libavformat's
// calls on the real functions). When the libraries cannot be loaded every function fails as
// libavcodec does when out of memory (NULL, AVERROR(ENOSYS)), so the transcoder reports that no
// decoder exists.
// libswresample's header is left out here: its swr_alloc_set_opts2 takes its channel layouts as
// const pointers from FFmpeg 6.1 on and as plain ones before (the same call, an unchecked
// definition below); the libavcodec and libavutil definitions are checked against their headers.
#pragma GCC visibility push(hidden)
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libswresample/version.h>
struct SwrContext;
const char *disckit_libav_load(void);
#pragma GCC visibility pop

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#define DK_STRINGIFY2(x) #x
#define DK_STRINGIFY(x) DK_STRINGIFY2(x)
#if defined(__APPLE__)
#define DK_LIBRARY(name, major) "lib" name "." DK_STRINGIFY(major) ".dylib"
#else
#define DK_LIBRARY(name, major) "lib" name ".so." DK_STRINGIFY(major)
#endif

// Every forwarded function: X(return type, name, parameters, arguments, value on failure).
#define DK_FUNCTIONS(X, V)                                                                      \
  X(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id), NULL)                     \
  X(const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id), NULL)                     \
  X(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec), NULL)            \
  V(avcodec_free_context, (AVCodecContext **avctx), (avctx))                                    \
  X(int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options),  \
    (avctx, codec, options), AVERROR(ENOSYS))                                                   \
  X(int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt),   \
    AVERROR(ENOSYS))                                                                            \
  X(int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame),        \
    AVERROR(ENOSYS))                                                                            \
  X(int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame),     \
    AVERROR(ENOSYS))                                                                            \
  X(int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt),      \
    AVERROR(ENOSYS))                                                                            \
  X(unsigned, avcodec_version, (void), (), 0)                                                   \
  X(AVPacket *, av_packet_alloc, (void), (), NULL)                                              \
  V(av_packet_free, (AVPacket **pkt), (pkt))                                                    \
  V(av_packet_unref, (AVPacket *pkt), (pkt))                                                    \
  X(int, av_new_packet, (AVPacket *pkt, int size), (pkt, size), AVERROR(ENOSYS))                \
  X(AVFrame *, av_frame_alloc, (void), (), NULL)                                                \
  X(AVFrame *, av_frame_clone, (const AVFrame *src), (src), NULL)                               \
  V(av_frame_free, (AVFrame **frame), (frame))                                                  \
  V(av_frame_unref, (AVFrame *frame), (frame))                                                  \
  X(int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align), AVERROR(ENOSYS))     \
  X(int, av_frame_make_writable, (AVFrame *frame), (frame), AVERROR(ENOSYS))                    \
  V(av_log_set_level, (int level), (level))                                                     \
  V(av_channel_layout_default, (AVChannelLayout *layout, int nb_channels),                      \
    (layout, nb_channels))                                                                      \
  X(int, av_channel_layout_from_mask, (AVChannelLayout *layout, uint64_t mask), (layout, mask), \
    AVERROR(ENOSYS))                                                                            \
  X(int, swr_alloc_set_opts2,                                                                   \
    (struct SwrContext **ps, const AVChannelLayout *out_ch_layout,                              \
     enum AVSampleFormat out_sample_fmt, int out_sample_rate,                                   \
     const AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt,                    \
     int in_sample_rate, int log_offset, void *log_ctx),                                        \
    (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt,           \
     in_sample_rate, log_offset, log_ctx),                                                      \
    AVERROR(ENOSYS))                                                                            \
  X(int, swr_init, (struct SwrContext *s), (s), AVERROR(ENOSYS))                                \
  V(swr_free, (struct SwrContext **s), (s))                                                     \
  X(int, swr_get_out_samples, (struct SwrContext *s, int in_samples), (s, in_samples),          \
    AVERROR(ENOSYS))                                                                            \
  X(int, swr_convert,                                                                           \
    (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, int in_count),     \
    (s, out, out_count, in, in_count), AVERROR(ENOSYS))

#define DK_POINTER(ret, name, params, args, fail) ret(*name) params;
#define DK_VOID_POINTER(name, params, args) void(*name) params;
static struct {
  DK_FUNCTIONS(DK_POINTER, DK_VOID_POINTER)
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = "not loaded";

static void load(void) {
  // libavutil and libswresample first: libavcodec needs the former, and a dlsym on each
  // library's own handle finds its own definitions.
  void *avutil = dlopen(DK_LIBRARY("avutil", LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
  void *swresample =
      avutil ? dlopen(DK_LIBRARY("swresample", LIBSWRESAMPLE_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL)
             : NULL;
  void *avcodec =
      swresample ? dlopen(DK_LIBRARY("avcodec", LIBAVCODEC_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL)
                 : NULL;
  if (!avcodec) {
    failure = dlerror();
    return;
  }
  void *handles[] = {avcodec, avutil, swresample};
#define DK_RESOLVE(ret, name, params, args, fail)                                  \
  for (size_t i = 0; i < 3 && !real.name; i++) *(void **)&real.name = dlsym(handles[i], #name); \
  if (!real.name) {                                                                \
    failure = "libavcodec, libavutil or libswresample lacks " #name;               \
    return;                                                                        \
  }
#define DK_VOID_RESOLVE(name, params, args) DK_RESOLVE(void, name, params, args, )
  DK_FUNCTIONS(DK_RESOLVE, DK_VOID_RESOLVE)
  // The transcoder reports its own errors; libav's log lines would interleave with the server's.
  real.av_log_set_level(AV_LOG_QUIET);
  failure = NULL;
}

const char *disckit_libav_load(void) {
  pthread_once(&once, load);
  return failure;
}

#define DK_FORWARD(ret, name, params, args, fail) \
  ret name params {                               \
    if (disckit_libav_load()) return fail;        \
    return real.name args;                        \
  }
#define DK_VOID_FORWARD(name, params, args) \
  void name params {                        \
    if (disckit_libav_load()) return;       \
    real.name args;                         \
  }
#pragma GCC visibility push(hidden)
const char *disckit_libav_load(void);
DK_FUNCTIONS(DK_FORWARD, DK_VOID_FORWARD)
#pragma GCC visibility pop
