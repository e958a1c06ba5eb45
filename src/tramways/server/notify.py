""""Your turn" notifications: by e-mail (SMTP) to a seat that gave its address, and by webhook
(a chat server's incoming-message URL) per game.

A move never waits for a notification and is never refused because of one: the game service
hands a :class:`TurnEvent` to :meth:`Notifier.submit`, which only puts it on a bounded queue
(when the queue is full the event is dropped and a warning logged); one background thread
asks the store for the game's targets (``Store.known_targets``: on PostgreSQL read once and
kept until they change, :mod:`tramways.server.facts`) and sends, each send with a time-out.
Failures are logged with the game id, the seat and the webhook's host only: never a seat
token, a webhook's path or query (chat servers put their secret there), nor the SMTP
password.

Webhooks go only to public addresses (:func:`check_webhook`): the host is resolved and every
address it resolves to must be globally routable, so a webhook cannot make the server talk
to its own machine, the private network or a cloud metadata address (169.254.169.254).  The
check runs when the URL is set and again before every send, and the request then goes to the
address that was checked (no second lookup that could answer differently), without following
redirects.  ``allow_loopback`` (tests only) also lets 127.0.0.0/8 and ::1 through.
"""

from __future__ import annotations

import ipaddress
import logging
import queue
import re
import smtplib
import socket
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

logger = logging.getLogger("tramways.server.notify")

EMAIL_LENGTH = 254
WEBHOOK_LENGTH = 2000
_EMAIL = re.compile(r"[^@\s<>\"',;]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.[A-Za-z]{2,}")


class NotifyRefused(ValueError):
    """A notification setting that is refused (its reason is safe to show and to log)."""


@dataclass
class SmtpSettings:
    """Where "your turn" e-mails go out (``tramways serve --smtp-host ...``; the password from
    ``$TRAMWAYS_SMTP_PASSWORD`` only).  ``security``: ``starttls``, ``ssl`` or ``none``."""

    host: str = ""
    port: int = 587
    sender: str = "tramways@localhost"
    user: str = ""
    password: str = field(default="", repr=False)
    security: str = "starttls"
    timeout: float = 10.0

    @property
    def enabled(self) -> bool:
        return bool(self.host)


@dataclass(frozen=True)
class TurnEvent:
    """Seats (1-based) that have just come to act in a game, after move ``n``."""

    game_id: str
    game: str
    n: int
    seats: tuple[tuple[int, str], ...]  # (seat, name)
    reminder: bool = False
    """A reminder of a move still awaited (its pace's deadline comes: docs/async.md)."""


def check_email(address: str) -> str:
    address = address.strip()
    if len(address) > EMAIL_LENGTH or not _EMAIL.fullmatch(address):
        raise NotifyRefused("not an e-mail address")
    return address


Resolver = Callable[[str, int], Sequence[str]]


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


EMBEDS_IPV4 = tuple(ipaddress.ip_network(n) for n in (
    "::/96",            # IPv4-compatible (deprecated): ::127.0.0.1
    "::ffff:0:0/96",    # IPv4-mapped: ::ffff:127.0.0.1
    "::ffff:0:0:0/96",  # IPv4-translated (SIIT): ::ffff:0:7f00:1
    "64:ff9b::/96",     # NAT64, well-known prefix: 64:ff9b::a9fe:a9fe is 169.254.169.254
    "64:ff9b:1::/48",   # NAT64, local-use prefix
    "2002::/16",        # 6to4
    "2001::/32",        # Teredo
))
"""IPv6 ranges that carry an IPv4 address inside: a webhook to any of them is refused, since
the address inside may be loopback, private or the cloud's metadata service."""


def _public(address: str, allow_loopback: bool) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if allow_loopback and ip.is_loopback:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and any(ip in net for net in EMBEDS_IPV4):
        return False
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


@dataclass(frozen=True)
class Webhook:
    """A checked webhook: its URL, and the address it resolved to (where it is sent)."""

    url: str
    host: str
    port: int
    address: str


