// The dtb endgame explorer: a board to set up, the tables' answer from the
// JSON API of dtb serve (/api/v1), the line to the end and the draw rules.
// Plain JavaScript, no library: the page must work from the dtb binary alone.
"use strict";

// ---------------------------------------------------------------------------
// Boards: squares are PDN numbers, 1 at the top left dark square (Black's
// side), White playing up; on 8x8 boards also named a1..h8.
//
// The variants and their boards come from the server (GET /api/v1), which
// takes them from dtb's one list of variants: name -> {size, algebraic,
// example, label}, in the server's order.
const VARIANTS = {};

function learnVariants(index) {
  for (const v of index.variants) {
    const label = v.variant[0].toUpperCase() + v.variant.slice(1);
    VARIANTS[v.variant] = {
      size: v.board.size,
      algebraic: v.board.algebraic,
      example: v.board.example_fen,
      label: `${label} ${v.board.size}×${v.board.size}`,
    };
  }
}

// One tab per variant, the first selected.
function makeTabs() {
  const nav = document.querySelector(".tabs");
  nav.textContent = "";
  for (const [name, v] of Object.entries(VARIANTS)) {
    const t = el("button", "", v.label);
    t.type = "button";
    t.setAttribute("role", "tab");
    t.dataset.variant = name;
    t.setAttribute("aria-selected", String(name === state.variant));
    nav.appendChild(t);
  }
}

// The square number at row r (0 at the top) and column c (0 at the left), or
// 0 for a light square.
function squareAt(size, r, c) {
  if ((r + c) % 2 === 0) return 0;
  return r * (size / 2) + Math.floor(c / 2) + 1;
}

function rowCol(size, n) {
  const half = size / 2;
  const r = Math.floor((n - 1) / half);
  const k = (n - 1) % half;
  return [r, r % 2 === 0 ? 2 * k + 1 : 2 * k];
}

function squareName(variant, n) {
  const v = VARIANTS[variant];
  if (!v.algebraic) return String(n);
  const [r, c] = rowCol(v.size, n);
  return String.fromCharCode(97 + c) + (v.size - r);
}

function parseSquare(variant, text) {
  const v = VARIANTS[variant];
  const max = (v.size * v.size) / 2;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= 1 && n <= max ? n : null;
  }
  const m = /^([a-z])(\d+)$/i.exec(text);
  if (!v.algebraic || !m) return null;
  const c = m[1].toLowerCase().charCodeAt(0) - 97;
  const r = v.size - Number(m[2]);
  if (c < 0 || c >= v.size || r < 0 || r >= v.size) return null;
  return squareAt(v.size, r, c) || null;
}

// A FEN as the server writes it ("W:Wc3,Ka1:BKh8", "B:W31-35,K46:B5") into
// {side, pieces: Map(square -> "wm"|"wk"|"bm"|"bk")}; null if it is not one.
function parseFen(variant, fen) {
  const parts = fen.trim().replace(/\.$/, "").split(":");
  const side = parts[0].toUpperCase();
  if (side !== "W" && side !== "B") return null;
  const pieces = new Map();
  for (const part of parts.slice(1)) {
    const colour = part[0] ? part[0].toUpperCase() : "";
    if (colour !== "W" && colour !== "B") return null;
    for (let item of part.slice(1).split(",")) {
      item = item.trim();
      if (!item) continue;
      const king = item[0].toUpperCase() === "K";
      if (king) item = item.slice(1);
      const range = item.split("-");
      const first = parseSquare(variant, range[0]);
      const last = range.length === 2 ? parseSquare(variant, range[1]) : first;
      if (!first || !last || range.length > 2) return null;
      for (let n = first; n <= last; n++) pieces.set(n, (colour === "W" ? "w" : "b") + (king ? "k" : "m"));
    }
  }
  return { side, pieces };
}

function toFen(variant, side, pieces) {
  const list = (colour) =>
    [...pieces.entries()]
      .filter(([, p]) => p[0] === colour)
      .sort((a, b) => a[0] - b[0])
      .map(([n, p]) => (p[1] === "k" ? "K" : "") + squareName(variant, n))
      .join(",");
  return `${side}:W${list("w")}:B${list("b")}`;
}

// ---------------------------------------------------------------------------
// State: per variant, the positions from the set-up one along the moves
// played (history[index] is on the board).

