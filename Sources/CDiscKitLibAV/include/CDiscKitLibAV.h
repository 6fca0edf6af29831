#pragma once
// libavcodec, libavutil and libswresample's declarations for DiscKitTranscode, without linking
// them: the functions DiscKitTranscode calls are defined in libav.c, which loads the libraries
// with dlopen(3) the first time one is called (a transcoded rendition's first use), so that a
// server that never transcodes maps none of them nor the ~100 libraries they need (16 MiB of
// resident pages measured at their load, issue 29).
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libswresample/swresample.h>

/// Loads the libraries if not yet loaded (once per process; thread-safe). Returns NULL when
/// loaded, else the reason (dlerror's message or the missing symbol).
const char *disckit_libav_load(void);
