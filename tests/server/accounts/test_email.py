"""An account's e-mail address (issue 24): verified through a link sent by the site's SMTP
settings, and a password reset that goes to a verified address only, works once and ends
every session; asking answers alike for known and unknown accounts."""

from __future__ import annotations

import re

from tests.server.accounts.helpers import csrf_of, make_app_client, other_client, signup, uniq
from tramways.server.notify import SmtpSettings

LINK = re.compile(r"https?://\S+/account/(?:verify|reset)/\S+")


def _client(sqlite_url: str, port: int):
    return make_app_client(sqlite_url, smtp=SmtpSettings(host="127.0.0.1", port=port,
                                                         security="none"))


def _last_link(client, sink) -> str:
    for thread in client.app.state.mail_threads:
        thread.join(10)
    found = LINK.findall(_text(sink.messages[-1]))
    assert found, sink.messages[-1]
    return found[-1].split("/account/", 1)[1]


def _text(raw: bytes) -> str:
    from email import message_from_bytes, policy

    message = message_from_bytes(raw, policy=policy.default)
    return f"{message['To']}\n{message['Subject']}\n{message.get_content()}"


def test_an_address_is_verified_by_its_link_and_a_reset_works_once(sqlite_url: str,
                                                                   smtp_sink) -> None:
    sink, port = smtp_sink
    with _client(sqlite_url, port) as c:
        name = uniq("Mia")
        signup(c, name, "old password")
        r = c.post("/account/email", data={"csrf": csrf_of(c, "/account"),
                                           "email": "mia@example.org"})
        assert r.status_code == 303
        link = _last_link(c, sink)
        assert link.startswith("verify/")
        mail = _text(sink.messages[-1])
        assert "mia@example.org" in mail and name in mail and "old password" not in mail
        assert not c.app.state.accounts.login_row(name)[0].email_verified
        # a forged link changes nothing; the right one verifies
        assert c.get("/account/" + link[:-3] + "AAA").status_code == 400
        assert c.get("/account/" + link).status_code == 303
        assert c.app.state.accounts.login_row(name)[0].email_verified
        # a reset, asked by another browser by the address
        other = other_client(c)
        sent = len(sink.messages)
        r = other.post("/account/reset", data={"csrf": csrf_of(other, "/account/reset"),
                                               "who": "MIA@example.org"})
        assert r.status_code == 200
        reset = _last_link(c, sink)
        assert len(sink.messages) == sent + 1 and reset.startswith("reset/")
        assert other.get("/account/" + reset).status_code == 200
        r = other.post("/account/" + reset, data={"csrf": csrf_of(other, "/account/" + reset),
                                                  "password": "new password"})
        assert r.status_code == 303
        assert c.get("/api/account").status_code == 401  # every session ended
        token = csrf_of(other)
        assert other.post("/account/login", data={"csrf": token, "name": name,
                                                  "password": "old password"}).status_code == 401
        assert other.post("/account/login", data={"csrf": token, "name": name,
                                                  "password": "new password"}).status_code == 303
        # the link worked once: the password it was made for is gone
        assert other.get("/account/" + reset).status_code == 400


def test_a_reset_goes_to_verified_addresses_only_and_answers_alike(sqlite_url: str,
                                                                   smtp_sink) -> None:
    sink, port = smtp_sink
    with _client(sqlite_url, port) as c:
        name = uniq("Noah")
        signup(c, name)
        c.post("/account/email", data={"csrf": csrf_of(c, "/account"), "email": "noah@example.org"})
        _last_link(c, sink)
        sent = len(sink.messages)
        stranger = other_client(c)
        pages = [stranger.post("/account/reset", data={"csrf": csrf_of(stranger, "/account/reset"),
                                                       "who": who})
                 for who in (name, "noah@example.org", "nobody_here", "x@example.org")]
        assert {p.status_code for p in pages} == {200}
        assert len({p.text for p in pages}) == 1  # the same answer: nothing to probe
        for thread in getattr(c.app.state, "mail_threads", []):
            thread.join(10)
        assert len(sink.messages) == sent  # not verified: no reset mail
        bad = c.post("/account/email", data={"csrf": csrf_of(c, "/account"), "email": "no"})
        assert bad.status_code == 422
