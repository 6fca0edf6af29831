#define _GNU_SOURCE
#include "CDiscKitShims.h"

#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

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
