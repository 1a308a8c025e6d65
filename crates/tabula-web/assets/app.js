// Tabula's page: one code path for every game, drawn from the server's state (cells, legal moves and where
// each is drawn, key features), searches streamed as server-sent events.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                 k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

const page = {
  games: [],
  state: null,        // the session's state as the server last answered it
  selected: null,     // the cell a moving piece was picked up from
  search: null,       // the running search's EventSource
  cancelled: false,   // whether the running search's move is no longer wanted (undo while it thinks)
  pv: [],             // the line drawn as ghost moves
  lastDepth: null,    // the depth of the last finished search, for the comparison
  depthless: false,   // whether the engine searches without depths (Monte Carlo): nothing to compare
  seen: new Map(),    // key -> the move list that first reached it, to show transpositions
  generation: 0,      // bumped by every new game, so a late answer for an old one is ignored
};

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(data && data.error ? data.error : `${response.status} ${response.statusText}`);
  return data;
}

function showError(message) { $("error").textContent = message || ""; }

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// ---- The board ------------------------------------------------------------------------------------------

function geometry(cells) {
  const size = Math.max(18, Math.min(64, Math.floor(560 / Math.max(cells.width, cells.height))));
  return { size, margin: cells.style === "points" ? size / 2 : 4 };
}

function center(cells, g, index) {
  const col = index % cells.width, row = Math.floor(index / cells.width);
  return [g.margin + col * g.size + (cells.style === "points" ? 0 : g.size / 2),
          g.margin + row * g.size + (cells.style === "points" ? 0 : g.size / 2)];
}

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  const state = page.state;
  const cells = state && state.cells;
  if (!cells) return;
  const g = geometry(cells);
  const points = cells.style === "points";
  const w = (points ? cells.width - 1 : cells.width) * g.size + 2 * g.margin;
  const h = (points ? cells.height - 1 : cells.height) * g.size + 2 * g.margin;
  board.setAttribute("width", w);
  board.setAttribute("height", h);
  board.setAttribute("viewBox", `0 0 ${w} ${h}`);
  board.appendChild(svg("rect", { x: 0, y: 0, width: w, height: h,
    fill: points ? "#dcb35c" : cells.drop ? "#1e50b4" : "#f3efe6" }));
  if (points) {
    for (let i = 0; i < cells.width; i++) {
      const x = g.margin + i * g.size;
      board.appendChild(svg("line", { x1: x, y1: g.margin, x2: x, y2: h - g.margin, stroke: "#333" }));
    }
    for (let j = 0; j < cells.height; j++) {
      const y = g.margin + j * g.size;
      board.appendChild(svg("line", { x1: g.margin, y1: y, x2: w - g.margin, y2: y, stroke: "#333" }));
    }
  }
  const last = state.history.length ? state.history[state.history.length - 1] : null;
  const targets = new Set();
  if (page.selected !== null) {
    for (const m of state.moves) if (m.from === page.selected) targets.add(m.to);
  }
  for (let i = 0; i < cells.marks.length; i++) {
    const [cx, cy] = center(cells, g, i);
    const x = cx - g.size / 2, y = cy - g.size / 2;
    const col = i % cells.width, row = Math.floor(i / cells.width);
    if (cells.style === "checkered") {
      board.appendChild(svg("rect", { x, y, width: g.size, height: g.size, fill: (col + row) % 2 ? "#b58863" : "#f0d9b5" }));
    } else if (cells.style === "boxes" && !cells.drop) {
      board.appendChild(svg("rect", { x: x + 1, y: y + 1, width: g.size - 2, height: g.size - 2, fill: "#fff", stroke: "#999" }));
    }
    if (last && (last.to === i || last.from === i)) {
      board.appendChild(svg("rect", { x, y, width: g.size, height: g.size, fill: "#ffeb3b", opacity: 0.45 }));
    }
    if (page.selected === i) {
      board.appendChild(svg("rect", { x, y, width: g.size, height: g.size, fill: "#4caf50", opacity: 0.5 }));
    }
    drawMark(board, cells, g, cx, cy, cells.marks[i], 1);
    const note = cells.notes.find((n) => n.cell === i);
    if (note) {
      const cross = svg("text", { x: cx, y: cy + g.size * 0.2, "font-size": g.size * 0.6, "text-anchor": "middle",
        fill: "#b00020", "font-weight": 700, class: "forbidden" }, "\u00d7");
      cross.appendChild(svg("title", {}, note.why));
      board.appendChild(cross);
    }
    if (targets.has(i)) board.appendChild(svg("circle", { cx, cy, r: g.size / 7, fill: "#2e7d32", opacity: 0.7 }));
    // The click target, on top of everything, carries the cell number.
    board.appendChild(svg("rect", { x, y, width: g.size, height: g.size, fill: "transparent", class: "cell", "data-cell": i }));
  }
  drawGhosts(board, cells, g);
}

