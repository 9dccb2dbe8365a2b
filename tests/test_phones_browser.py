"""The phone pages in a real browser: Debian's chromium, driven by Playwright (no browser download).

Two players join through the join page, see their own cards, follow a typed
("voice-driven") move and a move made by a button, and cannot reach the other's
hand by any URL or message. The page passes axe-core's checks and has the
labels, roles and live region a screen reader needs; Keep Cool's swap works by
keyboard alone. With PARTYHOST_SCREENSHOTS=DIR the pages are also saved as PNGs
(docs/phones/ holds the committed ones).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import unavailable
from phone_game import CENTURION, LiveGame, free_port, running_centurion

from host.engine import GameOptions

pytestmark = [pytest.mark.browser, pytest.mark.slow]

expect = None  # playwright.sync_api.expect, once the browser fixture has imported it

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 412, "height": 915}
KEEP_COOL = GameOptions(
    players=("Ana", "Ben", "Cy"), mode="basic", deal="host", seed=7, rules={"face": "red", "line": 1, "relaxed": True}
)
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        unavailable(f"playwright is not installed ({error}); scripts/test installs it")
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        unavailable("Debian's chromium is missing (/usr/bin/chromium): run scripts/ci-system-deps")
    global expect
    from playwright.sync_api import expect

    with sync_playwright() as playwright:
        # launch() gives every run a fresh temporary profile (user-data-dir).
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")),
            headless=True,
            args=LAUNCH_ARGS,
        )
        yield chromium
        chromium.close()


def phone(browser):
    """A new phone: its own cookies and storage, and every WebSocket frame it receives."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.frames_seen = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: page.frames_seen.append(str(data))))
    return page


def join(page, game: LiveGame, player: str) -> None:
    page.goto(game.base + "/")
    page.get_by_label("Join code (the host says it)").fill(game.table.seats.code)
    page.get_by_label(player).check()
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"**/seat/{player}#*")
    page.locator("#cards li").first.wait_for(timeout=WAIT_MS)


def labels(page) -> list[str]:
    return page.locator("#cards li .card-label").all_inner_texts()


def own_cards(game: LiveGame, player: str) -> list[str]:
    view = game.game.hand_view(game.session.state, player)
    return [card.label for card in view.cards]