const state = {
  variant: null, // set from the server's list of variants
  tool: "play",
  selected: null, // in Play: the square whose moves are shown
  flipped: false, // Black's side at the bottom
  boards: {},
  answer: null, // the API's answer for the position on the board
  line: null, // the line to the end from it
  error: null,
  unfinished: null, // why the set-up position is not one yet (a hint, not an error)
  note: null, // a passing remark: a move refused, an address not understood
  table: null, // the statistics of the material's tables: {key, answer} or {key, error}
};

function current() {
  const b = state.boards[state.variant];
  return b.history[b.index];
}

// Each entry: the position (fen), and for a position reached by a move, the
// move's text and its first and last squares (marked on the board).
function setHistory(fen) {
  state.boards[state.variant] = { history: [{ fen, move: null, from: 0, to: 0 }], index: 0 };
}

// Every variant starts on its example position.
function startBoards() {
  for (const [name, v] of Object.entries(VARIANTS)) {
    state.variant = name;
    setHistory(v.example);
  }
  state.variant = Object.keys(VARIANTS)[0];
}

// ---------------------------------------------------------------------------
// The API

let requestSerial = 0;

async function api(path) {
  const res = await fetch(path, { headers: { Accept: "application/json" } });
  let body;
  try {
    body = await res.json();
  } catch {
    body = { error: `the server answered ${res.status} without JSON` };
  }
  if (!res.ok) throw Object.assign(new Error(body.error || `HTTP ${res.status}`), { status: res.status, body });
  return body;
}

function endpoint(what, params) {
  const query = new URLSearchParams(params).toString();
  return `/api/v1/${state.variant}${what ? "/" + what : ""}?${query}`;
}

// Why the set-up position is not a position yet, or null: while a board is
// being set up a side may have no piece, which is no error. Positions
// reached by moves are the tables' to judge (a side that lost its last
// piece has lost).
function unfinishedSetUp() {
  const b = state.boards[state.variant];
  if (b.index !== 0) return null;
  const pos = parseFen(state.variant, current().fen);
  if (!pos) return null; // the server says what is wrong
  if (pos.pieces.size === 0) return "The board is empty: place pieces of both colours, then pick Play.";
  for (const side of ["W", "B"])
    if (!hasPieces(pos, side)) return `${sideName(side)} has no piece yet: place one, then pick Play.`;
  return null;
}

// Asks for the position on the board and its line; drops answers to
// positions that are no longer there.
async function query() {
  const serial = ++requestSerial;
  const fen = current().fen;
  queryTable();
  if (state.unfinished) {
    document.body.classList.remove("loading");
    render();
    return;
  }
  document.body.classList.add("loading");
  try {
    const [answer, line] = await Promise.all([api(endpoint("", { fen })), api(endpoint("line", { fen }))]);
    if (serial !== requestSerial) return;
    state.answer = answer;
    state.line = line;
    // The server writes the FEN its own way: keep that.
    current().fen = answer.fen;
    writeAddress(false);
  } catch (e) {
    if (serial !== requestSerial) return;
    state.error = e;
  } finally {
    if (serial === requestSerial) document.body.classList.remove("loading");
  }
  render();
}

// The statistics of the material's tables, asked again only when the
// material changes (the key: the pieces of each kind, side to move first).
let tableSerial = 0;

function materialKey() {
  const pos = parseFen(state.variant, current().fen);
  if (!pos || state.unfinished) return null;
  const count = (p) => [...pos.pieces.values()].filter((x) => x === p).length;
  const [us, them] = pos.side === "W" ? ["w", "b"] : ["b", "w"];
  return `${state.variant}:${count(us + "k")},${count(us + "m")}v${count(them + "k")},${count(them + "m")}`;
}

async function queryTable() {
  const key = materialKey();
  if (state.table && state.table.key === key) return;
  const serial = ++tableSerial;
  state.table = key ? { key, loading: true } : null;
  if (!key) return;
  const fen = current().fen;
  let table;
  try {
    table = { key, answer: await api(endpoint("table", { fen })) };
  } catch (e) {
    table = { key, error: e };
  }
  if (serial !== tableSerial) return;
  state.table = table;
  renderTable();
  renderValue();
}

// ---------------------------------------------------------------------------
// The address: #variant/FEN, the position on the board. A move played or a
// position loaded adds an entry to the browser's history, so that Back
// steps back; editing the set-up and stepping through the moves already
// there replace the entry.

function addressOf(variant, fen) {
  return `#${variant}/${fen}`;
}

