// The page: it shows what the API answers and asks what the user asks;
// every verdict, board and move comes from the server (the library).

import { layoutOf, drawBoard, svgText, download } from "./board.js";

const $ = (id) => document.getElementById(id);
let working = null; // the AbortController of the request under way

function say(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

/** POSTs (or GETs without body) JSON; the answer's JSON, or throws its error. */
async function api(path, body, asText = false) {
  working?.abort();
  working = new AbortController();
  $("cancel").hidden = false;
  try {
    const init = { signal: working.signal };
    if (body !== undefined) {
      init.method = "POST";
      init.headers = { "Content-Type": "application/json" };
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    if (!response.ok) {
      const text = await response.text();
      let message = text;
      try { message = JSON.parse(text).error; } catch { /* not JSON */ }
      throw new Error(message);
    }
    return asText ? response.text() : response.json();
  } finally {
    $("cancel").hidden = true;
  }
}

function failed(error) {
  if (error.name === "AbortError") say("Cancelled.");
  else say(error.message, true);
}

function node(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value);
  }
  element.append(...children.filter((c) => c !== null && c !== undefined));
  return element;
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    say(`${what} copied: ${text}`);
  } catch {
    say(`${what}: ${text} (select it to copy)`);
  }
}

// ---- Views and links -------------------------------------------------

function show(view) {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== view;
  for (const button of document.querySelectorAll("nav button")) {
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
}

function setLink(params) {
  history.replaceState(null, "", `#${new URLSearchParams(params)}`);
}

// ---- A board stepped through a list of plies ---------------------------

/**
 * A board with First/Previous/Next/Last, Copy FEN, Download SVG, square
 * numbers, and the move list as a list; the arrow keys step when the page
 * shows it. `plies`: {label, written, played, fen, rows, illegal}.
 */
function stepper(container, layout, start, plies, options = {}) {
  let at = options.at ?? 0;
  let numbers = false;
  const board = node("div", { class: "board-slot" });
  const fen = node("p", { class: "facts" });
  const list = node("ol", { class: "moves", "aria-label": options.listName || "Moves" });
  const button = (label, step) => node("button", { type: "button", onclick: () => go(step()) }, label);
  const controls = node("div", { class: "row" },
    button("First", () => 0), button("Previous", () => at - 1),
    button("Next", () => at + 1), button("Last", () => plies.length));
  const tools = node("div", { class: "row" },
    node("button", { type: "button", onclick: () => copyText(current().fen || "", "FEN") }, "Copy FEN"),
    node("button", { type: "button", onclick: () => download(`${options.name || "board"}-${at}.svg`, svgText(board.firstChild), "image/svg+xml") }, "Download SVG"),
    node("label", {}, node("input", { type: "checkbox", onchange: (e) => { numbers = e.target.checked; draw(); } }), " Square numbers"));
  plies.forEach((ply, i) => {
    const item = node("li", { tabindex: "-1", "data-ply": String(i + 1), "data-move": ply.written, onclick: () => go(i + 1) },
      node("span", { class: "label" }, ply.label), " ", ply.written);
    if (ply.illegal) {
      item.classList.add("illegal");
      item.title = `illegal: ${ply.illegal}`;
      item.append(node("span", { class: "visually-hidden" }, ` (illegal: ${ply.illegal})`));
    }
    if (ply.played && ply.played !== ply.written) item.title = `played ${ply.played}`;
    if (options.edited?.has(i + 1)) item.classList.add("edited");
    list.append(item);
  });
  const pane = node("div", { class: "board-pane" }, board, controls, tools, fen);
  container.replaceChildren(node("div", { class: "game" }, pane, list));

  function current() {
    if (at === 0) return start;
    // Past a ply the replayer refused there is no board: the last one stands.
    for (let i = at; i > 0; i--) if (plies[i - 1].rows) return plies[i - 1];
    return start;
  }
  function draw() {
    const shown = current();
    board.replaceChildren(drawBoard(layout, shown.rows || [], { numbers, title: at ? `after ${plies[at - 1].label} ${plies[at - 1].written}` : "start" }));
    fen.textContent = shown.fen ? `FEN ${shown.fen}` : "";
    const ply = plies[at - 1];
    if (ply && !ply.rows) fen.textContent = `No board after ${ply.label} ${ply.written}: ${ply.illegal ? `illegal: ${ply.illegal}` : "the replayer stopped before it"}`;
  }
  function go(to) {
    at = Math.max(0, Math.min(plies.length, to));
    for (const item of list.children) {
      if (Number(item.dataset.ply) === at) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    list.children[at - 1]?.scrollIntoView({ block: "nearest" });
    draw();
    options.onStep?.(at);
  }
  container.stepKeys = (event) => {
    const moves = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: plies.length };
    if (!(event.key in moves)) return false;
    go(moves[event.key]);
    return true;
  };
  go(at);
  return { go, at: () => at };
}

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select, #diagram-board")) return;
  const section = document.querySelector("main > section:not([hidden])");
  const steppers = [...section.querySelectorAll("#game-stepper, #reach-steps")].filter((s) => s.stepKeys);
  if (steppers.length && steppers[steppers.length - 1].stepKeys(event)) event.preventDefault();
});

