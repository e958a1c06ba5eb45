""""Your turn" notifications (issue 12): e-mail through a real SMTP sink (aiosmtpd) on a free
loopback port, webhooks to a real HTTP server on loopback (allowed by the tests-only
``allow_loopback_webhooks``), the guard against webhooks to non-public addresses, and moves
that neither wait for nor fail with a notification."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("fastapi")
aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

from fastapi.testclient import TestClient  # noqa: E402

from tramways.server import ServerSettings, create_app  # noqa: E402
from tramways.server.notify import (  # noqa: E402
    Notifier,
    NotifyRefused,
    SmtpSettings,
    TurnEvent,
    check_webhook,
)

from .conftest import free_port  # noqa: E402

# -- the guard ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/hook", "http://127.8.9.10:8080/x", "http://[::1]/hook",
    "http://10.1.2.3/hook", "https://172.16.0.1/hook", "http://192.168.1.1/hook",
    "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/hook", "http://[fd00::5]/",
    "http://100.64.0.1/hook", "http://0.0.0.0/hook", "http://224.0.0.1/hook",
    "http://[::ffff:127.0.0.1]/hook", "http://[::ffff:10.0.0.1]/hook", "http://[2002:a00:1::]/",
    "http://localhost:8000/hook", "http://2130706433/hook",
    # IPv4 written inside IPv6: compatible, translated (SIIT), NAT64 (169.254.169.254),
    # NAT64 local-use, Teredo, and 6to4 of a public IPv4 (refused whole: never needed)
    "http://[::127.0.0.1]/hook", "http://[::ffff:0:7f00:1]/hook",
    "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "http://[64:ff9b:1::a00:1]/hook",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", "http://[2002:5db8:d70e::1]/hook",
])
def test_webhooks_to_private_loopback_or_link_local_addresses_are_refused(url: str) -> None:
    with pytest.raises(NotifyRefused, match="not a public address|does not resolve"):
        check_webhook(url)


def test_a_public_ipv6_address_is_accepted() -> None:
    hook = check_webhook("https://[2606:4700:4700::1111]/hook")
    assert hook.address == "2606:4700:4700::1111"


def test_the_guard_resolves_the_host_and_checks_every_address() -> None:
    def resolver(answers: list[str]):
        return lambda host, port: answers

    # a name that resolves to a public and a private address is refused
    with pytest.raises(NotifyRefused, match=r"chat\.example is not a public address \(10\.0\.0\.7\)"):
        check_webhook("https://chat.example/hooks/SECRET",
                      resolve=resolver(["93.184.215.14", "10.0.0.7"]))
    hook = check_webhook("https://chat.example/hooks/SECRET", resolve=resolver(["93.184.215.14"]))
    assert (hook.host, hook.port, hook.address) == ("chat.example", 443, "93.184.215.14")
    for bad in ("ftp://chat.example/x", "chat.example/x", "http:///x", "https://a b/",
                "javascript:alert(1)"):
        with pytest.raises(NotifyRefused):
            check_webhook(bad, resolve=resolver(["93.184.215.14"]))
    # loopback only with the tests' switch, and private ranges never
    assert check_webhook("http://127.0.0.1:9/x", allow_loopback=True).address == "127.0.0.1"
    with pytest.raises(NotifyRefused):
        check_webhook("http://10.0.0.1/x", allow_loopback=True)


# -- real sinks ----------------------------------------------------------------------------------


class _Sink:
    def __init__(self) -> None:
        self.messages: list[bytes] = []
        self.got = threading.Event()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.messages.append(envelope.content)
        self.got.set()
        return "250 OK"


@pytest.fixture
def smtp_sink() -> Iterator[tuple[_Sink, int]]:
    sink = _Sink()
    port = free_port()
    controller = aiosmtpd_controller.Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


class _Hooks(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        self.got = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self.status = 204
        super().__init__(("127.0.0.1", 0), _HookHandler)


class _HookHandler(BaseHTTPRequestHandler):
    server: _Hooks

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.release.wait(30)
        self.server.bodies.append({"path": self.path, "host": self.headers["Host"],
                                   **json.loads(body)})
        self.send_response(self.server.status)
        self.end_headers()
        self.server.got.set()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hooks() -> Iterator[_Hooks]:
    server = _Hooks()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.shutdown()
        server.server_close()


def _app(tmp_path, smtp_port: int | None = None, **extra) -> TestClient:
    settings = ServerSettings(
        f"sqlite:///{tmp_path / 'n.sqlite3'}", moves_per_second=0, games_per_minute=0,
        smtp=SmtpSettings(host="127.0.0.1", port=smtp_port, security="none",
                          sender="tramways@test.invalid") if smtp_port else SmtpSettings(),
        public_url="http://tramways.test", allow_loopback_webhooks=True, **extra)
    return TestClient(create_app(settings))


def _game(client: TestClient) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"game": "1840", "seats": ["human", "human"],
                                        "names": ["Anna", "Bert"]})
    assert r.status_code == 201
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def _play_until_other_seat(client: TestClient, gid: str, tokens: list[str]) -> int:
    """Play the legal first moves of whoever acts until the other seat comes to act; that
    seat (1-based)."""
    state = client.get(f"/api/games/{gid}").json()
    first = state["to_act"][0]
    while True:
        mine = client.get(f"/api/games/{gid}?token={tokens[first - 1]}").json()
        r = client.post(f"/api/games/{gid}/moves?token={tokens[first - 1]}",
                        json={"n": mine["n"], "action": mine["legal"][0]})
        assert r.status_code == 200, r.text
        if first not in r.json()["to_act"]:
            return int(r.json()["to_act"][0])


def test_your_turn_by_email_through_a_real_smtp_sink(tmp_path, smtp_sink) -> None:
    sink, port = smtp_sink
    with _app(tmp_path, port) as client:
        gid, tokens = _game(client)
        state = client.get(f"/api/games/{gid}").json()
        other = 3 - state["to_act"][0]
        r = client.put(f"/api/games/{gid}/notify?token={tokens[other - 1]}",
                       json={"email": "bert@example.org"})
        assert r.status_code == 200 and r.json()["email"] == "bert@example.org"
        assert client.put(f"/api/games/{gid}/notify?token={tokens[other - 1]}",
                          json={"email": "not an address"}).status_code == 422
        assert client.put(f"/api/games/{gid}/notify", json={"email": "x@example.org"}
                          ).status_code == 403  # a spectator has no seat to be told about
        told = _play_until_other_seat(client, gid, tokens)
        assert told == other
        assert sink.got.wait(30)
        client.app.state.notifier.wait_idle()
    assert len(sink.messages) == 1
    mail = message_from_bytes(sink.messages[0])
    name = ["Anna", "Bert"][other - 1]
    assert mail["To"] == f"{name} <bert@example.org>"
    assert mail["Subject"] == "1840 Vienna Tramways: your turn"
    text = mail.get_payload(decode=True).decode().replace("\r\n", "\n")
    assert text.startswith(f"{name}, it is your turn in 1840 Vienna Tramways (move ")
    assert f"\nhttp://tramways.test/g/{gid}\n" in text
    assert all(t not in sink.messages[0].decode() for t in tokens)  # no seat link in a mail


def test_your_turn_by_webhook_per_game(tmp_path, hooks) -> None:
    with _app(tmp_path) as client:
        gid, tokens = _game(client)
        url = f"http://127.0.0.1:{hooks.server_address[1]}/hooks/SECRET-PART?k=v"
        r = client.put(f"/api/games/{gid}/notify?token={tokens[0]}", json={"webhook": url})
        assert r.status_code == 200 and r.json()["webhook"] == "127.0.0.1"  # the host only
        other = _play_until_other_seat(client, gid, tokens)
        assert hooks.got.wait(30)
        client.app.state.notifier.wait_idle()
    body = hooks.bodies[0]
    assert body["path"] == "/hooks/SECRET-PART?k=v"
    assert body["host"] == f"127.0.0.1:{hooks.server_address[1]}"
    assert body["id"] == gid and body["game"] == "1840"
    assert body["seats"] == [{"seat": other, "name": ["Anna", "Bert"][other - 1]}]
    assert body["text"] == body["content"]
    assert f"{['Anna', 'Bert'][other - 1]}, your turn" in body["text"]
    assert len(hooks.bodies) == 1  # one seat came to act once


def test_webhook_setting_refuses_private_addresses_without_the_test_switch(tmp_path) -> None:
    settings = ServerSettings(f"sqlite:///{tmp_path / 'g.sqlite3'}", moves_per_second=0,
                              games_per_minute=0)
    with TestClient(create_app(settings)) as client:
        gid, tokens = _game(client)
        for url in ("http://127.0.0.1:9/x", "http://169.254.169.254/", "http://10.0.0.1/"):
            r = client.put(f"/api/games/{gid}/notify?token={tokens[0]}", json={"webhook": url})
            assert r.status_code == 422 and "not a public address" in r.json()["message"]
        assert client.put(f"/api/games/{gid}/notify?token={tokens[0]}",
                          json={"webhook": None}).json()["webhook"] is None


def test_a_hanging_webhook_neither_blocks_nor_breaks_moves(tmp_path, hooks, caplog) -> None:
    """The webhook server holds its reply until the test releases it: meanwhile the moves go
    on; a failing SMTP server and a webhook answering 500 are logged, without the webhook's
    secret path or any token, and the moves are all accepted."""
    hooks.release.clear()
    hooks.status = 500
    dead = free_port()  # nothing listens there: the e-mail fails
    with caplog.at_level(logging.WARNING, logger="tramways.server.notify"), \
            _app(tmp_path, dead) as client:
        gid, tokens = _game(client)
        url = f"http://127.0.0.1:{hooks.server_address[1]}/hooks/SECRET-PART"
        for token in tokens:
            client.put(f"/api/games/{gid}/notify?token={token}",
                       json={"webhook": url, "email": "p@example.org"})
        for _ in range(3):  # three hand-overs while the first webhook call hangs
            _play_until_other_seat(client, gid, tokens)
        assert client.get(f"/api/games/{gid}").json()["n"] >= 3
        assert not hooks.got.is_set()  # the webhook is still waiting: the moves did not
        hooks.release.set()
        assert client.app.state.notifier.wait_idle(60)
    assert len(hooks.bodies) == 3
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "HTTP 500" in logged and "e-mail of game" in logged
    assert "SECRET" not in logged and all(t not in logged for t in tokens)


def test_the_queue_is_bounded_and_drops_rather_than_waits(caplog) -> None:
    gate = threading.Event()

    def slow_targets(game_id: str):
        gate.wait(30)
        from tramways.server.storage import NotifyTargets

        return NotifyTargets()

    notifier = Notifier(slow_targets, queue_size=2)
    with caplog.at_level(logging.WARNING, logger="tramways.server.notify"):
        for i in range(6):
            notifier.submit(TurnEvent("g", "1840", i, ((1, "Anna"),)))
    # one taken by the thread, two waiting, the rest dropped (at least two: the thread may
    # not yet have taken the first)
    assert 3 <= notifier.dropped <= 4
    assert "notification queue full" in caplog.text
    gate.set()
    assert notifier.wait_idle()
    notifier.close()


def test_the_seat_page_sets_email_and_webhook(tmp_path, smtp_sink) -> None:
    _sink, port = smtp_sink
    form = {"content-type": "application/x-www-form-urlencoded"}
    with _app(tmp_path, port) as client:
        gid, tokens = _game(client)
        page = client.get(f"/g/{gid}?token={tokens[0]}").text
        assert 'id="notify"' in page and 'action="/g/' in page
        assert 'id="notify"' not in client.get(f"/g/{gid}").text  # a spectator has none
        from urllib.parse import urlencode

        r = client.post(f"/g/{gid}/notify", headers=form, follow_redirects=False,
                        content=urlencode({"act_token": tokens[0], "email": "anna@example.org",
                                           "webhook": "http://127.0.0.1:9/hook/SECRET"}))
        assert r.status_code == 303
        assert client.get(f"/api/games/{gid}/notify?token={tokens[0]}").json() == {
            "email": "anna@example.org", "webhook": "127.0.0.1"}
        page = client.get(f"/g/{gid}?token={tokens[0]}").text
        assert 'value="anna@example.org"' in page and "SECRET" not in page
        # the other seat sees that a webhook is set (its host), not its own address
        other = client.get(f"/api/games/{gid}/notify?token={tokens[1]}").json()
        assert other == {"email": None, "webhook": "127.0.0.1"}
        r = client.post(f"/g/{gid}/notify", headers=form,
                        content=urlencode({"act_token": tokens[1], "webhook": "http://10.0.0.1/"}))
        assert r.status_code == 422 and "not a public address" in r.text
        r = client.post(f"/g/{gid}/notify", headers=form, follow_redirects=False,
                        content=urlencode({"act_token": tokens[1], "clear_webhook": "1"}))
        assert client.get(f"/api/games/{gid}/notify?token={tokens[0]}").json()["webhook"] is None


def test_tramways_serve_takes_the_smtp_settings_from_its_options(tmp_path, smtp_sink) -> None:
    """A real ``tramways serve`` process with ``--smtp-host/--smtp-port/--smtp-security
    none --smtp-from --public-url`` mails the sink when a seat comes to act."""
    import urllib.request

    from .conftest import start_server, stop_server

    sink, port = smtp_sink
    proc, base = start_server(
        f"sqlite:///{tmp_path / 's.sqlite3'}", None, "--smtp-host", "127.0.0.1", "--smtp-port",
        str(port), "--smtp-security", "none", "--smtp-from", "table@tramways.test",
        "--public-url", "https://tramways.test/", "--moves-per-second", "0",
        env={"TRAMWAYS_SMTP_PASSWORD": ""})

    def call(method: str, path: str, body: dict | None = None) -> dict:
        req = urllib.request.Request(base + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    try:
        game = call("POST", "/api/games", {"game": "1840", "seats": ["human", "human"]})
        gid, tokens = game["id"], [s["token"] for s in game["seats"]]
        first = call("GET", f"/api/games/{gid}")["to_act"][0]
        call("PUT", f"/api/games/{gid}/notify?token={tokens[2 - first]}",
             {"email": "second@example.org"})
        while True:
            state = call("GET", f"/api/games/{gid}?token={tokens[first - 1]}")
            after = call("POST", f"/api/games/{gid}/moves?token={tokens[first - 1]}",
                         {"n": state["n"], "action": state["legal"][0]})
            if first not in after["to_act"]:
                break
        assert sink.got.wait(30)
    finally:
        stop_server(proc)
    mail = message_from_bytes(sink.messages[0])
    assert mail["From"] == "table@tramways.test" and "second@example.org" in mail["To"]
    assert f"https://tramways.test/g/{gid}" in mail.get_payload(decode=True).decode()


def test_messages_speak_the_language_of_the_page_they_were_set_on(tmp_path, smtp_sink, hooks
                                                                  ) -> None:
    """The e-mail address set on a German page gets German e-mails; the webhook set through
    the API with ``Accept-Language: de`` posts in German; the messages' game link stays."""
    from urllib.parse import urlencode

    sink, port = smtp_sink
    with _app(tmp_path, port) as client:
        gid, tokens = _game(client)
        first = client.get(f"/api/games/{gid}").json()["to_act"][0]
        other = 3 - first
        r = client.post(f"/g/{gid}/notify?lang=de", follow_redirects=False,
                        headers={"content-type": "application/x-www-form-urlencoded"},
                        content=urlencode({"act_token": tokens[other - 1],
                                           "email": "b@example.org"}))
        assert r.status_code == 303
        url = f"http://127.0.0.1:{hooks.server_address[1]}/hook"
        client.put(f"/api/games/{gid}/notify?token={tokens[0]}", json={"webhook": url},
                   headers={"accept-language": "de-AT,de;q=0.9"})
        _play_until_other_seat(client, gid, tokens)
        assert sink.got.wait(30) and hooks.got.wait(30)
        client.app.state.notifier.wait_idle()
    name = ["Anna", "Bert"][other - 1]
    mail = message_from_bytes(sink.messages[0])
    from email.header import decode_header, make_header

    assert str(make_header(decode_header(mail["Subject"]))) == (
        "1840 Wiener Straßenbahnen: du bist am Zug")
    text = mail.get_payload(decode=True).decode("utf-8")
    assert text.startswith(f"{name}, du bist in 1840 Wiener Straßenbahnen am Zug (Schritt ")
    assert f"http://tramways.test/g/{gid}" in text
    assert hooks.bodies[0]["text"].startswith(
        f"1840 Wiener Straßenbahnen: {name}, du bist am Zug (Schritt ")