def check_webhook(url: str, *, allow_loopback: bool = False,
                  resolve: Resolver = _resolve) -> Webhook:
    """Refuse (``NotifyRefused``) a URL that is not http(s) or whose host resolves to any
    address that is not public: private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback,
    link-local (169.254/16, fe80::/10), shared (100.64/10), multicast, reserved or
    unspecified, also inside IPv6 (::ffff:10.0.0.1, 6to4).  Returns the first address."""
    url = url.strip()
    if len(url) > WEBHOOK_LENGTH or any(c.isspace() or ord(c) < 32 for c in url):
        raise NotifyRefused("not a web address")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotifyRefused("a webhook is an http:// or https:// address")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise NotifyRefused("not a web address") from None
    host = parts.hostname
    try:
        addresses = list(resolve(host, port))
    except (OSError, UnicodeError):
        raise NotifyRefused(f"the host {host} does not resolve") from None
    if not addresses:
        raise NotifyRefused(f"the host {host} does not resolve")
    for address in addresses:
        try:
            public = _public(address, allow_loopback)
        except ValueError:
            public = False
        if not public:
            raise NotifyRefused(
                f"the host {host} is not a public address ({address}): webhooks go to public "
                "servers only")
    return Webhook(url, host, port, addresses[0])


def safe_host(url: str) -> str:
    """What a log may say of a webhook: its host (the path and query may hold a secret)."""
    try:
        return urlsplit(url).hostname or "?"
    except ValueError:
        return "?"


class Targets(Protocol):
    """Where a game's messages go (``Store.notify_targets``)."""

    webhook: str | None
    webhook_lang: str | None
    emails: dict[int, tuple[str, str | None]]  # seat -> (address, language)


TargetsReader = Callable[[str], Targets]


@dataclass(frozen=True)
class Message:
    subject: str  # of an e-mail
    body: str     # of an e-mail (the link on a line of its own)
    chat: str     # a webhook's text, with the link


def _title(game: str) -> str:
    return {"1840": "1840 Vienna Tramways"}.get(game, game.capitalize())


def english(lang: str | None, event: TurnEvent, link: str) -> Message:
    """The messages in English (the pages' catalogs give the others: ``web.notify_text``)."""
    title, names, move = _title(event.game), ", ".join(n for _s, n in event.seats), event.n + 1
    return Message(
        f"{title}: your turn",
        f"{names}, it is your turn in {title} (move {move}):\n\n{link}\n\n"
        "Open the game with your own seat link (the lobby of the browser you play in lists it).\n",
        f"{title}: {names}, your turn (move {move}). {link}",
    )


Texts = Callable[[str | None, TurnEvent, str], Message]
"""``texts(language, event, link)``: the messages of one event in one language."""


