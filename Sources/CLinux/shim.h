/* The Linux calls glibc declares only under _GNU_SOURCE, which Swift's Glibc module
   is built without: declared here as glibc declares them, for CoolcalSupport's
   SystemCalls (the only importer). */
#include <stddef.h>
#include <stdint.h>

int sync_file_range(int fd, int64_t offset, int64_t count, unsigned int flags);

/* copy_file_range(2): bytes copied from one file to another in the kernel (ssize_t). */
long copy_file_range(int in_fd, int64_t *in_offset, int out_fd, int64_t *out_offset, size_t count, unsigned int flags);

/* SYNC_FILE_RANGE_WRITE of <fcntl.h>: start writing the range's dirty pages. */
static const unsigned int coolcal_sync_file_range_write = 2;

/* malloc_trim(3) of <malloc.h>: freed heap memory handed back to the kernel. */
int malloc_trim(size_t pad);
