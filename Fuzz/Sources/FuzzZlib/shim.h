#ifndef TRIPSYNC_FUZZ_ZLIB_SHIM_H
#define TRIPSYNC_FUZZ_ZLIB_SHIM_H
#include <zlib.h>

/// FuzzRead's own gzip writer (an independent one). deflateInit2 is a macro in zlib.h.
static inline int fuzz_deflateInit2(z_streamp strm, int level) {
    return deflateInit2(strm, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
/// FuzzRead's own inflate, for checking the library's gzip writer.
static inline int fuzz_inflateInit2(z_streamp strm) {
    return inflateInit2(strm, 15 + 16);
}
#endif
