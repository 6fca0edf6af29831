/* An LD_PRELOAD read counter for the listing-cost tests: counts the bytes a process reads from
 * regular files whose path begins with READ_COUNT_PREFIX (a disc folder or image), through read,
 * pread, pread64, readv, preadv, preadv64, preadv2, fread and fread_unlocked, and writes the total
 * and the bytes per file ("TOTAL n" then "n path" lines) to READ_COUNT_OUT when the process exits.
 * Descriptors are classified when opened (open, open64, openat, openat64, fopen, fopen64), so a
 * read costs one table look-up.
 *
 *   cc -shared -fPIC -o read_count_shim.so read_count_shim.c -ldl
 *   READ_COUNT_PREFIX=/discs/a READ_COUNT_OUT=/tmp/n LD_PRELOAD=$PWD/read_count_shim.so \
 *     bd_list_titles /discs/a */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FD 4096
#define MAX_FILES 4096

/* fd -> index in files + 1 (0: not counted). */
static int tracked[MAX_FD];
static char *paths[MAX_FILES];
static long long bytes[MAX_FILES];
static int file_count;
static long long total;

#define REAL(name) \
  static __typeof__(&name) real_##name; \
  if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

static int file_index(const char *path) {
  for (int k = 0; k < file_count; k++)
    if (strcmp(paths[k], path) == 0) return k;
  if (file_count == MAX_FILES) return -1;
  paths[file_count] = strdup(path);
  return file_count++;
}

/* Records `fd` when `path` (as opened, resolved against the working directory) is under the
 * prefix and a regular file. */
static void classify(int fd, const char *path) {
  if (fd < 0 || fd >= MAX_FD) return;
  tracked[fd] = 0;
  const char *prefix = getenv("READ_COUNT_PREFIX");
  if (!prefix || !path) return;
  char resolved[4096];
  if (!realpath(path, resolved)) return;
  char root[4096];
  if (!realpath(prefix, root)) return;
  size_t n = strlen(root);
  if (strncmp(resolved, root, n) != 0 || (resolved[n] != 0 && resolved[n] != '/')) return;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
  int index = file_index(resolved);
  if (index >= 0) tracked[fd] = index + 1;
}

static void count(int fd, long long n) {
  if (n <= 0 || fd < 0 || fd >= MAX_FD || tracked[fd] == 0) return;
  bytes[tracked[fd] - 1] += n;
  total += n;
}

__attribute__((destructor)) static void report(void) {
  const char *out = getenv("READ_COUNT_OUT");
  if (!out) return;
  FILE *f = fopen(out, "w");
  if (!f) return;
  fprintf(f, "TOTAL %lld\n", total);
  for (int k = 0; k < file_count; k++)
    if (bytes[k] > 0) fprintf(f, "%lld %s\n", bytes[k], paths[k]);
  fclose(f);
}

static mode_t mode_argument(int flags, va_list args) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(args, int) : 0;
}

int open(const char *path, int flags, ...) {
  REAL(open);
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  int fd = real_open(path, flags, mode);
  classify(fd, path);
  return fd;
}

int open64(const char *path, int flags, ...) {
  REAL(open64);
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  int fd = real_open64(path, flags, mode);
  classify(fd, path);
  return fd;
}

int openat(int dir, const char *path, int flags, ...) {
  REAL(openat);
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  int fd = real_openat(dir, path, flags, mode);
  if (dir == AT_FDCWD || (path && path[0] == '/')) classify(fd, path);
  return fd;
}

int openat64(int dir, const char *path, int flags, ...) {
  REAL(openat64);
  va_list args;
  va_start(args, flags);
  mode_t mode = mode_argument(flags, args);
  va_end(args);
  int fd = real_openat64(dir, path, flags, mode);
  if (dir == AT_FDCWD || (path && path[0] == '/')) classify(fd, path);
  return fd;
}

FILE *fopen(const char *path, const char *mode) {
  REAL(fopen);
  FILE *f = real_fopen(path, mode);
  if (f) classify(fileno(f), path);
  return f;
}

FILE *fopen64(const char *path, const char *mode) {
  REAL(fopen64);
  FILE *f = real_fopen64(path, mode);
  if (f) classify(fileno(f), path);
  return f;
}

int close(int fd) {
  REAL(close);
  if (fd >= 0 && fd < MAX_FD) tracked[fd] = 0;
  return real_close(fd);
}

ssize_t read(int fd, void *buffer, size_t n) {
  REAL(read);
  ssize_t got = real_read(fd, buffer, n);
  count(fd, got);
  return got;
}

ssize_t pread(int fd, void *buffer, size_t n, off_t offset) {
  REAL(pread);
  ssize_t got = real_pread(fd, buffer, n, offset);
  count(fd, got);
  return got;
}

ssize_t pread64(int fd, void *buffer, size_t n, off64_t offset) {
  REAL(pread64);
  ssize_t got = real_pread64(fd, buffer, n, offset);
  count(fd, got);
  return got;
}

ssize_t readv(int fd, const struct iovec *iov, int n) {
  REAL(readv);
  ssize_t got = real_readv(fd, iov, n);
  count(fd, got);
  return got;
}

ssize_t preadv(int fd, const struct iovec *iov, int n, off_t offset) {
  REAL(preadv);
  ssize_t got = real_preadv(fd, iov, n, offset);
  count(fd, got);
  return got;
}

ssize_t preadv64(int fd, const struct iovec *iov, int n, off64_t offset) {
  REAL(preadv64);
  ssize_t got = real_preadv64(fd, iov, n, offset);
  count(fd, got);
  return got;
}

ssize_t preadv2(int fd, const struct iovec *iov, int n, off_t offset, int flags) {
  REAL(preadv2);
  ssize_t got = real_preadv2(fd, iov, n, offset, flags);
  count(fd, got);
  return got;
}

size_t fread(void *buffer, size_t size, size_t n, FILE *f) {
  REAL(fread);
  size_t got = real_fread(buffer, size, n, f);
  count(fileno(f), (long long)(got * size));
  return got;
}

#undef fread_unlocked /* a macro in <bits/stdio.h> when optimizing */
size_t fread_unlocked(void *buffer, size_t size, size_t n, FILE *f) {
  REAL(fread_unlocked);
  size_t got = real_fread_unlocked(buffer, size, n, f);
  count(fileno(f), (long long)(got * size));
  return got;
}