function drawMark(board, cells, g, cx, cy, mark, opacity) {
  const r = g.size * 0.42;
  if (cells.style === "checkered") {
    if (mark) board.appendChild(svg("text", { x: cx, y: cy + g.size * 0.3, "font-size": g.size * 0.82,
      "text-anchor": "middle", opacity, "pointer-events": "none" }, GLYPHS[mark] || mark));
  } else if (cells.drop) {
    const fill = mark === "x" ? "#e53935" : mark === "o" ? "#fdd835" : "#fafafa";
    board.appendChild(svg("circle", { cx, cy, r, fill, opacity: mark ? opacity : 1, stroke: "#0d2f6e" }));
  } else if (mark === "x" || mark === "o") {
    board.appendChild(svg("text", { x: cx, y: cy + g.size * 0.25, "font-size": g.size * 0.7, "text-anchor": "middle",
      fill: mark === "x" ? "#c62828" : "#1565c0", opacity, "font-weight": 700, "pointer-events": "none" }, mark.toUpperCase()));
  } else if (mark === "b" || mark === "w") {
    board.appendChild(svg("circle", { cx, cy, r: g.size * 0.46, fill: mark === "b" ? "#111" : "#fff",
      stroke: "#000", opacity }));
  } else if (mark) {
    // A xiangqi piece: its character on a disc, Red's in red.
    const colour = "帥仕相傌俥炮兵".includes(mark) ? "#c62828" : "#111";
    board.appendChild(svg("circle", { cx, cy, r: g.size * 0.44, fill: "#fdf3dc", stroke: colour, "stroke-width": 2, opacity }));
    board.appendChild(svg("text", { x: cx, y: cy + g.size * 0.18, "font-size": g.size * 0.5, "text-anchor": "middle",
      fill: colour, opacity, "pointer-events": "none" }, mark));
  }
}

// The principal variation as numbered ghost moves: a translucent mark (or an arrow for a piece that moves).
function drawGhosts(board, cells, g) {
  // The second player's side names are O and White; their marks come second.
  const now = /^(o|white)$/i.test(page.state.side) ? 1 : 0;
  const marks = cells.style === "points" ? ["b", "w"] : ["x", "o"];
  page.pv.slice(0, 8).forEach((m, n) => {
    if (m.to === null || m.to === undefined) return;
    const [tx, ty] = center(cells, g, m.to);
    if (m.from !== null && m.from !== undefined) {
      const [fx, fy] = center(cells, g, m.from);
      board.appendChild(svg("line", { x1: fx, y1: fy, x2: tx, y2: ty, stroke: n % 2 ? "#1565c0" : "#c62828",
        "stroke-width": g.size / 9, opacity: 0.55, "stroke-linecap": "round", "pointer-events": "none" }));
    } else {
      drawMark(board, cells, g, tx, ty, marks[(now + n) % 2], 0.35);
    }
    board.appendChild(svg("text", { x: tx, y: ty + g.size * 0.16, "font-size": g.size * 0.42, "text-anchor": "middle",
      fill: "#6a1b9a", "font-weight": 700, "pointer-events": "none", class: "ghost" }, String(n + 1)));
  });
}

function onBoardClick(event) {
  const target = event.target.closest("[data-cell]");
  if (!target || !page.state || page.search) return;
  if (!humanToMove()) return;
  const cell = Number(target.dataset.cell);
  const moves = page.state.moves;
  const cells = page.state.cells;
  // A piece picked up earlier goes to the cell clicked.
  if (page.selected !== null) {
    const to = moves.filter((m) => m.from === page.selected && m.to === cell);
    page.selected = null;
    if (to.length) return play(pickPromotion(to).text);
  }
  if (moves.some((m) => m.from === cell)) {
    page.selected = cell;
    return drawBoard();
  }
  let put = moves.filter((m) => (m.from === null || m.from === undefined) && m.to === cell);
  if (!put.length && cells.drop) {
    const col = cell % cells.width;
    put = moves.filter((m) => m.to !== null && m.to % cells.width === col);
  }
  if (put.length) return play(put[0].text);
  drawBoard();
}

// Several moves between two cells are promotions: the queen.
function pickPromotion(moves) {
  return moves.find((m) => /=Q|q$/.test(m.text)) || moves[0];
}

