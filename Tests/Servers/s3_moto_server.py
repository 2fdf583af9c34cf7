"""A lightweight S3 stand-in (moto, from PyPI) on 127.0.0.1 for the object store client's quick
tests. Prints "port: N" once it listens; runs until killed, or until the process that started
it is gone (a test run that dies leaves no server behind). The tests that claim the workers
write to object storage run against Ceph's RADOS Gateway instead."""
import os
import signal
import sys
import time

from moto.server import ThreadedMotoServer

parent = os.getppid()
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print("port:", server._server.server_port, flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
while os.getppid() == parent:
    time.sleep(1)
