#define _GNU_SOURCE
#include "CFileWriteback.h"

#include <errno.h>
#include <fcntl.h>

int artpipe_start_writeback(int descriptor) {
#ifdef SYNC_FILE_RANGE_WRITE
    return sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}