// ---- Players and the engine -------------------------------------------------------------------------------

function playerToMove() {
  return page.state.history.length % 2 === 0 ? $("first").value : $("second").value;
}

function humanToMove() {
  return page.state && !page.state.result && playerToMove() === "human";
}

async function play(text) {
  showError("");
  const generation = page.generation;
  try {
    const state = await api("POST", `/api/sessions/${page.state.id}/move`, { move: text });
    if (generation === page.generation) update(state);
  } catch (e) {
    showError(e.message);
  }
}

function update(state) {
  page.state = state;
  page.selected = null;
  page.pv = [];
  render();
  setTimeout(next, 0);
}

// Lets the engine move when it is its turn.
function next() {
  if (!page.state || page.state.result || page.search) return;
  if (playerToMove() === "engine") think(true);
}

function think(playIt) {
  if (page.search || !page.state || page.state.result) return;
  showError("");
  const id = page.state.id;
  const generation = page.generation;
  const source = new EventSource(`/api/sessions/${id}/search?time_ms=${$("time").value}`);
  page.search = source;
  page.cancelled = false;
  $("search").tBodies[0].replaceChildren();
  $("search-notes").textContent = "";
  setBusy(true);
  const finish = () => {
    source.close();
    if (page.search === source) page.search = null;
    setBusy(false);
  };
  source.addEventListener("queued", () => { $("search-notes").textContent = "Waiting for a free search slot\u2026"; });
  source.addEventListener("iteration", (e) => {
    if (generation !== page.generation) return;
    showReport(JSON.parse(e.data), false);
  });
  source.addEventListener("done", (e) => {
    finish();
    if (generation !== page.generation) return;
    const report = JSON.parse(e.data);
    showReport(report, true);
    page.depthless = !report.depth;
    if (report.depth) {
      page.lastDepth = report.depth;
      $("compare-depth").value = Math.min(report.depth, 64);
    }
    if (playIt && report.best && !page.cancelled) play(report.best);
  });
  source.addEventListener("failed", (e) => { finish(); showError(JSON.parse(e.data)); });
  source.onerror = () => {
    // The stream closed without a result: the request was refused (busy, over) or the server went away.
    if (page.search !== source) return;
    finish();
    api("GET", `/api/sessions/${id}`).then((s) => { if (generation === page.generation) page.state = s; render(); })
      .catch((err) => showError(err.message));
  };
}

function setBusy(busy) {
  $("stop").disabled = !busy;
  for (const id of ["think", "analyze", "compare", "load"]) $(id).disabled = busy;
}

function number(n) {
  return n >= 1e9 ? (n / 1e9).toFixed(2) + "G" : n >= 1e6 ? (n / 1e6).toFixed(2) + "M" : n >= 1e4 ? (n / 1e3).toFixed(1) + "k" : String(n);
}

function showReport(report, final) {
  const body = $("search").tBodies[0];
  const t = report.table;
  const cells = [report.depth ?? "", report.score, `${number(report.nodes)} ${report.unit}`, number(Math.round(report.nps)),
    t ? number(t.probes) : "\u2013", t ? number(t.hits) : "\u2013", t ? number(t.cutoffs) : "\u2013",
    report.hashfull === null || report.hashfull === undefined ? "\u2013" : `${(report.hashfull / 10).toFixed(1)}%`,
    report.pv.map((m) => m.text).join(" ")];
  // The final report repeats the last iteration's depth: it replaces that row.
  const lastRow = body.rows[body.rows.length - 1];
  const row = final && lastRow && lastRow.dataset.depth === String(report.depth ?? "") ? lastRow : body.insertRow();
  row.replaceChildren();
  row.className = final ? "iteration final" : "iteration";
  row.dataset.depth = String(report.depth ?? "");
  cells.forEach((text, i) => {
    const td = row.insertCell();
    td.textContent = text;
    if (i === cells.length - 1) td.className = "line";
  });
  if (final) {
    const time = (report.elapsed_ms / 1000).toFixed(2);
    const lines = [`Best move ${report.best ?? "\u2013"}, ${report.score}, ${number(report.nodes)} ${report.unit} in ${time} s.`];
    if (t && t.probes) lines.push(`The table answered ${(100 * t.hits / t.probes).toFixed(1)}% of its ${number(t.probes)} probes; ${number(t.cutoffs)} of them settled a node without searching it.`);
    $("search-notes").replaceChildren(...lines.concat(report.notes).map((l) => Object.assign(document.createElement("div"), { textContent: l })));
  }
  page.pv = report.pv;
  drawBoard();
}

