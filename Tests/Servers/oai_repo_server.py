#!/usr/bin/env python3
"""An OAI-PMH endpoint served by oai-repo (PyPI), the library the museum's server is very
likely a fork of, for the fetch worker's tests: EDM records listed in identifier (string)
order, 50 a page as the museum's, base64 resumption tokens refused once the list shrank.

    python3 oai_repo_server.py --records 600 [--formats edm,lido,oai_dc] [--unreadable-every N] [--granularity day]
        [--images-here FILE] [--identifier-prefix oai:example.org:] [--object-number-prefix "Inv. Nr. "]
        [--hostile-every N]

With --hostile-every N the record in the middle of every N is hostile LIDO, in turn: an image
measured -9223372036854775808 pixels wide (a readable record), elements nested 200,000 deep
(1.4 MB), a title whose bytes are not UTF-8, an element with 1,000 attributes (each unreadable
to XMLTree), a well-formed title of 950,000 bytes (too long for a work).

With --images-here the records' images are on this server (/iiif/…), every one FILE's bytes.

prints `port: N` once it listens on 127.0.0.1. GET /control/delete?count=K removes K records
not yet listed in identifier order (the last ones); GET /control/restamp?ids=A,B stamps those
records with the current second, as an edit at the museum does. Each answers the
identifiers it changed, one a line.
"""
import argparse
import random
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

from lxml import etree
import oai_repo

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
DC = "http://purl.org/dc/elements/1.1/"
EDM = "http://www.europeana.eu/schemas/edm/"
ORE = "http://www.openarchives.org/ore/terms/"
LIDO = "http://www.lido-schema.org"
OAI_DC = "http://www.openarchives.org/OAI/2.0/oai_dc/"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
FIRST = datetime(2026, 1, 27, tzinfo=timezone.utc)
# Where the records' images are: the museum's image host, or this server (--images-here).
IMAGE_BASE = "https://iiif.micr.io"
FORMATS = {
    "edm": ("http://www.europeana.eu/schemas/edm/EDM.xsd", EDM),
    "lido": ("http://www.lido-schema.org/schema/v1.0/lido-v1.0.xsd", LIDO),
    "oai_dc": ("http://www.openarchives.org/OAI/2.0/oai_dc.xsd", OAI_DC),
}


class Collection:
    """The records: identifier -> (object number, datestamp). Datestamps are a second apart in
    an order unrelated to the identifiers', as after the museum's bulk re-stamp."""

    def __init__(self, count, seed, prefix="https://id.rijksmuseum.nl/", numbers="SK-A-"):
        self.lock = threading.Lock()
        order = list(range(count))
        random.Random(seed).shuffle(order)
        self.records = {
            f"{prefix}{200000000 + n}": (f"{numbers}{n}", FIRST + timedelta(seconds=order[n]))
            for n in range(count)
        }

    def identifiers(self):
        with self.lock:
            return sorted(self.records)

    def get(self, identifier):
        with self.lock:
            return self.records.get(identifier)

    def delete_last(self, count):
        with self.lock:
            gone = sorted(self.records)[-count:]
            for identifier in gone:
                del self.records[identifier]
            return gone

    def restamp(self, identifiers):
        now = datetime.now(timezone.utc).replace(microsecond=0)
        with self.lock:
            changed = [identifier for identifier in identifiers if identifier in self.records]
            for identifier in changed:
                self.records[identifier] = (self.records[identifier][0], now)
            return changed


def lido_record(identifier, number):
    """A LIDO record as museums write them: workID, a title set, a production event with its
    actor's preferred name, a resource set with a thumbnail and the full image."""
    def element(parent, name, text=None, **attributes):
        child = etree.SubElement(parent, f"{{{LIDO}}}{name}", {f"{{{LIDO}}}{k}": v for k, v in attributes.items()})
        child.text = text
        return child

    root = etree.Element(f"{{{LIDO}}}lido", nsmap={"lido": LIDO})
    element(root, "lidoRecID", identifier, type="local")
    descriptive = element(root, "descriptiveMetadata")
    descriptive.set(XML_LANG, "en")
    identification = element(descriptive, "objectIdentificationWrap")
    element(element(element(identification, "titleWrap"), "titleSet"), "appellationValue", f"Work {number}")
    element(element(element(identification, "repositoryWrap"), "repositorySet"), "workID", number)
    event = element(element(element(descriptive, "eventWrap"), "eventSet"), "event")
    element(element(event, "eventType"), "term", "Production")
    actor = element(element(element(event, "eventActor"), "actorInRole"), "actor")
    element(element(actor, "nameActorSet"), "appellationValue", "Maker " + number[-1], pref="preferred")
    resources = element(element(root, "administrativeMetadata"), "resourceWrap")
    representations = element(resources, "resourceSet")
    thumb = element(representations, "resourceRepresentation", type="image_thumb")
    element(thumb, "linkResource", f"{IMAGE_BASE}/{quote(number, safe='')}/full/100,/0/default.jpg")
    full = element(representations, "resourceRepresentation", type="image_master")
    element(full, "linkResource", f"{IMAGE_BASE}/{quote(number, safe='')}/full/max/0/default.jpg")
    return root


