// The playground: keeps a small input state, posts it to /api/render on every edit,
// and shows the HTML the server renders with the same code as `mha explain --format html`.
"use strict";
const UI = {
  en: {heading: "Multi-head attention playground", language: "Language", input: "Input X",
       x_hint: "One row per token. Edit any number.", add_token: "+ token", remove_token: "− token",
       heads: "heads H", weights: "Weights", identity: "identity", random: "random", custom: "typed in",
       seed: "seed", masks: "Masks", causal: "causal", key_length: "visible keys (padding)"},
  zh: {heading: "多头注意力演示", language: "语言", input: "输入 X", x_hint: "每行一个 token，可以修改任意数字。",
       add_token: "+ token", remove_token: "− token", heads: "头数 H", weights: "权重", identity: "单位矩阵",
       random: "随机", custom: "手动输入", seed: "随机种子", masks: "掩码", causal: "因果掩码",
       key_length: "可见的键（填充）"},
};
const state = {
  X: [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], n_heads: 2, weights: "identity", seed: 0,
  custom: "", causal: "none", key_length: "", lang: (navigator.language || "en").startsWith("zh") ? "zh" : "en",
};
const $ = (id) => document.getElementById(id);
let timer = null, seq = 0;

function divisors(n) { const d = []; for (let i = 1; i <= n; i++) if (n % i === 0) d.push(i); return d; }

function drawGrid() {
  const g = $("xgrid");
  g.textContent = "";
  const head = g.insertRow();
  head.appendChild(document.createElement("th"));
  state.X[0].forEach((_, j) => { const th = document.createElement("th"); th.textContent = j + 1; head.appendChild(th); });
  state.X.forEach((row, i) => {
    const tr = g.insertRow();
    const th = document.createElement("th"); th.textContent = "x" + (i + 1); tr.appendChild(th);
    row.forEach((v, j) => {
      const td = tr.insertCell(), inp = document.createElement("input");
      inp.type = "number"; inp.step = "any"; inp.value = v; inp.dataset.i = i; inp.dataset.j = j;
      inp.setAttribute("aria-label", `X[${i + 1},${j + 1}]`);
      inp.addEventListener("input", () => {
        const x = parseFloat(inp.value);
        if (Number.isFinite(x)) { state.X[i][j] = x; schedule(); }
      });
      td.appendChild(inp);
    });
  });
  $("d-model").value = state.X[0].length;
  const sel = $("n-heads");
  sel.textContent = "";
  divisors(state.X[0].length).forEach((h) => {
    const o = document.createElement("option"); o.value = h; o.textContent = h; sel.appendChild(o);
  });
  if (state.X[0].length % state.n_heads !== 0) state.n_heads = 1;
  sel.value = state.n_heads;
}

function translate() {
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = UI[state.lang][el.dataset.t]; });
  $("lang").value = state.lang;
}

function payload() {
  const input = {X: state.X, n_heads: state.n_heads};
  if (state.causal !== "none") input.causal = state.causal;
  if (state.key_length !== "") input.key_lengths = [parseInt(state.key_length, 10)];
  if (state.weights === "custom" && state.custom.trim()) {
    try { Object.assign(input, JSON.parse(state.custom)); } catch (e) { return {error: "weights: " + e.message}; }
  }
  const body = {input, weights: state.weights, lang: state.lang};
  if (state.weights === "random") body.seed = state.seed;      // a seed with other weights is refused
  return body;
}

function schedule() { clearTimeout(timer); timer = setTimeout(update, 120); }

async function update() {
  const body = payload(), mine = ++seq;
  const err = $("error");
  if (body.error) { err.textContent = body.error; err.hidden = false; return; }
  try {
    const r = await fetch("/api/render", {method: "POST", headers: {"Content-Type": "application/json"},
                                          body: JSON.stringify(body)});
    const data = await r.json();
    if (mine !== seq) return;                  // a newer edit is on its way
    if (!r.ok) { err.textContent = data.error; err.hidden = false; return; }
    err.hidden = true;
    $("out").innerHTML = data.html;
    document.body.dataset.rendered = String(mine);
  } catch (e) { err.textContent = String(e); err.hidden = false; }
}

$("add-token").addEventListener("click", () => { state.X.push(state.X[0].map(() => 0)); drawGrid(); schedule(); });
$("remove-token").addEventListener("click", () => { if (state.X.length > 1) { state.X.pop(); drawGrid(); schedule(); } });
$("d-model").addEventListener("change", () => {
  const d = Math.max(1, Math.min(64, parseInt($("d-model").value, 10) || 1));
  state.X = state.X.map((row) => Array.from({length: d}, (_, j) => (j < row.length ? row[j] : 0)));
  drawGrid(); schedule();
});
$("n-heads").addEventListener("change", () => { state.n_heads = parseInt($("n-heads").value, 10); schedule(); });
document.querySelectorAll("input[name=weights]").forEach((r) => r.addEventListener("change", () => {
  state.weights = r.value; $("seed-box").hidden = r.value !== "random"; $("custom-weights").hidden = r.value !== "custom";
  schedule();
}));
$("seed").addEventListener("input", () => { state.seed = Math.max(0, parseInt($("seed").value, 10) || 0); schedule(); });
$("custom-weights").addEventListener("input", () => { state.custom = $("custom-weights").value; schedule(); });
$("causal").addEventListener("change", () => { state.causal = $("causal").value; schedule(); });
$("key-length").addEventListener("input", () => { state.key_length = $("key-length").value; schedule(); });
$("lang").addEventListener("change", () => { state.lang = $("lang").value; translate(); schedule(); });

drawGrid(); translate(); update();
