// The Jarvis review console. Every agent-written value reaches the page as text (textContent,
// attribute values set through the DOM), never as markup: nothing here parses HTML. The token lives
// in this module's memory only; it is sent as `Authorization: Bearer` to this origin's console API
// and nowhere else, and never put in a URL. Where the service signed the human in with its own
// login instead, the session cookie authenticates (the browser sends it; this script never reads
// it) and every state-changing call carries the service's CSRF token in the header it names.
"use strict";

const POLL_MS = 500; // a new Request shows within a second
// shown: the Requests on the page; answered: those this page answered, never shown again (a poll
// in flight while the answer was recorded may still list one as pending).
// generation: bumped by signing out, so that a loop of the previous sign-in stops; aborts: the
// calls in flight, cancelled on sign-out.
// csrf: the service's CSRF header and token when its login signed the human in (no token then).
const session = { actor: null, token: null, csrf: null, watched: new Set(), timer: null,
  shown: new Map(), answered: new Set(), generation: 0, aborts: new Set(), mode: "inbox" };
const WAIT_S = 20; // how long one inbox call waits for a new Request before the page asks again
let serial = 0;

const $ = (id) => document.getElementById(id);

function say(text, error = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", error);
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

async function api(method, path, body) {
  const headers = { "Jarvis-Actor-Id": session.actor };
  if (session.csrf) {
    if (method !== "GET") headers[session.csrf.csrf_header] = session.csrf.csrf_token;
  } else {
    headers["Authorization"] = "Bearer " + session.token;
  }
  const abort = new AbortController();
  // A bearer token never goes with a cookie; a session sign-in has nothing but its cookie.
  const init = { method, headers, cache: "no-store", credentials: session.csrf ? "same-origin" : "omit",
    referrerPolicy: "no-referrer", signal: abort.signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  session.aborts.add(abort);
  let response;
  try {
    response = await fetch("api/" + path, init);
  } finally {
    session.aborts.delete(abort);
  }
  let json = null;
  try { json = await response.json(); } catch (e) { json = null; }
  if (!response.ok) {
    const why = json && (json.error_id ? json.error_id + ": " + (json.reason || "") : json.reason);
    const failure = new Error(why || "the console answered " + response.status);
    failure.status = response.status;
    throw failure;
  }
  return json;
}

const seg = (id) => encodeURIComponent(id);

// ---- signing in and out ----

function signIn(event) {
  event.preventDefault();
  const actor = $("actor").value.trim();
  const token = $("token").value;
  $("token").value = "";
  if (!actor || !token) {
    say("Enter your Actor id and your token.", true);
    return;
  }
  session.token = token;
  session.csrf = null;
  begin(actor);
}

// Signs in as the Actor: reads the inbox once with the credential set, then keeps it live.
function begin(actor) {
  session.actor = actor;
  const generation = ++session.generation;
  say("Signing in…");
  api("GET", "inbox?after=0&wait=0").then((page) => {
    if (generation !== session.generation) return;
    signedIn(actor, "inbox");
    sync(page.requests, page.review_rules);
    inboxLoop(generation, page.next_after);
  }, (e) => {
    if (generation !== session.generation) return;
    if (e.status === 501) {
      // A host without request-inbox: the human names the WorkSessions to watch.
      signedIn(actor, "watch");
      say("Signed in. This host has no inbox: name a WorkSession to watch.");
      return;
    }
    session.actor = null;
    session.token = null;
    session.csrf = null;
    say("Not signed in: " + e.message, true);
    $("actor").focus();
  });
}

// The service's own login: when it signed this browser in, the console offers its Actors.
async function offerSession() {
  let found = null;
  try {
    const response = await fetch("api/session", { method: "GET", cache: "no-store",
      credentials: "same-origin", referrerPolicy: "no-referrer" });
    if (response.ok) found = await response.json();
  } catch (e) {
    found = null;
  }
  const list = $("session-actors");
  list.replaceChildren();
  if (!found || !Array.isArray(found.actors) || !found.actors.length || !found.csrf_header) {
    $("session").hidden = true;
    return;
  }
  for (const actor of found.actors) {
    const choose = element("button", "Continue as " + actor);
    choose.type = "button";
    choose.addEventListener("click", () => {
      session.token = null;
      session.csrf = { csrf_header: String(found.csrf_header), csrf_token: String(found.csrf_token) };
      begin(String(actor));
    });
    const item = element("li");
    item.append(choose);
    list.append(item);
  }
  $("session").hidden = false;
}

function signedIn(actor, mode) {
  session.mode = mode;
  $("who").textContent = "Signed in as " + actor;
  $("who").hidden = false;
  $("sign-out").hidden = false;
  $("sign-in").hidden = true;
  $("session").hidden = true;
  $("inbox").hidden = false;
  $("watch-form").hidden = mode !== "watch";
  say("Signed in.");
  const first = $("requests").querySelector("button");
  (first || (mode === "watch" ? $("watch-ws") : $("inbox-title"))).focus();
}

// The inbox, live: each call returns as soon as a new Request waits (or after WAIT_S), with every
// Request open for this human; the page asks again at once.
async function inboxLoop(generation, after) {
  let failures = 0;
  while (generation === session.generation) {
    try {
      const page = await api("GET", "inbox?after=" + after + "&wait=" + WAIT_S);
      if (generation !== session.generation) return;
      after = page.next_after;
      sync(page.requests, page.review_rules);
      failures = 0;
    } catch (e) {
      if (generation !== session.generation) return;
      failures++;
      say("The inbox could not be read: " + e.message, true);
      if (e.status === 400 || e.status === 401) return; // not (or no longer) this human
    }
    // A breath between calls; longer after failures.
    await new Promise((done) => setTimeout(done, failures ? Math.min(10000, 500 * 2 ** failures) : 100));
  }
}

// The host's evaluation of the Policy rule that required each Request's review, by key.
function rulesByKey(rules) {
  const byKey = new Map();
  for (const rule of Array.isArray(rules) ? rules : []) {
    byKey.set(rule.work_session_id + "\u0000" + rule.request_id, rule);
  }
  return byKey;
}

// Shows the Requests of the list not shown yet, and drops those shown but no longer open.
function sync(requests, rules) {
  const open = new Set();
  const byKey = rulesByKey(rules);
  for (const request of requests) {
    const key = request.work_session_id + "\u0000" + request.id;
    open.add(key);
    if (!session.shown.has(key) && !session.answered.has(key)) show(key, request, byKey.get(key));
  }
  for (const [key, entry] of session.shown) {
    if (!open.has(key)) {
      entry.node.remove();
      session.shown.delete(key);
    }
  }
  tick();
  $("empty").hidden = session.shown.size > 0;
}

function signOut() {
  const viaService = session.csrf !== null;
  session.generation++;
  session.aborts.forEach((abort) => abort.abort());
  session.aborts.clear();
  session.actor = null;
  session.token = null;
  session.csrf = null;
  session.watched.clear();
  clearTimeout(session.timer);
  session.shown.forEach((entry) => entry.node.remove());
  session.shown.clear();
  session.answered.clear();
  $("who").hidden = true;
  $("sign-out").hidden = true;
  $("inbox").hidden = true;
  $("timeline").hidden = true;
  $("sign-in").hidden = false;
  $("actor").value = "";
  say(viaService ? "Signed out of the console; your login to the service stays until you sign out there."
    : "Signed out.");
  $("actor").focus();
  offerSession();
}

function watch(event) {
  event.preventDefault();
  const ws = $("watch-ws").value.trim();
  if (!ws) return;
  session.watched.add(ws);
  $("watch-ws").value = "";
  say("Watching WorkSession " + ws + ".");
  poll();
}

// ---- the pending Requests, live ----

// Without an inbox: each watched WorkSession's open Requests, asked every POLL_MS.
async function poll() {
  clearTimeout(session.timer);
  if (!session.token || session.mode !== "watch") return;
  const seen = new Set();
  let failed = null;
  for (const ws of session.watched) {
    try {
      const page = await api("GET", "work-sessions/" + seg(ws) + "/requests");
      const byKey = rulesByKey(page.review_rules);
      for (const request of page.requests) {
        const key = ws + "\u0000" + request.id;
        seen.add(key);
        if (!session.shown.has(key) && !session.answered.has(key)) {
          show(key, request, byKey.get(request.work_session_id + "\u0000" + request.id));
        }
      }
    } catch (e) {
      failed = e;
      if (e.status === 400 || e.status === 401) {
        session.watched.delete(ws); // not one of yours, or not you: stop asking
        say("WorkSession " + ws + ": " + e.message, true);
      }
      for (const key of session.shown.keys()) if (key.startsWith(ws + "\u0000")) seen.add(key);
    }
  }
  for (const [key, entry] of session.shown) {
    if (!seen.has(key)) {
      entry.node.remove();
      session.shown.delete(key);
    }
  }
  tick();
  $("empty").hidden = session.shown.size > 0;
  if (session.token) session.timer = setTimeout(poll, failed ? POLL_MS * 4 : POLL_MS);
}

function left(expiresAt) {
  const ms = Date.parse(expiresAt) - Date.now();
  if (!(ms > 0)) return "expired";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? h + " h " : "") + (h || m ? m + " min " : "") + r + " s left";
}

function tick() {
  for (const entry of session.shown.values()) {
    entry.left.textContent = left(entry.request.expires_at) + " (expires " + entry.request.expires_at + ")";
    entry.left.classList.toggle("expiring", Date.parse(entry.request.expires_at) - Date.now() < 120000);
  }
}

function field(list, name, value, className) {
  list.append(element("dt", name));
  const dd = element("dd", value === undefined || value === null || value === "" ? "—" : value, className);
  list.append(dd);
  return dd;
}

function refs(values) {
  return Array.isArray(values) && values.length ? values.join("\n") : "—";
}

// The rule as one line of text: its JSON Pointer into the Policy, the result and the Policy's
// reason. The host evaluated it; the Policy is the operator's text, shown as text all the same.
function ruleText(rule) {
  if (!rule) return "— (the host gave no evaluation; see the agent's Policy rules below)";
  const said = rule.rule + " (" + rule.result + "): " + rule.reason;
  const others = (Array.isArray(rule.matched) ? rule.matched : []).filter((m) => m !== rule.rule);
  return others.length ? said + " Also matched: " + others.join(", ") : said;
}

function show(key, request, rule) {
  const n = ++serial;
  const action = request.requested_action || {};
  const item = element("li", null, "request");
  item.id = "request-" + n;
  item.dataset.requestId = request.id;
  const title = element("h3", action.action + (action.target_ref ? " on " + action.target_ref : ""));
  title.id = "request-title-" + n;
  item.append(title);
  const facts = element("dl");
  field(facts, "Agent", request.requester_actor_id + " (" + request.requester_worker_id + ")");
  field(facts, "Action", action.action);
  field(facts, "Target", action.target_ref);
  field(facts, "Scope", action.scope_ref);
  field(facts, "Risk class", request.risk_class, "risk-" + String(request.risk_class).replace(/[^a-z]/g, ""));
  field(facts, "Agent's reason", request.reason_summary);
  field(facts, "Reason code", request.reason_code);
  field(facts, "Decision needed", request.human_decision_needed);
  field(facts, "Policy rule requiring review", ruleText(rule), "policy-rule");
  field(facts, "Policy decision", request.policy_decision_id);
  field(facts, "Agent's Policy rules", refs(request.policy_refs));
  field(facts, "Evidence", refs(request.evidence_refs));
  field(facts, "WorkSession", request.work_session_id);
  const time = field(facts, "Time left", "");
  item.append(facts);

  const form = element("form");
  form.noValidate = true;
  const set = element("fieldset");
  set.append(element("legend", "Your answer"));
  const uses = input(set, "number", "uses-" + n, "Max uses", "1");
  uses.min = "1";
  const minutes = input(set, "number", "minutes-" + n, "Expires in (minutes)", "60");
  minutes.min = "1";
  const reasonRow = element("div", null, "row");
  const reasonLabel = element("label", "Reason");
  reasonLabel.htmlFor = "reason-" + n;
  const reason = element("textarea");
  reason.id = "reason-" + n;
  reason.rows = 2;
  reasonRow.append(reasonLabel, reason);
  set.append(reasonRow);
  const buttons = element("div", null, "buttons");
  const approve = button("Approve", "approve", title.id);
  const narrow = button("Narrow", "narrow", title.id);
  const deny = button("Deny", "deny", title.id);
  const timeline = button("Open timeline", "timeline", title.id);
  buttons.append(approve, narrow, deny, timeline);
  set.append(buttons);
  form.append(set);
  form.addEventListener("submit", (e) => e.preventDefault());
  item.append(form);

  const answer = (decision) => async () => {
    const body = { decision, comments: reason.value.trim() || undefined };
    if (decision !== "deny") {
      body.max_uses = Number(uses.value);
      body.expires_in_seconds = Math.round(Number(minutes.value) * 60);
    }
    for (const b of [approve, narrow, deny]) b.disabled = true;
    try {
      const review = await api("POST", "work-sessions/" + seg(request.work_session_id)
        + "/requests/" + seg(request.id) + "/review", body);
      session.answered.add(key);
      say("Recorded: " + review.decision + " of Request " + request.id + ".");
      const next = item.nextElementSibling || item.previousElementSibling;
      item.remove();
      session.shown.delete(key);
      $("empty").hidden = session.shown.size > 0;
      if (next) next.querySelector("button").focus();
      else (session.mode === "watch" ? $("watch-ws") : $("inbox-title")).focus();
    } catch (e) {
      for (const b of [approve, narrow, deny]) b.disabled = false;
      say("Not recorded: " + e.message, true);
    }
  };
  approve.addEventListener("click", answer("approve"));
  narrow.addEventListener("click", answer("narrow"));
  deny.addEventListener("click", answer("deny"));
  timeline.addEventListener("click", () => openTimeline(request.work_session_id));

  $("requests").append(item);
  session.shown.set(key, { node: item, request, left: time });
  tick();
}

function input(parent, type, id, name, value) {
  const row = element("div", null, "row");
  const label = element("label", name);
  label.htmlFor = id;
  const node = element("input");
  node.type = type;
  node.id = id;
  node.value = value;
  row.append(label, node);
  parent.append(row);
  return node;
}

function button(text, className, describedBy) {
  const node = element("button", text, className);
  node.type = "button";
  node.setAttribute("aria-describedby", describedBy);
  return node;
}

// ---- a WorkSession's timeline and its audit ----

async function openTimeline(ws) {
  say("Reading WorkSession " + ws + " and auditing its chain…");
  try {
    const t = await api("GET", "work-sessions/" + seg(ws) + "/timeline");
    $("timeline-ws").textContent = "WorkSession " + t.work_session.id + ", " + t.work_session.status
      + ", revision " + t.work_session.revision;
    const verdict = $("verdict");
    verdict.textContent = t.audit.passed
      ? "Audit passed: the chain of " + t.audit.event_count + " events checks out."
      : "Audit FAILED: the chain does not check out.";
    verdict.className = t.audit.passed ? "passed" : "failed";
    const checks = $("checks");
    checks.replaceChildren();
    for (const c of t.audit.checks) {
      checks.append(element("li", c.check + ": " + c.verdict + (c.detail ? " — " + c.detail : "")));
    }
    const events = $("events");
    events.replaceChildren();
    for (const e of t.events) {
      const li = element("li");
      li.append(element("span", "#" + e.sequence + " ", "seq"), element("span", e.type, "type"),
        element("span", " by " + e.actor_id + " at " + e.timestamp
          + (e.payload && e.payload.summary ? ": " + e.payload.summary : "")));
      events.append(li);
    }
    $("timeline").hidden = false;
    $("timeline-title").focus();
    say("Timeline of " + ws + " read.");
  } catch (e) {
    say("Timeline not read: " + e.message, true);
  }
}

function closeTimeline() {
  $("timeline").hidden = true;
  const first = $("requests").querySelector("button");
  (first || (session.mode === "watch" ? $("watch-ws") : $("inbox-title"))).focus();
}

$("sign-in-form").addEventListener("submit", signIn);
$("sign-out").addEventListener("click", signOut);
$("watch-form").addEventListener("submit", watch);
$("close-timeline").addEventListener("click", closeTimeline);
offerSession();
setInterval(tick, 1000);
