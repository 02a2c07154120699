#ifndef TRIPSYNC_CDEFLATE_SHIM_H
#define TRIPSYNC_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
