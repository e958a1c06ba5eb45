"""The pages: the lobby, the Trambahn table (seat, hotseat, spectator), the end screen.

Routes (all server-rendered; the JavaScript in ``static/`` only refreshes the table in place):

* ``GET /``: the lobby (create a game, the games this browser holds seats in);
* ``POST /new`` (``/new1840``): create a game through the API, then ``303`` to
  ``GET /g/{id}/created``, the seat and spectator links (kept in a signed cookie of this
  browser for ten minutes: :mod:`tramways.server.web.created`; a reload creates nothing);
* ``GET /g/{id}?token=T``: the table for seat T (``token`` twice: both seats at one screen,
  with a "pass the device" screen between turns; no token: a spectator); ``?at=N`` a past
  position; ``GET /g/{id}/table`` is the same table without the page around it;
* ``POST /g/{id}/move`` and ``/undo``: play through the API, then show the table again;
* ``GET /g/{id}/record``: the finished game's record as a download.

The 1840 map's costly reads (board after a lay, claimed route, hex previews) are in
:mod:`tramways.server.web.previews`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlencode

import anyio.to_thread
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from tramways.g1840.view_types import View1840, as_view1840
from tramways.server.deps import lane_of
from tramways.server.errors import ApiError
from tramways.server.urls import seat_url, spectator_url
from tramways.server.web import costly, created, g1840_history, g1840_table
from tramways.server.web.analysis_view import analysis_context
from tramways.server.web.backend import ApiReply, Backend, BackendDep
from tramways.server.web.forms import (
    MAPS_1840,
    SEAT_KINDS,
    FormDep,
    FormRefused,
    NewGameForm,
    g1840_form,
    number,
    one,
    trambahn_form,
)
from tramways.server.web.i18n import environment, negotiate, translations
from tramways.server.web.payload import TablePayload
from tramways.server.web.table import table_model
from tramways.trambahn.view_types import as_trambahn_view

router = APIRouter(include_in_schema=False)

Tokens = Annotated[list[str] | None, Query(description="seat tokens (two: both seats here)")]


def _lang(request: Request) -> str:
    return negotiate(
        request.query_params.get("lang"),
        request.cookies.get("lang"),
        request.headers.get("accept-language"),
    )


async def _render(request: Request, template: str, status: int = 200,
                  **context: Any) -> HTMLResponse:
    """The page, rendered in a worker thread (the 1840 table is some ms of Python: never on
    the event loop); a past position's in the lane of the costly reads."""
    heavy = lane_of(request) if context.get("at") is not None else None
    return await anyio.to_thread.run_sync(
        lambda: _render_now(request, template, status, **context), limiter=heavy)


def _render_now(request: Request, template: str, status: int = 200,
                **context: Any) -> HTMLResponse:
    lang = _lang(request)

    def lang_url(code: str) -> str:
        if request.method != "GET":
            if context.get("gid") and not context.get("missing"):  # a table shown after a post
                pairs = [("token", t) for t in context.get("tokens") or []]
                return f"/g/{context['gid']}?{urlencode([*pairs, ('lang', code)])}"
            return f"/?{urlencode([('lang', code)])}"
        pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
        return f"{request.url.path}?{urlencode([*pairs, ('lang', code)])}"

    html = environment(lang).get_template(template).render(
        request=request, lang_url=lang_url, **context
    )
    response = HTMLResponse(html, status_code=status)
    asked = request.query_params.get("lang")
    if asked and asked == lang:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


# -- lobby -------------------------------------------------------------------------------------


async def _lobby(request: Request, status: int = 200, **context: Any) -> HTMLResponse:
    return await _render(request, "lobby.html", status=status, kinds=SEAT_KINDS, maps=MAPS_1840,
                         **context)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    return await _lobby(request)


@router.post("/new", response_class=HTMLResponse)
async def new_game(request: Request, b: BackendDep, form: FormDep) -> Response:
    """Create a Trambahn game from the lobby's form (the API's body, :mod:`.forms`)."""
    return await _create(request, b, lambda: trambahn_form(
        form, lambda kind, i, kinds: _default_name(request, kind, i, kinds)))


@router.post("/new1840", response_class=HTMLResponse)
async def new_1840(request: Request, b: BackendDep, form: FormDep) -> Response:
    """Create an 1840 game: 2-6 seats (a person or a bot each), the map, an optional seed."""
    say = translations(_lang(request)).gettext  # a seat left without a name: in the page's words
    return await _create(request, b, lambda: g1840_form(form, lambda n: say("Player %(n)d") % {"n": n}))


