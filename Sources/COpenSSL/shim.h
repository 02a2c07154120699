#ifndef TRIPSYNC_COPENSSL_SHIM_H
#define TRIPSYNC_COPENSSL_SHIM_H
// libcrypto's EVP digest API only (SHA-256 with the CPU's SHA instructions); no TLS.
#include <openssl/evp.h>
#endif
