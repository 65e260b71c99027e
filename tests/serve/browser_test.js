// The explorer of dtb serve in a real browser: Debian's chromium, headless,
// driven through the DevTools protocol by puppeteer-core. For each variant
// it sets a position up by clicking the palette and the board, reads the
// value the page shows, plays a move by clicking it, steps along the line,
// asks the draw-rule question, and checks each answer against `dtb probe`
// and `dtb adjudicate` run on the same tables. Screenshots (desktop and
// phone-sized) go to --out.
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

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) throw new Error(`browser_test: --${name} is required`);
  return process.argv[i + 1];
}

const dtb = option("dtb");
const tables = option("tables");
const out = option("out");
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";

function probe(variant, fen) {
  return JSON.parse(execFileSync(dtb, ["probe", "--variant", variant, "--dir", tables, "--fen", fen, "--json"]));
}

function adjudicate(variant, fen, moves) {
  const args = ["adjudicate", "--variant", variant, "--dir", tables, "--fen", fen, "--moves-played", String(moves)];
  return JSON.parse(execFileSync(dtb, [...args, "--json"]));
}

// `dtb serve --port 0`: resolves to {process, url} once it prints where it listens.
function startServer() {
  const server = spawn(dtb, ["serve", "--dir", tables, "--port", "0", "--threads", "4", "--json"], {
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

    // Setting up by dragging: the king on e1 goes to g1 (Russian).
    await click(page, "[role=tab][data-variant=russian]");
    let shown = await settled(page);
    await drag(page, 31, 32);
    shown = await settled(page);
    assert.equal(shown.fen, "W:WKc3,Ka1,Kg1:BKh8", "a dragged piece");
    agreesWithProbe("russian", shown);

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
