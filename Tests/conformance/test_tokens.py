"""Signed tokens against the real server with --require-token: tokens minted here,
with Python's own HMAC (a JWT from another implementation than the server's), are
taken from ?token=, a cookie or an Authorization header; no token, an expired one and
forged ones are refused with 401 before the upgrade; a user without the editor role
may watch and select but its edits are forbidden, and the model does not change;
others see the user's name and colour."""
import base64
import hashlib
import hmac
import json
import subprocess
import time

import pytest

from rawws import RawSocket, http, upgrade_request
from server_fixture import BINARY, Server

SECRET = "a test secret that is long enough to sign tokens with"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(sub, name=None, roles=(), color=None, expires_in=600, secret=SECRET, alg="HS256", claims=None):
    header = b64(json.dumps({"alg": alg, "typ": "JWT"}).encode())
    body = {"sub": sub, "name": name or sub, "roles": list(roles), "exp": int(time.time() + expires_in)}
    if color:
        body["color"] = color
    body.update(claims or {})
    payload = b64(json.dumps(body).encode())
    signature = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64(signature)}"


@pytest.fixture(scope="module")
def server():
    s = Server("--demo", "small", "--ticket-interval", "0", "--require-token", env={"COLLECTION_TOKEN_SECRET": SECRET})
    yield s
    s.stop()


def upgrade(server, path="/ws", extra=""):
    return http(server.port, upgrade_request(path, protocol="collection.v1", extra=extra), timeout=0.5)


def hello(sock, collection="photos"):
    sock.send_json({"type": "hello", "viewport": {"width": 800, "height": 600}, "wantOrder": True, "collection": collection})
    welcome = sock.next_json("welcome")
    if welcome.get("orderFollows"):
        # A large order comes after the welcome, in parts.
        welcome["order"] = [[] for _ in welcome["sections"]]
        while True:
            part = sock.next_json("order")
            welcome["order"][part["section"]] += part["ids"]
            if part["last"]:
                break
    return welcome


def test_no_token_is_refused_with_401(server):
    status, headers, body = upgrade(server)
    assert status == 401
    assert b"requires a token" in body
    assert "sec-websocket-accept" not in headers


@pytest.mark.parametrize("case,bad", [
    ("expired", lambda: token("ana", expires_in=-120)),   # past the minute allowed for clocks that differ
    ("signed with another secret", lambda: token("ana", secret="some other secret, just as long as the first")),
    ("claims changed after signing", lambda: (lambda t: t.split(".")[0] + "." + b64(json.dumps(
        {"sub": "ana", "roles": ["editor"], "exp": int(time.time() + 600)}).encode()) + "." + t.split(".")[2])(token("ana"))),
    ("alg none", lambda: token("ana", alg="none").rsplit(".", 1)[0] + "."),
    ("signed with alg HS512 in the header", lambda: token("ana", alg="HS512")),
    ("not a token", lambda: "hello"),
    ("no exp", lambda: token("ana", claims={"exp": None})),
    ("not valid for a day yet", lambda: token("ana", claims={"nbf": int(time.time() + 86400)})),
    ("issued in an hour", lambda: token("ana", claims={"iat": int(time.time() + 3600)})),
    ("living for ever", lambda: token("ana", claims={"exp": 1e308})),
    ("living a year", lambda: token("ana", expires_in=365 * 86400)),
])
def test_bad_tokens_are_refused_with_401(server, case, bad):
    status, headers, body = upgrade(server, path=f"/ws?token={bad()}")
    assert status == 401, case
    assert "sec-websocket-accept" not in headers
    reason = body.decode()
    if case == "expired":
        assert "expired" in reason
    if case.startswith("not valid") or case.startswith("issued"):
        assert "not valid before" in reason or "has not come yet" in reason, reason
    if case == "living a year":
        assert "longest this server takes" in reason, reason
    if "secret" in case or "changed" in case:
        assert "signature is not valid" in reason


@pytest.mark.parametrize("where", ["query", "cookie", "bearer"])
def test_a_valid_token_opens_a_session_from_query_cookie_or_header(server, where):
    t = token("ana", name="Ana", roles=["editor"])
    path, extra = "/ws", ""
    if where == "query":
        path = f"/ws?token={t}"
    elif where == "cookie":
        extra = f"Cookie: theme=dark; collection_token={t}\r\n"
    else:
        extra = f"Authorization: Bearer {t}\r\n"
    sock = RawSocket(server.port, path=path, extra=extra)
    welcome = hello(sock)
    assert welcome["viewer"]["name"] == "Ana"
    sock.close()