async def _create(request: Request, b: Backend, read: Callable[[], NewGameForm]
                  ) -> Response:
    """Refusals re-render the form with their error; a created game is a redirect after post
    to its "created" page (a reload must not create a second game)."""
    try:
        asked = read()
    except FormRefused as exc:
        return await _lobby(request, status=422, error=exc.key)
    reply = await b.create(asked.fields, asked.seed)
    if not reply.ok:
        return await _lobby(request, status=reply.status, error="create", detail=_detail(reply.data))
    on_resign = (asked.fields.get("pace") or {}).get("on_resign", "bot")
    if on_resign != "bot":  # what a resignation does, as POST /api/games keeps it
        await anyio.to_thread.run_sync(request.app.state.deadlines.store.set_on_resign,
                                       str(reply.data["id"]), on_resign)
    made = created.Created.of(reply.data, asked.hotseat)
    lang = request.query_params.get("lang")
    target = made.path() + (f"?{urlencode([('lang', lang)])}" if lang else "")
    response = RedirectResponse(target, status_code=303)
    created.keep(request, response, made)
    return response


@router.get("/g/{gid}/created", response_class=HTMLResponse)
async def created_page(request: Request, gid: str) -> Response:
    """The links of a game this browser just created (from its signed cookie); without the
    cookie (another browser, or later): the spectator's page."""
    made = created.read(request, gid)
    if made is None:
        return RedirectResponse(spectator_url(gid), status_code=303)
    return await _created(request, made)


async def _created(request: Request, made: created.Created) -> HTMLResponse:
    base = str(request.base_url).rstrip("/")
    gid, hotseat = made.game_id, made.hotseat
    game = {"id": gid, "game": made.game}
    seats = [{"seat": s.seat, "kind": s.kind, "name": s.name, "token": s.token,
              "link": seat_url(gid, s.token, base) if s.token else None} for s in made.seats]
    human_tokens = [s.token for s in made.seats if s.kind == "human" and s.token]
    hotseat_link = (
        seat_url(game["id"], human_tokens, base)
        if hotseat and len(human_tokens) == 2
        else None
    )
    saved = {
        "id": game["id"],
        "hotseat": bool(hotseat_link),
        # This browser keeps both seats of a game at one screen, else the first human seat
        # (the other link is for the other player).
        "seats": [
            {"seat": s["seat"], "token": s["token"], "name": s["name"]}
            for s in seats
            if s["kind"] == "human" and s["token"]
        ][: 2 if hotseat_link else 1],
    }
    return await _render(
        request,
        "created.html",
        game=game,
        seats=seats,
        spectate=spectator_url(game["id"], base),
        hotseat_link=hotseat_link,
        saved=json.dumps(saved),
    )


def _default_name(request: Request, kind: str, index: int, kinds: list[str]) -> str | None:
    """A seat left without a name: "Computer" for a bot (numbered if both are), else the
    engine's own default (P1, P2)."""
    if kind == "human":
        return None
    _ = translations(_lang(request)).gettext
    if all(k != "human" for k in kinds):
        return _("Computer %(n)d") % {"n": index + 1}
    return _("Computer")


# -- the table ---------------------------------------------------------------------------------


def _detail(data: Any) -> str:
    if isinstance(data, dict):
        rule = data.get("rule")
        message = data.get("message") or data.get("detail") or ""
        if isinstance(message, list | dict):
            message = json.dumps(message)
        return f"{rule}: {message}" if rule else str(message)
    return str(data)[:300]