def test_an_https_webhook_goes_to_the_checked_address_with_its_name_for_tls(tmp_path) -> None:
    """The request is sent to the address the guard checked, while TLS still checks the
    certificate against the webhook's host name (SNI and Host: ``chat.test``): a server with a
    certificate for chat.test on loopback, the name resolved by the test."""
    import shutil
    import ssl
    import subprocess

    if not shutil.which("openssl"):
        pytest.skip("the openssl command makes the test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=chat.test",
                    "-addext", "subjectAltName=DNS:chat.test"], check=True, capture_output=True)
    server = _Hooks()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert), str(key))
    names: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    looked_up: list[str] = []

    def resolve(host: str, _port: int) -> list[str]:
        looked_up.append(host)
        return ["127.0.0.1"]

    from tramways.server.storage import NotifyTargets

    url = f"https://chat.test:{port}/hooks/SECRET"
    notifier = Notifier(lambda gid: NotifyTargets(webhook=url), allow_loopback_webhooks=True,
                        resolve=resolve, tls=ssl.create_default_context(cafile=str(cert)))
    try:
        notifier.submit(TurnEvent("g7", "1840", 3, ((2, "Bert"),)))
        assert server.got.wait(30)
        assert notifier.wait_idle()
    finally:
        notifier.close()
        server.shutdown()
        server.server_close()
    assert server.bodies[0]["host"] == f"chat.test:{port}" and names == ["chat.test"]
    assert server.bodies[0]["path"] == "/hooks/SECRET" and looked_up == ["chat.test"]
    assert notifier.sent == [("webhook", "g7")]


