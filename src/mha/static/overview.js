// The overview page: draw every cell's heatmap, read a weight on hover, open a head's explanation on click,
// filter layers and heads, and switch to the query -> key lines.  Everything it needs is in the page.
(() => {
  "use strict";
  const D = JSON.parse(document.getElementById("ov-data").textContent);
  const $ = (id) => document.getElementById(id);
  const T = D.tokens.length;
  const n = Math.ceil(T / D.block);                       // rows and columns drawn per cell
  const fill = (text, params) => text.replace(/<([a-z_]+)>/g, (m, k) => (k in params ? String(params[k]) : m));
  const cells = [...document.querySelectorAll(".ov-cell")];
  let W = null;                                           // Uint16Array: cell after cell, n x n codes each

  async function inflate(b64) {
    const bytes = Uint8Array.from(atob(b64.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // ---------------------------------------------------------------- the heatmaps
  const px = Math.max(2, Math.min(14, Math.floor(160 / n)));   // pixels per drawn row / column
  const labelled = D.block === 1 && px >= 9;                   // room for token labels beside the cells

  function shade(w) {                                      // the HTML view's blue at 0.06 + 0.84 w, on white, opaque
    const a = 0.06 + 0.84 * w, mix = (c) => Math.round(255 + (c - 255) * a);
    return `rgb(${mix(9)},${mix(105)},${mix(218)})`;
  }
  function code(c, i, j) { return W[c * n * n + i * n + j]; }
  function weight(v) { return v === D.one ? 1 : v >= D.zero ? 0 : v / 10 ** D.digits; }
  function shown(v) {                                      // as mha prints it: "1", "0", or 4 decimals
    return v === D.masked ? D.texts.masked : v === D.one ? "1" : v === D.zero ? "0" : weight(v).toFixed(D.digits);
  }

  function draw(fig) {
    const c = +fig.dataset.cell, canvas = fig.querySelector("canvas");
    const first = fig.parentElement.querySelector(".ov-cell") === fig;     // first cell of its row
    const top = fig.parentElement === document.querySelector(".ov-row");   // a cell of the first row
    const left = labelled && first ? 64 : 0, up = labelled && top ? 64 : 0;
    canvas.width = left + n * px; canvas.height = up + n * px;
    canvas.dataset.left = left; canvas.dataset.up = up;
    const g = canvas.getContext("2d");
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const v = code(c, i, j);
        g.fillStyle = v === D.masked ? "#eaeef2" : shade(weight(v));
        g.fillRect(left + j * px, up + i * px, px, px);
      }
    }
    if (!left && !up) return;
    g.fillStyle = "#59636e"; g.font = `${Math.min(px, 11)}px ui-monospace,monospace`;
    if (left) {
      g.textAlign = "right"; g.textBaseline = "middle";
      D.tokens.forEach((t, i) => g.fillText(t.slice(0, 8), left - 3, up + (i + 0.5) * px));
    }
    if (up) {
      g.save(); g.textAlign = "left"; g.textBaseline = "middle";
      D.tokens.forEach((t, j) => {
        g.save(); g.translate(left + (j + 0.5) * px, up - 3); g.rotate(-Math.PI / 2); g.fillText(t.slice(0, 8), 0, 0);
        g.restore();
      });
      g.restore();
    }
  }

  // ---------------------------------------------------------------- hover: one weight
  const tip = $("ov-tip");
  function span(k) {                                       // token k of the drawn grid: one token, or a block
    const a = k * D.block, b = Math.min(T, a + D.block) - 1;
    return a === b ? [String(a + 1), D.tokens[a]] : [`${a + 1}–${b + 1}`, `${D.tokens[a]} … ${D.tokens[b]}`];
  }
  function cellName(fig) {
    return fill(D.gqa ? D.texts.cell_kv : D.texts.cell, { head: fig.dataset.head, kv: fig.dataset.kv });
  }
  function hover(e) {
    const fig = e.currentTarget.closest(".ov-cell"), canvas = e.currentTarget;
    if (!W) return;
    const r = canvas.getBoundingClientRect();
    const x = (e.clientX - r.left) * canvas.width / r.width - canvas.dataset.left;
    const y = (e.clientY - r.top) * canvas.height / r.height - canvas.dataset.up;
    const i = Math.floor(y / px), j = Math.floor(x / px);
    if (i < 0 || j < 0 || i >= n || j >= n) { tip.hidden = true; return; }
    const v = code(+fig.dataset.cell, i, j);
    const [qi, qt] = span(i), [kj, kt] = span(j);
    tip.textContent = fill(D.texts.tooltip, { layer: fig.dataset.layer, cell: cellName(fig), i: qi, query: qt,
                                              j: kj, key: kt, weight: shown(v) });
    tip.hidden = false;
    tip.style.left = `${e.clientX + 14}px`; tip.style.top = `${e.clientY + 14}px`;
  }

  // ---------------------------------------------------------------- click: the head's explanation
  const layers = new Map();                                // layer -> its inflated explanation (a promise)
  function explanation(layer) {
    if (!layers.has(layer)) {
      const el = document.querySelector(`script.ov-ex[data-layer="${layer}"]`);
      layers.set(layer, inflate(el.textContent).then((b) => JSON.parse(new TextDecoder().decode(b))));
    }
    return layers.get(layer);
  }
  async function open(fig) {
    const layer = fig.dataset.layer, head = fig.dataset.head, panel = $("ov-panel"), body = $("ov-panel-body");
    cells.forEach((f) => f.classList.toggle("open", f === fig));
    $("ov-panel-title").textContent = fill(D.texts["panel.title"], { layer, head });
    panel.hidden = false;
    if (typeof DecompressionStream === "undefined") { body.textContent = D.texts["panel.unavailable"]; return; }
    if (!document.querySelector(`script.ov-ex[data-layer="${layer}"]`)) { body.textContent = D.texts["panel.none"]; return; }
    body.textContent = D.texts["panel.loading"];
    const ex = await explanation(layer);
    body.innerHTML = `<details><summary>${D.texts["panel.before"]}</summary>${ex.before}</details>` +
      ex.heads[head] + `<details><summary>${D.texts["panel.after"]}</summary>${ex.after}</details>`;
    body.dataset.layer = layer; body.dataset.head = head;
    panel.scrollIntoView({ block: "start" });
  }

  // ---------------------------------------------------------------- filters: "0-3,7"
  function parse(text, max) {
    const out = new Set();
    for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
      const m = part.match(/^(\d+)(?:\s*-\s*(\d+))?$/);
      if (!m) return null;
      const a = +m[1], b = m[2] === undefined ? a : +m[2];
      if (b < a || b > max) return null;
      for (let k = a; k <= b; k++) out.add(k);
    }
    return out.size ? out : "all";
  }
  function applyFilters() {
    const fl = $("ov-f-layers"), fh = $("ov-f-heads");
    const L = parse(fl.value, 1e6), H = parse(fh.value, 1e6);
    fl.classList.toggle("bad", L === null); fh.classList.toggle("bad", H === null);
    document.querySelectorAll(".ov-row").forEach((row) => {
      row.hidden = !(L === null || L === "all" || L.has(+row.dataset.layer));
    });
    cells.forEach((f) => { f.hidden = !(H === null || H === "all" || H.has(+f.dataset.head)); });
    if (!$("ov-lines").hidden) lines();
  }

  // ---------------------------------------------------------------- the query -> key lines of one layer
  const palette = ["#0969da", "#cf222e", "#1a7f37", "#8250df", "#bf3989", "#9a6700", "#0550ae", "#d1242f",
                   "#116329", "#6639ba", "#953800", "#1b7c83"];
  function lines() {
    const svg = $("ov-lines-svg"), layer = $("ov-lines-layer").value, NS = "http://www.w3.org/2000/svg";
    const shown = cells.filter((f) => f.dataset.layer === layer && !f.hidden);
    const row = 18, x0 = 170, x1 = 430, h = n * row + 10;
    svg.setAttribute("width", 600); svg.setAttribute("height", h); svg.setAttribute("viewBox", `0 0 600 ${h}`);
    svg.replaceChildren();
    const el = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e); return e;
    };
    if (!W) return;
    shown.forEach((fig) => {
      const c = +fig.dataset.cell, color = palette[(+fig.dataset.head - 1) % palette.length];
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const v = code(c, i, j);
          if (v === D.masked || weight(v) < 0.02) continue;
          el("line", { x1: x0, y1: 5 + (i + 0.5) * row, x2: x1, y2: 5 + (j + 0.5) * row, stroke: color,
                       "stroke-opacity": weight(v).toFixed(3), "stroke-width": 2, "data-i": i });
        }
      }
    });
    for (let k = 0; k < n; k++) {
      const [, label] = span(k);
      el("text", { x: x0 - 6, y: 5 + (k + 0.5) * row, "text-anchor": "end", "dominant-baseline": "middle",
                   "data-q": k }, label);
      el("text", { x: x1 + 6, y: 5 + (k + 0.5) * row, "dominant-baseline": "middle" }, label);
    }
    svg.querySelectorAll("text[data-q]").forEach((t) => {
      t.addEventListener("mouseenter", () => svg.querySelectorAll("line").forEach((l) => {
        l.style.display = l.dataset.i === t.dataset.q ? "" : "none"; }));
      t.addEventListener("mouseleave", () => svg.querySelectorAll("line").forEach((l) => { l.style.display = ""; }));
    });
  }

  // ---------------------------------------------------------------- wiring
  cells.forEach((fig) => {
    const canvas = fig.querySelector("canvas");
    canvas.addEventListener("mousemove", hover);
    canvas.addEventListener("mouseleave", () => { tip.hidden = true; });
    fig.addEventListener("click", () => open(fig));
    fig.addEventListener("keydown", (e) => { if (e.key === "Enter") open(fig); });
  });
  $("ov-panel-close").addEventListener("click", () => {
    $("ov-panel").hidden = true; cells.forEach((f) => f.classList.remove("open"));
  });
  $("ov-f-layers").addEventListener("input", applyFilters);
  $("ov-f-heads").addEventListener("input", applyFilters);
  $("ov-lines-layer").addEventListener("change", lines);
  document.querySelectorAll('input[name="ov-view"]').forEach((r) => r.addEventListener("change", () => {
    const grid = document.querySelector('input[name="ov-view"]:checked').value === "grid";
    $("ov-grid").hidden = !grid; $("ov-lines").hidden = grid;
    if (!grid) lines();
  }));
  if (typeof DecompressionStream === "undefined") {
    document.querySelector(".ov-hint").textContent = D.texts["panel.unavailable"];
    return;
  }
  inflate(D.weights).then((bytes) => {
    const view = new DataView(bytes.buffer);
    W = new Uint16Array(bytes.length / 2);
    for (let k = 0; k < W.length; k++) W[k] = view.getUint16(2 * k, true);    // little-endian, as written
    cells.forEach(draw);
    document.body.dataset.ready = "1";                    // drawn: the tests wait for this
  });
})();
