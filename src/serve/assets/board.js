// Boards drawn as SVG, as src/render.rs draws them (same cell size,
// colours and marks), from the rows the replayer prints: the page knows
// no rules, only where each square is (asked of /api/layout).

const CELL = 48;
const MARGIN = 24;
const NS = "http://www.w3.org/2000/svg";
const STYLE = `.light { fill: #f0e6d2; } .dark { fill: #8b6b4a; }
.piece.white { fill: #fafafa; stroke: #333; stroke-width: 2; }
.piece.black { fill: #222; stroke: #000; stroke-width: 2; }
.king { font: bold 18px sans-serif; } .king.white { fill: #b00; } .king.black { fill: #fc0; }
.coord { font: 12px sans-serif; fill: #555; }
.number { font: 10px sans-serif; fill: #f0e6d2; }
.forced { fill: none; stroke: #2e7d32; stroke-width: 4; }
.focus { fill: none; stroke: #1565c0; stroke-width: 3; stroke-dasharray: 5 3; }
.piece, .king, .number, .forced, .focus { pointer-events: none; }`;

const layouts = new Map();

/** The layout of a rule set's board (cached): size, naming, squares. */
export async function layoutOf(rules) {
  const key = rules || "english";
  if (!layouts.has(key)) {
    const response = await fetch(`/api/layout?rules=${encodeURIComponent(key)}`);
    const body = await response.json();
    if (!response.ok) throw new Error(body.error);
    body.byCell = new Map(body.squares.map(([row, col, name]) => [`${row},${col}`, name]));
    layouts.set(key, body);
  }
  return layouts.get(key);
}

function element(name, attributes, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The piece a row's character stands for, or null. */
function pieceOf(ch) {
  const pieces = { w: ["white", false], W: ["white", true], b: ["black", false], B: ["black", true] };
  return pieces[ch] || null;
}

/** In words, for screen readers: "white man on 32". */
function describe(rows, layout) {
  const said = [];
  for (const [row, col, name] of layout.squares) {
    const piece = pieceOf((rows[row] || "")[col]);
    if (piece) said.push(`${piece[0]} ${piece[1] ? "king" : "man"} on ${name}`);
  }
  return said.length ? said.join(", ") : "empty board";
}

/**
 * An SVG board: `rows` top row first; options: `numbers` (square names on
 * every square), `marks` (names outlined), `title`, `onClick(name)`.
 */
export function drawBoard(layout, rows, options = {}) {
  const n = layout.size;
  const size = n * CELL + 2 * MARGIN;
  const svg = element("svg", {
    xmlns: NS, width: size, height: size, viewBox: `0 0 ${size} ${size}`,
    role: "img", class: "board",
  });
  svg.appendChild(element("title", {}, `${options.title || "board"}: ${describe(rows, layout)}`));
  svg.appendChild(element("style", {}, STYLE));
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const name = layout.byCell.get(`${row},${col}`);
      const x = MARGIN + col * CELL, y = MARGIN + row * CELL;
      const cell = element("rect", { class: name ? "square dark" : "square light", x, y, width: CELL, height: CELL });
      if (name) cell.dataset.square = name;
      svg.appendChild(cell);
      if (!name) continue;
      if (options.numbers) svg.appendChild(element("text", { class: "number", x: x + 3, y: y + 11 }, name));
      const piece = pieceOf((rows[row] || "")[col]);
      if (piece) {
        svg.appendChild(element("circle", { class: `piece ${piece[0]}`, cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 2 / 5 }));
        if (piece[1]) svg.appendChild(element("text", { class: `king ${piece[0]}`, x: x + CELL / 2 - 6, y: y + CELL / 2 + 6 }, "K"));
      }
      if (options.marks && options.marks.has(name)) {
        svg.appendChild(element("rect", { class: "forced", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4 }));
      }
      if (options.focus === name) {
        svg.appendChild(element("rect", { class: "focus", x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8 }));
      }
    }
  }
  if (layout.algebraic) {
    for (let i = 0; i < n; i++) {
      svg.appendChild(element("text", { class: "coord", x: MARGIN + i * CELL + CELL / 2 - 4, y: MARGIN + n * CELL + 16 }, "abcdefghijkl"[i]));
      svg.appendChild(element("text", { class: "coord", x: 6, y: MARGIN + i * CELL + CELL / 2 + 4 }, String(n - i)));
    }
  }
  if (options.onClick) {
    svg.addEventListener("click", (event) => {
      const square = event.target.closest("[data-square]") || squareAt(svg, event);
      if (square) options.onClick(square.dataset.square);
    });
  }
  return svg;
}

/** The dark square under a click that landed on a piece drawn over it. */
function squareAt(svg, event) {
  const box = svg.getBoundingClientRect();
  const scale = svg.viewBox.baseVal.width / box.width;
  const x = (event.clientX - box.left) * scale, y = (event.clientY - box.top) * scale;
  for (const cell of svg.querySelectorAll("[data-square]")) {
    const cx = Number(cell.getAttribute("x")), cy = Number(cell.getAttribute("y"));
    if (x >= cx && x < cx + CELL && y >= cy && y < cy + CELL) return cell;
  }
  return null;
}

/** The SVG document of a drawn board, for download. */
export function svgText(svg) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}

/** Offers `text` as a file named `name`. */
export function download(name, text, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