async def _table(
    request: Request, b: Backend, gid: str, tokens: list[str], ready: int | None, at: int | None
) -> dict[str, Any]:
    """Load what this page may show: the seat's (or spectator's) state, or the pass screen."""
    tokens = [t for t in tokens if t][:2]
    token = tokens[0] if tokens else None
    if at is not None:
        try:
            b.limits.read(b.address)
        except ApiError as exc:
            return {"missing": True, "api_status": exc.status, "detail": _detail(exc.body)}
    reply = await b.state(gid, token, at)
    if not reply.ok:
        return {"missing": True, "api_status": reply.status, "detail": _detail(reply.data)}
    state = reply.data
    hotseat = len(tokens) == 2
    if hotseat and _waits_for_other_seat(state):
        token = tokens[1]
        other = await b.state(gid, token, at)
        if not other.ok:
            return {"missing": True, "api_status": other.status, "detail": _detail(other.data)}
        state = other.data
    payload = TablePayload.from_json(state)
    context: dict[str, Any] = {
        "missing": False,
        "gid": gid,
        "tokens": tokens,
        "token": token,
        "hotseat": hotseat,
        "at": at,
        "ready": ready,
        "n_now": payload.n,
        "rev": payload.rev,
        "ws_token": tokens[0] if tokens else "",
    }
    context["q"] = _query(context)
    context["latest"] = payload.latest

    context["q_at"] = costly.AtQuery(tuple(tokens))
    if payload.game == "1840" and state.get("at") is not None:
        context["seats"] = state.get("seats") or []
        context["g"] = True
        context["g_html"] = await _past_1840(request, b, gid, state, context)
        return context
    if payload.game == "1840":
        context["g"] = await _cpu(b, False, g1840_table.table_model, state)
        context["seats"] = state.get("seats") or []
        context.update(await g1840_history.history_context(
            b, gid, token, state, at, translations(_lang(request)).gettext))
        view = as_view1840(payload.view)
        if view.finished:
            context["charts"] = await _charts(b, gid, token, view)
            context["analysis"] = await analysis_context(request, gid, view)
        return context
    if (payload.game or "trambahn") != "trambahn":
        context["other_game"] = payload.game
        return context
    tview = as_trambahn_view(payload.view)
    if hotseat and not tview.over and ready != tview.turn:
        context["pass_screen"] = {
            "name": tview.names[tview.turn],
            "seat": tview.turn,
            "turn_number": tview.turn_number,
            "scores": list(tview.scores),
            "names": list(tview.names),
        }
        context["ready_q"] = _query({"tokens": tokens, "ready": tview.turn})
        return context
    context["t"] = await _cpu(b, at is not None, table_model, state)
    context["seats"] = state.get("seats") or []
    context["analysis"] = await analysis_context(request, gid, tview) if tview.over else None
    return context


def _waits_for_other_seat(state: dict[str, Any]) -> bool:
    """Whether a hot-seat Trambahn page (two tokens) should show the second seat: the game
    goes on and the first token's seat is not in turn.  An 1840 page shows the first seat."""
    if state.get("game", "trambahn") != "trambahn":
        return False
    view = as_trambahn_view(state["view"])
    return not view.over and view.you != view.turn


