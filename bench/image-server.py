"""Serves a folder's files over HTTP/1.1 on 127.0.0.1 for bench/thumb-worker.sh.

It stands in for the museum's image host, which does not share the worker's cores in a real
run. Bodies go out with sendfile(2), so the server spends little CPU on the cores the
benchmark measures; python3's http.server copies each file through Python in 64 KiB reads.
Usage: image-server.py FOLDER PORT
"""

import http.server
import os
import sys


class SendfileHandler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def copyfile(self, source, outputfile):
        # The headers are written already (the writer is unbuffered): the body follows them.
        outputfile.flush()
        self.connection.sendfile(source)

    def log_message(self, format, *args):
        pass


def main():
    folder, port = sys.argv[1], int(sys.argv[2])
    os.chdir(folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), SendfileHandler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
