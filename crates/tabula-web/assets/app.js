// Tabula's page: one code path for every game, drawn from the server's state (cells, legal moves and where
// each is drawn, key features), searches streamed as server-sent events, every word from the tables of
// /i18n/<language>.json (the server's texts arrive as words: a key of the tables and its arguments).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                 k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const LANGUAGES = ["en", "zh-CN"];
const STORED_LANGUAGE = "tabula.language";

const page = {
  games: [],
  state: null,        // the session's state as the server last answered it
  selected: null,     // the cell a moving piece was picked up from
  search: null,       // the running search's EventSource
  cancelled: false,   // whether the running search's move is no longer wanted (undo while it thinks)
  pv: [],             // the line drawn as ghost moves
  reports: [],        // the search panel's reports, [report, final], drawn again in another language
  comparison: null,   // what the comparison panel shows: a message's words or a comparison and its depth
  error: null,        // the error shown, as words
  lastDepth: null,    // the depth of the last finished search, for the comparison
  depthless: false,   // whether the engine searches without depths (Monte Carlo): nothing to compare
  seen: new Map(),    // key -> the moves that first reached it, to show transpositions
  generation: 0,      // bumped by every new game, so a late answer for an old one is ignored
};

// ---- Words ------------------------------------------------------------------------------------------------

const i18n = { language: "en", tables: {} };

// The language stored by the switch, else Chinese for a browser that asks for any Chinese, else English.
function chosenLanguage() {
  const stored = localStorage.getItem(STORED_LANGUAGE);
  if (LANGUAGES.includes(stored)) return stored;
  const asked = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  return asked.some((l) => /^zh\b/i.test(l)) ? "zh-CN" : "en";
}

function has(key) {
  return Object.prototype.hasOwnProperty.call(i18n.tables[i18n.language] || {}, key);
}

// The template `key` in the page's language, its `{name}` and `{@name}` holes filled from `args`.
function t(key, args) {
  const table = i18n.tables[i18n.language] || {};
  const template = table[key] ?? (i18n.tables.en || {})[key] ?? key;
  return template.replace(/\{@?(\w+)\}/g, (_, name) => (args && args[name] !== undefined ? String(args[name]) : ""));
}

// The server's words (`{key, args}` or `{text}`) in the page's language.
function say(words) {
  if (!words) return "";
  if (words.text !== undefined) return words.text;
  const args = {};
  for (const [name, value] of Object.entries(words.args || {})) args[name] = say(value);
  return t(words.key, args);
}

// A move as the page's language writes it: a word for a move off the board (a pass); the game's notation,
// unless that is not in Latin letters (xiangqi's Chinese) and the page is not Chinese: then coordinates.
function notation(m) {
  if (!m) return "\u2013";
  if (m.words) return say(m.words);
  return i18n.language !== "zh-CN" && /[^\x00-\x7f]/.test(m.text) && m.coordinate ? m.coordinate : m.text;
}

function number(n) {
  if (n < 1e4) return String(n);
  return new Intl.NumberFormat(i18n.language, { notation: "compact", maximumSignificantDigits: 3 }).format(n);
}

async function loadLanguage(language) {
  for (const l of new Set(["en", language])) {
    if (!i18n.tables[l]) i18n.tables[l] = await (await fetch(`/i18n/${l}.json`)).json();
  }
  i18n.language = language;
}

async function switchLanguage(language) {
  localStorage.setItem(STORED_LANGUAGE, language);
  await loadLanguage(language);
  applyLanguage();
}

// Writes every word of the page in its language.
function applyLanguage() {
  document.documentElement.lang = i18n.language;
  document.title = t("ui.title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  $("lang").value = i18n.language;
  for (const option of $("time").options) option.textContent = t("ui.seconds", { n: Number(option.value) / 1000 });
  for (const option of $("game").options) option.textContent = t(`game.${option.value}`);
  drawSettings(true);
  render();
  drawReports();
  drawComparison();
  drawError();
}

// ---- Talking to the server ---------------------------------------------------------------------------------

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const words = data && data.words ? data.words
      : { key: "ui.http_error", args: { status: { text: String(response.status) }, reason: { text: response.statusText } } };
    throw Object.assign(new Error(say(words)), { words });
  }
  return data;
}

// Shows an error (its words, or a JavaScript error's message), or none.
function showError(error) {
  page.error = !error ? null : error.words ? error.words : error.key || error.text !== undefined ? error : { text: String(error.message || error) };
  drawError();
}