async def _cpu(b: Backend, heavy: bool, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker thread (CPU work never runs on the event loop); ``heavy``:
    in the lane of the costly reads (``ServerSettings.heavy_threads`` at once)."""
    return await anyio.to_thread.run_sync(
        lambda: fn(*args), limiter=b.heavy if heavy else None)


async def _past_1840(request: Request, b: Backend, gid: str, state: dict[str, Any],
                     context: dict[str, Any]) -> Markup:
    """The 1840 table of a past position, model and HTML, made by the read pool's workers (a
    costly read: never in this process's interpreter), kept by the game's revision, the
    position, the language and the page's tokens."""
    lang = _lang(request)
    key = ("table", gid, state["rev"], state["at"], lang, tuple(context["tokens"]),
           context["ready"])
    html = b.reads.kept(key)
    if html is None:
        extra = await g1840_history.history_context(
            b, gid, context["token"], state, state["at"], translations(lang).gettext)
        html = await b.reads.run(key, costly.table_html, state, lang, {**context, **extra})
    return Markup(html)


_CHARTS: dict[str, dict[str, str]] = {}
"""After-game charts of finished 1840 games (a finished record never changes)."""


async def _charts(b: Backend, gid: str, token: str | None, view: View1840) -> dict[str, str]:
    if gid not in _CHARTS:
        reply = await b.record(gid, token)
        if not reply.ok:
            return {}
        names = [p.name for p in view.players]
        if len(_CHARTS) > 100:
            _CHARTS.clear()
        _CHARTS[gid] = g1840_table.history_charts(reply.data, names)
    return _CHARTS[gid]


def _query(ctx: dict[str, Any], **extra: Any) -> str:
    pairs: list[tuple[str, Any]] = [("token", t) for t in ctx.get("tokens", [])]
    if ctx.get("ready") is not None:
        pairs.append(("ready", ctx["ready"]))
    for k, v in extra.items():
        if v is not None:
            pairs.append((k, v))
    return urlencode(pairs)


@router.get("/g/{gid}", response_class=HTMLResponse)
async def table_page(
    request: Request,
    b: BackendDep,
    gid: str,
    token: Tokens = None,
    ready: int | None = None,
    at: int | None = None,
) -> HTMLResponse:
    ctx = await _table(request, b, gid, token or [], ready, at)
    status = _status(ctx)
    await _notify_context(request, b, gid, ctx)
    return await _render(request, "game.html", status=status, **ctx)


async def _notify_context(request: Request, b: Backend, gid: str, ctx: dict[str, Any]
                          ) -> None:
    """A seat's page (not a spectator's, not one screen for two) offers "your turn" by e-mail
    and the game's webhook."""
    tokens = [t for t in ctx.get("tokens") or [] if t]
    if ctx.get("missing") or len(tokens) != 1 or ctx.get("at") is not None:
        return
    reply = await b.notify_settings(gid, tokens[0])
    if reply.ok:
        ctx["notify"] = reply.data
        ctx["notify_smtp"] = bool(request.app.state.settings.smtp.enabled)


@router.post("/g/{gid}/notify")
async def set_notify(request: Request, b: BackendDep, gid: str, form: FormDep) -> Response:
    """The notification form: this seat's e-mail address and the game's webhook (the webhook
    field left empty keeps the one set; "clear" removes it)."""
    token = one(form, "act_token") or None
    changes: dict[str, str | None] = {"email": one(form, "email").strip() or None}
    hook = one(form, "webhook").strip()
    if hook:
        changes["webhook"] = hook
    if one(form, "clear_webhook"):
        changes["webhook"] = None
    reply = await b.set_notify(gid, token, changes, _lang(request))
    back = _query({"tokens": [token] if token else []})
    if reply.ok:
        return RedirectResponse(f"/g/{gid}?{back}#notify", status_code=303)
    ctx = await _table(request, b, gid, [token] if token else [], None, None)
    await _notify_context(request, b, gid, ctx)
    ctx["notify_error"] = _detail(reply.data)
    if "notify" in ctx:
        ctx["notify"] = {**ctx["notify"], "email": changes["email"]}  # as typed, to correct
    return await _render(request, "game.html", status=reply.status, **ctx)


@router.get("/g/{gid}/table", response_class=HTMLResponse)
async def table_fragment(
    request: Request,
    b: BackendDep,
    gid: str,
    token: Tokens = None,
    ready: int | None = None,
    at: int | None = None,
) -> HTMLResponse:
    ctx = await _table(request, b, gid, token or [], ready, at)
    status = _status(ctx)
    return await _render(request, _fragment(ctx), status=status, **ctx)


def _status(ctx: dict[str, Any]) -> int:
    """200 for a table; 429 when a past position was asked for too fast; else 404."""
    if not ctx["missing"]:
        return 200
    return 429 if ctx.get("api_status") == 429 else 404


def _fragment(ctx: dict[str, Any]) -> str:
    if ctx.get("g_html"):
        return "_html.html"  # made by the read pool (a past 1840 position)
    return "g1840.html" if ctx.get("g") else "table.html"


async def _after(
    request: Request,
    b: Backend,
    gid: str,
    reply: ApiReply,
    tokens: list[str],
    ready: int | None,
    fragment: str,
) -> Response:
    if reply.ok and not fragment:
        back = _query({"tokens": tokens, "ready": ready})
        return RedirectResponse(f"/g/{gid}?{back}", status_code=303)
    ctx = await _table(request, b, gid, tokens, ready, None)
    if not reply.ok:
        ctx["error"] = {"status": reply.status, "detail": _detail(reply.data)}
    template = _fragment(ctx) if fragment else "game.html"
    return await _render(request, template, **ctx)


@router.post("/g/{gid}/move")
async def move(request: Request, b: BackendDep, gid: str, form: FormDep) -> Response:
    reply = await b.move(gid, one(form, "act_token") or None, number(form, "n") or 0,
                         one(form, "action"))
    return await _after(
        request, b, gid, reply, form.get("token", []), number(form, "ready"), one(form, "fragment")
    )


@router.post("/g/{gid}/undo")
async def undo(request: Request, b: BackendDep, gid: str, form: FormDep) -> Response:
    reply = await b.undo(gid, one(form, "act_token") or None, number(form, "n") or 0)
    return await _after(
        request, b, gid, reply, form.get("token", []), number(form, "ready"), one(form, "fragment")
    )


@router.get("/g/{gid}/record")
async def record(request: Request, b: BackendDep, gid: str, token: str | None = None
                 ) -> Response:
    reply = await b.record(gid, token)
    if not reply.ok:
        return await _render(
            request, "game.html", status=reply.status, missing=True, detail=_detail(reply.data),
        )
    return Response(
        json.dumps(reply.data, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{reply.data.get("game", "game")}-{gid}.json"'},
    )