// What the address asks for: null when it asks for nothing, {error} when it
// cannot be read, else {variant, fen}.
function readAddress() {
  const hash = location.hash;
  if (hash.length <= 1) return null;
  let text;
  try {
    text = decodeURIComponent(hash);
  } catch {
    return { error: `The address's position (${hash}) is not readable: a '%' must start an escape like %3A.` };
  }
  const m = /^#([a-z]+)\/(.+)$/.exec(text);
  if (!m) {
    return { error: `The address (${text}) is not a position: it reads #variant/FEN, like #russian/W:WKa1:BKh8.` };
  }
  if (!VARIANTS[m[1]]) return { error: `The address names no variant of this server: ${m[1]}.` };
  return { variant: m[1], fen: m[2] };
}

function writeAddress(push) {
  const url = addressOf(state.variant, current().fen);
  const entry = { variant: state.variant, index: state.boards[state.variant].index };
  let shown = null;
  try {
    shown = decodeURIComponent(location.hash);
  } catch {
    // an unreadable address is replaced
  }
  if (push && shown !== url) history.pushState(entry, "", url);
  else history.replaceState(entry, "", url);
}

// The address changed under the page: Back or Forward, or a link pasted.
function followAddress() {
  const a = readAddress();
  if (!a) return;
  if (a.error) return showNote(a.error);
  if (a.variant === state.variant && a.fen === current().fen) return;
  state.variant = a.variant;
  const b = state.boards[a.variant];
  const entry = history.state;
  // The entry's own ply if it is still that position, else the first ply
  // that is; a position not in the history is set up anew.
  const own = entry && entry.variant === a.variant && b.history[entry.index];
  let i = own && own.fen === a.fen ? entry.index : -1;
  if (i < 0) i = b.history.findIndex((h) => h.fen === a.fen);
  if (i >= 0) b.index = i;
  else setHistory(a.fen);
  changed(null);
}

// ---------------------------------------------------------------------------
// Rendering

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function sideName(side) {
  return side === "W" ? "White" : "Black";
}

function plies(n) {
  return n === 1 ? "1 ply" : `${n} plies`;
}

function movesWord(n) {
  return n === 1 ? "1 move" : `${n} moves`;
}

// Squares to mark on the board: the move under the pointer, or the moves of
// the selected piece.
let highlight = { from: 0, to: 0, captured: [], targets: [] };

// The board as it is drawn: row r and column c of the screen are the
// board's own, or both turned half round when it is flipped.
function renderBoard() {
  const v = VARIANTS[state.variant];
  const board = $("board");
  const pos = parseFen(state.variant, current().fen) || { side: "W", pieces: new Map() };
  const last = current();
  board.style.setProperty("--size", v.size);
  board.dataset.variant = state.variant;
  board.classList.toggle("flipped", state.flipped);
  board.replaceChildren();
  for (let row = 0; row < v.size; row++) {
    for (let col = 0; col < v.size; col++) {
      const r = state.flipped ? v.size - 1 - row : row;
      const c = state.flipped ? v.size - 1 - col : col;
      const n = squareAt(v.size, r, c);
      const sq = el("div", n ? "square dark" : "square light");
      sq.setAttribute("role", "gridcell");
      if (n) {
        sq.dataset.square = n;
        sq.setAttribute("aria-label", squareName(state.variant, n));
        if (!v.algebraic) sq.appendChild(el("span", "number", String(n)));
        const p = pos.pieces.get(n);
        if (p) {
          const piece = el("span", `piece ${p[0] === "w" ? "white" : "black"} ${p[1] === "k" ? "king" : "man"}`);
          piece.dataset.piece = p;
          sq.appendChild(piece);
        }
        if (n === last.from) sq.classList.add("last-from");
        if (n === last.to) sq.classList.add("last-to");
        if (n === highlight.from || n === state.selected) sq.classList.add("from");
        if (n === highlight.to) sq.classList.add("to");
        if (highlight.captured.includes(n)) sq.classList.add("captured");
        if (highlight.targets.includes(n)) sq.classList.add("target");
      }
      if (v.algebraic && col === 0) sq.appendChild(el("span", "rank", String(v.size - r)));
      if (v.algebraic && row === v.size - 1) sq.appendChild(el("span", "file", String.fromCharCode(97 + c)));
      board.appendChild(sq);
    }
  }
}

function valueClass(wdl) {
  return wdl === "win" ? "win" : wdl === "loss" ? "loss" : "draw";
}

