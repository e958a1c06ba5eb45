"""The browser fixtures of the page tests (one chromium per module, the screenshots' folder)."""

from tests.server.web.conftest import browser, shots  # noqa: F401
