#define _GNU_SOURCE
#include "CDiscKitShims.h"

#include <errno.h>
#include <sys/types.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/uio.h>
#endif

long disckit_copy_file_range(int fd_in, int64_t *off_in, int fd_out, int64_t *off_out,
                             size_t length, unsigned int flags) {
#if defined(__linux__)
  return (long)copy_file_range(fd_in, (off64_t *)off_in, fd_out, (off64_t *)off_out, length, flags);
#else
  (void)fd_in; (void)off_in; (void)fd_out; (void)off_out; (void)length; (void)flags;
  errno = ENOSYS;
  return -1;
#endif
}

long disckit_pread_nowait(int fd, void *buffer, size_t count, int64_t offset) {
#if defined(__linux__) && defined(RWF_NOWAIT)
  struct iovec vector = {.iov_base = buffer, .iov_len = count};
  return (long)preadv2(fd, &vector, 1, (off_t)offset, RWF_NOWAIT);
#else
  (void)fd; (void)buffer; (void)count; (void)offset;
  errno = ENOTSUP;
  return -1;
#endif
}