function renderValue() {
  const box = $("value");
  const main = box.querySelector(".value-main");
  const detail = box.querySelector(".value-detail");
  const pos = parseFen(state.variant, current().fen);
  const side = pos ? sideName(pos.side) : "";
  const other = pos ? sideName(pos.side === "W" ? "B" : "W") : "";
  box.className = "value";
  delete box.dataset.wdl;
  delete box.dataset.dtw;
  delete box.dataset.ruleClass;
  renderMaterial();
  if (state.unfinished) {
    box.classList.add("unfinished");
    main.textContent = "Set up a position";
    detail.textContent = state.unfinished;
    return;
  }
  if (state.error) {
    box.classList.add("error");
    main.textContent = state.error.status === 404 ? "Not in the tables" : "Not a position";
    detail.textContent = state.error.message;
    return;
  }
  const a = state.answer;
  if (!a) {
    main.textContent = "…";
    detail.textContent = "";
    return;
  }
  box.classList.add(valueClass(a.wdl));
  box.dataset.wdl = a.wdl;
  box.dataset.dtw = a.dtw === null ? "" : a.dtw;
  if (a.wdl === "draw") {
    main.textContent = "Draw";
    detail.textContent = `With best play neither side can win. ${side} to move.`;
  } else if (a.dtw === 0) {
    main.textContent = `${other} has won`;
    detail.textContent = `${side} to move has ${a.moves.length === 0 && hasPieces(pos, pos.side) ? "no legal move" : "no piece left"}.`;
  } else if (a.wdl === "win") {
    main.textContent = `${side} wins in ${plies(a.dtw)}`;
    detail.textContent = `${side} to move needs ${movesWord((a.dtw + 1) / 2)} with best play.`;
  } else {
    main.textContent = `${side} loses in ${plies(a.dtw)}`;
    detail.textContent = `${other} needs ${movesWord(a.dtw / 2)} with best play; ${side} to move.`;
  }
  renderRuleValue(box, main, detail, a, side, other);
}

// The value under the move-count rules (the .dtc tables, every count
// fresh), where the server has it: a win or loss the counts keep says when
// its next conversion comes; one they take away is shown as what it is.
function renderRuleValue(box, main, detail, a, side, other) {
  if (!a.rule_class || a.wdl === "draw" || a.dtw === 0) return;
  box.dataset.ruleClass = a.rule_class;
  if (a.rule_class === "count-drawn win") {
    box.classList.add("count-drawn");
    main.textContent += ", drawn by the counts";
    detail.textContent = `Count-drawn win: no win of ${side} fits within the move-count rules (every count fresh), so the game is a draw under them. Without the counts: ${detail.textContent}`;
  } else if (a.rule_class === "count-saved loss") {
    box.classList.add("count-saved");
    main.textContent += ", saved by the counts";
    detail.textContent = `Count-saved loss: ${other} cannot win within the move-count rules (every count fresh), so the game is a draw under them. Without the counts: ${detail.textContent}`;
  } else {
    detail.textContent += ` Under the move-count rules a ${a.rule_class} too: the next conversion in ${plies(a.dtc)}.`;
  }
}

// A move's class: its value under the move-count rules where the server
// has it ("count-drawn win", "count-saved loss" besides the three), else
// its value.
function moveClass(m) {
  return m.rule_class || m.wdl;
}

function moveClassName(c) {
  return c === "count-drawn win" ? "count-drawn" : c === "count-saved loss" ? "count-saved" : c;
}

// The material's name as dtb writes it (side to move first: "KKKvK"), from
// the server's answer about its tables.
function renderMaterial() {
  const t = state.table;
  const name = t && (t.answer ? t.answer.material : t.error && t.error.body ? t.error.body.material : null);
  const tag = $("material");
  tag.textContent = name || "";
  tag.hidden = !name;
  tag.title = name ? "the material, the side to move first (K king, M man)" : "";
}

function count(n) {
  return n.toLocaleString("en-US");
}

function percent(n, total) {
  if (total === 0) return "0%";
  const p = (100 * n) / total;
  return p > 0 && p < 0.1 ? "<0.1%" : `${p.toFixed(1)}%`;
}

