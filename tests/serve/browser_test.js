// The explorer of dtb serve in a real browser: Debian's chromium, headless,
// driven through the DevTools protocol by puppeteer-core. For each variant
// it sets a position up by clicking the palette and the board, reads the
// value the page shows, plays a move by clicking it, steps along the line,
// asks the draw-rule question, and checks each answer against `dtb probe`
// and `dtb adjudicate` run on the same tables. Then, each on a page of its
// own: drags in Play and in set-up, the address (links, Back and Forward),
// the marks of the last move, the flipped board, the material's name and
// its tables' statistics, and the layout on a phone. Screenshots (desktop
// and phone-sized) go to --out.
//
//   NODE_PATH=build/serve-browser/node_modules node tests/serve/browser_test.js \
//     --dtb build/bin/dtb --tables build/probe-tables/small --out build/serve-browser/screenshots
"use strict";

const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");
const assert = require("node:assert/strict");
const puppeteer = require("puppeteer-core");

function option(name, required = true) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) {
    if (!required) return null;
    throw new Error(`browser_test: --${name} is required`);
  }
  return process.argv[i + 1];
}

const dtb = option("dtb");
const tables = option("tables");
const out = option("out");
// Optional: tables with their .dtc files, for the values under the counts.
const dtcTables = option("dtc-tables", false);
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";

function probe(variant, fen, dir = tables) {
  return JSON.parse(execFileSync(dtb, ["probe", "--variant", variant, "--dir", dir, "--fen", fen, "--json"]));
}

function adjudicate(variant, fen, moves) {
  const args = ["adjudicate", "--variant", variant, "--dir", tables, "--fen", fen, "--moves-played", String(moves)];
  return JSON.parse(execFileSync(dtb, [...args, "--json"]));
}

// `dtb serve --port 0`: resolves to {process, url} once it prints where it listens.
function startServer(dir = tables) {
  const server = spawn(dtb, ["serve", "--dir", dir, "--port", "0", "--threads", "4", "--json"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.on("exit", (code) => reject(new Error(`dtb serve exited with status ${code} before listening`)));
    readline.createInterface({ input: server.stdout }).once("line", (line) => {
      resolve({ process: server, url: JSON.parse(line).url });
    });
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    server.process.removeAllListeners("exit");
    server.process.on("exit", (code, signal) => resolve({ code, signal }));
    server.process.kill("SIGTERM");
  });
}

// The page's state, once it has its answer for the position on the board.
async function settled(page) {
  await page.waitForFunction(
    () => !document.body.classList.contains("loading") && document.querySelector("#value .value-main").textContent !== "…",
    { timeout: 10000 },
  );
  return page.evaluate(() => {
    const value = document.getElementById("value");
    return {
      fen: document.getElementById("fen").value,
      wdl: value.dataset.wdl || null,
      dtw: value.dataset.dtw === undefined || value.dataset.dtw === "" ? null : Number(value.dataset.dtw),
      error: value.classList.contains("error"),
      main: value.querySelector(".value-main").textContent,
      detail: value.querySelector(".value-detail").textContent,
      moves: [...document.querySelectorAll("#moves button.move")].map((b) => ({
        move: b.dataset.move,
        wdl: b.classList.contains("win") ? "win" : b.classList.contains("loss") ? "loss" : "draw",
        value: b.querySelector(".move-value").textContent,
      })),
      line: [...document.querySelectorAll("#line .ply")].map((b) => b.textContent),
    };
  });
}

// The page agrees with dtb probe on the position it shows.
function agreesWithProbe(variant, shown) {
  const want = probe(variant, shown.fen);
  assert.equal(shown.fen, want.fen, "the FEN box holds the position as dtb writes it");
  assert.equal(shown.wdl, want.wdl, `value of ${shown.fen}`);
  assert.equal(shown.dtw, want.dtw, `distance of ${shown.fen}`);
  if (want.wdl !== "draw" && want.dtw > 0) assert.match(shown.main, new RegExp(`in ${want.dtw} pl`), shown.main);
  if (want.best_move) {
    assert.ok(shown.moves.length > 0, "the moves are listed");
    assert.equal(shown.moves[0].wdl, want.wdl, "the first move listed keeps the value");
    assert.ok(shown.moves.some((m) => m.move === want.best_move), `${want.best_move} is listed`);
  }
  // The line shown from the set-up position is dtb probe's line.
  return want;
}