# Stand-ins in a hostile record's metadata, replaced in the answer's bytes by what no XML
# library would write: (marker, bytes).
HOSTILE_MARKERS = {
    # 1.4 MB: more than one Kafka message may hold, so its dead letter cannot carry it whole.
    "deep": ("HOSTILE-DEEP", b"<a>" * 200_000 + b"</a>" * 200_000),
    "bytes": ("HOSTILE-BYTES", b"Bad \xff\xfe title"),
    "attributes": ("HOSTILE-ATTRIBUTES", b"<many " + b" ".join(b'a%d="v"' % n for n in range(1_000)) + b"/>"),
}
HOSTILE_KINDS = ["int-min", "deep", "bytes", "attributes", "long-title"]


def hostile_lido_record(identifier, number, kind):
    """A LIDO record with one hostile part; a part XML cannot hold is a marker here, replaced by its raw bytes in the answer."""
    root = lido_record(identifier, number)
    if kind == "int-min":
        full = root.findall(f".//{{{LIDO}}}resourceRepresentation")[-1]
        measurements = etree.SubElement(full, f"{{{LIDO}}}resourceMeasurementsSet")
        etree.SubElement(measurements, f"{{{LIDO}}}measurementType").text = "width"
        etree.SubElement(measurements, f"{{{LIDO}}}measurementValue").text = "-9223372036854775808"
    elif kind == "bytes":
        root.find(f".//{{{LIDO}}}appellationValue").text = HOSTILE_MARKERS["bytes"][0]
    elif kind == "long-title":
        # Well-formed and under XMLTree's limits, but nearly all a Kafka message may hold.
        root.find(f".//{{{LIDO}}}titleSet/{{{LIDO}}}appellationValue").text = "Long" * 237_500
    else:
        etree.SubElement(root.find(f"{{{LIDO}}}descriptiveMetadata"), f"{{{LIDO}}}note").text = HOSTILE_MARKERS[kind][0]
    return root


def unmarked(body):
    """The answer with each hostile marker replaced by its bytes."""
    for marker, replacement in HOSTILE_MARKERS.values():
        body = body.replace(marker.encode(), replacement)
    return body


def dublin_core_record(number):
    """oai_dc as most repositories write it: the creator "Last, First", the image's URL as an identifier."""
    root = etree.Element(f"{{{OAI_DC}}}dc", nsmap={"oai_dc": OAI_DC, "dc": DC})
    etree.SubElement(root, f"{{{DC}}}title").text = f"Work {number}"
    etree.SubElement(root, f"{{{DC}}}creator").text = "Maker, " + number[-1]
    etree.SubElement(root, f"{{{DC}}}identifier").text = number
    etree.SubElement(root, f"{{{DC}}}identifier").text = f"{IMAGE_BASE}/{quote(number, safe='')}/full/max/0/default.jpg"
    return root