// The statistics of the material's tables: for each side to move, its
// wins, draws and losses, and its longest win and loss with examples to
// load.
function renderTable() {
  const card = $("table-card");
  const box = $("table");
  const t = state.table;
  // No card for a FEN that is no position: the value box says what is wrong.
  card.hidden = !t || (t.error && !(t.error.body && t.error.body.material));
  box.replaceChildren();
  if (card.hidden) return;
  if (t.loading) {
    box.appendChild(el("p", "empty", "Counting the positions of this material…"));
    return;
  }
  if (t.error) {
    box.appendChild(el("p", "empty table-error", t.error.message));
    return;
  }
  const a = t.answer;
  const tablesWord = a.tables.length === 1 ? "one table" : "two tables";
  box.appendChild(
    el("p", "table-summary", `${a.pieces} pieces, ${count(a.positions)} positions in ${tablesWord}.`),
  );
  for (const side of a.tables) {
    const part = el("div", "table-side");
    part.dataset.material = side.material;
    part.appendChild(el("h3", null, `${side.material} to move`));
    const bar = el("div", "wdl-bar");
    bar.setAttribute("aria-hidden", "true");
    for (const [k, n] of [["win", side.wins], ["draw", side.draws], ["loss", side.losses]]) {
      const seg = el("span", k);
      seg.style.flexGrow = String(n);
      bar.appendChild(seg);
    }
    part.appendChild(bar);
    const counts = el("dl", "wdl-counts");
    const kinds = [
      ["wins", "Wins", side.wins],
      ["draws", "Draws", side.draws],
      ["losses", "Losses", side.losses],
    ];
    for (const [k, title, n] of kinds) {
      const item = el("div", k);
      item.appendChild(el("dt", null, title));
      const dd = el("dd", null, count(n));
      dd.dataset.count = n;
      dd.appendChild(el("span", "share", ` ${percent(n, side.positions)}`));
      item.appendChild(dd);
      counts.appendChild(item);
    }
    part.appendChild(counts);
    for (const [k, title, n, fens] of [
      ["win", "Longest win", side.longest_win, side.longest_win_fens],
      ["loss", "Longest loss", side.longest_loss, side.longest_loss_fens],
    ]) {
      if (n === null) continue;
      const row = el("p", `longest ${k}`);
      row.appendChild(el("span", "longest-title", `${title}: ${plies(n)}`));
      fens.forEach((fen, i) => {
        const b = el("button", "example", `e.g. ${i + 1}`);
        b.type = "button";
        b.dataset.fen = fen;
        b.title = `load ${fen}`;
        b.addEventListener("click", () => setUp(fen));
        row.appendChild(b);
      });
      part.appendChild(row);
    }
    box.appendChild(part);
  }
}

function renderNote() {
  const note = $("note");
  note.textContent = state.note || "";
  note.hidden = !state.note;
}

function hasPieces(pos, side) {
  const c = side === "W" ? "w" : "b";
  return [...pos.pieces.values()].some((p) => p[0] === c);
}

function moveValueText(m) {
  if (m.wdl === "draw") return "draw";
  const text = `${m.wdl} in ${m.dtw}`;
  if (m.rule_class === "count-drawn win") return `${text}, count-drawn`;
  if (m.rule_class === "count-saved loss") return `${text}, count-saved`;
  return m.dtc === null || m.dtc === undefined ? text : `${text}, DTC ${m.dtc}`;
}

function moveTitle(m) {
  if (m.dtw === null) return "keeps the draw";
  const title = `${m.wdl} in ${plies(m.dtw)} for the side making it`;
  if (m.rule_class === "count-drawn win") return `${title}; a draw under the move-count rules`;
  if (m.rule_class === "count-saved loss") return `${title}; a draw under the move-count rules, which save it`;
  if (m.dtc !== null && m.dtc !== undefined) return `${title}; under the move-count rules too, the next conversion in ${plies(m.dtc)}`;
  return title;
}

function renderMoves() {
  const box = $("moves");
  box.replaceChildren();
  const a = state.answer;
  $("must-capture").hidden = !(a && a.must_capture);
  if (!a) return;
  if (a.moves.length === 0) {
    box.appendChild(el("p", "empty", "No legal move: the game is over."));
    return;
  }
  const groups = [
    ["win", "Winning"],
    ["count-drawn win", "Winning without the counts, drawn by them"],
    ["draw", "Drawing"],
    ["count-saved loss", "Losing without the counts, saved by them"],
    ["loss", "Losing"],
  ];
  for (const [kind, title] of groups) {
    const moves = a.moves.filter((m) => moveClass(m) === kind);
    if (moves.length === 0) continue;
    const name = moveClassName(kind);
    const group = el("div", `move-group ${name}`);
    group.appendChild(el("h3", null, `${title} (${moves.length})`));
    const list = el("ul");
    for (const m of moves) {
      const item = el("li");
      // The class names the value without the counts (win, draw, loss),
      // and count-drawn or count-saved beside it.
      const button = el("button", name === kind ? `move ${m.wdl}` : `move ${m.wdl} ${name}`);
      button.type = "button";
      button.dataset.move = m.move;
      button.title = moveTitle(m);
      button.appendChild(el("span", "move-name", m.move));
      if (m.move_numeric !== m.move) button.appendChild(el("span", "move-numeric", m.move_numeric));
      button.appendChild(el("span", `move-value ${name}`, moveValueText(m)));
      button.addEventListener("click", () => playMove(m));
      button.addEventListener("pointerenter", () => showHighlight(m));
      button.addEventListener("pointerleave", () => showHighlight(null));
      button.addEventListener("focus", () => showHighlight(m));
      button.addEventListener("blur", () => showHighlight(null));
      item.appendChild(button);
      list.appendChild(item);
    }
    group.appendChild(list);
    box.appendChild(group);
  }
}