class Notifier:
    """Sends "your turn" messages from one background thread, off a bounded queue."""

    def __init__(
        self,
        targets: TargetsReader,
        *,
        smtp: SmtpSettings | None = None,
        public_url: str = "",
        allow_loopback_webhooks: bool = False,
        webhook_timeout: float = 5.0,
        queue_size: int = 1000,
        resolve: Resolver = _resolve,
        texts: Texts = english,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.targets = targets
        self.texts = texts
        self.tls = tls
        """The certificates a webhook's server is checked against (default: the system's)."""
        self.smtp = smtp or SmtpSettings()
        self.public_url = public_url.rstrip("/")
        self.allow_loopback_webhooks = allow_loopback_webhooks
        self.webhook_timeout = webhook_timeout
        self.resolve = resolve
        self._queue: queue.Queue[TurnEvent | None] = queue.Queue(maxsize=queue_size)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.dropped = 0
        self.sent: list[tuple[str, str]] = []
        """(kind, game id) of the last deliveries (``email``/``webhook``; kept short, for tests)."""

    # -- the move path: never blocks, never raises ---------------------------------------

    def submit(self, event: TurnEvent) -> None:
        try:
            self._queue.put_nowait(event)
        except queue.Full:
            self.dropped += 1
            logger.warning("notification queue full: game %s, seats %s not told",
                           event.game_id, [s for s, _ in event.seats])
            return
        self._start()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="notify", daemon=True)
                self._thread.start()

    def close(self) -> None:
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until every submitted event is handled (tests)."""
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._queue.unfinished_tasks == 0:
                return True
            time.sleep(0.01)
        return False

    # -- the background thread ------------------------------------------------------------

    def _run(self) -> None:
        while True:
            event = self._queue.get()
            try:
                if event is None:
                    return
                self._deliver(event)
            except Exception as exc:  # never let one game's failure stop the others
                logger.warning("notifications of game %s failed: %s", getattr(event, "game_id", "?"),
                               type(exc).__name__)
            finally:
                self._queue.task_done()

    def _deliver(self, event: TurnEvent) -> None:
        targets = self.targets(event.game_id)
        link = f"{self.public_url}/g/{event.game_id}" if self.public_url else f"/g/{event.game_id}"
        if targets.webhook:
            try:
                message = self.texts(targets.webhook_lang, event, link)
                self._webhook(targets.webhook, event, message.chat, link)
                self._record("webhook", event.game_id)
            except Exception as exc:
                logger.warning("webhook of game %s to %s failed: %s", event.game_id,
                               safe_host(targets.webhook), _reason(exc))
        if targets.emails and self.smtp.enabled:
            for seat, name in event.seats:
                if seat not in targets.emails:
                    continue
                address, lang = targets.emails[seat]
                try:
                    message = self.texts(lang, replace(event, seats=((seat, name),)), link)
                    self._email(address, name, message)
                    self._record("email", event.game_id)
                except Exception as exc:
                    logger.warning("e-mail of game %s to seat %d failed: %s", event.game_id,
                                   seat, _reason(exc))

    def _record(self, kind: str, game_id: str) -> None:
        self.sent.append((kind, game_id))
        del self.sent[:-100]

    def _email(self, address: str, name: str, message: Message) -> None:
        s = self.smtp
        msg = EmailMessage()
        msg["From"] = s.sender
        msg["To"] = formataddr((name, address))
        msg["Subject"] = message.subject
        msg.set_content(message.body)
        if s.security == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with smtp:
            if s.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if s.user:
                smtp.login(s.user, s.password)
            smtp.send_message(msg)

    def _webhook(self, url: str, event: TurnEvent, text: str, link: str) -> None:
        import httpx

        hook = check_webhook(url, allow_loopback=self.allow_loopback_webhooks,
                             resolve=self.resolve)
        parts = urlsplit(hook.url)
        address = f"[{hook.address}]" if ":" in hook.address else hook.address
        netloc = f"{address}:{parts.port}" if parts.port else address
        pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
        body: dict[str, Any] = {
            "text": text,       # Slack, Mattermost, Rocket.Chat
            "content": text,    # Discord
            "game": event.game, "id": event.game_id, "move": event.n + 1, "url": link,
            "seats": [{"seat": seat, "name": name} for seat, name in event.seats],
        }
        host_header = parts.netloc.rsplit("@", 1)[-1]
        verify: ssl.SSLContext | bool = self.tls if self.tls is not None else True
        with httpx.Client(timeout=self.webhook_timeout, follow_redirects=False,
                          trust_env=False, verify=verify) as client:
            reply = client.post(pinned, json=body, headers={"Host": host_header},
                                extensions={"sni_hostname": hook.host})
        if reply.status_code >= 300:
            raise RuntimeError(f"HTTP {reply.status_code}")


def _reason(exc: Exception) -> str:
    """A failure in words that hold no secret (no URL, no credentials)."""
    if isinstance(exc, NotifyRefused):
        return str(exc)
    if isinstance(exc, RuntimeError) and str(exc).startswith("HTTP "):
        return str(exc)
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{type(exc).__name__} {exc.smtp_code}"
    return type(exc).__name__