async function click(page, selector) {
  await page.waitForSelector(selector, { visible: true });
  await page.click(selector);
}

async function tap(page, selector, phone) {
  if (phone) {
    await page.waitForSelector(selector, { visible: true });
    await page.tap(selector);
  } else {
    await click(page, selector);
  }
}

// Sets up `pieces` ([tool, square]...) on an empty board by clicking.
async function setUp(page, variant, side, pieces, phone) {
  await tap(page, `[role=tab][data-variant=${variant}]`, phone);
  await tap(page, "#clear", phone);
  await settled(page);
  for (const [placed, [tool, square]] of pieces.entries()) {
    // A tap can land while the board is still being drawn anew (a variant
    // switch or a clear answered late on a loaded machine) and be lost: try
    // again until the FEN box holds one more piece; the final FEN is still
    // checked in full by the caller.
    const piecesShown = (count) =>
      document
        .getElementById("fen")
        .value.split(":")
        .slice(1)
        .reduce((n, side) => n + (side.length > 1 ? side.slice(1).split(",").length : 0), 0) === count;
    for (let attempt = 1; ; ++attempt) {
      if (attempt > 1) {
        // Let the page finish answering (the board is drawn anew then), and
        // do not tap again a square a late tap has filled: a second tap
        // with the same piece would take it off.
        await settled(page);
        if (await page.evaluate(piecesShown, placed + 1)) break;
      }
      await tap(page, `.tool[data-tool=${tool}]`, phone);
      await tap(page, `.square[data-square="${square}"]`, phone);
      const shown = await page
        .waitForFunction(piecesShown, { timeout: 3000 }, placed + 1)
        .then(() => true, () => false);
      if (shown) break;
      if (attempt === 4) throw new Error(`square ${square} stayed empty after four taps`);
    }
  }
  const shown = await settled(page);
  if (!shown.fen.startsWith(side)) {
    await tap(page, "#side", phone);
  }
  await tap(page, ".tool[data-tool=play]", phone);
  return settled(page);
}

async function exploreVariant(page, variant, setup, phone) {
  const { side, pieces, expectFen } = setup;
  let shown = await setUp(page, variant, side, pieces, phone);
  assert.equal(shown.fen, expectFen, "the board set up by clicking");
  const start = agreesWithProbe(variant, shown);
  assert.equal(shown.line.join(" "), start.pv.join(" "), "the line shown is dtb probe's");

  // Play the best move by clicking it in the list.
  const first = shown.moves[0];
  await tap(page, `#moves button.move[data-move="${first.move}"]`, phone);
  shown = await settled(page);
  const after = agreesWithProbe(variant, shown);
  if (start.wdl === "win") {
    assert.equal(after.wdl, "loss");
    assert.equal(after.dtw, start.dtw - 1);
  }

  // Back, forward, to the end (the game is over), back to the start.
  await tap(page, "#nav-back", phone);
  shown = await settled(page);
  assert.equal(shown.fen, start.fen);
  await tap(page, "#nav-forward", phone);
  shown = await settled(page);
  assert.equal(shown.fen, after.fen);
  await tap(page, "#nav-end", phone);
  shown = await settled(page);
  const end = agreesWithProbe(variant, shown);
  assert.equal(end.dtw, 0, "the end of the line: the side to move has lost");
  assert.match(shown.main, /has won/);
  await tap(page, "#nav-start", phone);
  shown = await settled(page);
  assert.equal(shown.fen, start.fen);

  // Playing on the board: the piece, then where it goes (the best move).
  const best = await page.evaluate(async (variant, fen) => {
    const res = await fetch(`/api/v1/${variant}?fen=${encodeURIComponent(fen)}`);
    return (await res.json()).moves[0];
  }, variant, start.fen);
  await tap(page, `.square[data-square="${best.from}"]`, phone);
  await page.waitForSelector(`.square[data-square="${best.to}"].target`);
  await tap(page, `.square[data-square="${best.to}"]`, phone);
  shown = await settled(page);
  assert.equal(shown.fen, best.fen, "the move played on the board");
  agreesWithProbe(variant, shown);
  await tap(page, "#nav-back", phone);
  shown = await settled(page);
  assert.equal(shown.fen, start.fen);
  return start;
}

