"""The 1840 map's costly reads, asked by the table's script: the board after a lay
(``GET /g/{id}/board``), a claimed route (``/route``) and one hex's revenue previews
(``/previews``).  Each is computed by the read pool's workers (:mod:`tramways.server.readpool`)
and kept by the game's revision, behind the costly-read lane (``CostlyRead``).
"""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from tramways.core.errors import IllegalAction, NotationError
from tramways.server.deps import CostlyRead
from tramways.server.web import costly, g1840_table
from tramways.server.web.backend import BackendDep

router = APIRouter(include_in_schema=False)


@router.get("/g/{gid}/board", response_class=HTMLResponse, dependencies=[CostlyRead])
async def board_preview(b: BackendDep, gid: str, lay: str = "") -> Response:
    """The 1840 board as it would be after ``lay`` (``L7 lay E17 57 r2``), with that line's
    best run: the map shown before a tile lay is confirmed.  Public (1840 hides nothing).
    Computed by the read pool's workers, kept by the game's revision and the lay."""
    reply = await b.state(gid, None, None)
    if not reply.ok or reply.data.get("game") != "1840":
        return Response(status_code=404)
    m = g1840_table.LAY.match(lay)
    if not m:
        return Response(status_code=422)
    line, placed = int(m.group(1)[1:]), (m.group(2), m.group(3), int(m.group(4)))
    try:
        svg, run = await b.reads.run(("board", gid, reply.data["rev"], line, placed),
                                     costly.board, reply.data["view"], line, placed)
    except (ValueError, KeyError):
        return Response(status_code=422)
    return HTMLResponse(svg, headers={"X-Run-Total": str(run.total if run else 0)})


@router.get("/g/{gid}/route", dependencies=[CostlyRead])
async def claimed_route(b: BackendDep, gid: str, line: int = 0, route: str = "") -> Response:
    """A route of ``line`` claimed by clicking its stops, checked and valued as the engine does
    (IX.2, IX.7, IX.8): JSON ``{"run": ..., "svg": the board with it drawn}``, or 422 with
    ``{"rule", "message"}`` when it is no route.  Whether it is the best (IX.8) is the
    engine's question when it is played.  Public (1840 hides nothing)."""
    reply = await b.state(gid, None, None)
    if not reply.ok or reply.data.get("game") != "1840":
        return Response(status_code=404)
    try:
        svg, run = await b.reads.run(("route", gid, reply.data["rev"], line, route),
                                     costly.board, reply.data["view"], line, None, route)
    except IllegalAction as exc:
        return Response(json.dumps({"rule": exc.rule, "message": exc.message}),
                        status_code=422, media_type="application/json")
    except (NotationError, ValueError, KeyError) as exc:
        return Response(json.dumps({"rule": "IX.7", "message": str(exc)}),
                        status_code=422, media_type="application/json")
    return Response(json.dumps({"run": run.to_json(), "svg": svg}), media_type="application/json")


@router.get("/g/{gid}/previews", dependencies=[CostlyRead])
async def hex_previews(b: BackendDep, gid: str, hex: str = "", token: str | None = None
                       ) -> Response:
    """The revenue previews of one hex's legal lays for this seat (JSON ``{notation: change}``):
    asked by the map when a turn has too many lays to preview them all with the page."""
    reply = await b.state(gid, token, None)
    if not reply.ok or reply.data.get("game") != "1840":
        return Response(status_code=404)
    found = [m for m in map(g1840_table.LAY.match, reply.data.get("legal") or []) if m]
    found = [m for m in found if m.group(2) == hex][: g1840_table.PREVIEW_LIMIT]
    if not found:
        return Response("{}", media_type="application/json")
    line = int(found[0].group(1)[1:])
    lays = [(m.group(2), m.group(3), int(m.group(4))) for m in found]
    previews = await b.reads.run(("previews", gid, reply.data["rev"], line, tuple(lays)),
                                 costly.previews, reply.data["view"], line, lays)
    return Response(json.dumps(previews), media_type="application/json")