function drawError() { $("error").textContent = say(page.error); }

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// ---- The board ------------------------------------------------------------------------------------------

const GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const RED_FILES = "九八七六五四三二一";
const BLACK_FILES = "１２３４５６７８９";

// The coordinates drawn around each game's board, as its notation counts them: for each edge (top, bottom,
// left) a label per column or row, or none; `inside` numbers the cells themselves (tic-tac-toe).
function coordinates(game, cells) {
  const w = cells.width, h = cells.height;
  const columns = (f) => Array.from({ length: w }, (_, i) => f(i));
  const rows = (f) => Array.from({ length: h }, (_, i) => f(i));
  const chinese = i18n.language === "zh-CN";
  switch (game) {
    case "chess": return { bottom: [columns((i) => "abcdefgh"[i])], left: rows((i) => String(8 - i)) };
    case "connect4": return { bottom: [columns((i) => String(i + 1))] };
    case "tictactoe": return { inside: true };
    case "go": return { bottom: [columns((i) => GTP_LETTERS[i])], left: rows((i) => String(h - i)) };
    case "gomoku": return { bottom: [columns((i) => String.fromCharCode(97 + i))], left: rows((i) => String(h - i)) };
    case "xiangqi":
      // Each side counts its files from its own right: Black's 1 to 9 along the top, Red's nine to one along
      // the bottom; under them the ICCS letters, and the ICCS ranks on the left.
      return {
        top: columns((i) => (chinese ? BLACK_FILES[i] : String(i + 1))),
        bottom: [columns((i) => (chinese ? RED_FILES[i] : String(9 - i))), columns((i) => "abcdefghi"[i])],
        left: rows((i) => String(9 - i)),
      };
    default: return {};
  }
}

function geometry(cells, coords) {
  const size = Math.max(18, Math.min(64, Math.floor(560 / Math.max(cells.width, cells.height))));
  const pad = cells.style === "points" ? size / 2 : 4;
  const label = Math.max(14, Math.round(size * 0.42));
  const left = pad + (coords.left ? label : 0);
  const top = pad + (coords.top ? label : 0);
  return { size, pad, label, left, top, bottom: pad + (coords.bottom ? coords.bottom.length * label : 0) };
}

function center(cells, g, index) {
  const col = index % cells.width, row = Math.floor(index / cells.width);
  const half = cells.style === "points" ? 0 : g.size / 2;
  return [g.left + col * g.size + half, g.top + row * g.size + half];
}

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  const state = page.state;
  const cells = state && state.cells;
  if (!cells) return;
  const coords = coordinates(state.game, cells);
  const g = geometry(cells, coords);
  const points = cells.style === "points";
  const span = (n) => (points ? n - 1 : n) * g.size;
  const w = g.left + span(cells.width) + g.pad;
  const h = g.top + span(cells.height) + g.bottom;
  board.setAttribute("width", w);
  board.setAttribute("height", h);
  board.setAttribute("viewBox", `0 0 ${w} ${h}`);
  board.appendChild(svg("rect", { x: 0, y: 0, width: w, height: h,
    fill: points ? "#dcb35c" : cells.drop ? "#1e50b4" : "#f3efe6" }));
  if (points) drawLines(board, cells, g, state.game === "xiangqi");
  drawCoordinates(board, cells, g, coords, cells.drop ? "#e3ecff" : "#5d4037");
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
    if (coords.inside) {
      const font = g.size * 0.22;
      board.appendChild(svg("text", { x: x + 4, y: y + 3 + font, "font-size": font, fill: "#9e9e9e",
        class: "coord", "pointer-events": "none" }, String(i + 1)));
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
      cross.appendChild(svg("title", {}, say(note.words)));
      board.appendChild(cross);
    }
    if (targets.has(i)) board.appendChild(svg("circle", { cx, cy, r: g.size / 7, fill: "#2e7d32", opacity: 0.7 }));
    // The click target, on top of everything, carries the cell number.
    board.appendChild(svg("rect", { x, y, width: g.size, height: g.size, fill: "transparent", class: "cell", "data-cell": i }));
  }
  drawGhosts(board, cells, g);
}

