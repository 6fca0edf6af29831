/* An LD_PRELOAD shim for the crash-safe output tests: once EIO_SHIM_AFTER bytes have gone to
 * regular files (descriptors above 2), every further write to a regular file fails with EIO, the
 * way a failing disk answers. The call that crosses the limit is cut short at it, as the kernel
 * does with a partial write. Interposes what DiscKit's writer and copy use: write, pwrite,
 * pwrite64, writev, pwritev, copy_file_range and sendfile. Writes to the terminal, pipes and
 * sockets (standard error included) pass untouched.
 *
 *   cc -shared -fPIC -o eio_write_shim.so eio_write_shim.c -ldl
 *   EIO_SHIM_AFTER=65536 LD_PRELOAD=$PWD/eio_write_shim.so disckit extract ... */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long written;

static long long limit(void) {
  const char *text = getenv("EIO_SHIM_AFTER");
  return text ? atoll(text) : 0;
}

static int regular(int fd) {
  struct stat st;
  return fd > 2 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* How many of `count` bytes may go to `fd`: -1 (errno EIO) when the limit is reached. */
static long long allowed(int fd, size_t count) {
  if (!regular(fd)) return (long long)count;
  long long left = limit() - written;
  if (left <= 0) {
    errno = EIO;
    return -1;
  }
  return (long long)count < left ? (long long)count : left;
}

static ssize_t counted(int fd, ssize_t result) {
  if (result > 0 && regular(fd)) written += result;
  return result;
}

/* The next definition of `name` (libc's). */
#define REAL(name) \
  static __typeof__(&name) real_##name; \
  if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buffer, size_t count) {
  REAL(write);
  long long n = allowed(fd, count);
  if (n < 0) return -1;
  return counted(fd, real_write(fd, buffer, (size_t)n));
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
  REAL(pwrite);
  long long n = allowed(fd, count);
  if (n < 0) return -1;
  return counted(fd, real_pwrite(fd, buffer, (size_t)n, offset));
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
  REAL(pwrite64);
  long long n = allowed(fd, count);
  if (n < 0) return -1;
  return counted(fd, real_pwrite64(fd, buffer, (size_t)n, offset));
}

static size_t total(const struct iovec *iov, int count) {
  size_t sum = 0;
  for (int i = 0; i < count; i++) sum += iov[i].iov_len;
  return sum;
}

/* Vectored writes are refused whole when they would cross the limit. */
ssize_t writev(int fd, const struct iovec *iov, int count) {
  REAL(writev);
  size_t want = total(iov, count);
  long long n = allowed(fd, want);
  if (n < 0 || (size_t)n < want) {
    errno = EIO;
    return -1;
  }
  return counted(fd, real_writev(fd, iov, count));
}

ssize_t pwritev(int fd, const struct iovec *iov, int count, off_t offset) {
  REAL(pwritev);
  size_t want = total(iov, count);
  long long n = allowed(fd, want);
  if (n < 0 || (size_t)n < want) {
    errno = EIO;
    return -1;
  }
  return counted(fd, real_pwritev(fd, iov, count, offset));
}

ssize_t copy_file_range(int in, off64_t *in_offset, int out, off64_t *out_offset, size_t length,
                        unsigned int flags) {
  REAL(copy_file_range);
  long long n = allowed(out, length);
  if (n < 0) return -1;
  return counted(out, real_copy_file_range(in, in_offset, out, out_offset, (size_t)n, flags));
}

ssize_t sendfile(int out, int in, off_t *offset, size_t count) {
  REAL(sendfile);
  long long n = allowed(out, count);
  if (n < 0) return -1;
  return counted(out, real_sendfile(out, in, offset, (size_t)n));
}
