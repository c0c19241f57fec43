// The playground: keeps a small input state, posts it to /api/render on every edit,
// and shows the HTML the server renders with the same code as `mha explain --format html`.
"use strict";
const UI = {
  en: {heading: "Multi-head attention playground", language: "Language", example: "Example",
       own: "— your own input —", input: "Input X", x_hint: "One row per token. Edit any number.",
       x_elsewhere: "This example's input is in the JSON box below.",
       add_token: "+ token", remove_token: "− token", heads: "heads H", kv_heads: "key/value heads G",
       weights: "Weights", identity: "identity", random: "random", custom: "from the JSON box",
       seed: "seed", head_width: "head width d_k", head_width_hint: "empty: d_model / H",
       no_wo: "no W_O (Y = O_concat)", modern: "Position and window", rope: "RoPE", off: "off",
       half: "rotate-half (LLaMA, GPT-NeoX)", interleaved: "interleaved (GPT-J)", alibi: "ALiBi",
       window: "sliding window W", masks: "Masks", causal: "causal", key_length: "visible keys (padding)",
       devices: "ring over devices P", devices_hint: "off",
       extra: "More input keys (JSON)",
       extra_hint: "Merged into the input: a KV cache, Q/K/V, per-head weights, tokens, scale, …",
       exact: "exact: closed forms beside the decimals",
       exact_off: "Closed forms need exact weights (not random) and at most 512 scores (T·S·H).",
       backward_heading: "Training", backward: "show the backward pass (L = sum of Y)"},
  zh: {heading: "多头注意力演示", language: "语言", example: "示例", own: "— 自己输入 —",
       input: "输入 X", x_hint: "每行一个 token，可以修改任意数字。", x_elsewhere: "这个示例的输入在下面的 JSON 框里。",
       add_token: "+ token", remove_token: "− token", heads: "头数 H", kv_heads: "键/值头数 G",
       weights: "权重", identity: "单位矩阵", random: "随机", custom: "用 JSON 框里的", seed: "随机种子",
       head_width: "每头宽度 d_k", head_width_hint: "留空：d_model / H", no_wo: "不用 W_O（Y = O_concat）",
       modern: "位置与窗口", rope: "RoPE", off: "关", half: "rotate-half（LLaMA、GPT-NeoX）",
       interleaved: "交错式（GPT-J）", alibi: "ALiBi", window: "滑动窗口 W", masks: "掩码", causal: "因果掩码",
       key_length: "可见的键（填充）", devices: "环形注意力的设备数 P", devices_hint: "关",
       extra: "更多输入键（JSON）",
       extra_hint: "合并进输入：KV 缓存、Q/K/V、每个头的权重、tokens、scale 等",
       exact: "精确：在小数旁给出闭式表达式", exact_off: "闭式表达式需要精确的权重（不能是随机的），且分数最多 512 个（T·S·H）。",
       backward_heading: "训练", backward: "显示反向传播（L = Y 的所有元素之和）"},
};
const FRESH = () => ({
  X: [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], n_heads: 2, n_kv_heads: 2, weights: "identity", seed: 0,
  d_k: "", no_wo: false, rope: "off", alibi: false, window: "", causal: "none", key_length: "", devices: "", extra: "",
  example: "", exact: false, backward: false,
});
const state = Object.assign(FRESH(), {lang: (navigator.language || "en").startsWith("zh") ? "zh" : "en"});
const $ = (id) => document.getElementById(id);
let timer = null, seq = 0, examples = [];

function divisors(n) { const d = []; for (let i = 1; i <= n; i++) if (n % i === 0) d.push(i); return d; }

function options(sel, values, current) {
  sel.textContent = "";
  values.forEach((v) => { const o = document.createElement("option"); o.value = v; o.textContent = v; sel.appendChild(o); });
  sel.value = values.includes(current) ? current : values[0];
  return parseInt(sel.value, 10);
}

function drawHeads() {
  // H must divide d_model unless random weights are given a head width; G must divide H
  const d = state.X ? state.X[0].length : 0;
  const free = state.weights === "random" && state.d_k !== "";
  const hs = state.X && !free ? divisors(d) : Array.from({length: 8}, (_, i) => i + 1);
  state.n_heads = options($("n-heads"), hs, state.n_heads);
  state.n_kv_heads = options($("n-kv-heads"), divisors(state.n_heads).reverse(), state.n_kv_heads);
  drawExact();
}

