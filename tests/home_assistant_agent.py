"""Home Assistant core with its Wyoming integration, driven line by line: run by the Python
of Home Assistant's own venv (tests/home_assistant.py builds it), never by partyhost's.

It starts Home Assistant as its own tests do (the core, its registries, then only the
integrations asked for: `conversation` and `wyoming`, with what they depend on), adds
a Wyoming service by the integration's config flow, as "Add integration -> Wyoming
Protocol" does, and passes what a player says to that entry's conversation agent
with `conversation.async_converse`, Assist's own entry point. One JSON object a line:

  in:  {"add": {"host": "127.0.0.1", "port": 10800}}
  out: {"flow": <the config flow's result>, "agent": "conversation.partyhost"}
  in:  {"say": "let's play keep it 100"}
  out: {"speech": "...", "response_type": "action_done" | "error", "error_code": ..., "conversation_id": ...}

Every line in gets one line out; {"error": "..."} when something failed, so the test
reads a reason rather than waiting.
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from typing import Any

from homeassistant import bootstrap, config_entries, loader
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.core_config import async_process_ha_core_config
from homeassistant.helpers import entity_registry
from homeassistant.setup import async_setup_component

CONVERSATION_ID = "partyhost-table"
"""One conversation for the whole game, as one Assist device keeps while the table talks."""


async def start(config_dir: str, http_port: int) -> HomeAssistant:
    """Home Assistant's core and the two integrations, with nothing installed at run time."""
    hass = HomeAssistant(config_dir)
    loader.async_setup(hass)
    hass.config.skip_pip = True  # its venv holds what these integrations need
    hass.config_entries = config_entries.ConfigEntries(hass, {})
    await loader.async_get_custom_components(hass)
    await bootstrap.async_load_base_functionality(hass)
    assert await async_setup_component(hass, "homeassistant", {})
    await async_process_ha_core_config(
        hass, {"name": "partyhost test", "unit_system": "metric", "time_zone": "UTC", "country": "GB", "language": "en"}
    )
    config = {"http": {"server_host": ["127.0.0.1"], "server_port": http_port}}
    for domain in ("http", "conversation", "wyoming"):
        if not await async_setup_component(hass, domain, config):
            raise RuntimeError(f"Home Assistant could not set up its {domain} integration")
    await hass.async_start()
    return hass


async def add_service(hass: HomeAssistant, host: str, port: int) -> dict[str, Any]:
    """The Wyoming entry, added by the config flow's user step; its conversation agent."""
    flow = hass.config_entries.flow
    shown = await flow.async_init("wyoming", context={"source": config_entries.SOURCE_USER})
    result = await flow.async_configure(shown["flow_id"], {"host": host, "port": port})
    if result["type"] != "create_entry":
        return {"flow": _plain(result), "agent": None}
    await hass.async_block_till_done()
    entry = result["result"]
    agents = [
        e.entity_id
        for e in entity_registry.async_entries_for_config_entry(entity_registry.async_get(hass), entry.entry_id)
        if e.domain == "conversation"
    ]
    return {"flow": _plain(result), "agent": agents[0] if agents else None, "entry_state": entry.state.value}


async def say(hass: HomeAssistant, agent: str, text: str) -> dict[str, Any]:
    result = await conversation.async_converse(hass, text, CONVERSATION_ID, Context(), language="en", agent_id=agent)
    response = result.response
    return {
        "speech": response.speech.get("plain", {}).get("speech", ""),
        "response_type": response.response_type.value,
        "error_code": response.error_code.value if response.error_code else None,
        "conversation_id": result.conversation_id,
    }


def _plain(value: Any) -> Any:
    """A flow result as JSON can carry it (entries, schemas and enums as text)."""
    return json.loads(json.dumps({k: v for k, v in value.items() if k != "result"}, default=str))


async def main(config_dir: str, http_port: int) -> None:
    hass = await start(config_dir, http_port)
    print(json.dumps({"ready": True, "version": sys.modules["homeassistant.const"].__version__}), flush=True)
    agent = None
    lines = asyncio.Queue()
    loop = asyncio.get_running_loop()
    loop.add_reader(sys.stdin.fileno(), lambda: lines.put_nowait(sys.stdin.readline()))
    while line := await lines.get():
        try:
            asked = json.loads(line)
            if "add" in asked:
                answer = await add_service(hass, asked["add"]["host"], int(asked["add"]["port"]))
                agent = answer["agent"]
            elif "say" in asked:
                answer = await say(hass, agent, asked["say"]) if agent else {"error": "no agent added yet"}
            else:
                answer = {"error": f"unknown request {asked!r}"}
        except Exception as error:  # the test reads why, whatever it was
            answer = {"error": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()}
        print(json.dumps(answer), flush=True)
    loop.remove_reader(sys.stdin.fileno())
    await hass.async_stop()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