class Data(oai_repo.DataInterface):
    limit = 50

    def __init__(self, collection, base_url, formats, unreadable_every, days=False, hostile_every=0):
        self.days = days
        self.hostile_every = hostile_every
        self.collection = collection
        self.base_url = base_url
        self.formats = formats
        self.unreadable_every = unreadable_every

    def get_identify(self):
        identify = oai_repo.Identify()
        identify.repository_name = "oai-repo test endpoint"
        identify.base_url = self.base_url
        identify.admin_email = ["ops@example.org"]
        identify.earliest_datestamp = FIRST.strftime("%Y-%m-%d" if self.days else "%Y-%m-%dT%H:%M:%SZ")
        identify.deleted_record = "no"
        # In days, as many repositories (oai-repo then refuses a from or until in seconds).
        identify.granularity = "YYYY-MM-DD" if self.days else "YYYY-MM-DDThh:mm:ssZ"
        return identify

    def is_valid_identifier(self, identifier):
        return self.collection.get(identifier) is not None

    def get_metadata_formats(self, identifier=None):
        return [oai_repo.MetadataFormat(prefix, *FORMATS[prefix]) for prefix in self.formats]

    def get_record_header(self, identifier):
        _, datestamp = self.collection.get(identifier)
        return oai_repo.RecordHeader(identifier=identifier, datestamp=datestamp, setspecs=["all"])

    def get_record_metadata(self, identifier, metadataprefix):
        number, _ = self.collection.get(identifier)
        if self.unreadable_every and (int(identifier[-9:]) - 200000000) % self.unreadable_every == 0:
            # A format no harvester here reads: the record is unreadable, its page is not.
            return etree.Element("{http://www.loc.gov/mods/v3}mods")
        position = int(identifier[-9:]) - 200000000
        if metadataprefix == "lido" and self.hostile_every and position % self.hostile_every == self.hostile_every // 2:
            kind = HOSTILE_KINDS[(position // self.hostile_every) % len(HOSTILE_KINDS)]
            return hostile_lido_record(identifier, number, kind)
        if metadataprefix == "lido":
            return lido_record(identifier, number)
        if metadataprefix == "oai_dc":
            return dublin_core_record(number)
        root = etree.Element(f"{{{RDF}}}RDF", nsmap={"rdf": RDF, "dc": DC, "edm": EDM, "ore": ORE})
        aggregation = etree.SubElement(root, f"{{{ORE}}}Aggregation", {f"{{{RDF}}}about": identifier + "/aggregation"})
        etree.SubElement(aggregation, f"{{{EDM}}}aggregatedCHO", {f"{{{RDF}}}resource": identifier})
        etree.SubElement(
            aggregation, f"{{{EDM}}}isShownBy",
            {f"{{{RDF}}}resource": f"{IMAGE_BASE}/{quote(number, safe='')}/full/max/0/default.jpg"})
        cho = etree.SubElement(root, f"{{{EDM}}}ProvidedCHO", {f"{{{RDF}}}about": identifier})
        etree.SubElement(cho, f"{{{DC}}}identifier").text = number
        title = etree.SubElement(cho, f"{{{DC}}}title", {"{http://www.w3.org/XML/1998/namespace}lang": "en"})
        title.text = f"Work {number}"
        etree.SubElement(cho, f"{{{DC}}}creator").text = "Maker " + number[-1]
        return root

    def get_record_abouts(self, identifier):
        return []

    def list_set_specs(self, identifier=None, cursor=0):
        return ["all"], 1, None

    def get_set(self, setspec):
        return oai_repo.Set(spec="all", name="all") if setspec == "all" else None

    def list_identifiers(self, metadataprefix, filter_from=None, filter_until=None, filter_set=None, cursor=0):
        matching = []
        for identifier in self.collection.identifiers():
            record = self.collection.get(identifier)
            if record is None:
                continue
            datestamp = record[1]
            if self.days:
                # A day's window takes the whole day.
                datestamp = datestamp.replace(hour=0, minute=0, second=0)
            if filter_from and datestamp < filter_from:
                continue
            if filter_until and datestamp > filter_until:
                continue
            matching.append(identifier)
        return matching[cursor:cursor + self.limit], len(matching), None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=600)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--formats", default="edm")
    parser.add_argument("--unreadable-every", type=int, default=0)
    parser.add_argument("--granularity", choices=["second", "day"], default="second")
    parser.add_argument("--hostile-every", type=int, default=0)
    parser.add_argument("--images-here")
    parser.add_argument("--identifier-prefix", default="https://id.rijksmuseum.nl/")
    # Object numbers as museums write them: dots, spaces, slashes, accents.
    parser.add_argument("--object-number-prefix", default="SK-A-")
    options = parser.parse_args()
    collection = Collection(options.records, options.seed, options.identifier_prefix, options.object_number_prefix)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            url = urlsplit(self.path)
            # As a form: `+` is a space, as the museum's server reads it.
            query = {name: values[-1] for name, values in parse_qs(url.query, keep_blank_values=True).items()}
            if options.images_here and url.path.startswith("/iiif/"):
                with open(options.images_here, "rb") as image:
                    self.answer(200, "image/jpeg", image.read())
                return
            if url.path.startswith("/control/"):
                if url.path == "/control/delete":
                    changed = collection.delete_last(int(query.get("count", "1")))
                else:
                    changed = collection.restamp(query.get("ids", "").split(","))
                self.answer(200, "text/plain", "\n".join(changed).encode())
                return
            base = f"http://127.0.0.1:{self.server.server_port}/oai"
            data = Data(
                collection, base, options.formats.split(","), options.unreadable_every, options.granularity == "day",
                options.hostile_every)
            response = oai_repo.OAIRepository(data).process(query)
            self.answer(200, "text/xml; charset=utf-8", unmarked(bytes(response)))

        def answer(self, status, content_type, body):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if options.images_here:
        global IMAGE_BASE
        IMAGE_BASE = f"http://127.0.0.1:{server.server_port}/iiif"
    print(f"port: {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