async function askDrawRule(page, variant, fen, moves) {
  await page.$eval("#moves-played", (e, v) => (e.value = v), String(moves));
  await click(page, "#adjudicate-form button[type=submit]");
  await page.waitForFunction(() => document.querySelector("#verdict .verdict-text, #verdict.error"), { timeout: 10000 });
  const text = await page.$eval("#verdict .verdict-text", (e) => e.textContent);
  const want = adjudicate(variant, fen, moves);
  assert.equal(text, want.verdict, "the verdict is dtb adjudicate's");
  const winnable = await page.$eval("#verdict", (e) => e.dataset.winnable);
  assert.equal(winnable, String(want.winnable));
}

// Drags the piece on `from` to `to` with the mouse (setting up).
async function drag(page, from, to) {
  const box = async (n) => (await page.$(`.square[data-square="${n}"]`)).boundingBox();
  const a = await box(from);
  const b = await box(to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

// Drags the piece on `from` and drops it at the page's point (x, y).
async function dragTo(page, from, x, y) {
  const a = await (await page.$(`.square[data-square="${from}"]`)).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(x, y, { steps: 8 });
  await page.mouse.up();
}

// The PDN number of a Russian square's name (the board's aria-label).
async function squareNumber(page, name) {
  return Number(await page.$eval(`.square[aria-label="${name}"]`, (e) => e.dataset.square));
}

// Loads a FEN through the box, as a user types it.
async function loadFen(page, fen) {
  await page.$eval("#fen", (e, v) => (e.value = v), fen);
  await click(page, "#fen-form button[type=submit]");
  return settled(page);
}

// The address's position, decoded.
function shownAddress(page) {
  return page.evaluate(() => decodeURIComponent(location.hash));
}

// The API's answer, asked from here.
async function apiGet(server, path) {
  const res = await fetch(server.url.replace(/\/$/, "") + path);
  return { status: res.status, body: await res.json() };
}

const SETUPS = {
  // Three kings against one on the main road: a win in 3, and a draw-rule question.
  russian: {
    side: "W",
    pieces: [["wk", 22], ["wk", 29], ["wk", 31], ["bk", 4]],
    expectFen: "W:WKc3,Ka1,Ke1:BKh8",
  },
  international: {
    side: "W",
    pieces: [["wm", 31], ["wk", 46], ["bm", 5]],
    expectFen: "W:W31,K46:B5",
  },
  // Its tab and board come from the server's list of variants alone.
  brazilian: {
    side: "W",
    pieces: [["wk", 22], ["wm", 29], ["bk", 4]],
    expectFen: "W:WKc3,a1:BKh8",
  },
};


// ---------------------------------------------------------------------------
// Checks each on a page of their own: a failure is recorded and the next
// check still runs, so one run reports every one that fails.

async function newPage(browser, problems, phone) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 40[04]/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  if (phone) {
    await page.emulate({
      viewport: { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile",
    });
  } else {
    await page.setViewport({ width: 1280, height: 900 });
  }
  return page;
}

const CHECKS = {
  // In Play a drag is a move: an illegal one is refused with a note and
  // changes nothing, the history included; off the board it does nothing.
  // Only a set-up tool moves pieces freely.
  async "play: an illegal drag is refused"(browser, problems, server) {
    const page = await newPage(browser, problems);
    await page.goto(`${server.url}#russian/W:WKe7,Kf8,Kh6:BKb8`, { waitUntil: "networkidle0" });
    const start = await settled(page);
    assert.equal(start.fen, "W:WKf8,Ke7,Kh6:BKb8");
    await drag(page, await squareNumber(page, "f8"), await squareNumber(page, "a1"));
    await page.waitForSelector("#note:not([hidden])", { timeout: 5000 });
    let shown = await settled(page);
    assert.equal(shown.fen, start.fen, "an illegal drag leaves the position as it was");
    assert.match(await page.$eval("#note", (e) => e.textContent), /f8–a1 is not a legal move/);
    // Off the board: nothing.
    const header = await (await page.$("header.top")).boundingBox();
    await dragTo(page, await squareNumber(page, "e7"), header.x + 20, header.y + header.height / 2);
    shown = await settled(page);
    assert.equal(shown.fen, start.fen, "a piece dropped off the board in Play stays");
    // A legal drag plays the move; an illegal one then keeps the history.
    const g5 = await squareNumber(page, "g5");
    await drag(page, await squareNumber(page, "h6"), g5);
    shown = await settled(page);
    assert.equal(shown.fen, "B:WKf8,Ke7,Kg5:BKb8", "a legal drag plays the move");
    await drag(page, await squareNumber(page, "b8"), await squareNumber(page, "b6"));
    await page.waitForSelector("#note:not([hidden])", { timeout: 5000 });
    shown = await settled(page);
    assert.equal(shown.fen, "B:WKf8,Ke7,Kg5:BKb8");
    await click(page, "#nav-back");
    shown = await settled(page);
    assert.equal(shown.fen, start.fen, "the moves played are still there");
    // Set-up: the same drag moves the piece.
    await click(page, ".tool[data-tool=wk]");
    await drag(page, await squareNumber(page, "f8"), await squareNumber(page, "a1"));
    shown = await settled(page);
    assert.equal(shown.fen, "W:WKe7,Kh6,Ka1:BKb8", "a set-up drag moves the piece");
    await page.close();
  },

  // The address: a bad escape is reported, not a blank page; a link pasted
  // in the same tab is followed; Back and Forward step through the moves;
  // the address shows the position on the board even when it is refused.
  async "addresses"(browser, problems, server) {
    const page = await newPage(browser, problems);
    await page.goto(`${server.url}#russian/W:WKa1%ZZ`, { waitUntil: "networkidle0" });
    await settled(page);
    assert.equal((await page.$$("[role=tab]")).length, 3, "the page is drawn");
    await page.waitForSelector("#note:not([hidden])", { timeout: 5000 });
    assert.match(await page.$eval("#note", (e) => e.textContent), /not readable/);

    await page.evaluate(() => (location.hash = "#russian/W:WKc3,Ka1:BKh8"));
    await page.waitForFunction(() => document.getElementById("fen").value === "W:WKc3,Ka1:BKh8", { timeout: 5000 });
    await settled(page);
    await page.evaluate(() => (location.hash = "#international/W:W31,K46:B5"));
    await page.waitForFunction(() => document.getElementById("fen").value === "W:W31,K46:B5", { timeout: 5000 });
    let shown = await settled(page);
    assert.equal(await page.$eval("[role=tab][aria-selected=true]", (e) => e.dataset.variant), "international");

    const start = shown;
    const move = shown.moves[0].move;
    await click(page, `#moves button.move[data-move="${move}"]`);
    const after = await settled(page);
    assert.notEqual(after.fen, start.fen);
    assert.equal(await shownAddress(page), `#international/${after.fen}`);
    await page.goBack();
    shown = await settled(page);
    assert.ok(page.url().startsWith(server.url), `Back stays in the explorer (${page.url()})`);
    assert.equal(shown.fen, start.fen, "Back steps back a move");
    await page.goForward();
    shown = await settled(page);
    assert.equal(shown.fen, after.fen, "Forward plays it again");

    shown = await loadFen(page, "W:WKa1,c9:BKh8");
    assert.ok(shown.error);
    assert.equal(await shownAddress(page), "#international/W:WKa1,c9:BKh8", "the address holds the refused position");
    await page.close();
  },

  // The last move is marked; the board turns round.
  async "last move and flipped board"(browser, problems, server) {
    const page = await newPage(browser, problems);
    await page.goto(`${server.url}#russian/W:WKc3,Ka1,Ke1:BKh8`, { waitUntil: "networkidle0" });
    let shown = await settled(page);
    assert.equal(await page.$$eval(".square.last-from, .square.last-to", (l) => l.length), 0, "no move yet");
    const best = (await apiGet(server, `/api/v1/russian?fen=${encodeURIComponent(shown.fen)}`)).body.moves[0];
    await click(page, `#moves button.move[data-move="${best.move}"]`);
    await settled(page);
    assert.ok(await page.$(`.square[data-square="${best.from}"].last-from`), "the move's first square is marked");
    assert.ok(await page.$(`.square[data-square="${best.to}"].last-to`), "its last square is marked");
    // Along the line to its end: the last ply taken is marked.
    await click(page, "#nav-end");
    shown = await settled(page);
    const lastPly = (await apiGet(server, `/api/v1/russian/line?fen=${encodeURIComponent(best.fen)}`)).body.line.pop();
    assert.equal(shown.fen, lastPly.fen);
    const [from, to] = [lastPly.move_numeric.split(/[-:x]/)[0], lastPly.move_numeric.split(/[-:x]/).pop()];
    assert.ok(await page.$(`.square[data-square="${from}"].last-from`), `${lastPly.move} marked`);
    assert.ok(await page.$(`.square[data-square="${to}"].last-to`), `${lastPly.move} marked`);
    await click(page, "#nav-start");
    await settled(page);

    const secondCell = () => page.$eval("#board", (b) => b.children[1].dataset.square);
    assert.equal(await secondCell(), "1", "White plays up: square 1 at the top");
    await click(page, "#flip");
    assert.equal(await secondCell(), "32", "flipped: square 32 at the top");
    assert.equal(await page.$eval("#flip", (e) => e.getAttribute("aria-pressed")), "true");
    // Still played by clicking squares.
    const answer = (await apiGet(server, `/api/v1/russian?fen=${encodeURIComponent((await settled(page)).fen)}`)).body;
    const m = answer.moves[0];
    await click(page, `.square[data-square="${m.from}"]`);
    await page.waitForSelector(`.square[data-square="${m.to}"].target`);
    await click(page, `.square[data-square="${m.to}"]`);
    shown = await settled(page);
    assert.equal(shown.fen, m.fen, "a move played on the flipped board");
    await click(page, "#flip");
    assert.equal(await secondCell(), "1");
    await page.close();
  },

  // The material's name, its tables' counts as the API gives them, and the
  // longest win loaded from its example.
  async "material and table statistics"(browser, problems, server) {
    const page = await newPage(browser, problems);
    await page.goto(`${server.url}#russian/W:WKc3,Ka1,Ke1:BKh8`, { waitUntil: "networkidle0" });
    await settled(page);
    await page.waitForSelector("#table .table-side", { timeout: 20000 });
    assert.equal(await page.$eval("#material", (e) => e.textContent), "KKKvK");
    const want = await apiGet(server, "/api/v1/russian/table?material=KKKvK");
    assert.equal(want.status, 200);
    const sides = await page.$$eval("#table .table-side", (parts) =>
      parts.map((p) => ({
        material: p.dataset.material,
        wins: Number(p.querySelector(".wins dd").dataset.count),
        draws: Number(p.querySelector(".draws dd").dataset.count),
        losses: Number(p.querySelector(".losses dd").dataset.count),
        longest: [...p.querySelectorAll(".longest")].map((l) => l.textContent),
        examples: [...p.querySelectorAll("button.example")].map((b) => b.dataset.fen),
      })),
    );
    assert.deepEqual(
      sides.map((s) => [s.material, s.wins, s.draws, s.losses]),
      want.body.tables.map((t) => [t.material, t.wins, t.draws, t.losses]),
      "the counts shown are the API's",
    );
    const longest = want.body.tables[0].longest_win;
    assert.ok(longest > 0);
    assert.match(sides[0].longest[0], new RegExp(`Longest win: ${longest} plies`));
    assert.deepEqual(sides[0].examples, want.body.tables[0].longest_win_fens);
    await click(page, "#table .table-side button.example");
    const shown = await settled(page);
    assert.equal(shown.fen, want.body.tables[0].longest_win_fens[0]);
    assert.equal(agreesWithProbe("russian", shown).dtw, longest, "the example is a longest win");
    // Black to move: the lone king's table, named first.
    await click(page, "#side");
    await settled(page);
    await page.waitForFunction(() => document.getElementById("material").textContent === "KvKKK", { timeout: 20000 });
    // A material beyond the tables: its name, and why there are no counts.
    await loadFen(page, "W:WKa1,c3,e3:BKh8,b6");
    await page.waitForSelector("#table .table-error", { timeout: 20000 });
    assert.equal(await page.$eval("#material", (e) => e.textContent), "KMMvKM");
    assert.match(await page.$eval("#table .table-error", (e) => e.textContent), /the largest russian table here has 4/);
    await page.close();
  },

  // An empty board being set up is a hint, not an error, until both sides
  // have a piece.
  async "setting up from an empty board"(browser, problems, server) {
    const page = await newPage(browser, problems);
    await page.goto(`${server.url}#russian/W:WKc3:BKh8`, { waitUntil: "networkidle0" });
    await settled(page);
    await click(page, "#clear");
    let shown = await settled(page);
    assert.ok(!shown.error, `an empty board is no error (${shown.main}: ${shown.detail})`);
    assert.match(shown.detail, /empty/);
    await click(page, ".tool[data-tool=wk]");
    await click(page, `.square[data-square="22"]`);
    await page.waitForFunction(() => document.getElementById("fen").value === "W:WKc3:B");
    shown = await settled(page);
    assert.ok(!shown.error, `one side set up is no error (${shown.main}: ${shown.detail})`);
    assert.match(shown.detail, /Black has no piece/);
    await click(page, ".tool[data-tool=bk]");
    await click(page, `.square[data-square="4"]`);
    await page.waitForFunction(() => document.getElementById("fen").value === "W:WKc3:BKh8");
    shown = await settled(page);
    agreesWithProbe("russian", shown);
    await page.close();
  },

  // A phone: each move's value inside its button; a move number on the
  // line of its move.
  async "phone layout"(browser, problems, server) {
    const page = await newPage(browser, problems, true);
    const overflowing = () =>
      page.$$eval("#moves button.move", (buttons) =>
        buttons.flatMap((b) => {
          const box = b.getBoundingClientRect();
          return [...b.children]
            .filter((c) => {
              const r = c.getBoundingClientRect();
              return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5;
            })
            .map((c) => `${b.dataset.move}: ${c.className}`);
        }),
      );
    for (const [variant, fen] of [
      ["russian", "W:WKb4,d2:Bb6,f4"],
      ["russian", "W:WKa1,c3:BKh8,b6"],
      ["international", "W:W31,K46:B5"],
    ]) {
      await page.goto("about:blank");
      await page.goto(`${server.url}#${variant}/${fen}`, { waitUntil: "networkidle0" });
      const shown = await settled(page);
      assert.ok(shown.moves.length > 0, fen);
      assert.deepEqual(await overflowing(), [], `${fen}: every move's text inside its button`);
    }
    const table = await apiGet(server, "/api/v1/russian/table?material=KKKvK");
    const long = table.body.tables[0].longest_win_fens[0];
    await page.goto("about:blank");
    await page.goto(`${server.url}#russian/${long}`, { waitUntil: "networkidle0" });
    await settled(page);
    const parted = await page.$$eval("#line .ply-number", (numbers) =>
      numbers
        .filter((n) => Math.abs(n.getBoundingClientRect().top - n.nextElementSibling.getBoundingClientRect().top) > 4)
        .map((n) => n.textContent),
    );
    const rows = await page.$$eval(
      "#line .ply",
      (plies) => new Set(plies.map((p) => Math.round(p.getBoundingClientRect().top))).size,
    );
    assert.ok(rows > 2, `the line wraps (${rows} rows)`);
    assert.deepEqual(parted, [], "no move number parted from its move");
    await page.close();
  },
};

async function runChecks(browser, problems, server) {
  const failed = [];
  for (const [name, check] of Object.entries(CHECKS)) {
    try {
      await check(browser, problems, server);
      console.log(`ok: ${name}`);
    } catch (e) {
      console.error(`FAILED: ${name}: ${e.stack || e}`);
      failed.push(name);
    }
  }
  assert.deepEqual(failed, [], "every check passes");
}

// With the .dtc tables: a count-drawn win shown as one (value, moves list,
// colours), and a win the counts keep with its DTC and each move's, as
// dtb probe --json gives them.
async function valuesUnderTheCounts(browser, problems) {
  const server = await startServer(dtcTables);
  try {
    const page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.setViewport({ width: 1280, height: 900 });
    const look = async (variant, fen) => {
      await page.goto(`${server.url}#${variant}/${fen}`, { waitUntil: "networkidle0" });
      await settled(page);
      return page.evaluate(() => {
        const value = document.getElementById("value");
        return {
          classes: [...value.classList],
          main: value.querySelector(".value-main").textContent,
          detail: value.querySelector(".value-detail").textContent,
          groups: [...document.querySelectorAll("#moves .move-group h3")].map((h) => h.textContent),
          moves: [...document.querySelectorAll("#moves button.move")].map((b) => ({
            move: b.dataset.move,
            classes: [...b.classList],
            value: b.querySelector(".move-value").textContent,
          })),
        };
      });
    };
    // Won in 43 plies by DTW; 2.1.9.1.7 draws it.
    const drawn = "W:WKh6,f6,e3:BKc3";
    const want = probe("russian", drawn, dtcTables);
    assert.equal(want.rule_class, "count-drawn win", "dtb probe calls it a count-drawn win");
    let shown = await look("russian", drawn);
    assert.ok(shown.classes.includes("count-drawn"), `value box classes ${shown.classes}`);
    assert.match(shown.main, new RegExp(`wins in ${want.dtw} plies, drawn by the counts`), shown.main);
    assert.match(shown.detail, /Count-drawn win/, shown.detail);
    assert.ok(shown.groups.some((g) => /^Winning without the counts, drawn by them/.test(g)), String(shown.groups));
    const bestShown = shown.moves.find((m) => m.move === want.best_move);
    assert.ok(bestShown && bestShown.classes.includes("count-drawn"), JSON.stringify(bestShown));
    assert.match(bestShown.value, /count-drawn/, bestShown.value);
    // Won under the counts: the DTC, and each winning move's.
    const won = "B:WK6,35:BK49,K50";
    const keeps = probe("international", won, dtcTables);
    assert.equal(keeps.rule_class, "win");
    shown = await look("international", won);
    assert.ok(!shown.classes.includes("count-drawn"), `value box classes ${shown.classes}`);
    assert.match(shown.detail, new RegExp(`next conversion in ${keeps.dtc} plies`), shown.detail);
    const first = shown.moves.find((m) => m.move === keeps.rule_line[0]);
    assert.ok(first, `${keeps.rule_line[0]} is listed`);
    assert.match(first.value, new RegExp(`DTC ${keeps.dtc}$`), first.value);
    await page.screenshot({ path: path.join(out, "explorer-values-under-the-counts.png") });
    await page.close();
    console.log("values under the counts: a count-drawn win and a win's DTC shown as dtb probe gives them");
  } finally {
    const stopped = await stopServer(server);
    assert.equal(stopped.code, 0, "dtb serve stops cleanly on SIGTERM");
  }
}

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const server = await startServer();
  const problems = [];
  let browser;
  // The browser is launched inside the try: should that fail, the finally
  // still stops the server, which shares this test's standard error and,
  // left running, would keep ctest waiting until the test's timeout.
  try {
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    });
    const page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      // The 404 and 400 answers the test asks for show as failed loads.
      if (m.type() === "error" && !/status of 40[04]/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(server.url, { waitUntil: "networkidle0" });
    assert.equal(await page.title(), "dtb endgame explorer");

    const tabs = await page.$$eval("[role=tab]", (ts) => ts.map((t) => t.dataset.variant));
    assert.deepEqual(tabs, ["russian", "international", "brazilian"], "a tab per variant, from /api/v1");
    for (const variant of ["russian", "international", "brazilian"]) {
      const start = await exploreVariant(page, variant, SETUPS[variant], false);
      console.log(`${variant}: set up ${start.fen}, ${start.wdl} in ${start.dtw}; move, line and steps agree with dtb probe`);
      if (variant === "russian") await askDrawRule(page, variant, start.fen, 3);
      await page.screenshot({ path: path.join(out, `explorer-${variant}-desktop.png`) });
    }

    // Setting up by dragging (a set-up tool picked): the king on e1 goes to
    // g1 (Russian).
    await click(page, "[role=tab][data-variant=russian]");
    let shown = await settled(page);
    await click(page, ".tool[data-tool=wk]");
    await drag(page, 31, 32);
    shown = await settled(page);
    assert.equal(shown.fen, "W:WKc3,Ka1,Kg1:BKh8", "a dragged piece");
    agreesWithProbe("russian", shown);
    await click(page, ".tool[data-tool=play]");

    // A FEN typed into the box; then one the tables cannot answer, and one
    // that is not a position: the page says why.
    for (const [fen, expect] of [
      ["B:WKa1,c3:BKh8", null],
      ["W:WKa1,c3,e3:BKh8,b6", /Not in the tables/],
      ["W:WKa1,c9:BKh8", /Not a position/],
    ]) {
      await page.$eval("#fen", (e, v) => (e.value = v), fen);
      await click(page, "#fen-form button[type=submit]");
      shown = await settled(page);
      if (expect) {
        assert.ok(shown.error, `${fen} is refused`);
        assert.match(shown.main, expect);
        assert.ok(shown.detail.length > 10, "the reason is shown");
      } else {
        agreesWithProbe("russian", shown);
      }
    }
    // Winning, drawing and losing moves at once, for the picture.
    await page.$eval("#fen", (e, v) => (e.value = v), "W:WKb4,d2:Bb6,f4");
    await click(page, "#fen-form button[type=submit]");
    shown = await settled(page);
    agreesWithProbe("russian", shown);
    assert.deepEqual(new Set(shown.moves.map((m) => m.wdl)), new Set(["win", "draw", "loss"]));
    await page.waitForSelector("#table .table-side", { timeout: 20000 }); // the material's tables, for the picture
    await page.screenshot({ path: path.join(out, "explorer-desktop.png") });

    // A phone: the same by tapping, no sideways scrolling.
    const phone = await browser.newPage();
    phone.on("pageerror", (e) => problems.push(`page error (phone): ${e.message}`));
    await phone.emulate({
      viewport: { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      userAgent: "Mozilla/5.0 (Linux; Android 14) Mobile",
    });
    await phone.goto(server.url, { waitUntil: "networkidle0" });
    for (const variant of ["international", "russian"]) {
      await exploreVariant(phone, variant, SETUPS[variant], true);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `the page fits a 390-pixel screen (${width})`);
      await phone.evaluate(() => window.scrollTo(0, 0));
      await phone.screenshot({ path: path.join(out, `explorer-${variant}-phone.png`) });
    }
    await phone.screenshot({ path: path.join(out, "explorer-russian-phone-full.png"), fullPage: true });
    console.log("phone (390x844): set-up, moves and line by tapping agree with dtb probe");

    await runChecks(browser, problems, server);
    if (dtcTables) await valuesUnderTheCounts(browser, problems);
  } finally {
    if (browser) await browser.close();
    const stopped = await stopServer(server);
    assert.equal(stopped.code, 0, "dtb serve stops cleanly on SIGTERM");
  }
  assert.deepEqual(problems, [], "no script error in the page");
  console.log(`screenshots in ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