def test_async_reminder_by_email_and_webhook_in_the_seat_s_language_with_the_game_link(
        tmp_path, smtp_sink, hooks) -> None:
    """Issue 25 item 2 (docs/async.md, Reminders): a seat late at its deadline (pace 1 h,
    ``on_deadline: remind``) is reminded through the game's e-mail and webhook, each in the
    language it was set in (German page, Spanish webhook), with the game's link; the clock is
    injected (``ManualClock``) and the deadline fires once."""
    from email.header import decode_header, make_header
    from urllib.parse import urlencode

    from tramways.server.clocks.clock import ManualClock

    sink, port = smtp_sink
    with _app(tmp_path, port, deadline_sweep_seconds=0) as client:
        gid, tokens = _game(client)
        late = _play_until_other_seat(client, gid, tokens)  # no address set yet: no message
        r = client.post(f"/g/{gid}/notify?lang=de", follow_redirects=False,
                        headers={"content-type": "application/x-www-form-urlencoded"},
                        content=urlencode({"act_token": tokens[late - 1],
                                           "email": "late@example.org"}))
        assert r.status_code == 303
        url = f"http://127.0.0.1:{hooks.server_address[1]}/hook"
        assert client.put(f"/api/games/{gid}/notify?token={tokens[late - 1]}",
                          json={"webhook": url}, headers={"accept-language": "es"}
                          ).status_code == 200
        d = client.app.state.deadlines
        d.clock = ManualClock()
        assert client.post(f"/api/games/{gid}/pace?token={tokens[late - 1]}", json={
            "hours": 1, "on_deadline": "remind"}).status_code == 200
        d.clock.advance(59 * 60)
        assert d.check(gid) == 0  # "remind" reminds at the deadline, not half-way
        d.clock.advance(2 * 60)
        assert d.check(gid) == 1 and d.check(gid) == 0
        assert sink.got.wait(30) and hooks.got.wait(30)
        client.app.state.notifier.wait_idle()
        n = client.get(f"/api/games/{gid}").json()["n"]
    name = ["Anna", "Bert"][late - 1]
    assert len(sink.messages) == 1 and len(hooks.bodies) == 1
    mail = message_from_bytes(sink.messages[0])
    assert mail["To"] == f"{name} <late@example.org>"
    assert str(make_header(decode_header(mail["Subject"]))) == (
        "1840 Wiener Straßenbahnen: Erinnerung, dein Zug wird erwartet")
    text = mail.get_payload(decode=True).decode("utf-8").replace("\r\n", "\n")
    assert text.startswith(f"{name}, 1840 Wiener Straßenbahnen wartet auf deinen Zug "
                           f"(Zug {n + 1}); wenn die Frist abläuft")
    assert f"\n\nhttp://tramways.test/g/{gid}\n" in text
    body = hooks.bodies[0]
    assert body["id"] == gid and body["seats"] == [{"seat": late, "name": name}]
    assert body["text"] == (f"1840: Tranvías de Viena: recordatorio, {name}, se espera tu "
                            f"jugada (jugada {n + 1}). http://tramways.test/g/{gid}")
    assert all(t not in sink.messages[0].decode() + body["text"] for t in tokens)
