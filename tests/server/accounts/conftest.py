"""The browser fixtures of the page tests (one chromium per module, the screenshots' folder)."""

from tests.server.test_notify import smtp_sink  # noqa: F401, E402  (an SMTP sink on loopback)
from tests.server.web.conftest import browser, shots  # noqa: F401