def shoot(page, name: str) -> None:
    folder = os.environ.get("PARTYHOST_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.fixture
def centurion_game(tmp_path: Path):
    yield from running_centurion(tmp_path)


def test_two_players_see_their_own_cards_and_follow_the_game(browser, centurion_game: LiveGame):
    game = centurion_game
    ana, ben = phone(browser), phone(browser)
    ana.goto(game.base + "/")
    shoot(ana, "join")
    join(ana, game, "Ana")
    join(ben, game, "Ben")
    assert labels(ana) == own_cards(game, "Ana") and len(labels(ana)) == 7
    assert labels(ben) == own_cards(game, "Ben")
    assert not set(labels(ana)) & set(labels(ben))

    # A spoken (here typed) move: Ben leads; both pages follow.
    prompt = game.prompt()
    assert prompt.player == "Ben"
    card = labels(ben)[0]
    value = int(ben.locator("#cards li .card-detail").first.inner_text().split()[-1])
    game.say(card)
    expect(ben.locator("#cards li")).to_have_count(6, timeout=WAIT_MS)
    assert card not in labels(ben)
    ana.get_by_text(f"Count {value}.", exact=True).wait_for(timeout=WAIT_MS)
    expect(ben.locator("#live")).to_contain_text(f"Gone: {card}", timeout=WAIT_MS)

    # Ana's turn: she plays by touching a card on her page.
    assert game.prompt().player == "Ana"
    mine = labels(ana)[-1]
    ana.get_by_role("button", name=f"Play the {mine}").click()
    expect(ana.locator("#cards li")).to_have_count(6, timeout=WAIT_MS)
    assert mine not in labels(ana)
    assert game.prompt().player == "Ben"
    assert mine in game.spoken.getvalue().lower()  # the host says it aloud
    shoot(ana, "centurion-ana")

    # Ben's buttons are for Ben's turn only; Ana's page has none now.
    expect(ben.get_by_role("button", name="Play the", exact=False)).to_have_count(6, timeout=WAIT_MS)
    assert ana.get_by_role("button", name="Play the", exact=False).count() == 0


def test_a_player_cannot_read_the_other_hand_by_any_url_or_message(browser, centurion_game: LiveGame):
    game = centurion_game
    ana, ben = phone(browser), phone(browser)
    join(ana, game, "Ana")
    join(ben, game, "Ben")
    ana_token, ben_token = game.token("Ana"), game.token("Ben")
    ben_cards = labels(ben)
    statuses = ana.evaluate("""async () => {
        const mine = location.hash.slice(1);
        const codes = [];
        for (const [url, headers] of [["/api/seat/Ben", {"X-Seat-Token": mine}],
                                      ["/api/seat/Ben", {}],
                                      ["/api/seat/Ben?seat=Ana", {"X-Seat-Token": mine}],
                                      ["/api/seat/Ana/../Ben", {"X-Seat-Token": mine}],
                                      ["/api/seat/ben", {"X-Seat-Token": mine}]]) {
            codes.push((await fetch(url, {headers})).status);
        }
        const post = await fetch("/api/seat/Ben/press", {method: "POST", headers: {"X-Seat-Token": mine},
                                                         body: JSON.stringify({version: 1, action: 0})});
        codes.push(post.status);
        return codes;
    }""")
    assert all(code in (403, 404) for code in statuses) and statuses[0] == 403, statuses
    close_code = ana.evaluate("""() => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws/Ben`);
        ws.onopen = () => ws.send(JSON.stringify({token: location.hash.slice(1)}));
        ws.onclose = (event) => done(event.code);
    })""")
    assert close_code == 4403

    # A message on Ana's own socket cannot name another seat: presses are always hers.
    ana.evaluate("""() => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws/Ana`);
        ws.onopen = () => { ws.send(JSON.stringify({token: location.hash.slice(1)}));
                            ws.send(JSON.stringify({press: 0, version: 1, player: "Ben", seat: "Ben"})); };
        ws.onmessage = () => { ws.close(); done(); };
    })""")
    assert game.prompt().player == "Ben"
    ana.wait_for_timeout(500)
    assert game.ears.prompts.empty()  # nothing was played for Ben

    # Ana's token on Ben's page address: refused, no cards shown.
    ana.goto(f"{game.base}/seat/Ben#{ana_token}")
    ana.get_by_text("This link does not open this seat.", exact=False).first.wait_for(timeout=WAIT_MS)
    assert labels(ana) == []
    seen = " ".join(ana.frames_seen) + ana.content()
    assert not any(card in seen for card in ben_cards)
    assert ben_token not in seen and ben_token not in " ".join(ben.frames_seen)
    assert ana_token not in game.spoken.getvalue() and ben_token not in game.spoken.getvalue()
    assert game.table.seats.code in game.spoken.getvalue().replace(" ", "")  # the code is said


def test_the_hand_page_is_accessible(browser, centurion_game: LiveGame):
    from axe_playwright_python.sync_playwright import Axe

    game = centurion_game
    page = phone(browser)
    page.goto(game.base + "/")
    join_results = Axe().run(page)
    assert join_results.violations_count == 0, join_results.generate_report()
    join(page, game, "Ben")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    live = page.get_by_role("status")
    assert live.get_attribute("aria-live") == "polite"
    assert page.locator("h1").count() == 1 and page.get_by_role("heading", level=2).count() >= 4
    assert page.get_by_role("list").count() >= 3
    buttons = page.get_by_role("button").all()
    assert len(buttons) == 8  # 7 cards to play and "Read me my cards"
    for button in buttons:
        name = button.get_attribute("aria-label") or button.inner_text()
        assert name.strip(), button.evaluate("b => b.outerHTML")
    assert page.get_by_role("button", name="Read me my cards").is_enabled()
    assert live.inner_text().startswith("Your 7 cards:")
    # "Read me my cards" speaks on the phone; here the synthesiser is watched, not heard.
    page.evaluate("""() => { window.spoken = [];
        window.speechSynthesis.speak = (u) => window.spoken.push(u.text); }""")
    page.get_by_role("button", name="Read me my cards").click()
    assert page.evaluate("window.spoken")[0] == game.game.hand_view(game.session.state, "Ben").spoken
    # Large text: the card names are at least 24 CSS pixels.
    size = page.locator(".card-label").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24


def test_keep_cool_swap_by_keyboard_and_marking_a_word(browser, tmp_path: Path):
    from axe_playwright_python.sync_playwright import Axe

    game = LiveGame("keep-cool", KEEP_COOL, tmp_path).start()
    try:
        first = game.prompt()
        assert first.name == "keep-cool/setup" and first.player == "Ana"
        ana, ben = phone(browser), phone(browser)
        join(ana, game, "Ana")
        join(ben, game, "Ben")
        before = labels(ana)
        assert ben.get_by_role("button", name="Swap card", exact=False).count() == 0
        assert ana.get_by_role("button", name="Mark as cluing", exact=False).count() == 0  # not while swapping
        swap = ana.get_by_role("button", name=f"Swap card 2, {before[1]}")
        shoot(ana, "keep-cool-swap")
        swap.focus()
        ana.keyboard.press("Enter")
        expect(ana.locator("#cards .card-label").nth(1)).not_to_have_text(before[1], timeout=WAIT_MS)
        after = labels(ana)
        assert after[0] == before[0] and after[2:] == before[2:] and after[1] != before[1]
        expect(ana.locator("#live")).to_contain_text("New card 2", timeout=WAIT_MS)
        assert game.prompt().player == "Ben"
        ben.get_by_role("button", name="Keep all four").wait_for(timeout=WAIT_MS)
        game.say("no")  # Ben keeps his cards by voice
        assert game.prompt().player == "Cy"
        game.say("no")
        play = game.prompt()
        assert play.name == "keep-cool/word"
        expect(ana.get_by_role("button", name="Mark as cluing", exact=False)).to_have_count(4, timeout=WAIT_MS)
        mark = ana.get_by_role("button", name=f"Mark as cluing: {after[0]}")
        mark.wait_for(timeout=WAIT_MS)
        assert mark.get_attribute("aria-pressed") == "false"
        mark.focus()
        ana.keyboard.press("Space")
        expect(ana.locator("#cards li").first).to_have_class("card marked", timeout=WAIT_MS)
        assert ana.get_by_role("button", name=f"Mark as cluing: {after[0]}").get_attribute("aria-pressed") == "true"
        assert "You are cluing this word." in ana.locator("#cards li").first.inner_text()
        assert ben.locator("#cards li.marked").count() == 0
        results = Axe().run(ana)
        assert results.violations_count == 0, results.generate_report()
        shoot(ana, "keep-cool-ana")
    finally:
        game.finish()


def test_after_a_host_restart_a_reload_shows_the_same_hand(browser, tmp_path: Path):
    port = free_port()
    first = LiveGame("centurion", CENTURION, tmp_path, port=port).start()
    page = phone(browser)
    join(page, first, "Ana")
    before = labels(page)
    first.prompt()
    first.finish()
    second = LiveGame("centurion", CENTURION, tmp_path, port=port, session_id=first.session_id)
    second.start(resume=True)
    try:
        page.reload()
        page.locator("#cards li").first.wait_for(timeout=WAIT_MS)
        assert labels(page) == before
        assert page.locator("#connection").inner_text() == "Connected to the host."
    finally:
        second.finish()
