#!/usr/bin/env python3
"""One signed S3 request (Signature Version 4, path style) with the standard library only, for
the benchmarks: `s3-request.py METHOD ENDPOINT /BUCKET[/KEY]` with AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY set; prints the body. No SDK, so nothing to install."""
import datetime, hashlib, hmac, os, sys, urllib.parse, urllib.request

method, endpoint, path = sys.argv[1], sys.argv[2], sys.argv[3]
key, secret = os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
host = urllib.parse.urlsplit(endpoint).netloc
now = datetime.datetime.now(datetime.timezone.utc)
stamp, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
empty = hashlib.sha256(b"").hexdigest()
encoded = urllib.parse.quote(path, safe="/-_.~")
signed = "host;x-amz-content-sha256;x-amz-date"
canonical = f"{method}\n{encoded}\n\nhost:{host}\nx-amz-content-sha256:{empty}\nx-amz-date:{stamp}\n\n{signed}\n{empty}"
scope = f"{day}/us-east-1/s3/aws4_request"
to_sign = f"AWS4-HMAC-SHA256\n{stamp}\n{scope}\n{hashlib.sha256(canonical.encode()).hexdigest()}"
signing_key = ("AWS4" + secret).encode()
for part in (day, "us-east-1", "s3", "aws4_request"):
    signing_key = hmac.new(signing_key, part.encode(), hashlib.sha256).digest()
signature = hmac.new(signing_key, to_sign.encode(), hashlib.sha256).hexdigest()
request = urllib.request.Request(endpoint + encoded, method=method, headers={
    "x-amz-date": stamp, "x-amz-content-sha256": empty,
    "Authorization": f"AWS4-HMAC-SHA256 Credential={key}/{scope}, SignedHeaders={signed}, Signature={signature}"})
try:
    sys.stdout.buffer.write(urllib.request.urlopen(request).read())
except urllib.error.HTTPError as error:
    sys.exit(f"{method} {path}: HTTP {error.code}")
