#ifndef TRIPSYNC_CMICROHTTPDSTATIC_H
#define TRIPSYNC_CMICROHTTPDSTATIC_H
/// Whether this build carries libmicrohttpd inside the binary with its TLS calls stubbed out
/// (Linux release builds; docs/DESIGN.md, "The server"): 1 there, 0 elsewhere.
int tripsync_mhd_static_tls_stubs(void);
#endif
