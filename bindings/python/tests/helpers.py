"""Shared test data and handlers."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Dict, List, Optional


def page(names: List[str], next_url: Optional[str] = None, first_id: int = 1) -> Dict[str, Any]:
    """A ``pageLoaded`` event with one repository per name."""
    items = [{"id": first_id + index, "name": name, "stars": 10 * (index + 1)} for index, name in enumerate(names)]
    loaded: Dict[str, Any] = {"items": items}
    if next_url is not None:
        loaded["nextURL"] = next_url
    return {"pageLoaded": loaded}


def waits_until_cancelled(cancelled: List[bool]) -> Callable[[Any], Awaitable[None]]:
    """An async effect handler that never answers: it waits until its task is cancelled,
    then appends ``True`` to ``cancelled``."""

    async def handler(request: Any) -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    return handler