def test_a_user_without_edit_rights_watches_and_selects_but_cannot_edit(server):
    editor = RawSocket(server.port, path=f"/ws?token={token('ed', name='Edith', roles=['editor'], color='#123456')}")
    assert "can" not in hello(editor)   # may do everything: nothing to say
    reader = RawSocket(server.port, path=f"/ws?token={token('rita', name='Rita', roles=['viewer'])}")
    welcome = hello(reader)
    assert welcome["can"] == ["view", "select"]
    # Presence shows the identities' names and colours, not made-up ones.
    assert {"name": "Edith", "color": "#123456"}.items() <= next(v for v in welcome["viewers"] if v["name"] == "Edith").items()
    seq = welcome["seq"]
    first = welcome["order"][0][0]
    section = welcome["sections"][0]["id"]
    for edit in [{"type": "delete", "op": "f1", "items": [first]},
                 {"type": "shuffle", "op": "f2", "section": section},
                 {"type": "moveBegin", "item": first}]:
        reader.send_json(edit)
        answer = reader.next_json("reject", "error")
        assert answer["code"] == "forbidden", answer
        assert "may not edit collection 'photos'" in answer["message"]
    # Selecting is presence: allowed.
    reader.send_json({"type": "select", "item": first, "selected": True})
    selection = editor.next_json("selection")
    assert selection["item"] == first and selection["selected"] is True
    # Nothing changed: the editor's next edit is the next batch after the reader's welcome.
    editor.send_json({"type": "delete", "op": "e1", "items": [first]})
    assert editor.next_json("ack")["seq"] == seq + 1
    assert reader.next_json("batch")["seq"] == seq + 1
    editor.close()
    reader.close()


def test_clocks_may_differ_by_a_minute(server):
    """nbf and iat a few seconds ahead (another machine's clock): taken."""
    t = token("ana", name="Ana", claims={"nbf": int(time.time() + 20), "iat": int(time.time() + 20)})
    sock = RawSocket(server.port, path=f"/ws?token={t}")
    assert hello(sock)["viewer"]["name"] == "Ana"
    sock.close()


def test_audience_and_issuer_are_checked_when_the_server_names_them():
    s = Server("--demo", "small", "--ticket-interval", "0", "--require-token", "--token-audience", "retro",
               "--token-issuer", "https://login.example.com", env={"COLLECTION_TOKEN_SECRET": SECRET})
    try:
        good = token("ana", name="Ana", claims={"aud": ["other", "retro"], "iss": "https://login.example.com"})
        sock = RawSocket(s.port, path=f"/ws?token={good}")
        assert hello(sock)["viewer"]["name"] == "Ana"
        sock.close()
        for claims, why in [({"aud": "other", "iss": "https://login.example.com"}, "not meant for 'retro'"),
                            ({"aud": "retro", "iss": "https://evil.example.com"}, "not issued by"),
                            ({}, "not issued by")]:
            status, headers, body = upgrade(s, path=f"/ws?token={token('ana', claims=claims)}")
            assert status == 401 and why in body.decode(), (claims, body)
        # --issue-token writes both, so its tokens are taken.
        run = subprocess.run([str(BINARY), "--issue-token", "cli", "--token-audience", "retro", "--token-issuer", "https://login.example.com"],
                             capture_output=True, text=True, timeout=30, env={"COLLECTION_TOKEN_SECRET": SECRET})
        sock = RawSocket(s.port, path=f"/ws?token={run.stdout.strip()}")
        assert hello(sock)["viewer"]["name"] == "cli"
        sock.close()
    finally:
        s.stop()


def test_issue_token_mints_a_token_the_server_takes(server):
    run = subprocess.run([str(BINARY), "--issue-token", "cli-user", "--token-name", "Cli", "--token-roles", "editor"],
                         capture_output=True, text=True, timeout=30, env={"COLLECTION_TOKEN_SECRET": SECRET})
    assert run.returncode == 0, run.stderr
    sock = RawSocket(server.port, path=f"/ws?token={run.stdout.strip()}")
    assert hello(sock)["viewer"]["name"] == "Cli"
    sock.close()


def test_issue_token_will_not_mint_what_the_server_would_refuse():
    run = subprocess.run([str(BINARY), "--issue-token", "cli", "--token-ttl", str(365 * 86400)],
                         capture_output=True, text=True, timeout=30, env={"COLLECTION_TOKEN_SECRET": SECRET})
    assert run.returncode != 0 and "--token-max-lifetime" in run.stderr


def test_require_token_without_a_secret_is_refused_at_start():
    run = subprocess.run([str(BINARY), "--port", "0", "--in-memory", "--require-token"], capture_output=True, text=True, timeout=30, env={})
    assert run.returncode != 0
    assert "--require-token needs a secret" in run.stderr
