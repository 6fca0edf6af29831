#pragma once
#include <udfread/udfread.h>
#include <udfread/blockinput.h>
