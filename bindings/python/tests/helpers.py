"""Shared test data."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


def page(names: List[str], next_url: Optional[str] = None, first_id: int = 1) -> Dict[str, Any]:
    """A ``pageLoaded`` event with one repository per name."""
    items = [{"id": first_id + index, "name": name, "stars": 10 * (index + 1)} for index, name in enumerate(names)]
    loaded: Dict[str, Any] = {"items": items}
    if next_url is not None:
        loaded["nextURL"] = next_url
    return {"pageLoaded": loaded}