// ---- Rules choices --------------------------------------------------

async function fillRules() {
  const info = await api("/api/files");
  for (const select of document.querySelectorAll(".rules-choice")) {
    if (select.dataset.auto) select.append(node("option", { value: "" }, select.dataset.auto), node("option", { value: "auto" }, "Inferred (auto)"));
    for (const name of info.rules) select.append(node("option", { value: name }, name));
  }
  const files = $("server-files");
  for (const name of info.files) {
    files.append(node("button", { type: "button", onclick: () => openArchive({ file: name }) }, `Open ${name}`));
  }
  return info;
}

// ---- Archive ---------------------------------------------------------

let archive = null; // {id, name, file, rows: []}
let filter = null;

function verdictText(row) {
  switch (row.status) {
    case "ok": return "replays";
    case "no moves": return "no moves";
    // The reason names the move as read (`13. 46x42 (ply 25): ...`).
    case "illegal": return `illegal: ${row.reason}`;
    default: return `${row.status}: ${row.reason || ""}`;
  }
}

function rowOf(row) {
  const open = node("button", { type: "button", onclick: () => openGame(archive.id, row.number) }, `Game ${row.number}`);
  const rules = row.rules ? `${row.rules}${row.inferred ? " (inferred)" : ""}` : "-";
  return node("tr", { "data-status": row.status },
    node("td", {}, open), node("td", {}, row.event || ""), node("td", { class: "hide-narrow" }, row.date || ""),
    node("td", {}, row.white || ""), node("td", {}, row.black || ""), node("td", { class: "hide-narrow" }, row.result || ""),
    node("td", {}, rules), node("td", { class: `verdict-${row.status.replace(" ", "-")}` }, verdictText(row)));
}

function applyFilter() {
  for (const tr of document.querySelectorAll("#games tbody tr")) tr.hidden = filter !== null && tr.dataset.status !== filter;
  for (const button of document.querySelectorAll("#counts button")) {
    button.setAttribute("aria-pressed", String((button.dataset.status || null) === filter));
  }
}

function showCounts(games, counts) {
  const box = $("counts");
  // Drawn again only when they change: a button in focus stays so.
  const said = JSON.stringify(counts);
  if (box.dataset.said === said) return;
  box.dataset.said = said;
  const choose = (status) => () => { filter = status; applyFilter(); };
  box.replaceChildren(node("button", { type: "button", onclick: choose(null) }, `All (${games})`));
  for (const [status, n] of counts) {
    box.append(node("button", { type: "button", "data-status": status, onclick: choose(status) }, `${status} (${n})`));
  }
  applyFilter();
}