function drawGrid() {
  const g = $("xgrid");
  g.textContent = "";
  $("x-box").hidden = !state.X;
  $("x-elsewhere").hidden = !!state.X;
  if (state.X) {
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
  }
  drawHeads();
}

function drawControls() {
  document.querySelectorAll("input[name=weights]").forEach((r) => { r.checked = r.value === state.weights; });
  $("seed-box").hidden = $("d-k-box").hidden = state.weights !== "random";
  $("seed").value = state.seed; $("d-k").value = state.d_k;
  $("no-wo").checked = state.no_wo; $("rope").value = state.rope; $("alibi").checked = state.alibi;
  $("window").value = state.window; $("causal").value = state.causal; $("key-length").value = state.key_length;
  $("devices").value = state.devices;
  $("extra").value = state.extra; $("backward").checked = state.backward;
  if (state.extra.trim()) $("extra-box").open = true;
  drawExact();
  $("example").value = state.example;
  drawIdea();
}

// The exact toggle is offered for small inputs only (the server's cap is B·H·T·S <= 512 scores).
function exactAllowed() {
  const T = state.X ? state.X.length : 0;
  return state.weights !== "random" && (!state.X || T * T * state.n_heads <= 512);
}

function drawExact() {
  const ok = exactAllowed();
  $("exact").disabled = !ok;
  $("exact").checked = ok && state.exact;
  $("exact-off").hidden = ok;
}

function drawIdea() {
  const ex = examples.find((e) => e.name === state.example);
  $("idea").textContent = ex ? ex.idea[state.lang] : "";
  $("idea").hidden = !ex;
}

function translate() {
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = UI[state.lang][el.dataset.t]; });
  document.querySelectorAll("[data-t-placeholder]").forEach((el) => { el.placeholder = UI[state.lang][el.dataset.tPlaceholder]; });
  $("lang").value = state.lang;
  drawIdea();
}

// A named example spread over the controls; what they cannot hold goes to the JSON box.
function loadExample(name) {
  const ex = examples.find((e) => e.name === name);
  Object.assign(state, FRESH(), {example: name, exact: state.exact});      // the exact toggle stays as set
  if (!ex) { drawGrid(); drawControls(); schedule(); return; }
  if (ex.options && ex.options.devices) state.devices = String(ex.options.devices);
  const d = JSON.parse(JSON.stringify(ex.data));
  const is2d = Array.isArray(d.X) && Array.isArray(d.X[0]) && typeof d.X[0][0] === "number";
  state.X = is2d ? d.X : null;
  if (is2d) delete d.X;
  state.n_heads = d.n_heads || 1; delete d.n_heads;
  state.n_kv_heads = d.n_kv_heads || state.n_heads; delete d.n_kv_heads;
  if (d.rope === true || (d.rope && Object.keys(d.rope).every((k) => k === "style"))) {
    state.rope = d.rope === true ? "half" : d.rope.style; delete d.rope;
  }
  if (d.alibi === true) { state.alibi = true; delete d.alibi; }
  if (Number.isInteger(d.window)) { state.window = String(d.window); delete d.window; }
  if (d.causal === true) state.causal = d.cache ? "bottom_right" : "top_left";
  else if (typeof d.causal === "string") state.causal = d.causal;
  delete d.causal;
  if (d.W_O === "none") { state.no_wo = true; delete d.W_O; }
  if (d.backward) {                  // the toggle; an upstream other than L = sum of Y stays in the JSON box
    state.backward = true;
    if (d.backward.loss === "sum") delete d.backward;
  }
  const ws = ["W_Q", "W_K", "W_V", "W_O"];
  if (ws.every((k) => d[k] === undefined || d[k] === "identity")) { ws.forEach((k) => delete d[k]); state.weights = "identity"; }
  else state.weights = "custom";
  state.extra = Object.keys(d).length ? JSON.stringify(d) : "";
  drawGrid(); drawControls(); schedule();
}

