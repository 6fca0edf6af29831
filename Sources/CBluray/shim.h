#pragma once
#include <libbluray/bluray.h>
#include <libbluray/clpi_data.h>