async function openArchive(body) {
  show("archive");
  say(`Checking ${body.file || body.name || "the pasted text"}...`);
  const progress = $("archive-progress");
  progress.hidden = false;
  progress.removeAttribute("value");
  const rules = $("archive-rules").value;
  $("games").querySelector("tbody").replaceChildren();
  $("counts").replaceChildren();
  delete $("counts").dataset.said;
  $("games-caption").textContent = "Checking...";
  filter = null;
  try {
    const opened = await api("/api/archive", { ...body, rules: rules || undefined });
    archive = { id: opened.id, name: opened.name, file: body.file, rows: [] };
    if (body.file) setLink({ view: "archive", file: body.file });
    $("games-caption").textContent = `${opened.name}: ${opened.games} games`;
    progress.max = Math.max(1, opened.games);
    progress.value = 0;
    const done = await pageRows(opened);
    const counts = done.counts.map(([s, n]) => `${n} ${s}`).join(", ");
    say(`${opened.name}: ${opened.games} games checked in ${(done.check_ms / 1000).toFixed(2)} s; ${counts}.`);
    $("archive-summary").textContent = done.counts.map(([s, n]) => `${s}: ${n}`).join(" · ");
  } catch (error) {
    failed(error);
  } finally {
    progress.hidden = true;
  }
}

/**
 * The table's rows as the server checks them: asked for again and again,
 * each answer's new rows appended, the progress bar and the counts
 * following; started over if the whole file's check revised them.
 * Answers the final progress.
 */
