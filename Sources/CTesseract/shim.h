#pragma once
// libtesseract's C API (Debian: libtesseract-dev), linked only by DiscKitSubtitles.
#include <tesseract/capi.h>
