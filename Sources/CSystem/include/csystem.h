#ifndef TRIPSYNC_CSYSTEM_H
#define TRIPSYNC_CSYSTEM_H

/// The birth time of `path` (statx on Linux, st_birthtimespec on Apple platforms), following
/// links. Returns 0 and sets `seconds`/`nanoseconds` when the file system records it, 1 when it
/// does not, -1 with errno set when the path cannot be looked at.
int tripsync_birth_time(const char *path, long long *seconds, long *nanoseconds);

#endif