async function pageRows(opened) {
  const body = $("games").querySelector("tbody");
  let revision = 0;
  for (;;) {
    const from = archive.rows.length;
    const page = await api(`/api/archive/${opened.id}/rows?from=${from}&count=1000`);
    const progress = page.progress;
    if (progress.revision !== revision) {
      revision = progress.revision;
      archive.rows = [];
      body.replaceChildren();
      continue;
    }
    const rows = document.createDocumentFragment();
    for (const row of page.rows) {
      archive.rows.push(row);
      rows.append(rowOf(row));
    }
    body.append(rows);
    showCounts(opened.games, progress.counts);
    $("archive-progress").value = progress.checked;
    $("archive-summary").textContent = `${progress.checked} of ${opened.games} games checked`;
    if (progress.done && archive.rows.length >= progress.checked) return progress;
    if (!page.rows.length) await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function openFile(file) {
  if (!file) return;
  const text = await file.text();
  await openArchive({ pdn: text, name: file.name });
}

$("file-input").addEventListener("change", (e) => openFile(e.target.files[0]));
$("check-pasted").addEventListener("click", () => openArchive({ pdn: $("pasted").value }));
const drop = $("drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); openFile(e.dataTransfer.files[0]); });

// ---- Game ------------------------------------------------------------

let game = null; // {archiveId, number, view, layout, repair}

async function openGame(archiveId, number, repairToo = false) {
  show("game");
  say(`Opening game ${number}...`);
  $("game-stepper").replaceChildren();
  $("game-stepper").stepKeys = null;
  try {
    const view = await api(`/api/archive/${archiveId}/game/${number}`);
    const layout = await layoutOf(view.rules);
    game = { archiveId, number, view, layout, repair: null };
    const tag = (name) => (view.tags.find(([k]) => k.toLowerCase() === name) || [])[1] || "";
    $("game-heading").textContent = `Game ${number}: ${tag("white")} - ${tag("black")} ${tag("result")}`.trim();
    $("game-empty").hidden = true;
    $("game-verdict").textContent = view.status === "ok"
      ? `Replays under ${view.rules} rules (${view.plies.length} plies).`
      : view.status === "illegal"
        ? `Illegal: ${view.reason}`
        : `${view.status}${view.reason ? `: ${view.reason}` : ""}`;
    $("repair").hidden = view.status !== "illegal";
    for (const id of ["show-written", "show-repaired", "download-pdn"]) $(id).hidden = true;
    $("repair-result").replaceChildren();
    showGamePlies(view.plies);
    setLink(archive?.file ? { view: "game", file: archive.file, game: number } : { view: "game", archive: archiveId, game: number });
    say(`Game ${number} opened: use the arrow keys or the buttons to step through it.`);
    if (repairToo) await repairGame();
  } catch (error) {
    failed(error);
  }
}

function showGamePlies(plies, edited) {
  const { view, layout } = game;
  const start = { fen: view.start_fen, rows: view.start_rows || [] };
  stepper($("game-stepper"), layout, start, plies, { edited, name: `game-${game.number}` });
}

async function repairGame() {
  say(`Repairing game ${game.number} (at most a few seconds)...`);
  try {
    const repair = await api(`/api/archive/${game.archiveId}/game/${game.number}/repair`, {});
    game.repair = repair;
    const result = $("repair-result");
    const edits = node("ul", { "aria-label": "Edits" }, ...repair.edits.map((e) => node("li", {}, `${e.text}`)));
    const forced = repair.outcome === "repaired"
      ? (repair.forced ? "The repair is forced: no other repair of as few edits exists." : `Not forced: ${repair.others}.`)
      : "";
    result.replaceChildren(node("p", {}, `Repair: ${repair.summary}. ${forced}`), edits);
    if (repair.outcome === "repaired") {
      const edited = new Set(repair.edits.map((e) => e.ply));
      showGamePlies(repair.plies, edited);
      $("show-written").hidden = false;
      $("show-repaired").hidden = true;
      $("download-pdn").hidden = false;
      $("repair").hidden = true;
      setLink({ ...Object.fromEntries(new URLSearchParams(location.hash.slice(1))), repair: "1" });
    }
    say(`Repair of game ${game.number}: ${repair.summary}`);
  } catch (error) {
    failed(error);
  }
}

$("repair").addEventListener("click", repairGame);
$("show-written").addEventListener("click", () => {
  showGamePlies(game.view.plies);
  $("show-written").hidden = true;
  $("show-repaired").hidden = false;
});
$("show-repaired").addEventListener("click", () => {
  showGamePlies(game.repair.plies, new Set(game.repair.edits.map((e) => e.ply)));
  $("show-written").hidden = false;
  $("show-repaired").hidden = true;
});
$("download-pdn").addEventListener("click", () => download(`game-${game.number}-repaired.pdn`, game.repair.pdn, "application/x-chess-pdn"));

// ---- Fragment --------------------------------------------------------

let solved = null;

function forcedSquares(lines) {
  // Each line: "13  black king  piece: forced by ply 2 ...": the square first.
  return new Set((lines || []).filter((l) => l.includes("forced")).map((l) => l.trim().split(/\s+/)[0]));
}

function figure(caption, layout, rows, options) {
  return node("figure", {}, node("figcaption", {}, caption), drawBoard(layout, rows, { ...options, title: caption }));
}

async function solveFragment() {
  const text = $("fragment-text").value;
  const rules = $("fragment-rules").value || undefined;
  const result = $("fragment-result");
  result.replaceChildren();
  $("download-fragment-svg").disabled = true;
  say("Solving...");
  try {
    const report = await api("/api/solve", { text, rules, analysis: "explain" });
    setLink({ view: "fragment", text, ...(rules ? { rules } : {}) });
    const layout = await layoutOf(report.rules);
    if (report.status !== "solved") {
      result.append(node("p", { class: "error" }, `${report.status}: ${report.explanation || report.message || ""}`));
      if (report.core) result.append(node("pre", { class: "facts", "aria-label": "Rules in conflict" }, report.core.join("\n")));
      say(`The fragment is ${report.status}.`);
      return;
    }
    solved = report;
    const marks = forcedSquares(report.forced);
    result.append(
      node("p", {}, `Solved under ${report.rules} rules${report.rules_inferred ? " (inferred)" : ""}: ${(report.moves || report.record || []).join(" ")}`),
      node("div", { class: "boards" },
        figure(`Start (${report.first} to move)`, layout, report.start, { marks }),
        figure("End", layout, report.end, {})),
      node("p", { class: "facts" }, `start FEN ${report.start_fen}\nend FEN ${report.end_fen}`),
      node("div", { class: "row" },
        node("button", { type: "button", onclick: () => copyText(report.start_fen, "Start FEN") }, "Copy start FEN"),
        node("button", { type: "button", onclick: () => copyText(report.end_fen, "End FEN") }, "Copy end FEN")),
      node("p", {}, `Outlined: the ${marks.size} squares forced in every answer.`),
      node("details", {}, node("summary", {}, "Why each square is as it is"), node("pre", { class: "facts" }, (report.forced || []).join("\n"))),
      node("p", { id: "fragment-count" }, "Counting start boards..."),
      node("div", { id: "fragment-minimum" }, "Looking for the fewest pieces..."));
    $("download-fragment-svg").disabled = false;
    say("Solved; counting start boards and the fewest pieces...");
    await moreAnalyses(text, rules, layout);
  } catch (error) {
    failed(error);
  }
}

async function moreAnalyses(text, rules, layout) {
  const count = await api("/api/solve", { text, rules, analysis: "count" });
  $("fragment-count").textContent = count.count === null
    ? `Start boards: ${count.status} ${count.message || ""}`
    : `Start boards: ${count.count}${count.count_complete ? "" : " or more (the count stopped)"}.`;
  const minimum = await api("/api/solve", { text, rules, analysis: "minimize" });
  const box = $("fragment-minimum");
  if (minimum.status !== "solved") {
    box.textContent = `Fewest pieces: ${minimum.status} ${minimum.message || ""}`;
  } else {
    box.replaceChildren(
      node("p", {}, `Fewest pieces: ${minimum.pieces}, of them ${minimum.kings} kings${minimum.proved_minimal ? " (proved minimal)" : ""}.`),
      node("div", { class: "boards" }, figure("Start with the fewest pieces", layout, minimum.start, {})));
  }
  say(`Solved: ${count.count ?? "?"} start boards; fewest pieces ${minimum.pieces ?? "?"}.`);
}

$("solve").addEventListener("click", solveFragment);
$("download-cnf").addEventListener("click", async () => {
  try {
    const cnf = await api("/api/cnf", { text: $("fragment-text").value, rules: $("fragment-rules").value || undefined }, true);
    download("fragment.cnf", cnf, "text/plain");
    say("The CNF formula is downloaded (its comments name every variable).");
  } catch (error) {
    failed(error);
  }
});
$("download-fragment-svg").addEventListener("click", async () => {
  try {
    const svg = await api("/api/svg", { start: solved.start_fen, end: solved.end_fen, rules: solved.rules }, true);
    download("fragment.svg", svg, "image/svg+xml");
  } catch (error) {
    failed(error);
  }
});
$("link-fragment").addEventListener("click", () => {
  setLink({ view: "fragment", text: $("fragment-text").value, rules: $("fragment-rules").value });
  copyText(location.href, "Link");
});

// ---- Diagram ---------------------------------------------------------

const diagram = { layout: null, rows: [], focus: 0 };
const CYCLE = { ".": "w", w: "W", W: "b", b: "B", B: "." };

async function diagramRules() {
  diagram.layout = await layoutOf($("diagram-rules").value);
  clearDiagram();
}

function clearDiagram() {
  const { size, byCell } = diagram.layout;
  diagram.rows = Array.from({ length: size }, (_, r) =>
    Array.from({ length: size }, (_, c) => (byCell.has(`${r},${c}`) ? "." : "-")).join(""));
  drawDiagram();
}

function drawDiagram() {
  const focus = diagram.layout.squares[diagram.focus]?.[2];
  const svg = drawBoard(diagram.layout, diagram.rows, { numbers: true, title: "diagram", focus, onClick: cycle });
  $("diagram-board").replaceChildren(svg);
}

function cycle(name) {
  const index = diagram.layout.squares.findIndex(([, , n]) => n === name);
  const [row, col] = diagram.layout.squares[index];
  const line = diagram.rows[row];
  diagram.rows[row] = line.slice(0, col) + CYCLE[line[col]] + line.slice(col + 1);
  diagram.focus = index;
  drawDiagram();
}

$("diagram-board").addEventListener("keydown", (event) => {
  const squares = diagram.layout.squares;
  const half = squares.length / diagram.layout.size;
  const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: half, ArrowUp: -half };
  if (event.key in moves) {
    diagram.focus = (diagram.focus + moves[event.key] + squares.length) % squares.length;
    drawDiagram();
  } else if (event.key === "Enter" || event.key === " ") {
    cycle(squares[diagram.focus][2]);
  } else {
    return;
  }
  event.preventDefault();
});

function diagramAsk() {
  return { rows: diagram.rows, turn: $("diagram-turn").value, rules: $("diagram-rules").value };
}

async function setFen(fen) {
  try {
    const board = await api("/api/board", { fen, rules: $("diagram-rules").value });
    diagram.rows = board.rows;
    $("diagram-turn").value = board.turn;
    drawDiagram();
    say(`Board set: ${board.fen}`);
  } catch (error) {
    failed(error);
  }
}

async function reach() {
  say("Looking for the shortest game from the opening...");
  const result = $("reach-result");
  result.replaceChildren();
  try {
    const board = await api("/api/board", diagramAsk());
    $("diagram-fen").value = board.fen;
    const any = $("reach-any").checked;
    setLink({ view: "diagram", rules: $("diagram-rules").value, fen: board.fen, reach: any ? "any" : "1" });
    const found = await api("/api/reach", { ...diagramAsk(), any });
    if (found.status !== "found") {
      result.append(node("p", { class: found.status === "impossible" ? "error" : "" }, `${found.status === "impossible" ? "Unreachable" : "Undecided"}: ${found.reason}`));
      say(`Reach: ${found.status}.`);
      return;
    }
    const steps = node("div", { id: "reach-steps" });
    const plies = `${found.plies.length} ${found.plies.length === 1 ? "ply" : "plies"}`;
    const told = found.minimal
      ? `A shortest game: ${plies} from the opening (no game of fewer plies reaches this position).`
      : `A legal game: ${plies} from the opening, not necessarily the shortest (none shorter than ${found.lower_bound} plies proved).`;
    result.append(node("p", {}, told), steps);
    stepper(steps, diagram.layout, { fen: found.start_fen, rows: found.start_rows }, found.plies, { at: found.plies.length, name: "reach", listName: "Moves of the game" });
    say(`Reached in ${plies}.`);
  } catch (error) {
    failed(error);
  }
}

$("diagram-rules").addEventListener("change", diagramRules);
$("diagram-clear").addEventListener("click", clearDiagram);
$("diagram-opening").addEventListener("click", () => {
  diagram.rows = [...diagram.layout.opening];
  $("diagram-turn").value = diagram.layout.first;
  drawDiagram();
});
$("diagram-set-fen").addEventListener("click", () => setFen($("diagram-fen").value));
$("diagram-copy-fen").addEventListener("click", async () => {
  try {
    const board = await api("/api/board", diagramAsk());
    $("diagram-fen").value = board.fen;
    await copyText(board.fen, "FEN");
  } catch (error) {
    failed(error);
  }
});
$("diagram-svg").addEventListener("click", () => download("diagram.svg", svgText($("diagram-board").firstChild), "image/svg+xml"));
$("reach").addEventListener("click", reach);

// ---- Start -----------------------------------------------------------

$("cancel").addEventListener("click", () => working?.abort());
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => show(button.dataset.view));
}

