#ifndef TRIPSYNC_CSODIUM_SHIM_H
#define TRIPSYNC_CSODIUM_SHIM_H
#include <sodium.h>
#endif
