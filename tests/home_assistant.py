"""Home Assistant as people run it, `hass -c CONFIG` in its own process, as the client of
`partyhost serve`, for tests/test_home_assistant.py: driven only through its REST API and
its websocket, the way its frontend does (onboarding, "Add integration", a voice
assistant, Assist's text box).

Home Assistant 2025.4.4 is the last release that runs on Python 3.13.0, which pyenv has
on these machines (2025.5 to 2026.2 ask for 3.13.2, later ones for 3.14.2). It cannot
share partyhost's venv (Python 3.11, and its own pins), so it lives in a venv of its
own, built with pyenv's 3.13 by uv (a test requirement: it downloads and installs the
about 110 packages in parallel, about a minute on a fresh 2-core machine, where pip
took about ten). It is kept in the user's cache folder (~/.cache/partyhost-tests/, or
$XDG_CACHE_HOME's), where every clone on the machine finds it.

It holds Home Assistant and the one requirement its `wyoming` integration
would install at run time (wyoming 1.5.4, its manifest's pin); everything
else the integrations of CONFIGURATION need comes with Home Assistant's own
dependencies, so `hass` installs nothing when it starts.

`hass` writes the bytecode of what it imports (PYTHONDONTWRITEBYTECODE is dropped from its
environment), once per venv, so a later start does not compile Home Assistant's modules
again (what that saves: docs/lab/smart-speaker.md).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from conftest import unavailable
from satellite import free_port

HOME_ASSISTANT_VERSION = "2025.4.4"
WYOMING_FOR_HOME_ASSISTANT = "1.5.4"
"""homeassistant/components/wyoming/manifest.json's requirement in that release."""
CONFIGURATION = """\
# What the tests use of Home Assistant: its API and websocket (the frontend's), onboarding,
# the config entries' flows, and Assist. The wyoming integration comes with its entry.
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
websocket_api:
onboarding:
config:
conversation:
assist_pipeline:
"""
PASSWORD = "a game night password"


