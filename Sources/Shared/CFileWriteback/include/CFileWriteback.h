#ifndef ARTPIPE_CFILEWRITEBACK_H
#define ARTPIPE_CFILEWRITEBACK_H

// Starts writing a file's dirty pages to the disk, without waiting for them: Linux's
// sync_file_range, which Swift's Glibc module leaves out. Returns 0, or -1 with errno set
// (ENOSYS where the system has no such call). A hint only: fsync is what makes a file durable.
int artpipe_start_writeback(int descriptor);

#endif
