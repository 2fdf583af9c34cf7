#!/usr/bin/env bash
# What a file per work would cost the gallery: N small files (2,600 bytes, a work page's size)
# written as the folder output writes a file (temp file, fsync, rename), spread over 4,096
# folders, on the disk under DIR. Prints files a second and the disk they take.
#   bench/file-per-work.sh [N] [DIR]
set -euo pipefail
n=${1:-20000}
dir=${2:-$(mktemp -d -p "${TMPDIR:-/var/tmp}")}
python3 - "$n" "$dir" <<'PY'
import os, sys, time
n, root = int(sys.argv[1]), sys.argv[2]
body = b"x" * 2600
made = set()
start = time.monotonic()
for i in range(n):
    folder = os.path.join(root, "%03x" % (i % 4096))
    if folder not in made:
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    path = os.path.join(folder, "w%d.html" % i)
    fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, body)
    os.fsync(fd)
    os.close(fd)
    os.rename(path + ".tmp", path)
elapsed = time.monotonic() - start
print(f"{n} files in {elapsed:.1f} s: {n / elapsed:,.0f} files/s; 10M works would take {1e7 / (n / elapsed) / 60:,.0f} min")
PY
echo "disk: $(du -sk "$dir" | cut -f1) KiB for $n files"
rm -rf "$dir"
