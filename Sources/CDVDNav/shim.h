#pragma once
#include <stdint.h>
#include <sys/types.h>
#include <dvdnav/dvdnav.h>
#include <dvdread/nav_read.h>
