"""Wiring the accounts into the application (``create_app`` calls :func:`install`)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from tramways.server.accounts.auth import Auth
from tramways.server.accounts.ratings import Rater
from tramways.server.accounts.tables import AccountStore
from tramways.server.limits import RateLimiter


def install(app: FastAPI, settings: Any, shared: bool) -> None:
    """Put the account store, the site's secret, the rater and the limits on
    ``app.state`` and add the routes.  ``shared``: the limits' buckets are in the database
    (every process counts together), as for the moves."""
    state = app.state
    accounts = AccountStore(state.store)
    accounts.publish = state.hub.publish
    state.accounts = accounts
    state.auth = Auth.load(accounts, settings.public_url)
    state.rater = Rater(state.service, accounts)
    state.service.add_listener(state.rater.submit)
    store = state.store if shared else None
    state.login_name_limiter = RateLimiter(
        settings.logins_per_minute / 60.0, 10, what="log-in tries for this name",
        store=store, prefix="login-name:")
    state.login_address_limiter = RateLimiter(
        6 * settings.logins_per_minute / 60.0, 30, what="log-in tries from this address",
        store=store, prefix="login-addr:")
    state.signup_limiter = RateLimiter(
        settings.signups_per_hour / 3600.0, 10, what="new accounts from this address",
        store=store, prefix="signup:")
    state.chat_limiter = RateLimiter(
        settings.chat_per_minute / 60.0, 5, what="chat messages", store=store, prefix="chat:")
    from tramways.server.accounts import admin, chat, email, lobby, pages, substitutes

    state.admins = admin.admin_names(settings.admins)

    app.include_router(pages.router)
    app.include_router(admin.router)
    app.include_router(email.router)
    app.include_router(lobby.router)
    app.include_router(substitutes.router)
    app.include_router(pages.api_router, prefix="/api")
    app.include_router(lobby.api_router, prefix="/api")
    app.include_router(chat.router, prefix="/api")
    app.include_router(substitutes.api_router, prefix="/api")
    state.chat_feed = chat.chat_feed(state)