async function compare() {
  if (page.search || !page.state) return;
  const depth = Number($("compare-depth").value);
  const out = $("compare-result");
  if (page.depthless) {
    out.textContent = "This game's engine (Monte Carlo tree search) has no depths and no transposition table: nothing to compare.";
    return;
  }
  out.textContent = `Searching to depth ${depth} with the table, then without it\u2026`;
  setBusy(true);
  $("stop").disabled = true;
  try {
    const c = await api("POST", `/api/sessions/${page.state.id}/compare`, { depth, time_ms: 10000 });
    const a = c.with_table, b = c.without_table;
    const row = (name, f) => `<tr><td>${name}</td><td>${f(a)}</td><td>${f(b)}</td></tr>`;
    out.innerHTML = `<table id="comparison"><thead><tr><th></th><th>with the table</th><th>without</th></tr></thead><tbody>` +
      row("depth reached", (r) => r.depth) +
      row(a.unit, (r) => r.nodes.toLocaleString("en")) +
      row("time", (r) => (r.elapsed_ms / 1000).toFixed(3) + " s") +
      row("best move", (r) => r.best ?? "\u2013") +
      row("score", (r) => r.score) +
      row("table hits", (r) => r.table && r.table.probes ? `${(100 * r.table.hits / r.table.probes).toFixed(1)}%` : "\u2013") +
      `</tbody></table>`;
    const saved = document.createElement("div");
    saved.className = "saved";
    if (b.depth < depth || a.depth < depth) {
      saved.textContent = Math.max(a.elapsed_ms, b.elapsed_ms) >= 9000
        ? "The time cap stopped a search before the depth asked: compare at a smaller depth."
        : `The search proved the game's value at depth ${a.depth}, before the depth asked: there is nothing deeper to compare.`;
    }
    else saved.textContent = `Without the table the same search needs ${(b.nodes / Math.max(1, a.nodes)).toFixed(1)}\u00d7 the ${a.unit} and ${(b.elapsed_ms / Math.max(0.001, a.elapsed_ms)).toFixed(1)}\u00d7 the time.`;
    out.appendChild(saved);
  } catch (e) {
    out.textContent = e.message;
  } finally {
    setBusy(false);
  }
}

// ---- The panels ---------------------------------------------------------------------------------------------

function render() {
  const s = page.state;
  if (!s) return;
  $("status").textContent = s.result ? s.result : `${s.side} to move` + (playerToMove() === "engine" ? " (engine)" : "");
  drawBoard();
  const extra = $("extra-moves");
  extra.replaceChildren();
  if (humanToMove()) {
    for (const m of s.moves.filter((m) => m.to === null || m.to === undefined)) {
      const b = document.createElement("button");
      b.textContent = m.text;
      b.onclick = () => play(m.text);
      extra.appendChild(b);
    }
  }
  $("cell-notes").replaceChildren(...(s.cells ? s.cells.notes : []).map((n) =>
    Object.assign(document.createElement("li"), { textContent: `\u00d7 ${n.why}: the rules forbid it now.` })));
  $("position").value = s.position;
  $("position-help").textContent = s.position_help;
  const download = $("download");
  download.hidden = s.game !== "go";
  if (s.game === "go") download.href = "data:application/x-go-sgf;charset=utf-8," + encodeURIComponent(s.position);
  renderKeys(s);
  const list = $("moves");
  list.replaceChildren();
  for (let i = 0; i < s.history.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.history.slice(i, i + 2).map((p) => p.text).join(" ");
    list.appendChild(li);
  }
}

function renderKeys(s) {
  $("key").textContent = s.key;
  $("feature-count").textContent = s.features.length ? `= the XOR of ${s.features.length} feature keys` : "";
  $("features").replaceChildren(...s.features.map((f) => Object.assign(document.createElement("li"), { textContent: `${f.key} ${f.name}` })));
  const out = $("last-move-keys");
  out.replaceChildren();
  const last = s.history[s.history.length - 1];
  if (last) {
    const pre = document.createElement("pre");
    pre.className = "xor";
    const line = (cls, text) => { const span = document.createElement("span"); span.className = cls; span.textContent = text + "\n"; pre.appendChild(span); };
    line("", `  ${last.key_before}  key before ${last.text}`);
    for (const f of last.xor_out) line("out", `\u2295 ${f.key}  out: ${f.name}`);
    for (const f of last.xor_in) line("in", `\u2295 ${f.key}  in: ${f.name}`);
    line("", `= ${last.key_after}  key after` + (s.features.length ? (last.adds_up ? "  \u2713 adds up" : "  \u2717 does not add up") : ""));
    out.appendChild(pre);
  }
  const line = s.history.map((p) => p.text).join(" ");
  const first = page.seen.get(s.key);
  const note = $("transposition");
  if (first !== undefined && first !== line && s.history.length) {
    note.textContent = `Same key as after \u201c${first || "the start"}\u201d: the same position, reached by another order of moves.`;
  } else {
    note.textContent = "";
    if (first === undefined) page.seen.set(s.key, line);
  }
}

