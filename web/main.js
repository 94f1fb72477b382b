// The playground page: the board is the core's SVG picture; a click is
// read back to a point with the core's geometry (svgPointAt). Placements
// and jumps are checked by the core (the page keeps no rule); the engine
// and "who wins?" run in a Web Worker (worker.js) that "Cancel" ends. The
// engine evaluates as the "Evaluation" choice says: auto (the default: the
// network built into the package on the 15x19 board it serves, the
// hand-written terms elsewhere), hand, or the network alone.
import init, { Game, Position } from "./pkg/phutball.js";

const $ = (id) => document.getElementById(id);
let game;
let flip = false;
let jump = null; // { state: JumpInProgress, path: [points] } while jumping
let worker = null;
let pending = null; // { id, resolve, reject } of the worker's one call
let nextId = 0;
let lastHint = null;

function setStatus(text) { $("status").textContent = text; }

// The moves drawn as arrows: every distinct jump outcome (bounded: at most
// 40, within 100 ms, so a dense board cannot stall the page), or the hint.
function arrows(pos) {
  if (lastHint) return [lastHint];
  if (!$("show-jumps").checked || pos.isFinished) return [];
  try { return pos.jumpOutcomes(40, 100); } catch { return []; }
}

function draw() {
  const pos = jump ? jump.state.position : game.position;
  const svg = jump
    ? jump.state.svg(jump.path.join("-"), undefined, jump.state.singleJumps(), flip)
    : game.svg(arrows(pos), undefined, flip);
  $("board").innerHTML = svg;
  $("record").value = game.record();
  $("jumping").hidden = !jump;
  if (jump) $("path").textContent = jump.path.join("-");
  const who = pos.toMove === "O" ? "Ohs" : "Eks";
  if (game.isOver) setStatus(`Game over: ${game.result}`);
  else setStatus(`${who} to move${jump ? " (jumping)" : ""} · move ${game.length + 1}`);
}

function play(move) {
  game.push(move); // throws IllegalMoveError saying why
  jump = null;
  lastHint = null;
  draw();
}

function report(error) { setStatus(`${error.name}: ${error.message}`); }

// A click on the board: the point under it, by the core's geometry.
function clickedPoint(event) {
  const svg = $("board").querySelector("svg");
  if (!svg) return undefined;
  const p = svg.createSVGPoint();
  p.x = event.clientX;
  p.y = event.clientY;
  const at = p.matrixTransform(svg.getScreenCTM().inverse());
  const pos = jump ? jump.state.position : game.position;
  return pos.svgPointAt(at.x, at.y, flip);
}

function onBoardClick(event) {
  const point = clickedPoint(event);
  if (!point || game.isOver) return;
  try {
    if (jump) {
      if (point === jump.state.position.ball) { play(jump.path.join("-")); return; }
      jump = { state: jump.state.applyJump(point), path: [...jump.path, point] };
    } else if (game.position.singleJumps().includes(point)) {
      const pos = game.position;
      jump = { state: pos.applyJump(point), path: [pos.ball, point] };
    } else {
      play(point);
      return;
    }
    lastHint = null;
    draw();
  } catch (error) { report(error); }
}

// The worker's call, one at a time; a new worker after a cancel.
function ask(kind, timeMs) {
  if (!worker) {
    worker = new Worker("worker.js", { type: "module" });
    worker.onmessage = ({ data }) => {
      if (!pending || data.id !== pending.id) return;
      const { resolve, reject } = pending;
      pending = null;
      busy(false);
      if (data.error) reject(new Error(data.error)); else resolve(data);
    };
  }
  if (pending) return Promise.reject(new Error("busy: another call is running"));
  const pos = game.position;
  busy(true);
  return new Promise((resolve, reject) => {
    pending = { id: ++nextId, resolve, reject };
    worker.postMessage({ id: nextId, kind, position: pos.toString(), rules: pos.rules, timeMs,
      evaluation: $("eval").value });
  });
}

function cancel() {
  if (worker) worker.terminate();
  worker = null;
  if (pending) { pending.reject(new Error("Cancelled")); pending = null; }
  busy(false);
}

function busy(on) {
  $("cancel").disabled = !on;
  for (const id of ["engine", "hint", "solve"]) $(id).disabled = on;
  document.body.dataset.busy = on ? "yes" : "no";
}

function ms(id) { return Math.max(10, Number($(id).value) || 500); }

async function engineMove(hintOnly) {
  if (jump || game.isOver) return;
  setStatus("The engine is thinking…");
  try {
    const a = await ask("analyse", ms("engine-ms"));
    const by = { auto: "auto", hand: "hand", net: "network" }[a.evaluation];
    const text = `${a.bestMove} (${a.score}, depth ${a.depth}, ${a.nodes} nodes, ${by} evaluation)`;
    if (hintOnly) { lastHint = a.bestMove; draw(); setStatus(`Hint: ${text}`); }
    else { play(a.bestMove); $("verdict").textContent = `Engine played ${text}`; }
  } catch (error) { setStatus(error.message); }
}

async function whoWins() {
  $("verdict").textContent = "Solving…";
  try {
    const v = await ask("solve", ms("solve-ms"));
    const who = game.position.toMove === "O" ? "Ohs" : "Eks";
    $("verdict").textContent = v.result === "unknown"
      ? "Unknown within the time limit"
      : `${who} (to move): ${v.result}${v.plies ? ` in ${v.plies}` : ""} ${v.line.join(" ")}`;
  } catch (error) { $("verdict").textContent = error.message; }
}

function newGame() {
  try {
    game = new Game(Position.start(Number($("cols").value), Number($("rows").value), $("rules").value));
    jump = null; lastHint = null; draw();
  } catch (error) { report(error); }
}

function load(text) {
  try { game = Game.fromRecord(text); jump = null; lastHint = null; draw(); } catch (error) { report(error); }
}

function save() {
  const url = URL.createObjectURL(new Blob([game.record()], { type: "text/plain" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: "phutball-game.txt" });
  a.click();
  URL.revokeObjectURL(url);
}

await init();
game = new Game();
$("board").addEventListener("click", onBoardClick);
$("end-jump").onclick = () => { try { play(jump.path.join("-")); } catch (error) { report(error); } };
$("cancel-jump").onclick = () => { jump = null; draw(); };
$("engine").onclick = () => engineMove(false);
$("hint").onclick = () => engineMove(true);
$("undo").onclick = () => { jump = null; lastHint = null; game.pop(); draw(); };
$("flip").onclick = () => { flip = !flip; draw(); };
$("show-jumps").onchange = draw;
$("solve").onclick = whoWins;
$("cancel").onclick = cancel;
$("new").onclick = newGame;
$("load").onclick = () => load($("record").value);
$("save").onclick = save;
$("load-file").onchange = async (e) => { const f = e.target.files[0]; if (f) load(await f.text()); };
// For tests and the console: the game and the page's calls.
window.playground = { get game() { return game; }, get flip() { return flip; }, load, cancel };
busy(false);
draw();
