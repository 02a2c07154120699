#ifndef TRIPSYNC_CMICROHTTPD_SHIM_H
#define TRIPSYNC_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// MHD_start_daemon is variadic, which Swift cannot call: this starts one daemon on `address`
/// (one loopback address and port) with its own polling thread, calling `handler` for every
/// request and `completed` when a request ends. Connections are bounded in all (`limit`) and per
/// client address (`perClient`), and one that sends nothing for `idleSeconds` is closed, so a
/// few half-open sockets cannot hold every slot (docs/DESIGN.md, "Slow clients").
static inline struct MHD_Daemon *tripsync_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler, void *handlerContext,
    MHD_RequestCompletedCallback completed, void *completedContext, unsigned int limit, unsigned int perClient,
    unsigned int idleSeconds) {
    return MHD_start_daemon(
        flags | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, handler, handlerContext,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
        MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, perClient,
        MHD_OPTION_CONNECTION_TIMEOUT, idleSeconds,
        MHD_OPTION_END);
}

/// The port a daemon listens on (when it was started on port 0, the one the system chose).
static inline uint16_t tripsync_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
