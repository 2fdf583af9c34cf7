#!/usr/bin/env python3
"""An OAI-PMH endpoint served by pyoai (PyPI `oaipmh`), a second implementation independent of
oai-repo: `oai_dc` only, its own resumption tokens (an offset), day granularity, and deleted
records kept (`deletedRecord` persistent).

    python3 pyoai_server.py --records 90 [--deleted-every N]

prints `port: N` once it listens on 127.0.0.1.
"""
import argparse
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from oaipmh import common, metadata, server

FIRST = datetime(2026, 2, 1)


class Repository:
    """pyoai's server interface (IOAI) over a fixed list of records, one a day."""

    def __init__(self, count, deleted_every, base_url):
        self.base_url = base_url
        self.records = [
            (f"oai:pyoai.example:{n}", FIRST + timedelta(days=n), deleted_every > 0 and n % deleted_every == 0)
            for n in range(count)
        ]

    def identify(self):
        return common.Identify(
            repositoryName="pyoai test endpoint", baseURL=self.base_url, protocolVersion="2.0",
            adminEmails=["ops@example.org"], earliestDatestamp=FIRST, deletedRecord="persistent",
            granularity="YYYY-MM-DD", compression=["identity"])

    def listMetadataFormats(self, identifier=None):
        return [("oai_dc", "http://www.openarchives.org/OAI/2.0/oai_dc.xsd", "http://www.openarchives.org/OAI/2.0/oai_dc/")]

    def listSets(self, cursor=0, batch_size=10):
        return []

    def _matching(self, from_, until):
        return [r for r in self.records if (from_ is None or r[1] >= from_) and (until is None or r[1] <= until)]

    def _record(self, record):
        identifier, stamp, deleted = record
        header = common.Header(None, identifier, stamp, [], deleted)
        if deleted:
            return header, None, None
        number = identifier.rsplit(":", 1)[1]
        fields = {
            "title": [f"Print {number}"],
            "creator": [f"Etcher, {number[-1]}"],
            "identifier": [f"P-{number}", f"https://images.pyoai.example/P-{number}.jpg"],
        }
        return header, common.Metadata(None, fields), None

    def listRecords(self, metadataPrefix, set=None, from_=None, until=None, cursor=0, batch_size=10):
        return [self._record(r) for r in self._matching(from_, until)[cursor:cursor + batch_size]]

    def listIdentifiers(self, metadataPrefix, set=None, from_=None, until=None, cursor=0, batch_size=10):
        return [self._record(r)[0] for r in self._matching(from_, until)[cursor:cursor + batch_size]]

    def getRecord(self, metadataPrefix, identifier):
        return self._record(next(r for r in self.records if r[0] == identifier))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=90)
    parser.add_argument("--deleted-every", type=int, default=0)
    options = parser.parse_args()
    registry = metadata.MetadataRegistry()
    registry.registerWriter("oai_dc", server.oai_dc_writer)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            query = {name: values[-1] for name, values in parse_qs(urlsplit(self.path).query).items()}
            base = f"http://127.0.0.1:{self.server.server_port}/oai"
            endpoint = server.BatchingServer(
                Repository(options.records, options.deleted_every, base), metadata_registry=registry,
                resumption_batch_size=25)
            body = endpoint.handleRequest(query)
            self.send_response(200)
            self.send_header("Content-Type", "text/xml; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"port: {http.server_port}", flush=True)
    http.serve_forever()


if __name__ == "__main__":
    main()