// ---- Sessions -------------------------------------------------------------------------------------------------

function settingsFor(name) {
  return (page.games.find((g) => g.name === name) || { settings: [] }).settings;
}

function drawSettings() {
  const box = $("settings");
  box.replaceChildren();
  for (const s of settingsFor($("game").value)) {
    const label = document.createElement("label");
    label.textContent = s.name + " ";
    const select = document.createElement("select");
    select.id = "setting-" + s.name;
    for (const c of s.choices) select.appendChild(Object.assign(document.createElement("option"), { value: c, textContent: c }));
    label.appendChild(select);
    box.appendChild(label);
  }
}

async function newGame(position) {
  showError("");
  if (page.search) {
    // Closing the stream stops the old session's search; deleting the session below would too.
    page.search.close();
    page.search = null;
    setBusy(false);
  }
  const game = $("game").value;
  const body = { game };
  for (const s of settingsFor(game)) {
    const v = $("setting-" + s.name).value;
    body[s.name] = s.name === "rule" ? v : Number(v);
  }
  if (position !== undefined) body.position = position;
  const old = page.state;
  try {
    const state = await api("POST", "/api/sessions", body);
    page.generation++;
    page.seen = new Map();
    page.lastDepth = null;
    page.depthless = false;
    $("search").tBodies[0].replaceChildren();
    $("search-notes").textContent = "";
    $("compare-result").textContent = "";
    if (old) api("DELETE", `/api/sessions/${old.id}`).catch(() => {});
    location.hash = game;
    update(state);
  } catch (e) {
    showError(e.message);
  }
}

function stopSearch() {
  if (page.state && page.search) api("POST", `/api/sessions/${page.state.id}/stop`).catch(() => {});
}

async function undo() {
  if (!page.state) return;
  if (page.search) {
    // Wait for the stopped search to answer, without playing its move, before taking moves back.
    const source = page.search;
    page.cancelled = true;
    stopSearch();
    await new Promise((resolve) => { const t = setInterval(() => { if (page.search !== source) { clearInterval(t); resolve(); } }, 30); });
  }
  showError("");
  // Back to the last position where a human is to move (one move if both sides are human or both engines).
  const mixed = $("first").value !== $("second").value;
  let state = page.state;
  try {
    for (let i = 0; i < (mixed ? 2 : 1) && state.history.length; i++) {
      state = await api("POST", `/api/sessions/${state.id}/undo`);
      page.state = state;
      if (!mixed || playerToMove() === "human") break;
    }
  } catch (e) {
    showError(e.message);
  }
  page.state = state;
  page.pv = [];
  render();
}

async function start() {
  page.games = await api("GET", "/api/games");
  const select = $("game");
  for (const g of page.games) select.appendChild(Object.assign(document.createElement("option"), { value: g.name, textContent: g.name }));
  const wanted = location.hash.slice(1);
  if (page.games.some((g) => g.name === wanted)) select.value = wanted;
  drawSettings();
  select.onchange = () => { drawSettings(); newGame(); };
  // The address names the game (`/#chess`): following a link to another game starts it.
  window.addEventListener("hashchange", () => {
    const game = location.hash.slice(1);
    if (game !== select.value && page.games.some((g) => g.name === game)) {
      select.value = game;
      drawSettings();
      newGame();
    }
  });
  $("new").onclick = () => newGame();
  $("board").addEventListener("click", onBoardClick);
  $("undo").onclick = undo;
  $("think").onclick = () => think(true);
  $("analyze").onclick = () => think(false);
  $("stop").onclick = stopSearch;
  $("compare").onclick = compare;
  $("load").onclick = () => newGame($("position").value);
  $("copy").onclick = () => {
    const text = $("position").value;
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error("no clipboard")))
      .catch(() => { $("position").select(); document.execCommand("copy"); });
  };
  for (const id of ["first", "second"]) $(id).onchange = () => { render(); next(); };
  await newGame();
}

start().catch((e) => showError(e.message));
