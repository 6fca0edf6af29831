// System calls that the Swift Glibc module does not declare.
#ifndef CDISCKIT_SHIMS_H
#define CDISCKIT_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// copy_file_range(2) on Linux (glibc declares it only under _GNU_SOURCE, which the Swift Glibc
/// module does not set). Elsewhere: -1 with errno set to ENOSYS.
long disckit_copy_file_range(int fd_in, int64_t *off_in, int fd_out, int64_t *off_out,
                             size_t length, unsigned int flags);

/// preadv2(2) of one buffer with RWF_NOWAIT on Linux: reads only what the page cache holds, -1 with
/// errno EAGAIN when the first byte would need the disk (a short count when a later one would).
/// Elsewhere, or on a kernel without it: -1 with errno ENOTSUP or ENOSYS (EOPNOTSUPP).
long disckit_pread_nowait(int fd, void *buffer, size_t count, int64_t offset);

#endif
