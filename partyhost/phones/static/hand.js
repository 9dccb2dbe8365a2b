// One seat's cards, kept up to date over a WebSocket.
// The token comes from the address's fragment (#...), which the browser never sends to
// the server in a request line; it goes only in the socket's first message and in the
// X-Seat-Token header. Everything shown is set with textContent: no markup from data.
"use strict";

const player = decodeURIComponent(location.pathname.split("/").pop());
const token = location.hash.slice(1);
const $ = (id) => document.getElementById(id);
let page = null;          // the last page JSON from the server
let socket = null;
let retryMs = 1000;
let announcedMessage = 0; // the last host message read out
let pendingNote = "";     // what to announce when the host confirms a mark

function announce(text) {
  // Cleared first so the same words are announced again when they repeat.
  const live = $("live");
  live.textContent = "";
  window.setTimeout(() => { live.textContent = text; }, 50);
}

function setConnection(text) { $("connection").textContent = text; }

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(text, onClick, label) {
  const node = element("button", text);
  node.type = "button";
  if (label) node.setAttribute("aria-label", label);
  node.addEventListener("click", onClick);
  return node;
}

function cardLabels(p) {
  return p && p.view ? p.view.cards.map((c) => c.label) : [];
}

function changes(before, after) {
  // Words for what changed in the hand, e.g. "New: piano. Gone: river."
  const old = cardLabels(before), now = cardLabels(after);
  const added = now.filter((l) => !old.includes(l));
  const gone = old.filter((l) => !now.includes(l));
  const parts = [];
  if (added.length) parts.push("New: " + added.join(", ") + ".");
  if (gone.length) parts.push("Gone: " + gone.join(", ") + ".");
  return parts.join(" ");
}

function render(next) {
  const before = page;
  page = next;
  const view = next.view;
  document.title = `${next.player}'s cards – ${next.game}`;
  $("title").textContent = `${next.player}'s cards`;
  $("cards-heading").textContent = view ? view.heading : "Your cards";
  const list = $("cards");
  list.replaceChildren();
  for (const card of view ? view.cards : []) {
    const item = element("li", undefined, card.marked ? "card marked" : "card");
    item.append(element("span", card.label, "card-label"));
    if (card.detail) item.append(element("span", card.detail, "card-detail"));
    if (card.action !== null) {
      item.append(button(card.action_label.split(",")[0] || "Choose", () => press(card.action),
                         card.action_label));
    }
    if (card.marked) item.append(element("span", "You are cluing this word.", "card-detail"));
    if (view.markable) {
      // A toggle: the same name either way, its state in aria-pressed (and shown in words above).
      const toggle = button("Mark as cluing", () => markCard(card.label, !card.marked),
                            `Mark as cluing: ${card.label}`);
      toggle.setAttribute("aria-pressed", card.marked ? "true" : "false");
      item.append(toggle);
    }
    list.append(item);
  }
  $("no-cards").hidden = Boolean(view && view.cards.length);
  const actions = $("actions");
  actions.replaceChildren();
  for (const action of view ? view.actions : []) {
    const item = element("li");
    item.append(button(action.label, () => press(action.action)));
    actions.append(item);
  }
  if (view && view.number) actions.append(numberEntry(view.number));
  $("choices").hidden = !(view && (view.actions.length || view.number)) &&
    !(view && view.cards.some((c) => c.action !== null));
  const facts = $("facts");
  facts.replaceChildren(...(view ? view.facts : []).map((f) => element("li", f)));
  const messages = $("messages");
  messages.replaceChildren(...next.messages.slice().reverse().map((m) => element("li", m.text)));
  $("read").disabled = !view;

  const said = [];
  if (next.over) said.push("The game is over.");
  const fresh = next.messages.filter((m) => m.n > announcedMessage);
  if (fresh.length) {
    announcedMessage = fresh[fresh.length - 1].n;
    if (before) said.push(...fresh.map((m) => m.text));
  }
  if (before) {
    const changed = changes(before, next);
    if (changed && !fresh.length) said.push(changed);
    const turn = view && view.facts.find((f) => f.startsWith("Your turn"));
    if (turn && !(before.view && before.view.facts.includes(turn))) said.push(turn);
  } else if (view) {
    said.push(`${view.heading}: ${cardLabels(next).join(", ") || "none"}.`);
  }
  if (said.length) announce(said.join(" "));
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  announce("Not connected to the host yet; say it instead, or try again in a moment.");
  return false;
}

function press(action, value) {
  if (page) send({ press: action, version: page.version, value: value });
}

// A number only this player sees (a tiebreak guess): a labelled field and a Send button.
function numberEntry(entry) {
  const item = element("li");
  const field = document.createElement("input");
  field.type = "number";
  field.id = "number-entry";
  field.min = String(entry.low);
  field.max = String(entry.high);
  field.inputMode = "numeric";
  const label = element("label", `${entry.label} (${entry.low} to ${entry.high})`);
  label.htmlFor = field.id;
  item.append(label, field, button("Send", () => press(entry.action, field.value), `Send ${entry.label}`));
  return item;
}

function markCard(label, on) {
  pendingNote = on ? `Marked ${label} as the word you are cluing.` : `${label} is no longer marked.`;
  send({ mark: label, on: on });
}

function readCards() {
  // The phone's own speech synthesis: the host's loudspeaker never says your cards.
  if (!page || !page.view) return;
  const text = page.view.spoken;
  if ("speechSynthesis" in window) {
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
    announce("Reading your cards.");
  } else {
    announce(text);
  }
}

function connect() {
  if (!token) {
    setConnection("This link has no seat key. Join again from the host's address.");
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(player)}`);
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ token: token }));
    retryMs = 1000;
  });
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.page) {
      setConnection(data.page.over ? "The game is over." : "Connected to the host.");
      render(data.page);
    } else if (data.reply) {
      announce(data.reply.ok ? (data.reply.sent ? `Sent: ${data.reply.sent}.` : pendingNote || "Done.")
                             : data.reply.reason);
      pendingNote = "";
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403) {
      setConnection("This link does not open this seat. The game may have ended; join again.");
      announce("This link does not open this seat.");
      return;
    }
    if (page && page.over) return;
    setConnection("Lost the host; trying again…");
    window.setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10000);
  });
}

$("read").addEventListener("click", readCards);
connect();