// The moves played from the set-up position (solid), then the line to the
// end from the position on the board (faded); any ply can be clicked.
function renderLine() {
  const box = $("line");
  box.replaceChildren();
  const b = state.boards[state.variant];
  const first = parseFen(state.variant, b.history[0].fen);
  let white = first ? first.side === "W" : true;
  let number = 1;
  const items = [];
  for (let i = 1; i < b.history.length; i++) items.push({ text: b.history[i].move, played: true, target: i });
  if (state.line && b.index === b.history.length - 1) {
    state.line.line.forEach((p, k) => items.push({ text: p.move, played: false, target: b.index + k + 1 }));
  }
  if (items.length === 0) {
    const a = state.answer;
    const text = !a ? "" : a.wdl === "draw" ? "A draw has no line to the end." : a.dtw === 0 ? "The game is over." : "";
    box.appendChild(el("span", "empty", text));
  }
  // A move number and its move are one unit, never parted where the line wraps.
  items.forEach((p, i) => {
    let unit = box;
    if (white || i === 0) {
      unit = el("span", "ply-unit");
      unit.appendChild(el("span", "ply-number", white ? `${number}.` : `${number}…`));
      box.appendChild(unit);
    }
    const button = el("button", p.played ? "ply played" : "ply future", p.text);
    button.type = "button";
    if (p.target === b.index) button.classList.add("current");
    button.addEventListener("click", () => goTo(p.target));
    unit.appendChild(button);
    if (!white) number++;
    white = !white;
  });
  $("nav-start").disabled = b.index === 0;
  $("nav-back").disabled = b.index === 0;
  const more = b.index < b.history.length - 1 || (state.answer && state.answer.moves.length > 0);
  $("nav-forward").disabled = !more;
  $("nav-end").disabled = !(b.index < b.history.length - 1 || (state.line && state.line.line.length > 0));
}

function renderSetup() {
  const pos = parseFen(state.variant, current().fen);
  const side = pos ? pos.side : "W";
  const button = $("side");
  button.textContent = `${sideName(side)} to move`;
  button.className = `side ${side === "W" ? "white" : "black"}-to-move`;
  if (document.activeElement !== $("fen")) $("fen").value = current().fen;
  for (const t of document.querySelectorAll(".tool")) t.setAttribute("aria-pressed", String(t.dataset.tool === state.tool));
  for (const t of document.querySelectorAll("[role=tab]"))
    t.setAttribute("aria-selected", String(t.dataset.variant === state.variant));
  $("board").classList.toggle("editing", state.tool !== "play");
  $("flip").setAttribute("aria-pressed", String(state.flipped));
}

function render() {
  renderSetup();
  renderBoard();
  renderValue();
  renderMoves();
  renderLine();
  renderTable();
  renderNote();
}

function showHighlight(m) {
  highlight = m ? { from: m.from, to: m.to, captured: m.captured, targets: [] } : { from: 0, to: 0, captured: [], targets: [] };
  if (!m && state.selected) highlight.targets = movesFrom(state.selected).map((x) => x.to);
  renderBoard();
}

// ---------------------------------------------------------------------------
// Actions

// The position on the board changed: forget the old answers, write the
// address (push: a new entry in the browser's history; false: replace the
// entry; null: the address is already the position's) and ask.
function changed(push) {
  state.answer = null; // no move of the old position may be clicked now
  state.line = null;
  state.error = null;
  state.selected = null;
  state.note = null;
  state.unfinished = unfinishedSetUp();
  highlight = { from: 0, to: 0, captured: [], targets: [] };
  $("verdict").replaceChildren();
  if (push !== null) writeAddress(push);
  render();
  query();
}

// A new set-up position: the moves played so far are forgotten.
function setUp(fen, push = true) {
  setHistory(fen);
  changed(push);
}