def python_313() -> Path | None:
    """A Python 3.13 to build the venv with: pyenv's, or one on the PATH."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found = sorted(root.glob("versions/3.13.*/bin/python3.13"), reverse=True)
    on_path = shutil.which("python3.13")
    return found[0] if found else Path(on_path) if on_path else None


def home_assistant_program() -> Path:
    """The Python of a cached venv holding Home Assistant, built if not there yet."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "partyhost-tests"
    venv = cache / f"home-assistant-{HOME_ASSISTANT_VERSION}"
    venv.mkdir(parents=True, exist_ok=True)
    program = venv / "bin" / "python"
    done = venv / ".installed"
    if done.exists():
        return program
    python = python_313()
    if python is None:
        unavailable(
            f"Home Assistant {HOME_ASSISTANT_VERSION} needs Python 3.13 and none was found "
            "(no pyenv version 3.13.*, no python3.13 on the PATH; Debian 12 packages only 3.11)"
        )
    uv = [sys.executable, "-m", "uv"]
    try:
        subprocess.run(
            [*uv, "venv", "--quiet", "--clear", "--python", str(python), str(venv)],
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
        # uv compiles nothing ahead: Home Assistant is 320 MB of Python; only what is imported is.
        subprocess.run(
            [
                *uv,
                "pip",
                "install",
                "--quiet",
                "--python",
                str(program),
                f"homeassistant=={HOME_ASSISTANT_VERSION}",
                f"wyoming=={WYOMING_FOR_HOME_ASSISTANT}",
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    except subprocess.CalledProcessError as error:
        unavailable(
            f"cannot install Home Assistant {HOME_ASSISTANT_VERSION} into {venv}: {(error.stderr or '')[-800:]}"
        )
    done.touch()
    return program


class RunningHomeAssistant:
    """`hass -c CONFIG` on 127.0.0.1, and a frontend's requests to it, on an event loop of their own."""

    def __init__(self, venv: Path, work: Path):
        config = work / "config"
        config.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        (config / "configuration.yaml").write_text(CONFIGURATION.format(port=self.port))
        self.base = f"http://127.0.0.1:{self.port}"
        self.client_id = f"{self.base}/"  # the frontend's own address, as it sends it
        self.log = work / "hass.log"
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [str(venv / "bin" / "hass"), "-c", str(config)], stdout=log, stderr=subprocess.STDOUT, env=env
            )
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, daemon=True).start()
        self._http = self._run(self._open_http())
        self._socket: aiohttp.ClientWebSocketResponse | None = None
        self._token = ""
        self._sent = 0
        self.conversation_id: str | None = None
        self.pipeline = ""
        self._wait_until_up()

    # ---- plumbing -------------------------------------------------------

    def _run(self, work: Any, timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    async def _open_http(self) -> aiohttp.ClientSession:
        return aiohttp.ClientSession()

    def _wait_until_up(self, timeout: float = 300) -> None:
        """Until its API answers (onboarding's steps, the first thing the frontend asks)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"hass exited: {self.log.read_text()[-3000:]}"
            try:
                self.steps = self.rest("GET", "/api/onboarding")
                return
            except (aiohttp.ClientError, AssertionError, asyncio.TimeoutError, TimeoutError):
                time.sleep(0.5)
        raise AssertionError(f"hass did not answer in {timeout:g} s: {self.log.read_text()[-3000:]}")

    def rest(self, method: str, path: str, body: Any = None, form: dict[str, str] | None = None) -> Any:
        """One request of its HTTP API (as the signed-in user, once there is one); the JSON answer."""

        async def request() -> Any:
            headers = {"Authorization": f"Bearer {self._token}"} if self._token else {}
            async with self._http.request(
                method, self.base + path, json=body, data=form, headers=headers, timeout=aiohttp.ClientTimeout(60)
            ) as answer:
                assert answer.status < 300, f"{method} {path}: {answer.status} {await answer.text()}"
                return await answer.json()

        return self._run(request())

    def command(self, message: dict[str, Any], timeout: float = 60) -> Any:
        """One websocket command; its result."""
        return self._run(self._command(message), timeout + 5)[0]

    async def _command(self, message: dict[str, Any], until_event: str = "") -> tuple[Any, list[dict[str, Any]]]:
        """Send `message` with the next id; its result, and its events up to `until_event`."""
        assert self._socket is not None, "sign in first (onboard)"
        self._sent += 1
        await self._socket.send_json({**message, "id": self._sent})
        result, events = None, []
        while True:
            answer = await asyncio.wait_for(self._socket.receive_json(), 60)
            if answer.get("id") != self._sent:
                continue
            if answer["type"] == "result":
                assert answer["success"], answer
                result = answer["result"]
                if not until_event:
                    return result, events
            elif answer["type"] == "event":
                events.append(answer["event"])
                if answer["event"].get("type") in (until_event, "error"):
                    return result, events

    # ---- what a person does in the frontend ------------------------------

    def onboard(self) -> None:
        """The four steps of a new Home Assistant: the owner's account, the location, analytics
        and "finish"; then signed in, with the websocket open, as the frontend is."""
        user = {"client_id": self.client_id, "name": "Ana", "username": "ana", "password": PASSWORD, "language": "en"}
        code = self.rest("POST", "/api/onboarding/users", user)["auth_code"]
        grant = {"grant_type": "authorization_code", "code": code, "client_id": self.client_id}
        self._token = self.rest("POST", "/auth/token", form=grant)["access_token"]
        self.rest("POST", "/api/onboarding/core_config", {})
        self.rest("POST", "/api/onboarding/analytics", {})
        self.rest("POST", "/api/onboarding/integration", {"client_id": self.client_id, "redirect_uri": self.client_id})
        self._run(self._open_socket())

    async def _open_socket(self) -> None:
        self._socket = await self._http.ws_connect(f"{self.base}/api/websocket")
        assert (await self._socket.receive_json())["type"] == "auth_required"
        await self._socket.send_json({"type": "auth", "access_token": self._token})
        answer = await self._socket.receive_json()
        assert answer["type"] == "auth_ok", answer

    def add_wyoming_service(self, host: str, port: int) -> dict[str, Any]:
        """Settings -> Devices & services -> Add integration -> Wyoming Protocol: the flow's result."""
        shown = self.rest(
            "POST", "/api/config/config_entries/flow", {"handler": "wyoming", "show_advanced_options": False}
        )
        assert shown["type"] == "form" and shown["step_id"] == "user", shown
        return self.rest("POST", f"/api/config/config_entries/flow/{shown['flow_id']}", {"host": host, "port": port})

    def agent(self, name: str, timeout: float = 60) -> str:
        """The conversation agent called `name`, once its entry has set it up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            agents = self.command({"type": "conversation/agent/list", "language": "en"})["agents"]
            found = [agent["id"] for agent in agents if agent["name"] == name and agent["supported_languages"]]
            if found:
                return found[0]
            time.sleep(0.2)
        raise AssertionError(f"no conversation agent {name!r}: {agents}")

    def make_assistant(self, agent: str) -> None:
        """Settings -> Voice assistants -> Add assistant, with `agent` as its conversation agent
        and "Prefer handling commands locally" off, as docs/home-assistant.md says."""
        fields = {"stt_engine": None, "stt_language": None, "tts_engine": None, "tts_language": None}
        fields |= {"tts_voice": None, "wake_word_entity": None, "wake_word_id": None}
        self.pipeline = self.command(
            {
                "type": "assist_pipeline/pipeline/create",
                "name": "Party games",
                "language": "en",
                "conversation_engine": agent,
                "conversation_language": "en",
                "prefer_local_intents": False,
                **fields,
            }
        )["id"]

    def say(self, text: str) -> dict[str, Any]:
        """What the assistant answers to `text` typed in Assist (its pipeline run from intent to
        intent, in one conversation, as the dialog keeps it): the conversation's result."""
        run = {"type": "assist_pipeline/run", "start_stage": "intent", "end_stage": "intent"}
        run |= {"input": {"text": text}, "pipeline": self.pipeline, "conversation_id": self.conversation_id}
        _, events = self._run(self._command(run, until_event="run-end"), 120)
        ended = [event["data"] for event in events if event["type"] == "intent-end"]
        assert ended, events
        result = ended[0]["intent_output"]
        self.conversation_id = result["conversation_id"] or self.conversation_id
        response = result["response"]
        return {
            "speech": response["speech"].get("plain", {}).get("speech", ""),
            "response_type": response["response_type"],
            "continue_conversation": result.get("continue_conversation"),
        }

    def stop(self) -> None:
        if self._socket is not None:
            self._run(self._socket.close())
        self._run(self._http.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)  # its shutdown is not what is tested
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="session")
def home_assistant_venv() -> Path:
    return home_assistant_program().parent.parent


@pytest.fixture
def home_assistant(home_assistant_venv, tmp_path):
    running = RunningHomeAssistant(home_assistant_venv, tmp_path / "home-assistant")
    yield running
    running.stop()
