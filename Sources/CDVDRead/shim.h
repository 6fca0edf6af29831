#pragma once
#include <stdint.h>
#include <sys/types.h>
#include <dvdread/dvd_reader.h>
#include <dvdread/ifo_read.h>
#include <dvdread/ifo_types.h>
