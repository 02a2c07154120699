#ifndef TRIPSYNC_COPENSSL_SHIM_H
#define TRIPSYNC_COPENSSL_SHIM_H
// libcrypto's SHA-256 functions only (with the CPU's SHA instructions); no TLS, no EVP. OpenSSL 3
// marks them deprecated in favour of EVP, but EVP's digest calls pull its providers and method
// tables into the static binary: 4 MB and 17,000 relocations every command paid at start
// (docs/PERFORMANCE.md, "The replica view"), for the same SHA-256 code.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#endif