// The lines of a board whose stones stand on points; xiangqi's files stop at the river, which is written on,
// and its two palaces have diagonals.
function drawLines(board, cells, g, xiangqi) {
  const x = (col) => g.left + col * g.size, y = (row) => g.top + row * g.size;
  const line = (c1, r1, c2, r2) => board.appendChild(svg("line", { x1: x(c1), y1: y(r1), x2: x(c2), y2: y(r2), stroke: "#333" }));
  const last = { col: cells.width - 1, row: cells.height - 1 };
  for (let j = 0; j <= last.row; j++) line(0, j, last.col, j);
  for (let i = 0; i <= last.col; i++) {
    if (xiangqi && i > 0 && i < last.col) {
      line(i, 0, i, 4);
      line(i, 5, i, last.row);
    } else {
      line(i, 0, i, last.row);
    }
  }
  if (!xiangqi) return;
  for (const top of [0, 7]) {
    line(3, top, 5, top + 2);
    line(5, top, 3, top + 2);
  }
  // The river's two names, as boards print them, on Black's side of the middle and on Red's.
  const river = { y: (y(4) + y(5)) / 2 + g.size * 0.17, size: g.size * 0.48 };
  for (const [text, col] of [["楚　河", 2], ["汉　界", 6]]) {
    board.appendChild(svg("text", { x: x(col), y: river.y, "font-size": river.size, "text-anchor": "middle",
      fill: "#5d4037", class: "river", "pointer-events": "none" }, text));
  }
}