async function follow(params) {
  const view = params.get("view") || "archive";
  if (view === "archive" && params.get("file")) return openArchive({ file: params.get("file") });
  if (view === "game" && params.get("game")) {
    if (params.get("file")) await openArchive({ file: params.get("file") });
    const id = params.get("file") ? archive?.id : params.get("archive");
    if (id) return openGame(id, Number(params.get("game")), params.get("repair") === "1");
  }
  if (view === "fragment" && params.get("text")) {
    $("fragment-text").value = params.get("text");
    $("fragment-rules").value = params.get("rules") || "";
    show("fragment");
    return solveFragment();
  }
  if (view === "diagram" && params.get("fen")) {
    $("diagram-rules").value = params.get("rules") || "english";
    await diagramRules();
    show("diagram");
    await setFen(params.get("fen"));
    $("reach-any").checked = params.get("reach") === "any";
    if (params.get("reach")) return reach();
  }
  show(view);
}

// A link pasted into the address bar of an open page.
window.addEventListener("hashchange", () => follow(new URLSearchParams(location.hash.slice(1))).catch(failed));

(async () => {
  try {
    await fillRules();
    $("diagram-rules").value = "english";
    await diagramRules();
    await follow(new URLSearchParams(location.hash.slice(1)));
    document.body.dataset.ready = "true";
  } catch (error) {
    failed(error);
  }
})();