// The first and last squares of a move's numeric text ("22-18", "31x22x13").
function moveSquares(numeric) {
  const squares = numeric.split(/[-x:]/).map(Number);
  return { from: squares[0] || 0, to: squares[squares.length - 1] || 0 };
}

function playMove(m) {
  const b = state.boards[state.variant];
  b.history = b.history.slice(0, b.index + 1);
  b.history.push({ fen: m.fen, move: m.move, from: m.from, to: m.to });
  b.index++;
  changed(true);
}

// Steps to a ply of the history or, beyond it, of the line shown: taking
// plies of the line plays them (a new entry in the browser's history).
async function goTo(target) {
  const b = state.boards[state.variant];
  let played = false;
  if (target >= b.history.length && state.line) {
    const from = b.index;
    for (const p of state.line.line.slice(0, target - from)) {
      b.history.push({ fen: p.fen, move: p.move, ...moveSquares(p.move_numeric) });
      played = true;
    }
  }
  b.index = Math.max(0, Math.min(target, b.history.length - 1));
  changed(played);
}

function showNote(text) {
  state.note = text;
  renderNote();
}

function movesFrom(square) {
  return state.answer ? state.answer.moves.filter((m) => m.from === square) : [];
}

// Set-up edits replace the address rather than add to the history: Back
// does not take the pieces off one by one.
function editSquare(n) {
  const pos = parseFen(state.variant, current().fen);
  if (!pos) return;
  if (state.tool === "erase" || pos.pieces.get(n) === state.tool) pos.pieces.delete(n);
  else pos.pieces.set(n, state.tool);
  setUp(toFen(state.variant, pos.side, pos.pieces), false);
}

function clickSquare(n) {
  if (state.tool !== "play") return editSquare(n);
  if (state.selected) {
    const choices = movesFrom(state.selected).filter((m) => m.to === n);
    if (choices.length > 0) return playMove(choices[0]); // best first
  }
  state.selected = movesFrom(n).length > 0 && state.selected !== n ? n : null;
  showHighlight(null);
}

// Dragging a piece to another square while setting up (a piece or Erase
// picked): the piece moves there, whatever the rules say.
function dragPiece(from, to) {
  const pos = parseFen(state.variant, current().fen);
  if (!pos || !pos.pieces.has(from) || from === to) return;
  pos.pieces.set(to, pos.pieces.get(from));
  pos.pieces.delete(from);
  setUp(toFen(state.variant, pos.side, pos.pieces), false);
}

// In Play a drag is a move: a legal one is played, anything else is
// refused with a note and changes nothing.
function dragMove(from, to) {
  if (!to || to === from) return; // off the board, or back where it was
  const choices = movesFrom(from).filter((m) => m.to === to);
  if (choices.length > 0) return playMove(choices[0]); // best first
  const move = `${squareName(state.variant, from)}–${squareName(state.variant, to)}`;
  const why = state.answer
    ? `${move} is not a legal move here.`
    : `${move}: the tables give no moves for this position.`;
  showNote(`${why} To move pieces freely, pick a piece or Erase above.`);
}

function setupBoardEvents() {
  const board = $("board");
  let drag = null;
  const squareUnder = (x, y) => {
    const t = document.elementFromPoint(x, y);
    const sq = t && t.closest(".square.dark");
    return sq ? Number(sq.dataset.square) : 0;
  };
  board.addEventListener("pointerdown", (e) => {
    const sq = e.target.closest(".square.dark");
    if (!sq) return;
    const n = Number(sq.dataset.square);
    const piece = sq.querySelector(".piece");
    drag = { n, piece, x: e.clientX, y: e.clientY, moved: false, ghost: null };
    board.setPointerCapture(e.pointerId);
  });
  board.addEventListener("pointermove", (e) => {
    if (!drag || !drag.piece) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      const rect = drag.piece.getBoundingClientRect();
      drag.ghost = drag.piece.cloneNode(true);
      drag.ghost.classList.add("ghost");
      drag.ghost.style.width = `${rect.width}px`;
      drag.ghost.style.height = `${rect.height}px`;
      document.body.appendChild(drag.ghost);
      drag.piece.classList.add("lifted");
    }
    drag.ghost.style.left = `${e.clientX}px`;
    drag.ghost.style.top = `${e.clientY}px`;
  });
  const end = (e, cancelled) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.ghost) d.ghost.remove();
    if (d.piece) d.piece.classList.remove("lifted");
    if (cancelled) return;
    if (!d.moved) return clickSquare(d.n);
    const to = squareUnder(e.clientX, e.clientY);
    if (state.tool === "play") return dragMove(d.n, to);
    if (!to) return setUp(removePiece(d.n), false); // dropped off the board while setting up: removed
    dragPiece(d.n, to);
  };
  board.addEventListener("pointerup", (e) => end(e, false));
  board.addEventListener("pointercancel", (e) => end(e, true));
}