function drawCoordinates(board, cells, g, coords, fill) {
  const half = cells.style === "points" ? 0 : g.size / 2;
  const text = (x, y, label) => board.appendChild(svg("text", { x, y, "font-size": g.label * 0.78, "text-anchor": "middle",
    fill, class: "coord", "pointer-events": "none" }, label));
  const x = (col) => g.left + col * g.size + half;
  const y = (row) => g.top + row * g.size + half;
  const bottomEdge = g.top + (cells.style === "points" ? cells.height - 1 : cells.height) * g.size;
  const lift = g.label * 0.28;
  if (coords.top) coords.top.forEach((label, col) => text(x(col), g.top - (cells.style === "points" ? g.pad : 0) - lift, label));
  (coords.bottom || []).forEach((labels, n) => labels.forEach((label, col) =>
    text(x(col), bottomEdge + (cells.style === "points" ? g.pad : 0) + (n + 1) * g.label - lift, label)));
  if (coords.left) coords.left.forEach((label, row) => text(g.left - (cells.style === "points" ? g.pad : 0) - g.label / 2, y(row) + lift, label));
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
  showError(null);
  const generation = page.generation;
  try {
    const state = await api("POST", `/api/sessions/${page.state.id}/move`, { move: text });
    if (generation === page.generation) update(state);
  } catch (e) {
    showError(e);
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

function clearSearch() {
  page.reports = [];
  $("search").tBodies[0].replaceChildren();
  $("search-notes").textContent = "";
}

function think(playIt) {
  if (page.search || !page.state || page.state.result) return;
  showError(null);
  const id = page.state.id;
  const generation = page.generation;
  const source = new EventSource(`/api/sessions/${id}/search?time_ms=${$("time").value}`);
  page.search = source;
  page.cancelled = false;
  clearSearch();
  setBusy(true);
  const finish = () => {
    source.close();
    if (page.search === source) page.search = null;
    setBusy(false);
  };
  source.addEventListener("queued", () => { $("search-notes").textContent = t("ui.waiting"); });
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
      .catch(showError);
  };
}

function setBusy(busy) {
  $("stop").disabled = !busy;
  for (const id of ["think", "analyze", "compare", "load"]) $(id).disabled = busy;
}

function showReport(report, final) {
  // The final report repeats the last iteration's depth: it replaces that row.
  const last = page.reports[page.reports.length - 1];
  if (final && last && (last[0].depth ?? "") === (report.depth ?? "")) page.reports.pop();
  page.reports.push([report, final]);
  page.pv = report.pv;
  drawReports();
  drawBoard();
}

// The search panel: a row per report, and what the final one says.
function drawReports() {
  const body = $("search").tBodies[0];
  body.replaceChildren();
  for (const [report, final] of page.reports) {
    const table = report.table;
    const cells = [report.depth ?? "", say(report.score_words), `${number(report.nodes)} ${say(report.unit_words)}`,
      number(Math.round(report.nps)),
      table ? number(table.probes) : "\u2013", table ? number(table.hits) : "\u2013", table ? number(table.cutoffs) : "\u2013",
      report.hashfull === null || report.hashfull === undefined ? "\u2013" : `${(report.hashfull / 10).toFixed(1)}%`,
      report.pv.map(notation).join(" ")];
    const row = body.insertRow();
    row.className = final ? "iteration final" : "iteration";
    row.dataset.depth = String(report.depth ?? "");
    cells.forEach((text, i) => {
      const td = row.insertCell();
      td.textContent = text;
      if (i === cells.length - 1) td.className = "line";
    });
  }
  const done = page.reports.find(([, final]) => final);
  if (!done) return;
  const report = done[0];
  const table = report.table;
  const lines = [t("ui.best_line", { move: notation(report.best_move), score: say(report.score_words),
    nodes: number(report.nodes), unit: say(report.unit_words), time: (report.elapsed_ms / 1000).toFixed(2) })];
  if (table && table.probes) {
    lines.push(t("ui.table_answered", { percent: (100 * table.hits / table.probes).toFixed(1), probes: number(table.probes),
      cutoffs: number(table.cutoffs) }));
  }
  const notes = lines.concat(report.notes_words.map(say));
  $("search-notes").replaceChildren(...notes.map((l) => Object.assign(document.createElement("div"), { textContent: l })));
}

async function compare() {
  if (page.search || !page.state) return;
  const depth = Number($("compare-depth").value);
  if (page.depthless) {
    page.comparison = { words: { key: "ui.no_depths" } };
    return drawComparison();
  }
  page.comparison = { words: { key: "ui.comparing", args: { depth: { text: String(depth) } } } };
  drawComparison();
  setBusy(true);
  $("stop").disabled = true;
  try {
    const result = await api("POST", `/api/sessions/${page.state.id}/compare`, { depth, time_ms: 10000 });
    page.comparison = { result, depth };
  } catch (e) {
    page.comparison = { words: e.words || { text: e.message } };
  } finally {
    setBusy(false);
  }
  drawComparison();
}

function drawComparison() {
  const out = $("compare-result");
  const shown = page.comparison;
  out.replaceChildren();
  if (!shown) return;
  if (!shown.result) {
    out.textContent = say(shown.words);
    return;
  }
  const { result: c, depth } = shown;
  const a = c.with_table, b = c.without_table;
  const table = document.createElement("table");
  table.id = "comparison";
  const row = (parent, tag, texts) => {
    const tr = parent.insertRow();
    for (const text of texts) tr.appendChild(Object.assign(document.createElement(tag), { textContent: text }));
  };
  row(table.createTHead(), "th", ["", t("ui.with_table"), t("ui.without")]);
  const body = table.createTBody();
  const line = (name, f) => row(body, "td", [name, f(a), f(b)]);
  line(t("ui.depth_reached"), (r) => String(r.depth));
  line(t("ui.work_row", { unit: say(a.unit_words) }), (r) => r.nodes.toLocaleString(i18n.language));
  line(t("ui.time"), (r) => t("ui.seconds", { n: (r.elapsed_ms / 1000).toFixed(3) }));
  line(t("ui.best_move"), (r) => notation(r.best_move));
  line(t("ui.score"), (r) => say(r.score_words));
  line(t("ui.table_hits"), (r) => r.table && r.table.probes ? `${(100 * r.table.hits / r.table.probes).toFixed(1)}%` : "\u2013");
  out.appendChild(table);
  const saved = document.createElement("div");
  saved.className = "saved";
  if (b.depth < depth || a.depth < depth) {
    saved.textContent = Math.max(a.elapsed_ms, b.elapsed_ms) >= 9000 ? t("ui.time_cap") : t("ui.proved", { depth: a.depth });
  } else {
    saved.textContent = t("ui.saved", { nodes: (b.nodes / Math.max(1, a.nodes)).toFixed(1), unit: say(a.unit_words),
      time: (b.elapsed_ms / Math.max(0.001, a.elapsed_ms)).toFixed(1) });
  }
  out.appendChild(saved);
}

// ---- The panels ---------------------------------------------------------------------------------------------

function render() {
  const s = page.state;
  if (!s) return;
  const side = say(s.side_words);
  $("status").textContent = s.result ? say(s.result_words)
    : playerToMove() === "engine" ? t("ui.to_move_engine", { side }) : t("ui.to_move", { side });
  drawBoard();
  const extra = $("extra-moves");
  extra.replaceChildren();
  if (humanToMove()) {
    for (const m of s.moves.filter((m) => m.to === null || m.to === undefined)) {
      const b = document.createElement("button");
      b.textContent = notation(m);
      b.onclick = () => play(m.text);
      extra.appendChild(b);
    }
  }
  $("cell-notes").replaceChildren(...(s.cells ? s.cells.notes : []).map((n) =>
    Object.assign(document.createElement("li"), { textContent: t("ui.forbidden", { why: say(n.words) }) })));
  $("position").value = s.position;
  $("position-label").textContent = t("ui.position", { help: say(s.position_help_words) });
  const download = $("download");
  download.hidden = s.game !== "go";
  if (s.game === "go") download.href = "data:application/x-go-sgf;charset=utf-8," + encodeURIComponent(s.position);
  renderKeys(s);
  const list = $("moves");
  list.replaceChildren();
  for (let i = 0; i < s.history.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = s.history.slice(i, i + 2).map(notation).join(" ");
    list.appendChild(li);
  }
}

function renderKeys(s) {
  $("key").textContent = s.key;
  $("feature-count").textContent = s.features.length ? t("ui.xor_of", { count: s.features.length }) : "";
  $("features").replaceChildren(...s.features.map((f) =>
    Object.assign(document.createElement("li"), { textContent: `${f.key} ${say(f.words)}` })));
  const out = $("last-move-keys");
  out.replaceChildren();
  const last = s.history[s.history.length - 1];
  if (last) {
    const pre = document.createElement("pre");
    pre.className = "xor";
    const line = (cls, text) => { const span = document.createElement("span"); span.className = cls; span.textContent = text + "\n"; pre.appendChild(span); };
    line("", `  ${last.key_before}  ${t("ui.key_before", { move: notation(last) })}`);
    for (const f of last.xor_out) line("out", `\u2295 ${f.key}  ${t("ui.xor_out", { name: say(f.words) })}`);
    for (const f of last.xor_in) line("in", `\u2295 ${f.key}  ${t("ui.xor_in", { name: say(f.words) })}`);
    const sum = s.features.length ? "  " + (last.adds_up ? t("ui.adds_up") : t("ui.does_not_add_up")) : "";
    line("", `= ${last.key_after}  ${t("ui.key_after")}${sum}`);
    out.appendChild(pre);
  }
  // The moves that first reached each key, by their text (the same in every language).
  const line = s.history.map((p) => p.text).join(" ");
  const first = page.seen.get(s.key);
  const note = $("transposition");
  if (first !== undefined && first.line !== line && s.history.length) {
    const moves = first.moves.length ? first.moves.map(notation).join(" ") : t("ui.the_start");
    note.textContent = t("ui.transposition", { line: moves });
  } else {
    note.textContent = "";
    if (first === undefined) page.seen.set(s.key, { line, moves: s.history.slice() });
  }
}

// ---- Sessions -------------------------------------------------------------------------------------------------

function settingsFor(name) {
  return (page.games.find((g) => g.name === name) || { settings: [] }).settings;
}

// The selects of the game's settings; `relabel` writes the labels again, keeping what is chosen.
function drawSettings(relabel) {
  const box = $("settings");
  const chosen = {};
  if (relabel) for (const select of box.querySelectorAll("select")) chosen[select.id] = select.value;
  box.replaceChildren();
  for (const s of settingsFor($("game").value)) {
    const label = document.createElement("label");
    label.textContent = t(`setting.${s.name}`) + " ";
    const select = document.createElement("select");
    select.id = "setting-" + s.name;
    for (const c of s.choices) {
      const text = has(`choice.${c}`) ? t(`choice.${c}`) : c;
      select.appendChild(Object.assign(document.createElement("option"), { value: c, textContent: text }));
    }
    if (chosen[select.id] !== undefined) select.value = chosen[select.id];
    label.appendChild(select);
    box.appendChild(label);
  }
}

async function newGame(position) {
  showError(null);
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
    page.comparison = null;
    clearSearch();
    drawComparison();
    if (old) api("DELETE", `/api/sessions/${old.id}`).catch(() => {});
    location.hash = game;
    update(state);
  } catch (e) {
    showError(e);
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
    await new Promise((resolve) => { const timer = setInterval(() => { if (page.search !== source) { clearInterval(timer); resolve(); } }, 30); });
  }
  showError(null);
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
    showError(e);
  }
  page.state = state;
  page.pv = [];
  render();
}

async function start() {
  await loadLanguage(chosenLanguage());
  page.games = await api("GET", "/api/games");
  const select = $("game");
  for (const g of page.games) select.appendChild(Object.assign(document.createElement("option"), { value: g.name }));
  const wanted = location.hash.slice(1);
  if (page.games.some((g) => g.name === wanted)) select.value = wanted;
  const languages = $("lang");
  for (const l of LANGUAGES) languages.appendChild(Object.assign(document.createElement("option"), { value: l, textContent: t(`lang.${l}`) }));
  languages.onchange = () => switchLanguage(languages.value).catch(showError);
  applyLanguage();
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

start().catch(showError);
