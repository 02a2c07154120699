// libmicrohttpd without TLS, for the self-contained release binary (docs/DESIGN.md, "The server").
//
// Debian's libmicrohttpd.a is built with HTTPS support, so its objects name 37 GnuTLS functions.
// GnuTLS cannot be linked statically here: Debian ships no static p11-kit, which libgnutls.a
// needs. TripSync's server speaks plain HTTP on loopback and never starts a daemon with
// MHD_USE_TLS, so libmicrohttpd calls none of these except gnutls_global_init/deinit (from its
// library constructor and destructor). In Linux release builds (TRIPSYNC_MHD_STATIC, set by
// Package.swift) this file gives each name a definition that does nothing and reports failure;
// in every other build it defines nothing and the shared libmicrohttpd brings the real GnuTLS.
// No TLS is implemented here, and none can be used: a TLS call fails with
// GNUTLS_E_UNIMPLEMENTED_FEATURE (-1250).
#include "cmicrohttpdstatic.h"
#include <stddef.h>

#if defined(TRIPSYNC_MHD_STATIC)
int tripsync_mhd_static_tls_stubs(void) { return 1; }

#define TRIPSYNC_TLS_UNAVAILABLE (-1250)
int gnutls_global_init(void) { return 0; }
void gnutls_global_deinit(void) {}
const char *gnutls_strerror(int error) { (void)error; return "TLS is not available in this build of tripsync"; }
void *(*gnutls_malloc)(size_t) = NULL;
int gnutls_alpn_set_protocols(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_bye(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_allocate_credentials(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_free_credentials(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_server_set_request(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_set_dh_params(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_set_retrieve_function2(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_set_retrieve_function3(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_set_x509_key_mem(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_set_x509_key_mem2(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_certificate_set_x509_trust_mem(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_cipher_get(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_credentials_set(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_deinit(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_dh_params_deinit(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_dh_params_import_pkcs3(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_dh_params_init(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_handshake(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_init(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_priority_deinit(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_priority_init(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_priority_set(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_protocol_get_version(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_psk_allocate_server_credentials(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_psk_free_server_credentials(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_psk_set_server_credentials_function(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_record_check_pending(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_record_get_direction(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_record_recv(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_record_send(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_session_get_ptr(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_session_set_ptr(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
int gnutls_transport_set_int2(void) { return TRIPSYNC_TLS_UNAVAILABLE; }
#else
int tripsync_mhd_static_tls_stubs(void) { return 0; }
#endif
