"""Static text files go gzipped to a client that accepts gzip: the same bytes once
unzipped, at most two fifths of the size, `Vary: Accept-Encoding` on both
answers, an ETag of its own (so a cached copy of one encoding is never taken for the
other) that revalidates with 304; HEAD gives the length and no body; `q=0` or no
Accept-Encoding gets the file as it is."""
import gzip
import urllib.request

import pytest

from server_fixture import ROOT, Server


@pytest.fixture(scope="module")
def server():
    s = Server("--demo", "small")
    yield s
    s.stop()


def get(server, path, method="GET", **headers):
    request = urllib.request.Request(server.url.rstrip("/") + path, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.mark.parametrize("path, on_disk", [("/collection-view/v1/view.js", "Public/collection-view/view.js"),
                                           ("/style.css", "Examples/Public/style.css"), ("/js/app.js", "Examples/Public/js/app.js")])
def test_text_goes_gzipped_to_who_takes_it(server, path, on_disk):
    original = (ROOT / on_disk).read_bytes()
    status, plain_headers, plain = get(server, path)
    assert status == 200 and plain == original and "content-encoding" not in plain_headers
    assert plain_headers["vary"].lower() == "accept-encoding"
    status, headers, zipped = get(server, path, **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"].lower() == "accept-encoding"
    assert gzip.decompress(zipped) == original
    assert len(zipped) * 2.5 < len(original), (len(zipped), len(original))
    assert headers["etag"] != plain_headers["etag"]
    # Each encoding's copy revalidates under its own tag.
    assert get(server, path, **{"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})[0] == 304
    assert get(server, path, **{"If-None-Match": plain_headers["etag"]})[0] == 304
    assert get(server, path, **{"If-None-Match": headers["etag"]})[0] == 200
    # HEAD: the zipped length, no body.
    status, head, body = get(server, path, method="HEAD", **{"Accept-Encoding": "gzip"})
    assert status == 200 and body == b"" and int(head["content-length"]) == len(zipped)


def test_refused_gzip_and_images_come_as_they_are(server):
    status, headers, body = get(server, "/style.css", **{"Accept-Encoding": "gzip;q=0, identity"})
    assert status == 200 and "content-encoding" not in headers and body == (ROOT / "Examples/Public/style.css").read_bytes()
