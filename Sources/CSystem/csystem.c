// System calls that Swift's Glibc module does not expose (statx is behind _GNU_SOURCE).
#define _GNU_SOURCE
#include "csystem.h"
#include <fcntl.h>
#include <sys/stat.h>

int tripsync_birth_time(const char *path, long long *seconds, long *nanoseconds) {
#if defined(__linux__) && defined(STATX_BTIME)
    struct statx info;
    if (statx(AT_FDCWD, path, 0, STATX_BTIME, &info) != 0) return -1;
    if (!(info.stx_mask & STATX_BTIME)) return 1;
    *seconds = info.stx_btime.tv_sec;
    *nanoseconds = info.stx_btime.tv_nsec;
    return 0;
#elif defined(__APPLE__)
    struct stat info;
    if (stat(path, &info) != 0) return -1;
    *seconds = info.st_birthtimespec.tv_sec;
    *nanoseconds = info.st_birthtimespec.tv_nsec;
    return 0;
#else
    (void)path; (void)seconds; (void)nanoseconds;
    return 1;
#endif
}

int tripsync_start_writeback(int fd, long long offset, long long length) {
#if defined(__linux__)
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd; (void)offset; (void)length;
    return 0;
#endif
}

int tripsync_wait_writeback(int fd, long long offset, long long length) {
#if defined(__linux__)
    return sync_file_range(fd, offset, length,
                           SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
#else
    (void)fd; (void)offset; (void)length;
    return 0;
#endif
}
