// The browser side of phutball.widget.Board (anywidget). It only draws:
// the picture is the Rust core's SVG sent from Python, and a click is sent
// back as a point of the picture (in its own units); Python decides what it
// means. The buttons send their names, or toggle a synced trait.

function button(label, title, onClick) {
  const b = document.createElement("button");
  b.textContent = label;
  b.title = title;
  b.className = "phutball-button";
  b.style.marginRight = "4px";
  b.addEventListener("click", onClick);
  return b;
}

function render({ model, el }) {
  const part = (className, style) => {
    const d = document.createElement("div");
    d.className = className;
    Object.assign(d.style, style);
    return d;
  };
  const root = part("phutball-board", {});
  const picture = part("phutball-picture", { cursor: "pointer", lineHeight: "0" });
  const status = part("phutball-status", { fontFamily: "sans-serif" });
  const message = part("phutball-message", { fontFamily: "sans-serif", minHeight: "1.2em" });
  const toolbar = part("phutball-toolbar", { margin: "4px 0" });

  const endJump = button("End jump", "End the jump here (or click the ball)", () =>
    model.send({ type: "end_jump" }),
  );
  const toggle = (name) => () => {
    model.set(name, !model.get(name));
    model.save_changes();
  };
  toolbar.append(
    endJump,
    button("Undo", "Take back the jump being made, or the last move", () => model.send({ type: "undo" })),
    button("Flip", "Turn the board for the other side", toggle("flip")),
    button("Show jumps", "Draw every jump path of the position", toggle("show_jumps")),
    button("Hint", "The engine's best move and its score", () => model.send({ type: "hint" })),
  );

  picture.addEventListener("click", (event) => {
    const svg = picture.querySelector("svg");
    if (!svg) return;
    // The click in the picture's own units (its viewBox), whatever its size on screen.
    const at = svg.createSVGPoint();
    at.x = event.clientX;
    at.y = event.clientY;
    const p = at.matrixTransform(svg.getScreenCTM().inverse());
    model.send({ type: "click", x: p.x, y: p.y });
  });

  function draw() {
    picture.innerHTML = model.get("svg");
    status.textContent = model.get("status");
    message.textContent = model.get("message");
    endJump.disabled = !model.get("jumping");
  }
  for (const name of ["svg", "status", "message", "jumping"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
  root.append(picture, status, toolbar, message);
  el.append(root);
  return () => {
    for (const name of ["svg", "status", "message", "jumping"]) {
      model.off(`change:${name}`, draw);
    }
  };
}

export default { render };
