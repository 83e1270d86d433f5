// The live view: one EventSource on /events; each event carries what is new since the last.
"use strict";
(function () {
  const S = {
    events: 0, points: [], kinds: {}, lastKinds: {}, faults: {}, nodes: {}, cpu: {},
    collections: {}, leaders: {}, progress: {}, report: false, gone: false, seenDown: {}, steps: {}, probes: {}, targets: {},
  };
  window.solrscale = S; // for whoever inspects the page (the tests do)
  const $ = (id) => document.getElementById(id);
  const charts = {};
  const fmtTime = (ms) => ms ? new Date(ms).toLocaleTimeString() : "–";

  // every fault's window, shaded across a chart: injected to healed dark, healed to recovered light
  function faultPlugin() {
    return {
      hooks: {
        drawClear: [(u) => {
          const ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
          ctx.save();
          for (const list of Object.values(S.faults)) {
            for (const f of list) {
              const now = Date.now();
              const a = u.valToPos(f.start_ms / 1000, "x", true);
              const heal = f.heal_ms || (f.end_ms || now);
              const b = u.valToPos(heal / 1000, "x", true);
              ctx.fillStyle = "rgba(220,60,60,0.18)";
              ctx.fillRect(a, top, Math.max(2, b - a), h);
              if (f.end_ms || f.heal_ms) {
                const c = u.valToPos((f.end_ms || now) / 1000, "x", true);
                ctx.fillStyle = "rgba(230,160,60,0.15)";
                ctx.fillRect(b, top, Math.max(0, c - b), h);
              }
            }
          }
          ctx.restore();
        }],
      },
    };
  }

  function chart(id, series, opts) {
    const el = $(id);
    const width = Math.max(400, el.clientWidth || 560);
    const o = Object.assign({
      width, height: 220, plugins: [faultPlugin()],
      scales: { x: { time: true } },
      series: [{}].concat(series),
      axes: [{}, { size: 60 }],
    }, opts || {});
    const data = [[]].concat(series.map(() => []));
    charts[id] = new uPlot(o, data, el);
    return charts[id];
  }

  function init() {
    chart("c-rate", [
      { label: "done/s", stroke: "#2a6" },
      { label: "sent/s (offered)", stroke: "#36c", dash: [4, 4] },
      { label: "errors/s", stroke: "#c33" },
      { label: "docs indexed/s", stroke: "#a50" },
    ]);
    chart("c-latency", [
      { label: "p50", stroke: "#2a6" },
      { label: "p99", stroke: "#e90" },
      { label: "p99.9", stroke: "#c33" },
    ], { scales: { x: { time: true }, y: { distr: 3 } }, axes: [{}, { size: 72 }] });
    chart("c-driver", [
      { label: "lag p99 ms", stroke: "#93c", scale: "y" },
      { label: "CPU cores", stroke: "#555", scale: "cores" },
    ], { scales: { x: { time: true } },
         axes: [{}, { scale: "y", size: 60 }, { scale: "cores", side: 1, size: 50 }] });
  }

  // the seconds as columns, with a gap (nulls) where a step ended and the next began
  function columns(pick, n) {
    const cols = [[]];
    for (let i = 0; i < n; i++) cols.push([]);
    let last = null;
    for (const p of S.points) {
      const t = p[0] / 1000;
      if (last !== null && t - last > 2.5) {
        cols[0].push((t + last) / 2);
        for (let i = 1; i <= n; i++) cols[i].push(null);
      }
      cols[0].push(t);
      const v = pick(p);
      for (let i = 1; i <= n; i++) cols[i].push(v[i - 1]);
      last = t;
    }
    return cols;
  }

  function redraw() {
    charts["c-rate"].setData(columns((p) => [p[1], p[3], p[2], p[10] || null], 4));
    charts["c-latency"].setData(columns((p) => [pos(p[4]), pos(p[5]), pos(p[6])], 3));
    charts["c-driver"].setData(columns((p) => [p[7], p[8]], 2));
    nodesChart();
  }
  const pos = (v) => (v > 0 ? v : null); // a log scale has no zero

  let nodeNames = "";
  function nodesChart() {
    const names = Object.keys(S.cpu).sort();
    if (!names.length) return;
    if (names.join() !== nodeNames) {
      if (charts["c-nodes"]) charts["c-nodes"].destroy();
      nodeNames = names.join();
      const colors = ["#36c", "#e90", "#2a6", "#c33", "#93c", "#555", "#0aa", "#a50"];
      chart("c-nodes", names.map((n, i) => ({ label: n, stroke: colors[i % colors.length] })));
    }
    const tables = names.map((n) => [S.cpu[n].t, S.cpu[n].v]);
    charts["c-nodes"].setData(tables.length === 1 ? [tables[0][0], tables[0][1]] : uPlot.join(tables));
  }

  function onSample(t, node, metric, value) {
    if (metric.startsWith("leader:")) { // leader:COLLECTION/SHARD, the node that leads it
      const [c, shard] = metric.slice(7).split("/");
      (S.leaders[c] || (S.leaders[c] = {}))[shard] = value > 0 ? node : null;
      return;
    }
    if (metric === "cpu") {
      const c = S.cpu[node] || (S.cpu[node] = { t: [], v: [] });
      c.t.push(t / 1000); c.v.push(value);
      return;
    }
    if (["shards", "leaders", "active", "recovering", "down", "live_nodes"].includes(metric) &&
        (node === "cluster" || !S.nodes[node])) {
      (S.collections[node] || (S.collections[node] = {}))[metric] = value;
      return;
    }
    const n = S.nodes[node] || (S.nodes[node] = { up: null, since: t });
    let up = null;
    if (metric === "scrape_errors") {
      up = false;
      const c = S.cpu[node];
      if (c) { c.t.push(t / 1000); c.v.push(null); } // no line across the time it was down
    }
    else if (metric === "heap_used") { up = true; n.heap = value / 1048576; }
    else if (metric === "serving") up = value > 0;
    if (up !== null) {
      if (n.up !== up) n.since = t;
      n.up = up;
      if (!up) S.seenDown[node] = true;
    }
  }

  function tables() {
    const rows = Object.keys(S.nodes).sort().map((k) => {
      const n = S.nodes[k];
      const cpu = S.cpu[k] ? S.cpu[k].v[S.cpu[k].v.length - 1] : null;
      return `<tr class="${n.up === false ? "down" : ""}" data-node="${esc(k)}"><td>${esc(k)}</td>` +
        `<td>${n.up === null ? "?" : n.up ? "up" : "down"}</td>` +
        `<td>${n.heap ? n.heap.toFixed(0) : ""}</td><td>${cpu === null ? "" : cpu.toFixed(2)}</td>` +
        `<td>${fmtTime(n.since)}</td></tr>`;
    });
    $("nodes").tBodies[0].innerHTML = rows.join("");
    $("collections").innerHTML = Object.keys(S.collections).sort().map((c) => {
      const m = S.collections[c];
      return c === "cluster" ? `<div>live Solr nodes: ${m.live_nodes}</div>` :
        `<div>${esc(c)}: shards with a leader ${m.leaders}/${m.shards}, replicas active ${m.active},` +
        ` recovering ${m.recovering}, down ${m.down}` + leadersOf(c) + `</div>`;
    }).join("");
    const fs = [];
    for (const list of Object.values(S.faults)) for (const f of list) fs.push(f);
    fs.sort((a, b) => a.start_ms - b.start_ms);
    $("faults").tBodies[0].innerHTML = fs.map((f) =>
      `<tr class="${f.heal_ms || f.end_ms ? "" : "active"}"><td>${esc(f.fault)} (${esc(f.name)})</td>` +
      `<td>${esc(f.nodes)}</td><td>${fmtTime(f.start_ms)}</td><td>${fmtTime(f.heal_ms)}</td>` +
      `<td>${fmtTime(f.end_ms)}</td></tr>`).join("");
    $("steps").tBodies[0].innerHTML = Object.keys(S.steps)
      .filter((k) => S.steps[k].measured + S.steps[k].warmup + S.steps[k].indexed > 0).map((k) => {
      const s = S.steps[k], l = s.latency || {};
      const n = s.measured + s.warmup > 0 ? s.measured : `${s.indexed} docs indexed`;
      return `<tr><td>${esc(k)}</td><td>${n}</td><td>${num(l.p50)}</td>` +
        `<td>${num(l.p99)}</td><td>${num(l["p99.9"])}</td></tr>`;
    }).join("");
    const targets = [];
    for (const list of Object.values(S.targets)) for (const t of list) targets.push(t);
    $("targets-box").hidden = targets.length === 0;
    $("targets").tBodies[0].innerHTML = targets.map((t) =>
      `<tr><td>${esc(t.shard)}</td><td>${esc(t.node)}</td><td>${esc(t.from)}</td>` +
      `<td>${num(t.bytes / 1e6)}</td><td>${num(t.total / 1e6)}</td><td>${num(t.mb_per_s)}</td>` +
      `<td>${esc(t.state)}</td></tr>`).join("");
    const probes = [];
    for (const list of Object.values(S.probes)) for (const p of list) probes.push(p);
    $("probes-box").hidden = probes.length === 0;
    $("probes").tBodies[0].innerHTML = probes.map((p) =>
      `<tr class="${p.meets ? "" : "down"}"><td>${p.probe}</td><td>${num(p.rate)}</td>` +
      `<td>${num(p.achieved)}</td><td>${num(p.p99_ms)}</td>` +
      `<td>${(100 * p.error_rate).toFixed(2)} %</td>` +
      `<td>${p.meets ? "meets" : "misses: " + esc(p.why)}` +
      `${p.decided_early ? " (decided early)" : ""}</td></tr>`).join("");
    $("errors").tBodies[0].innerHTML = Object.keys(S.kinds).sort().map((k) =>
      `<tr><td>${esc(k)}</td><td>${S.kinds[k]}</td><td>${S.lastKinds[k] || 0}</td></tr>`).join("");
  }

  // each shard's leader, "none" in red while it has none
  function leadersOf(c) {
    const l = S.leaders[c];
    if (!l) return "";
    return "<br>leaders: " + Object.keys(l).sort().map((sh) => l[sh] === null
      ? `${esc(sh)} <span class="none">none</span>` : `${esc(sh)} ${esc(l[sh])}`).join(", ");
  }

  function progress() {
    const p = S.progress;
    let text, share = 0;
    const elapsed = p.started_ms ? Math.round((Date.now() - p.started_ms) / 1000) : null;
    if (p.turns) {
      share = Math.max(0, (p.turn - 1) / p.turns);
      if (p.step && p.steps) share += (p.step - 1) / p.steps / p.turns; // the steps done of this repeat
      text = `combination ${p.turn || 0} of ${p.turns}` + (p.label ? ` (${esc(p.label)})` : "") +
        `, repeat ${p.repeat || "–"} of ${p.repeats}` +
        (p.step ? `, step ${p.step} of ${p.steps}: ${esc(p.step_kind)} ${esc(p.step_name)}` : "");
    } else if (p.share != null) {
      share = p.finished ? 1 : Math.min(1, p.share);
      text = `${esc(p.command || "run")}: ${(100 * p.share).toFixed(0)} % of the input read`;
    } else if (p.planned_s) {
      share = p.finished ? 1 : Math.min(1, elapsed / p.planned_s);
      text = `${esc(p.command || "run")}: ${elapsed} s of ${p.planned_s} s planned`;
    } else {
      text = S.points.length ? "running" : "waiting for the run";
    }
    if (p.finished) {
      text = `finished: ${esc(p.outcome || "done")} — ` + text;
      share = 1;
    } else if (elapsed !== null) {
      text += `; elapsed ${fmtDur(elapsed)}` + (p.eta_s ? `, ETA ${fmtDur(Math.round(p.eta_s))}` : "");
    }
    $("progress-text").innerHTML = text;
    $("bar-fill").style.width = (share * 100).toFixed(1) + "%";
    $("report").innerHTML = S.report ? `<a href="report/">the run's report</a>` : "";
  }
  const num = (v) => (v == null ? "" : v < 10 ? v.toFixed(2) : v.toFixed(1));
  const fmtDur = (s) => (s >= 3600 ? Math.floor(s / 3600) + " h " : "") +
    (s >= 60 ? Math.floor((s % 3600) / 60) + " min " : "") + (s % 60) + " s";
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

  function onEvent(e) {
    const d = JSON.parse(e.data);
    S.events++;
    S.progress = d.progress || {};
    S.report = d.report;
    S.gone = d.gone;
    $("root").textContent = d.root;
    let added = false;
    for (const s of d.steps) {
      S.steps[s.id] = { measured: s.measured, warmup: s.warmup, finished: s.finished,
        latency: s.latency_ms, indexed: s.indexed || 0 };
      for (const p of s.points) {
        S.points.push(p);
        added = true;
        S.lastKinds = p[9] || {};
        for (const [k, n] of Object.entries(S.lastKinds)) S.kinds[k] = (S.kinds[k] || 0) + n;
      }
      for (const t of s.samples) onSample(t[0], t[1], t[2], t[3]);
      S.faults[s.id] = s.faults;
      if (s.probes && s.probes.length) S.probes[s.id] = s.probes;
      if (s.targets && s.targets.length) S.targets[s.id] = s.targets;
    }
    if (added) S.points.sort((a, b) => a[0] - b[0]);
    $("status").textContent = d.gone ? "the run directory was deleted: figures so far" :
      `live, updated ${new Date(d.now_ms).toLocaleTimeString()}`;
    $("status").className = d.gone ? "gone" : "";
    redraw();
    tables();
    progress();
  }

  init();
  const es = new EventSource("events");
  es.onmessage = onEvent;
  es.onerror = () => {
    $("status").textContent = S.progress.finished
      ? "the run ended and its server closed: `solrscale watch DIR` serves this view again"
      : "disconnected: retrying (the server may have ended)";
  };
})();
