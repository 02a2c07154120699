#ifndef TRIPSYNC_CSYSTEM_H
#define TRIPSYNC_CSYSTEM_H

/// The birth time of `path` (statx on Linux, st_birthtimespec on Apple platforms), following
/// links. Returns 0 and sets `seconds`/`nanoseconds` when the file system records it, 1 when it
/// does not, -1 with errno set when the path cannot be looked at.
int tripsync_birth_time(const char *path, long long *seconds, long *nanoseconds);

/// Starts writing the dirty pages of `fd` in [offset, offset + length) to the disk without
/// waiting (sync_file_range on Linux; a no-op returning 0 elsewhere). Not a durability promise:
/// fsync still follows.
int tripsync_start_writeback(int fd, long long offset, long long length);

/// Starts writing that range and waits until it is written (sync_file_range with WAIT_BEFORE,
/// WRITE and WAIT_AFTER on Linux; a no-op returning 0 elsewhere).
int tripsync_wait_writeback(int fd, long long offset, long long length);

#endif
