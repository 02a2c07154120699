#ifndef TRIPSYNC_CZLIB_SHIM_H
#define TRIPSYNC_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 and inflateInit2 are macros in zlib.h; these wrappers make them callable from Swift.
static inline int tripsync_deflateInit2(z_streamp strm, int level, int windowBits) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
static inline int tripsync_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