function removePiece(n) {
  const pos = parseFen(state.variant, current().fen);
  pos.pieces.delete(n);
  return toFen(state.variant, pos.side, pos.pieces);
}

async function adjudicate(event) {
  event.preventDefault();
  const box = $("verdict");
  const params = { fen: current().fen, moves_played: $("moves-played").value || "0" };
  if ($("king-moves").value !== "") params.king_moves = $("king-moves").value;
  box.className = "verdict";
  box.textContent = "…";
  try {
    const a = await api(endpoint("adjudicate", params));
    box.replaceChildren();
    box.dataset.winnable = String(a.winnable);
    const head = el("div", "verdict-head");
    if (a.rule === null) {
      box.classList.add("none");
      head.textContent = "No move-count rule";
    } else {
      box.classList.add(a.winnable ? "yes" : "no");
      head.textContent = a.winnable ? "Winnable in time" : "Not winnable in time";
      if (!a.exact) head.textContent += " (not proven)";
    }
    box.appendChild(head);
    if (a.rule !== null) {
      const facts = el("dl", "facts");
      const fact = (k, v) => {
        facts.appendChild(el("dt", null, k));
        facts.appendChild(el("dd", null, v));
      };
      fact("Rule", `${a.rule}: ${a.rule_title}`);
      fact("Moves left", `${a.moves_left} of ${a.limit_moves}`);
      fact("Needed", a.moves_needed === null ? "cannot win" : movesWord(a.moves_needed));
      box.appendChild(facts);
    }
    box.appendChild(el("p", "verdict-text", a.verdict));
  } catch (e) {
    box.className = "verdict error";
    box.textContent = e.message;
  }
}

async function init() {
  try {
    learnVariants(await api("/api/v1"));
  } catch (e) {
    document.querySelector(".layout").textContent = `The server's list of variants could not be read: ${e.message}`;
    return;
  }
  startBoards();
  makeTabs();
  for (const t of document.querySelectorAll("[role=tab]"))
    t.addEventListener("click", () => {
      if (state.variant === t.dataset.variant) return;
      state.variant = t.dataset.variant;
      changed(true);
    });
  for (const t of document.querySelectorAll(".tool"))
    t.addEventListener("click", () => {
      state.tool = t.dataset.tool;
      state.selected = null;
      showHighlight(null);
      renderSetup();
    });
  $("side").addEventListener("click", () => {
    const pos = parseFen(state.variant, current().fen);
    if (pos) setUp(toFen(state.variant, pos.side === "W" ? "B" : "W", pos.pieces), false);
  });
  $("flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    renderSetup();
    renderBoard();
  });
  $("clear").addEventListener("click", () => setUp("W:W:B"));
  $("example").addEventListener("click", () => setUp(VARIANTS[state.variant].example));
  $("fen-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const fen = $("fen").value.trim();
    $("fen").blur();
    if (fen) setUp(fen);
  });
  $("nav-start").addEventListener("click", () => goTo(0));
  $("nav-back").addEventListener("click", () => goTo(state.boards[state.variant].index - 1));
  $("nav-forward").addEventListener("click", () => {
    const b = state.boards[state.variant];
    if (b.index < b.history.length - 1) return goTo(b.index + 1);
    if (state.answer && state.answer.moves.length > 0) playMove(state.answer.moves[0]);
  });
  $("nav-end").addEventListener("click", () => {
    const b = state.boards[state.variant];
    const ahead = state.line && b.index === b.history.length - 1 ? state.line.line.length : 0;
    goTo(b.history.length - 1 + ahead);
  });
  $("adjudicate-form").addEventListener("submit", adjudicate);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input")) return;
    if (e.key === "ArrowLeft") $("nav-back").click();
    if (e.key === "ArrowRight") $("nav-forward").click();
  });
  setupBoardEvents();
  window.addEventListener("popstate", followAddress);
  window.addEventListener("hashchange", followAddress);
  // A position in the address: #russian/W:WKa1,c3:BKh8
  const a = readAddress();
  if (a && !a.error) {
    state.variant = a.variant;
    setHistory(a.fen);
  }
  changed(false);
  if (a && a.error) showNote(a.error);
}

document.addEventListener("DOMContentLoaded", init);
