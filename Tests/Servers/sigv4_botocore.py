"""Signs S3 requests with botocore, an independent SigV4 implementation, for the signer's tests.

Reads a JSON list of requests on stdin; prints each one's Authorization header on a line.
Each request: method, host, path (raw: '/bucket/key', encoded here as botocore's S3 client
encodes keys), params ([[name, value], ...], raw), headers ([[name, value], ...]),
payload (its SHA-256 in hex), timestamp (20130524T000000Z), region, key, secret, token.
"""
import json
import sys

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.utils import percent_encode


class FixedTimeAuth(S3SigV4Auth):
    def __init__(self, credentials, region, timestamp, payload):
        super().__init__(credentials, "s3", region)
        self.fixed_timestamp = timestamp
        self.fixed_payload = payload

    def _modify_request_before_signing(self, request):
        request.context["timestamp"] = self.fixed_timestamp
        if "Authorization" in request.headers:
            del request.headers["Authorization"]
        self._set_necessary_date_headers(request)
        if self.credentials.token:
            request.headers["X-Amz-Security-Token"] = self.credentials.token
        request.headers["X-Amz-Content-SHA256"] = self.fixed_payload


for item in json.load(sys.stdin):
    credentials = Credentials(item["key"], item["secret"], item.get("token"))
    url = "https://" + item["host"] + percent_encode(item["path"], safe="/~")
    request = AWSRequest(method=item["method"], url=url, headers=dict(item["headers"]))
    request.params = {name: value for name, value in item["params"]}
    FixedTimeAuth(credentials, item["region"], item["timestamp"], item["payload"]).add_auth(request)
    print(request.headers["Authorization"])