function payload() {
  let input = {};
  if (state.extra.trim()) {
    try { input = JSON.parse(state.extra); } catch (e) { return {error: "JSON: " + e.message}; }
    if (typeof input !== "object" || Array.isArray(input) || input === null) return {error: "JSON: expected an object"};
  }
  if (state.X) input.X = state.X;
  input.n_heads = state.n_heads;
  if (state.n_kv_heads !== state.n_heads) input.n_kv_heads = state.n_kv_heads;
  if (state.rope !== "off") input.rope = {style: state.rope};
  if (state.alibi) input.alibi = true;
  if (state.window !== "") input.window = parseInt(state.window, 10);
  if (state.causal !== "none") input.causal = state.causal;
  if (state.key_length !== "") input.key_lengths = [parseInt(state.key_length, 10)];
  if (state.no_wo) input.W_O = "none";
  const body = {input, weights: state.weights, lang: state.lang, backward: state.backward};
  if (state.exact && exactAllowed()) body.exact = true;
  if (state.devices !== "") body.devices = parseInt(state.devices, 10);
  if (state.weights === "random") {                 // a seed or a width with other weights is refused
    body.seed = state.seed;
    if (state.d_k !== "") body.d_k = body.d_v = parseInt(state.d_k, 10);
  }
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
    if (!r.ok) { err.textContent = data.error; err.hidden = false; document.body.dataset.failed = String(mine); return; }
    err.hidden = true;
    $("out").innerHTML = data.html;
    document.body.dataset.rendered = String(mine);
  } catch (e) { err.textContent = String(e); err.hidden = false; }
}

function edited(key, value) { state[key] = value; state.example = ""; drawIdea(); $("example").value = ""; schedule(); }

$("add-token").addEventListener("click", () => { state.X.push(state.X[0].map(() => 0)); drawGrid(); schedule(); });
$("remove-token").addEventListener("click", () => { if (state.X.length > 1) { state.X.pop(); drawGrid(); schedule(); } });
$("d-model").addEventListener("change", () => {
  const d = Math.max(1, Math.min(64, parseInt($("d-model").value, 10) || 1));
  state.X = state.X.map((row) => Array.from({length: d}, (_, j) => (j < row.length ? row[j] : 0)));
  drawGrid(); schedule();
});
$("n-heads").addEventListener("change", () => { state.n_heads = parseInt($("n-heads").value, 10); drawHeads(); schedule(); });
$("n-kv-heads").addEventListener("change", () => { state.n_kv_heads = parseInt($("n-kv-heads").value, 10); schedule(); });
document.querySelectorAll("input[name=weights]").forEach((r) => r.addEventListener("change", () => {
  state.weights = r.value; drawControls(); drawHeads(); schedule();
}));
$("seed").addEventListener("input", () => { state.seed = Math.max(0, parseInt($("seed").value, 10) || 0); schedule(); });
$("d-k").addEventListener("input", () => {
  const v = parseInt($("d-k").value, 10);
  state.d_k = Number.isInteger(v) && v >= 1 ? String(Math.min(v, 64)) : ""; drawHeads(); schedule();
});
$("no-wo").addEventListener("change", () => edited("no_wo", $("no-wo").checked));
$("exact").addEventListener("change", () => { state.exact = $("exact").checked; schedule(); });
$("rope").addEventListener("change", () => edited("rope", $("rope").value));
$("alibi").addEventListener("change", () => edited("alibi", $("alibi").checked));
$("window").addEventListener("input", () => {
  const v = parseInt($("window").value, 10); edited("window", Number.isInteger(v) ? String(v) : "");
});
$("causal").addEventListener("change", () => edited("causal", $("causal").value));
$("key-length").addEventListener("input", () => edited("key_length", $("key-length").value));
$("devices").addEventListener("input", () => {
  const v = parseInt($("devices").value, 10); edited("devices", Number.isInteger(v) ? String(v) : "");
});
$("extra").addEventListener("input", () => edited("extra", $("extra").value));
$("backward").addEventListener("change", () => { state.backward = $("backward").checked; schedule(); });
$("example").addEventListener("change", () => loadExample($("example").value));
$("lang").addEventListener("change", () => { state.lang = $("lang").value; translate(); schedule(); });

async function start() {
  try {
    examples = await (await fetch("/api/examples")).json();
  } catch (e) { examples = []; }
  const sel = $("example");
  examples.forEach((e) => { const o = document.createElement("option"); o.value = e.name; o.textContent = e.name; sel.appendChild(o); });
  drawGrid(); drawControls(); translate(); update();
}
start();
