// cuprobe report: draws every chart of the page as SVG from the one JSON blob
// (<script id="cuprobe-data">). No library, no network: the page must open on an
// air-gapped host. At the end it writes a self-check (sections, charts, errors)
// into #cuprobe-selfcheck for the browser tests.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var D = JSON.parse(document.getElementById("cuprobe-data").textContent);
  var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7",
                 "#9c755f", "#bab0ac", "#17becf", "#8c564b", "#bcbd22", "#7f7f7f", "#aec7e8", "#c5b0d5"];
  var IDLE = "#e4e7ec";
  var charts = 0;

  function el(tag, attrs, parent, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function sv(tag, attrs, parent, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function svg(parent, w, h, cls) {
    charts++;
    return sv("svg", {"class": "chart " + (cls || ""), viewBox: "0 0 " + w + " " + h, width: w, height: h}, parent);
  }
  // As the CLI writes a duration (common/units.cpp format_duration_ms), so a figure reads the same in both.
  function ms(v) {
    if (v === null || v === undefined || !isFinite(v)) return "-";
    var a = Math.abs(v);
    if (a >= 10000) return (v / 1000).toFixed(2) + " s";
    if (a >= 100) return v.toFixed(0) + " ms";
    if (a >= 10) return v.toFixed(1) + " ms";
    if (a >= 0.1) return v.toFixed(2) + " ms";
    return (v * 1000).toFixed(1) + " us";
  }
  function pct(v) {  // as common/units.cpp format_percent
    if (v === null || v === undefined || !isFinite(v)) return "-";
    var p = v * 100;
    return (p >= 9.95 || p === 0 ? p.toFixed(0) : p.toFixed(1)) + "%";
  }
  function catColor(i) { return PALETTE[i % PALETTE.length]; }
  function niceMax(v) {
    if (!(v > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(v))), m = v / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function yAxis(g, x0, x1, y0, y1, max, fmt) {
    for (var i = 0; i <= 4; i++) {
      var y = y1 - (y1 - y0) * i / 4;
      sv("line", {x1: x0, x2: x1, y1: y, y2: y, "class": "grid"}, g);
      sv("text", {x: x0 - 4, y: y + 3, "text-anchor": "end"}, g, i === 0 ? "0" : fmt(max * i / 4));
    }
    sv("line", {x1: x0, x2: x0, y1: y0, y2: y1, "class": "axis"}, g);
    sv("line", {x1: x0, x2: x1, y1: y1, y2: y1, "class": "axis"}, g);
  }
  function legend(parent, items) {
    var l = el("div", {"class": "legend"}, parent);
    items.forEach(function (it) {
      var s = el("span", {}, l);
      el("i", {style: "background:" + it[1]}, s);
      s.appendChild(document.createTextNode(it[0]));
    });
  }
  function section(id, title) {
    var s = el("section", {id: "sec-" + id, "data-section": id}, document.getElementById("main"));
    el("h2", {}, s, title);
    var a = el("a", {href: "#sec-" + id}, document.getElementById("toc"), title);
    a.dataset.section = id;
    return s;
  }
  function note(parent, text, cls) { return el("p", {"class": "note " + (cls || "")}, parent, text); }

  // ---- sortable, searchable table ----
  function cellText(c) { return c !== null && typeof c === "object" ? c.text + " " + c.title : String(c); }
  function table(parent, columns, rows, placeholder) {
    var input = el("input", {"class": "search", type: "search", placeholder: placeholder || "search"}, parent);
    var wrap = el("div", {"class": "tablewrap"}, parent);
    var t = el("table", {"class": "data"}, wrap);
    var head = el("tr", {}, el("thead", {}, t));
    var body = el("tbody", {}, t);
    var sortCol = -1, sortDir = 1;
    function render() {
      var q = input.value.toLowerCase();
      var shown = rows.filter(function (r) {
        return !q || r.some(function (c) { return cellText(c).toLowerCase().indexOf(q) >= 0; });
      });
      if (sortCol >= 0) {
        shown.sort(function (a, b) {
          var x = a[sortCol], y = b[sortCol];
          return (typeof x === "number" && typeof y === "number" ? x - y : cellText(x).localeCompare(cellText(y))) * sortDir;
        });
      }
      body.textContent = "";
      shown.forEach(function (r) {
        var tr = el("tr", {}, body);
        r.forEach(function (c, i) {
          var col = columns[i];
          if (c !== null && typeof c === "object") {  // {text, title}: a short name, the full one on hover
            el("td", {"class": col.name ? "name" : "", title: c.title}, tr, c.text);
            return;
          }
          el("td", {"class": col.num ? "num" : col.name ? "name" : ""}, tr, col.fmt ? col.fmt(c) : String(c));
        });
      });
    }
    columns.forEach(function (c, i) {
      var th = el("th", {"class": c.num ? "num" : ""}, head, c.title);
      th.addEventListener("click", function () {
        sortDir = sortCol === i ? -sortDir : (c.num ? -1 : 1);
        sortCol = i;
        Array.prototype.forEach.call(head.children, function (h) { h.className = h === th ? "" : (columns[Array.prototype.indexOf.call(head.children, h)].num ? "num" : ""); });
        th.className = (c.num ? "num " : "") + (sortDir > 0 ? "sorted-asc" : "sorted-desc");
        render();
      });
    });
    input.addEventListener("input", render);
    render();
    return t;
  }

  // ---- header ----
  function header() {
    var h = D.header;
    var top = document.getElementById("top");
    el("h1", {}, top, "cuprobe report");
    var dl = el("dl", {}, top);
    function row(k, v) { el("dt", {}, dl, k); el("dd", {}, dl, v); }
    row("inputs", h.inputs.join(", "));
    row("GPU", h.gpus.length ? h.gpus.join(", ") : "not recorded in the input");
    row("cuprobe", h.version);
    row("made", h.generated_utc);
    if (D.baseline) row("baseline", D.baseline.a_files.join(", "));
    (h.notes || []).forEach(function (n) { note(top, n, "warn"); });
  }

  // ---- headline: the figures analyze (and bench) print, as text made by cuprobe itself ----
  function tiles(parent, figures) {
    var row = el("div", {"class": "tiles"}, parent);
    figures.forEach(function (f) {
      var t = el("div", {"class": "tile", "data-key": f.key}, row);
      el("div", {"class": "label"}, t, f.label);
      el("div", {"class": "value"}, t, f.value);
      if (f.note) el("div", {"class": "fnote"}, t, f.note);
    });
  }
  function headline() {
    var H = D.headline || {}, rk = H.ranks || [];
    if (!rk.length && !H.bench) return;
    var s = section("headline", "At a glance");
    if (rk.length === 1) tiles(s, rk[0].figures);
    if (rk.length > 1) {
      var t = el("table", {"class": "data headline-ranks"}, el("div", {"class": "tablewrap"}, s));
      var hr = el("tr", {}, el("thead", {}, t));
      el("th", {}, hr, "rank");
      rk[0].figures.forEach(function (f) { el("th", {"class": "num"}, hr, f.label); });
      var body = el("tbody", {}, t);
      rk.forEach(function (r) {
        var tr = el("tr", {"data-rank": r.rank === null ? "" : r.rank}, body);
        el("td", {}, tr, r.label);
        r.figures.forEach(function (f) { el("td", {"class": "num", title: f.note, "data-key": f.key}, tr, f.value); });
      });
      note(s, "Hover a figure for what it is of. Step time on the GPU clock (a step's first GPU work to the next step's); medians over steps.");
    }
    var tf = H.top_finding;
    if (tf) {
      var d = el("div", {"class": "topfinding " + tf.severity}, s);
      el("span", {"class": "sev"}, d, tf.severity);
      el("span", {"class": "label"}, d, "top finding ");
      el("b", {"class": "line"}, d, tf.line);
      el("div", {}, d, tf.title);
      if (tf.description) el("div", {"class": "fnote"}, d, "what if: " + tf.description);
    } else if (rk.length) {
      note(s, H.findings_without_saving ? "No finding's what-if saves any of the step (the findings are listed below)."
                                        : "No finding crossed a threshold.");
    }
    if (H.bench) {
      if (rk.length) el("h3", {}, s, "Bench");
      tiles(s, H.bench);
    }
  }

  // ---- findings ----
  function findings() {
    if (!D.ranks.length) return;
    var s = section("findings", "Findings, ranked by the step time they explain");
    if (!D.findings.length) note(s, "No finding crossed a threshold (docs/findings.md lists them).");
    D.findings.forEach(function (f, i) {
      var d = el("div", {"class": "finding " + f.severity, "data-id": f.id}, s);
      var t = el("div", {"class": "title"}, d);
      el("span", {"class": "sev"}, t, f.severity);
      t.appendChild(document.createTextNode((i + 1) + ". " + f.id + (f.rank !== null && f.rank !== undefined && D.ranks.length > 1 ? " (rank " + f.rank + ")" : "") + ": " + f.title));
      if (f.kernels_shown && f.kernels_shown.length) {
        var k = el("div", {"class": "kernels"}, d, "kernels: ");
        f.kernels_shown.forEach(function (kn, j) {
          if (j) k.appendChild(document.createTextNode(", "));
          el("code", {title: kn.name}, k, kn.short);
        });
      }
      if (f.sources_shown) el("div", {"class": "sources"}, d, "from: " + f.sources_shown);
      if (f.evidence && f.evidence.length) el("div", {"class": "evidence"}, d, "evidence: " + f.evidence.join("; "));
      var w = el("div", {"class": "whatif"}, d);
      el("b", {}, w, "what if: ");
      if (f.what_if_projection) el("span", {"class": "projection"}, w, f.what_if_projection + (f.what_if.step_ms_after !== null ? ": " : " "));
      w.appendChild(document.createTextNode(f.what_if.description));
      el("div", {"class": "suggestion"}, d, "\u2192 " + f.suggestion);
    });
    (D.warnings || []).forEach(function (w) { note(s, "warning: " + w, "warn"); });
  }

  // ---- per-step stacked bars ----
  // The scale of a bar chart: its tallest bar, or, where a few bars (a warm-up step) stand far above the rest,
  // 3x the 90th percentile of the bars, the taller bars cut at the top and labelled with their real height.
  function barScale(totals) {
    var sorted = totals.slice().sort(function (a, b) { return a - b; });
    var max = sorted.length ? sorted[sorted.length - 1] : 0;
    // The lower nearest rank, so that among a few bars the tallest one is not its own percentile.
    var p90 = sorted.length > 1 ? sorted[Math.floor((sorted.length - 1) * 0.9)] : 0;
    var bound = 3 * p90;
    if (p90 > 0 && max > bound) return {max: niceMax(bound), clipped: true};
    return {max: niceMax(max), clipped: false};
  }
  function stepBars(parent, rank, idx, title, kindName) {
    var cats = D.categories, st = rank.steps;
    var n = idx.length;
    var W = 1180, H = 240, L = 60, R = 10, T = 26, B = 28;
    // The median and the outliers are analyze's (per step kind), not recomputed here.
    var kind = (st.kinds || {})[kindName] || {};
    var med = kind.median_ms !== undefined ? kind.median_ms : st.median_ms;
    var outliers = idx.filter(function (i) { return st.outlier[i]; });
    var per = Math.max(1, Math.ceil(n / 600));  // steps per bar
    var bars = Math.ceil(n / per);
    var heights = [], totals = [];
    for (var b = 0; b < bars; b++) {
      var sum = new Array(cats.length + 1).fill(0), cnt = 0;
      for (var j = b * per; j < Math.min(n, (b + 1) * per); j++, cnt++) {
        var i = idx[j], tot = 0;
        for (var c = 0; c < cats.length; c++) { var v = st.cat[c] ? st.cat[c][i] : 0; sum[c] += v; tot += v; }
        sum[cats.length] += Math.max(0, st.step_ms[i] - tot);
      }
      heights.push(sum.map(function (v) { return v / cnt; }));
      totals.push(heights[b].reduce(function (a, x) { return a + x; }, 0));
    }
    var scale = barScale(totals), maxV = scale.max;
    var cut = totals.map(function (t, b) { return t > maxV ? b : -1; }).filter(function (b) { return b >= 0; });
    el("h3", {}, parent, title + ": " + n + " steps, median " + ms(med) + (outliers.length ? ", " + outliers.length + " outlier(s) marked \u25BC" : ""));
    if (per > 1) note(parent, n + " steps drawn as " + bars + " bars, each the mean of " + per + " consecutive steps (outliers still marked one by one).");
    if (cut.length) {
      note(parent, "Scale cut at " + ms(maxV) + " (3\u00d7 the 90th percentile of the bars) so that one long step does not flatten the others: " +
           cut.length + " bar(s) above it are drawn cut (zigzag) and labelled with their real time.", "warn clip-note");
    }
    var g = svg(parent, W, H, "steps");
    g.dataset.chart = "steps";
    g.dataset.clipped = cut.length;
    yAxis(g, L, W - R, T, H - B, maxV, ms);
    var bw = (W - L - R) / bars;
    heights.forEach(function (hs, b) {
      var y = H - B, top = T;
      hs.forEach(function (v, c) {
        if (!(v > 0) || y <= top) return;
        var h = Math.min(v / maxV * (H - B - T), y - top);
        var r = sv("rect", {x: L + b * bw, y: y - h, width: Math.max(0.5, bw - (bw > 3 ? 1 : 0)), height: h, fill: c < cats.length ? catColor(c) : IDLE}, g);
        sv("title", {}, r, "step " + idx[b * per] + (per > 1 ? "-" + idx[Math.min(n, (b + 1) * per) - 1] : "") + ": " + (c < cats.length ? cats[c] : "GPU idle") + " " + ms(v) + " (bar " + ms(totals[b]) + ")");
        y -= h;
      });
    });
    cut.forEach(function (b) {
      var x = L + b * bw, w = Math.max(0.5, bw - (bw > 3 ? 1 : 0)), zig = "M" + x + "," + (T + 4);
      for (var k = 1; k <= 4; k++) zig += "L" + (x + w * k / 4) + "," + (T + (k % 2 ? 0 : 4));
      var m = sv("path", {d: zig + "V" + (T - 1) + "H" + x + "Z", "class": "cut"}, g);
      sv("title", {}, m, "cut: " + ms(totals[b]) + ", above the scale");
      sv("text", {x: Math.min(W - R - 2, Math.max(L + 2, x + w / 2)), y: T - 4, "text-anchor": "middle", "class": "cut-label"}, g, "\u2191 " + ms(totals[b]));
    });
    outliers.forEach(function (i) {
      var b = Math.floor(idx.indexOf(i) / per), x = L + (b + 0.5) * bw;
      if (cut.indexOf(b) >= 0) return;  // its label says more
      var m = sv("path", {d: "M" + (x - 4) + "," + (T - 12) + "h8l-4,7z", "class": "outlier"}, g);
      sv("title", {}, m, "outlier: step " + i + " took " + ms(st.step_ms[i]) + " (median " + ms(med) + ")");
    });
    sv("text", {x: L, y: H - 8}, g, "step " + (idx[0] !== undefined ? idx[0] : 0));
    sv("text", {x: W - R, y: H - 8, "text-anchor": "end"}, g, "step " + idx[n - 1]);
  }
  function steps() {
    var any = D.ranks.some(function (r) { return r.steps.count > 0; });
    if (!any) return;
    var s = section("steps", "Where each step's time goes");
    note(s, "Stacked: GPU time of each category in the step; grey: the rest of the step's time, when the GPU did nothing of it. \u25BC: steps far slower than the median (median + 5 MAD, and at least +25%).");
    var used = D.categories.map(function (c, i) { return [c, catColor(i)]; }).filter(function (c, i) {
      return D.ranks.some(function (r) { return r.steps.cat[i]; });
    });
    legend(s, used.concat([["GPU idle", IDLE]]));
    D.ranks.forEach(function (r) {
      if (!r.steps.count) return;
      var kinds = {};
      r.steps.kind.forEach(function (k, i) { (kinds[k] = kinds[k] || []).push(i); });
      var names = Object.keys(kinds).sort();
      var label = D.ranks.length > 1 ? "rank " + r.rank : "steps";
      if (names.length > 1) {
        names.forEach(function (k) { stepBars(s, r, kinds[k], label + ", " + r.steps.kind_names[k], r.steps.kind_names[k]); });
      } else {
        var only = names.length ? r.steps.kind_names[names[0]] : "";
        stepBars(s, r, r.steps.kind.map(function (k, i) { return i; }), label + (names.length ? " (" + only + ")" : ""), only);
      }
    });
  }

  // ---- tables ----
  function tables() {
    if (!D.ranks.length) return;
    var s = section("tables", "Categories and kernels");
    D.ranks.forEach(function (r) {
      if (D.ranks.length > 1) el("h3", {}, s, "rank " + r.rank + ": " + r.file);
      var perStep = r.steps.count > 0;
      var catCols = [{title: "category"}, {title: "time", num: 1, fmt: ms}, {title: "share", num: 1, fmt: pct}, {title: "calls", num: 1}];
      if (perStep) catCols.push({title: "per step", num: 1, fmt: ms});
      table(s, catCols, r.categories.map(function (c) {
        var row = [c.category, c.time_ms, c.summed_share, c.calls];
        if (perStep) row.push(c.per_step_ms);
        return row;
      }), "search categories");
      if (r.summed_ms > r.gpu_busy_ms * 1.001) {
        note(s, "share: of the summed time of all GPU activities, " + ms(r.summed_ms) + " (GPU busy " + ms(r.gpu_busy_ms) +
             ": " + ms(r.summed_ms - r.gpu_busy_ms) + " of activity ran beside other activity).");
      }
      var o = r.overlap || {}, parts = [];
      if (o.comm_ms > 0) parts.push("communication " + ms(o.comm_ms) + ", " + pct(o.comm_overlapped_share) + " of it beside compute" +
                                    (perStep && o.steps_with_comm ? " (median per step " + pct(o.comm_overlapped_share_step_median) + ")" : ""));
      if (o.copy_ms > 0) parts.push("copies " + ms(o.copy_ms) + ", " + pct(o.copy_overlapped_share) + " of it beside compute" +
                                    (perStep && o.steps_with_copy ? " (median per step " + pct(o.copy_overlapped_share_step_median) + ")" : ""));
      if (parts.length) note(s, "overlap: " + parts.join("; "));
      var kCols = [{title: "kernel", name: 1}, {title: "category"}, {title: "calls", num: 1}, {title: "total", num: 1, fmt: ms},
                   {title: "mean", num: 1, fmt: function (v) { return ms(v / 1000); }},
                   {title: "median", num: 1, fmt: function (v) { return ms(v / 1000); }},
                   {title: "max", num: 1, fmt: function (v) { return ms(v / 1000); }}, {title: "share", num: 1, fmt: pct}, {title: "TC"}, {title: "precision"}];
      table(s, kCols, r.kernels.map(function (k) {
        return [{text: k.display_name || k.name, title: k.name}, k.category, k.calls, k.time_ms, k.mean_us, k.median_us, k.max_us, k.summed_share, k.tensor_core === null ? "?" : k.tensor_core ? "yes" : "no", k.precision || "-"];
      }), "search kernels");
      if (r.kernels_left_out) note(s, r.kernels_left_out + " more kernels (the smallest) left out of the page; `cuprobe analyze --csv DIR` has them all.");
      peerTables(s, r);
    });
  }
  // analyze's peers' tables (docs/analyze-tables.md), as its text prints them.
  function peerTables(s, r) {
    var us = function (v) { return ms(v / 1000); };
    var w = r.hta_window || {};
    var idle = r.idle_by_stream, ls = r.launch_stats, q = r.queue_length || [], ho = r.hta_overlap || {};
    var tables = "idle time, launch delays, queue length and HTA's communication overlap";
    if ((idle && idle.total && idle.total.gaps) || (ls && ls.all && ls.all.launches) || q.length || ho.communication_kernels) {
      note(s, w.last_step_left_out
        ? tables + ": HTA's default window, without the last step (" + w.last_step + ", from " +
          ms(w.cut_at_ms) + "; " + w.activities_left_out + " activities, " + ms(w.gpu_ms_left_out) + " of GPU time left out); `--hta-window all` keeps it"
        : w.window === "all" ? tables + ": the whole trace (--hta-window all)"
                             : tables + ": the whole trace (under two ProfilerSteps HTA keeps it all too)");
    }
    if (ho.communication_kernels) {
      note(s, "communication beside computation (as HTA: NCCL kernels by name, the rank's GPUs together): comp/comm overlap " +
           (+ho.comp_comm_overlap_pctg).toFixed(2) + "% of communication " + ms(ho.communication_ms) + "; computation only " +
           ms(ho.computation_only_ms) + ", communication only " + ms(ho.communication_only_ms) + ", both " + ms(ho.overlap_ms));
    }
    if (idle && idle.total && idle.total.gaps) {
      el("h3", {}, s, "Idle time by cause (as HTA; kernel wait: gaps under " + idle.kernel_wait_threshold_us + " us)");
      var rows = idle.streams.filter(function (x) { return x.gaps; }).map(function (x) {
        return [x.device, x.stream, x.gaps, x.host_wait_ms, x.kernel_wait_ms, x.other_ms, x.idle_ms];
      });
      var t = idle.total;
      rows.push(["all", "", t.gaps, t.host_wait_ms, t.kernel_wait_ms, t.other_ms, t.idle_ms]);
      table(s, [{title: "GPU"}, {title: "stream"}, {title: "gaps", num: 1}, {title: "host wait", num: 1, fmt: ms},
                {title: "kernel wait", num: 1, fmt: ms}, {title: "other", num: 1, fmt: ms}, {title: "idle", num: 1, fmt: ms}], rows, "search streams");
    }
    if (ls && ls.all && ls.all.launches) {
      el("h3", {}, s, "Launch delays (GPU start − end of the launch call; outliers: calls over " + ls.cpu_cutoff_us + " us / delays over " + ls.delay_cutoff_us + " us, as HTA)");
      var lrow = function (x, name) {
        return [name, x.launches, x.cpu_median_us, x.cpu_p90_us, x.delay_median_us, x.delay_p90_us, x.delay_max_us, x.cpu_outliers + " / " + x.delay_outliers];
      };
      var lrows = [lrow(ls.all, "(all launches)")];
      ls.kernels.forEach(function (k) { lrows.push(lrow(k, {text: k.display_name || k.name, title: k.name})); });
      table(s, [{title: "launched", name: 1}, {title: "launches", num: 1}, {title: "call median", num: 1, fmt: us}, {title: "call p90", num: 1, fmt: us},
                {title: "delay median", num: 1, fmt: us}, {title: "delay p90", num: 1, fmt: us}, {title: "delay max", num: 1, fmt: us}, {title: "outliers"}], lrows, "search launches");
    }
    if (q.length) {
      el("h3", {}, s, "Queue length (launches not yet started; mean per event: HTA's; time-weighted: by how long each value held)");
      table(s, [{title: "GPU"}, {title: "stream"}, {title: "launches", num: 1}, {title: "mean per event", num: 1, fmt: function (v) { return (+v).toFixed(2); }},
                {title: "time-weighted mean", num: 1, fmt: function (v) { return (+v).toFixed(2); }}, {title: "max queued", num: 1}],
            q.map(function (x) { return [x.device, x.stream, x.launches, x.mean_per_event, x.mean_time_weighted, x.max]; }), "search streams");
    }
    var an = r.annotations || [];
    if (an.length) {
      el("h3", {}, s, "Annotations (GPU time of the activities launched inside each range)");
      table(s, [{title: "annotation", name: 1}, {title: "ranges", num: 1}, {title: "GPU time", num: 1, fmt: ms}, {title: "share", num: 1, fmt: pct},
                {title: "GPU span", num: 1, fmt: ms}],
            an.map(function (x) { return [x.name, x.ranges, x.gpu_ms, x.share, x.gpu_span_ms]; }), "search annotations");
    }
    var api = r.api_summary || [];
    if (api.length) {
      el("h3", {}, s, "Runtime API (CPU time in calls)");
      table(s, [{title: "API call", name: 1}, {title: "calls", num: 1}, {title: "total", num: 1, fmt: ms}, {title: "mean", num: 1, fmt: us},
                {title: "median", num: 1, fmt: us}, {title: "max", num: 1, fmt: us}],
            api.map(function (x) { return [x.name, x.calls, x.total_ms, x.mean_us, x.median_us, x.max_us]; }), "search calls");
    }
    var cp = r.copies || [];
    if (cp.length) {
      el("h3", {}, s, "Copies by kind");
      table(s, [{title: "copies"}, {title: "count", num: 1}, {title: "bytes", num: 1}, {title: "time", num: 1, fmt: ms}, {title: "GB/s", num: 1}],
            cp.map(function (x) { return [x.kind, x.count, x.sized ? x.bytes : "-", x.time_ms, x.sized ? (+x.gbps).toFixed(1) : "-"]; }), "search copies");
    }
  }

  // ---- timeline ----
  function timeline(parent, tl, title) {
    el("h3", {}, parent, title);
    if (tl.left_out) note(parent, tl.left_out + " events of this step left out (the page keeps the longest " + (tl.gpu.length + tl.cpu.length) + ").");
    var streams = [], depth = 0;
    tl.gpu.forEach(function (e) { if (streams.indexOf(e[0]) < 0) streams.push(e[0]); });
    streams.sort(function (a, b) { return a - b; });
    tl.cpu.forEach(function (e) { depth = Math.max(depth, e[0] + 1); });
    depth = Math.min(depth, 8);
    var LH = 16, L = 110, R = 10, T = 18;
    var W = 1180, H = T + (depth + streams.length) * LH + 24;
    var g = svg(parent, W, H, "timeline");
    g.dataset.chart = "timeline";
    var lanes = sv("g", {}, g), body = sv("g", {}, g);
    for (var d = 0; d < depth; d++) sv("text", {x: 4, y: T + d * LH + 12}, lanes, d === 0 ? "CPU ops" : "");
    streams.forEach(function (st, i) { sv("text", {x: 4, y: T + (depth + i) * LH + 12}, lanes, "stream " + st); });
    sv("line", {x1: L, x2: W - R, y1: T + depth * LH - 1, y2: T + depth * LH - 1, "class": "axis"}, lanes);
    var t0 = 0, t1 = Math.max(tl.end_ms - tl.start_ms, 1e-6), full = [t0, t1];
    function draw() {
      body.textContent = "";
      var scale = (W - L - R) / (t1 - t0);
      function x(t) { return L + (t - t0) * scale; }
      for (var i = 0; i <= 5; i++) {
        var tt = t0 + (t1 - t0) * i / 5;
        sv("text", {x: x(tt), y: 12, "text-anchor": i === 0 ? "start" : i === 5 ? "end" : "middle"}, body, ms(tt));
      }
      function rect(e, y, color, label) {
        var a = e[1], b = e[1] + e[2];
        if (b < t0 || a > t1) return;
        var xa = Math.max(L, x(a)), xb = Math.min(W - R, x(b));
        var r = sv("rect", {x: xa, y: y, width: Math.max(0.6, xb - xa), height: LH - 3, fill: color}, body);
        sv("title", {}, r, label + " (" + ms(e[2]) + ")");
      }
      tl.cpu.forEach(function (e) { if (e[0] < depth) rect(e, T + e[0] * LH, "#a7b4c9", tl.names[e[3]]); });
      tl.gpu.forEach(function (e) { rect(e, T + (depth + streams.indexOf(e[0])) * LH, catColor(e[3]), tl.names[e[4]] + " [" + D.categories[e[3]] + "]"); });
    }
    function tAt(evt) {
      var box = g.getBoundingClientRect(), px = (evt.clientX - box.left) * W / box.width;
      return t0 + (px - L) / (W - L - R) * (t1 - t0);
    }
    g.addEventListener("wheel", function (evt) {
      evt.preventDefault();
      var at = tAt(evt), f = evt.deltaY < 0 ? 0.8 : 1.25;
      t0 = at - (at - t0) * f; t1 = at + (t1 - at) * f;
      if (t1 - t0 > full[1] - full[0]) { t0 = full[0]; t1 = full[1]; }
      draw();
    }, {passive: false});
    var drag = null;
    g.addEventListener("mousedown", function (evt) { drag = {x: tAt(evt), t0: t0, t1: t1}; });
    window.addEventListener("mouseup", function () { drag = null; });
    g.addEventListener("mousemove", function (evt) {
      if (!drag) return;
      var dt = tAt(evt) - drag.x;
      t0 -= dt; t1 -= dt;
      draw();
    });
    g.addEventListener("dblclick", function () { t0 = full[0]; t1 = full[1]; draw(); });
    draw();
  }
  function timelines() {
    var any = D.ranks.some(function (r) { return r.timelines.length; });
    if (!any) return;
    var s = section("timeline", "Timeline of a typical and of the slowest step");
    note(s, "Kernels coloured by category, one lane per stream, CPU operators and annotations above. Wheel: zoom; drag: pan; double-click: whole step.");
    legend(s, D.categories.map(function (c, i) { return [c, catColor(i)]; }).filter(function (c, i) {
      return D.ranks.some(function (r) { return r.timelines.some(function (t) { return t.gpu.some(function (e) { return e[3] === i; }); }); });
    }));
    D.ranks.forEach(function (r) {
      r.timelines.forEach(function (t) { timeline(s, t, (D.ranks.length > 1 ? "rank " + r.rank + ", " : "") + t.label); });
    });
  }

  // ---- grouped bars (ranks side by side) ----
  function groupedBars(parent, groups, series, fmt) {
    var W = 1180, H = 240, L = 60, R = 10, T = 14, B = 30;
    var maxV = 0;
    groups.forEach(function (gr) { gr.values.forEach(function (v) { maxV = Math.max(maxV, v); }); });
    maxV = niceMax(maxV);
    var g = svg(parent, W, H, "ranks");
    g.dataset.chart = "ranks";
    yAxis(g, L, W - R, T, H - B, maxV, fmt);
    var gw = (W - L - R) / groups.length, bw = Math.min(60, gw * 0.8 / series.length);
    groups.forEach(function (gr, i) {
      var x0 = L + i * gw + (gw - bw * series.length) / 2;
      gr.values.forEach(function (v, j) {
        var h = v / maxV * (H - B - T);
        var r = sv("rect", {x: x0 + j * bw, y: H - B - h, width: bw - 2, height: h, fill: series[j][1]}, g);
        sv("title", {}, r, gr.label + ": " + series[j][0] + " " + fmt(v));
      });
      sv("text", {x: L + (i + 0.5) * gw, y: H - 10, "text-anchor": "middle"}, g, gr.label);
    });
    legend(parent, series);
  }
  function ranks() {
    if (D.ranks.length < 2) return;
    var s = section("ranks", "Ranks side by side");
    var perStep = D.ranks.every(function (r) { return r.steps.count > 0; });
    note(s, perStep ? "GPU busy and communication per step (median over steps)." : "Whole traces (some rank has no steps).");
    groupedBars(s, D.ranks.map(function (r) {
      return {label: "rank " + r.rank, values: perStep ? [r.busy_per_step_ms, r.comm_per_step_ms] : [r.gpu_busy_ms, r.comm_ms]};
    }), [["GPU busy", "#4e79a7"], ["communication", "#f28e2b"]], ms);
    // A wait is often one long call (a late peer at warm-up): shown as the trace's total, not per step,
    // where a mean would dwarf the medians above.
    note(s, "Collective wait over the whole trace: time a rank spent in collectives beyond its fastest peer (finding collective_wait).");
    groupedBars(s, D.ranks.map(function (r) { return {label: "rank " + r.rank, values: [r.wait_ms]}; }),
                [["collective wait, total", "#e15759"]], ms);
    crossRank(s, D.cross_rank);
  }
  // The cross-rank table of analyze (docs/analyze-ranks.md): clocks, per rank, the straggler, per collective call.
  function crossRank(s, c) {
    if (!c) return;
    function us(v) { return (v >= 0 ? "+" : "") + ms(v); }
    function rankName(r) { return r === null || r === undefined ? "-" : "rank " + r; }
    el("h3", {}, s, "Who holds the others back");
    var byComm = c.matching === "communicator";
    var matchedBy = byComm ? "matched by communicator (the n-th call of a kernel on a process group, among its ranks)"
                           : "matched by kernel name and communication stream order (the traces name no communicator)";
    var unaligned = c.ranks.filter(function (r) { return !r.clock_aligned; }).map(function (r) { return rankName(r.rank); });
    note(s, c.aligned ? "Clocks aligned on the ends of " + c.matched_calls + " collective calls, " + matchedBy + "; offsets are each rank's clock minus " +
                        rankName(c.reference_rank) + "'s." + (unaligned.length ? " Not aligned (no matched call links them): " + unaligned.join(", ") + "." : "")
                      : "No collective call matched across ranks (" + matchedBy + "): the clocks are not aligned.");
    var shortName = {};  // a kernel's display name, as the kernel tables show it
    D.ranks.forEach(function (r) { r.kernels.forEach(function (k) { if (k.display_name) shortName[k.name] = k.display_name; }); });
    var st = c.straggler;
    var p = el("p", {"class": "straggler"}, s);
    if (st) {
      var what = [];
      if (st.extra_kernels.length) what.push("its kernels " + st.extra_kernels.slice(0, 3).map(function (k) { return (shortName[k.name] || k.name.split("(")[0]) + " +" + ms(k.extra_ms_per_step); }).join(", "));
      if (st.extra_idle_ms_per_step > 0) what.push("GPU idle (host gaps) +" + ms(st.extra_idle_ms_per_step));
      if (st.extra_copy_ms_per_step > 0) what.push("copies +" + ms(st.extra_copy_ms_per_step));
      var held = st.last_arrivals === st.late_calls ? "" : " (" + st.late_calls + " of them holding others up)";
      p.textContent = "Straggler: " + rankName(st.rank) + ", last at " + st.last_arrivals + " calls" + held + ", typically " + ms(st.late_median_ms) +
                      " after the median rank; costs every rank " + ms(st.cost_ms_per_step) + " per step (step " + ms(st.step_ms_now) + " \u2192 " +
                      ms(st.step_ms_after) + " were it on time)." + (what.length ? " Per step, beyond the median rank: " + what.join("; ") + "." : "");
    } else {
      p.textContent = "No straggler: no rank arrives last at its collectives step after step.";
    }
    table(s, [{title: "rank"}, {title: "step", num: 1, fmt: ms}, {title: "steps", num: 1}, {title: "busy", num: 1, fmt: pct},
              {title: "comm", num: 1, fmt: pct}, {title: "wait", num: 1, fmt: pct}, {title: "clock offset", num: 1, fmt: us},
              {title: "residual", num: 1, fmt: function (v) { return ms(v / 1000); }}, {title: "last at", num: 1},
              {title: "late (sum)", num: 1, fmt: ms}, {title: "file", name: 1}],
          c.ranks.map(function (r) {
            return [rankName(r.rank), r.step_ms, r.steps, r.busy_share, r.communication_share, r.wait_share, r.clock_offset_ms,
                    r.clock_residual_us, r.last_arrivals, r.late_ms, r.file];
          }), "search ranks");
    note(s, "busy: of the window; comm and wait: of GPU time; wait: in collectives until the last rank arrived; last at: calls it arrived last at; late: how much after the median rank.");
    if (!c.calls.length) return;
    note(s, "Collective calls by the wait they caused" + (c.calls_total > c.calls.length ? " (the " + c.calls.length + " longest of " + c.calls_total +
            "; `cuprobe analyze --csv DIR` has them all)" : "") + ".");
    table(s, [{title: "collective", name: 1}, byComm ? {title: "communicator"} : {title: "stream", num: 1}, {title: "ranks", num: 1},
              {title: "call", num: 1}, {title: "last rank"},
              {title: "late by", num: 1, fmt: ms}, {title: "saving", num: 1, fmt: ms}, {title: "others waited", num: 1, fmt: ms},
              {title: "longest wait", num: 1, fmt: ms}],
          c.calls.map(function (k) {
            return [{text: k.name.split("(")[0], title: k.name}, byComm ? k.communicator : k.stream_order, k.ranks, k.call, rankName(k.last_rank), k.late_ms, k.saving_ms,
                    k.others_wait_ms, k.max_wait_ms];
          }), "search collectives");
  }

  // ---- line charts over time (counters, samples, throughput) ----
  function lineChart(parent, title, xs, ys, opts) {
    el("h3", {}, parent, title);
    var W = 1180, H = 170, L = 60, R = 10, T = 10, B = 24;
    var g = svg(parent, W, H, opts.cls || "series");
    g.dataset.chart = opts.cls || "series";
    var x0 = opts.x0 !== undefined ? opts.x0 : Math.min.apply(null, xs), x1 = opts.x1 !== undefined ? opts.x1 : Math.max.apply(null, xs);
    if (!(x1 > x0)) x1 = x0 + 1;
    var maxY = niceMax(Math.max.apply(null, ys.filter(isFinite).concat([0])));
    function X(v) { return L + (v - x0) / (x1 - x0) * (W - L - R); }
    (opts.bands || []).forEach(function (b, i) {
      var r = sv("rect", {x: X(b[0]), y: T, width: Math.max(0.5, X(b[1]) - X(b[0])), height: H - B - T, fill: b[2] || (i % 2 ? "#eef3fb" : "#f7f9fc")}, g);
      if (b[3]) sv("title", {}, r, b[3]);
    });
    yAxis(g, L, W - R, T, H - B, maxY, opts.fmt || function (v) { return +v.toPrecision(3); });
    var d = "";
    for (var i = 0; i < xs.length; i++) {
      if (!isFinite(ys[i])) continue;
      d += (d ? "L" : "M") + X(xs[i]).toFixed(1) + "," + (H - B - ys[i] / maxY * (H - B - T)).toFixed(1);
    }
    sv("path", {d: d, fill: "none", stroke: opts.color || "#4e79a7", "stroke-width": 1.4}, g);
    sv("text", {x: L, y: H - 6}, g, opts.xfmt(x0));
    sv("text", {x: W - R, y: H - 6, "text-anchor": "end"}, g, opts.xfmt(x1));
  }
  function counters() {
    var with_counters = D.ranks.filter(function (r) { return r.counters && r.counters.metrics.length; });
    if (!with_counters.length) return;
    var s = section("counters", "Counters over time, aligned with the steps");
    note(s, "Device-wide samples; shaded bands: the steps (alternating).");
    with_counters.forEach(function (r) {
      var c = r.counters;
      if (c.downsampled) note(s, c.downsampled);
      c.metrics.forEach(function (m, i) {
        lineChart(s, (D.ranks.length > 1 ? "rank " + r.rank + ": " : "") + m, c.t_ms, c.values[i], {
          cls: "counters", bands: r.step_bands, x0: 0, x1: r.window_ms, xfmt: ms});
      });
    });
  }
  function samples() {
    if (!D.samples) return;
    var s = section("samples", "Sampled counters (" + D.samples.file + ")");
    if (D.samples.downsampled) note(s, D.samples.downsampled);
    D.samples.series.forEach(function (se) {
      lineChart(s, "GPU " + se.gpu + ": " + se.metric, se.t_s, se.values, {cls: "samples", xfmt: function (v) { return v.toFixed(1) + " s"; }});
    });
  }

  // ---- bench ----
  function histogram(parent, title, values) {
    el("h3", {}, parent, title);
    var W = 580, H = 170, L = 50, R = 10, T = 10, B = 24;
    var g = svg(parent, W, H, "bench");
    g.dataset.chart = "bench";
    if (!values.length) { sv("text", {x: W / 2, y: H / 2, "text-anchor": "middle"}, g, "no values"); return; }
    var s = values.slice().sort(function (a, b) { return a - b; });
    var lo = s[0], hi = s[Math.min(s.length - 1, Math.floor(s.length * 0.995))];
    if (!(hi > lo)) hi = lo + 1;
    var bins = 40, counts = new Array(bins).fill(0);
    s.forEach(function (v) { counts[Math.min(bins - 1, Math.max(0, Math.floor((v - lo) / (hi - lo) * bins)))]++; });
    var maxC = niceMax(Math.max.apply(null, counts));
    yAxis(g, L, W - R, T, H - B, maxC, function (v) { return Math.round(v); });
    var bw = (W - L - R) / bins;
    counts.forEach(function (c, i) {
      var h = c / maxC * (H - B - T);
      var r = sv("rect", {x: L + i * bw, y: H - B - h, width: bw - 1, height: h, fill: "#59a14f"}, g);
      sv("title", {}, r, ms(lo + (hi - lo) * i / bins) + " .. " + ms(lo + (hi - lo) * (i + 1) / bins) + ": " + c);
    });
    var p50 = s[Math.floor((s.length - 1) * 0.5)], p99 = s[Math.floor((s.length - 1) * 0.99)];
    [[p50, "p50"], [p99, "p99"]].forEach(function (p, k) {
      var x = L + Math.min(1, (p[0] - lo) / (hi - lo)) * (W - L - R);
      sv("line", {x1: x, x2: x, y1: T, y2: H - B, stroke: "#c62828", "stroke-dasharray": "3,2"}, g);
      // Right of its line, or left of it near the right edge; p99 a line below p50: never cut by the chart's edge.
      var right = x + 90 < W - R;
      sv("text", {x: right ? x + 2 : x - 2, y: T + 9 + k * 12, "text-anchor": right ? "start" : "end", "class": "plabel"}, g,
         p[1] + " " + ms(p[0]));
    });
    sv("text", {x: L, y: H - 6}, g, ms(lo));
    sv("text", {x: W - R, y: H - 6, "text-anchor": "end"}, g, ms(hi));
  }
  function requestTimeline(parent, q) {
    var spans = q.spans || [];
    if (!spans.length) return;
    el("h3", {}, parent, "Requests over time: " + spans.length + " requests, one line each (grey: waiting for the first token; green: streaming)");
    if (q.spans_sampled) note(parent, q.spans_sampled);
    var W = 1180, H = Math.min(420, Math.max(140, spans.length * 2 + 40)), L = 60, R = 10, T = 10, B = 24;
    var g = svg(parent, W, H, "requests");
    g.dataset.chart = "requests";
    var x1 = 0;
    spans.forEach(function (sp) { x1 = Math.max(x1, sp[2]); });
    x1 = x1 > 0 ? x1 : 1;
    function X(v) { return L + v / x1 * (W - L - R); }
    if (q.steady) {
      var band = sv("rect", {x: X(q.steady[0]), y: T, width: Math.max(0.5, X(q.steady[1]) - X(q.steady[0])), height: H - B - T, fill: "#e3f1e1"}, g);
      sv("title", {}, band, "steady window");
    }
    var rowH = (H - B - T) / spans.length, thick = Math.max(0.6, Math.min(6, rowH * 0.8));
    spans.forEach(function (sp, i) {
      var y = T + (i + 0.5) * rowH;
      sv("line", {x1: X(sp[0]), x2: Math.max(X(sp[0]) + 0.5, X(sp[1])), y1: y, y2: y, stroke: "#b8c0cc", "stroke-width": thick}, g);
      if (sp[2] > sp[1]) sv("line", {x1: X(sp[1]), x2: X(sp[2]), y1: y, y2: y, stroke: "#2f7d32", "stroke-width": thick}, g);
    });
    sv("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, "class": "axis"}, g);
    for (var k = 0; k <= 5; k++) sv("text", {x: X(x1 * k / 5), y: H - 6, "text-anchor": k === 0 ? "start" : k === 5 ? "end" : "middle"}, g, (x1 * k / 5).toFixed(1) + " s");
    sv("text", {x: L - 4, y: T + 8, "text-anchor": "end"}, g, "first");
    sv("text", {x: L - 4, y: H - B, "text-anchor": "end"}, g, "last");
  }
  // Goodput as bench prints it: requests that met every SLO, of those judged, and per second.
  function goodput(s, b) {
    var g = b.goodput;
    if (!g) return;
    var slo = Object.keys(g.slo || {}).map(function (k) { return k + " ≤ " + g.slo[k] + " ms"; }).join(", ");
    el("h3", {}, s, "Goodput");
    note(s, g.good + " of " + g.total + " requests met " + (slo || "the SLO") + ": " + (+g.per_s).toFixed(2) + " good requests/s (whole run)" +
         (b.summary.steady && b.summary.steady.goodput ? "; steady window " + (+b.summary.steady.goodput.per_s).toFixed(2) + "/s" : ""));
  }
  // The server's /metrics between the steady window's start and end (bench --server-metrics).
  function serverMetrics(s, m) {
    if (!m) return;
    el("h3", {}, s, "Server metrics");
    if (!m.valid) { note(s, "server metrics: " + (m.note || "not read")); return; }
    note(s, "/metrics scraped at the steady window's start and end, " + (+m.interval_s).toFixed(2) + " s apart" + (m.note ? "; " + m.note : ""));
    var rows = [];
    (m.gauges || []).forEach(function (x) { rows.push(["gauge", x.name + (x.labels || ""), x.end, x.mean, ""]); });
    (m.counters || []).forEach(function (x) { rows.push(["counter", x.name + (x.labels || ""), x.delta, x.per_s, x.reset ? "reset" : ""]); });
    (m.histograms || []).forEach(function (x) { rows.push(["histogram", x.name + (x.labels || ""), x.count, x.mean === null ? "-" : x.mean, ""]); });
    Object.keys(m.derived || {}).forEach(function (k) { rows.push(["derived", k, m.derived[k], "", ""]); });
    function num(v) { return typeof v === "number" ? (Math.abs(v) < 10 && v !== Math.floor(v) ? v.toPrecision(4) : (+v.toFixed(2)).toString()) : v; }
    table(s, [{title: "kind"}, {title: "series", name: 1}, {title: "end / delta / count", num: 1, fmt: num},
              {title: "mean / per s", num: 1, fmt: num}, {title: "note"}], rows, "search server metrics");
  }
  function bench() {
    if (!D.bench) return;
    var b = D.bench, s = section("bench", "Bench: latency and throughput");
    var sum = b.summary;
    note(s, b.file + ": " + (sum.requests ? sum.requests.completed + " requests completed, " + sum.requests.failed + " failed" : ""));
    var cols = [{title: "metric"}, {title: "window"}, {title: "mean", num: 1, fmt: ms}, {title: "p50", num: 1, fmt: ms}, {title: "p90", num: 1, fmt: ms}, {title: "p99", num: 1, fmt: ms}, {title: "max", num: 1, fmt: ms}];
    var rows = [];
    ["ttft_ms", "itl_ms", "tpot_ms", "e2e_ms"].forEach(function (m) {
      ["all", "steady"].forEach(function (w) {
        var d = sum[w] && sum[w][m];
        if (d && d.count) rows.push([m.replace("_ms", "").toUpperCase(), w, d.mean, d.p50, d.p90, d.p99, d.max]);
      });
    });
    table(s, cols, rows, "search metrics");
    goodput(s, b);
    serverMetrics(s, b.server_metrics);
    if (!b.requests) {
      note(s, "Distributions and throughput over time need the per-request lines: `cuprobe bench --save-requests FILE`, then `cuprobe report --requests FILE`.");
      return;
    }
    var q = b.requests, row = el("div", {"class": "row"}, s);
    [["TTFT", q.ttft_ms], ["ITL", q.itl_ms], ["TPOT", q.tpot_ms], ["E2E", q.e2e_ms]].forEach(function (h) {
      histogram(el("div", {}, row), h[0] + " (" + h[1].length + " values)", h[1]);
    });
    if (q.itl_sampled) note(s, q.itl_sampled);
    var bands = q.steady ? [[q.steady[0], q.steady[1], "#e3f1e1", "steady window"]] : [];
    lineChart(s, "output tokens per second over time (" + q.bin_s + " s bins; green: the steady window)", q.t_s, q.tokens_per_s,
              {cls: "bench", bands: bands, x0: 0, xfmt: function (v) { return v.toFixed(1) + " s"; }, color: "#2f7d32"});
    requestTimeline(s, q);
  }

  // ---- baseline waterfall ----
  function baseline() {
    if (!D.baseline) return;
    var b = D.baseline, s = section("baseline", "Against the baseline: what moved");
    note(s, "A (baseline): " + b.a_files.join(", ") + "  \u2192  B: " + b.b_files.join(", ") + ". GPU time " +
         (b.basis === "step" ? "per step (median)" : "per trace") + ": " + ms(b.a_ms) + " \u2192 " + ms(b.b_ms) + ".");
    if (b.rank_note) note(s, b.rank_note, "warn");
    var steps = [["A", b.a_ms, "total"]];
    var cats = b.changes.filter(function (c) { return c.kind === "category" && Math.abs(c.b_ms - c.a_ms) > 0; });
    cats.slice(0, 12).forEach(function (c) { steps.push([c.name, c.b_ms - c.a_ms, "delta"]); });
    var rest = cats.slice(12).reduce(function (a, c) { return a + c.b_ms - c.a_ms; }, 0);
    if (cats.length > 12) steps.push(["other categories", rest, "delta"]);
    var catSum = cats.reduce(function (a, c) { return a + c.b_ms - c.a_ms; }, 0);
    var overlap = (b.b_ms - b.a_ms) - catSum;
    if (Math.abs(overlap) > 1e-9) steps.push(["GPU busy vs sum of categories", overlap, "delta"]);
    steps.push(["B", b.b_ms, "total"]);
    var W = 1180, H = 280, L = 60, R = 10, T = 14, B = 60;
    var g = svg(s, W, H, "waterfall");
    g.dataset.chart = "waterfall";
    var run = 0, maxV = 0;
    steps.forEach(function (st) { run = st[2] === "total" ? st[1] : run + st[1]; maxV = Math.max(maxV, run, st[1]); });
    maxV = niceMax(maxV);
    yAxis(g, L, W - R, T, H - B, maxV, ms);
    var bw = (W - L - R) / steps.length;
    function Y(v) { return H - B - v / maxV * (H - B - T); }
    run = 0;
    steps.forEach(function (st, i) {
      var from, to, color;
      if (st[2] === "total") { from = 0; to = st[1]; run = st[1]; color = "#4e79a7"; }
      else { from = run; to = run + st[1]; run = to; color = st[1] > 0 ? "#e15759" : "#59a14f"; }
      var y = Y(Math.max(from, to)), h = Math.max(0.8, Math.abs(Y(from) - Y(to)));
      var r = sv("rect", {x: L + i * bw + bw * 0.15, y: y, width: bw * 0.7, height: h, fill: color}, g);
      sv("title", {}, r, st[0] + ": " + (st[2] === "delta" && st[1] > 0 ? "+" : "") + ms(st[1]));
      var t = sv("text", {x: L + (i + 0.5) * bw, y: H - B + 12, "text-anchor": "end", transform: "rotate(-30 " + (L + (i + 0.5) * bw) + " " + (H - B + 12) + ")"}, g, st[0]);
      t.setAttribute("font-size", "10");
    });
    legend(s, [["total", "#4e79a7"], ["slower in B", "#e15759"], ["faster in B", "#59a14f"]]);
    table(s, [{title: "kind"}, {title: "name", name: 1}, {title: "A", num: 1, fmt: ms}, {title: "B", num: 1, fmt: ms}, {title: "change", num: 1, fmt: function (v) { return (v > 0 ? "+" : "") + ms(v); }}],
          b.changes.map(function (c) { return [c.kind, c.name, c.a_ms, c.b_ms, c.b_ms - c.a_ms]; }), "search changes");
    var ho = b.hta_overlap || [];
    if (ho.length) {  // as `cuprobe diff` prints it (docs/cli.md)
      el("h3", {}, s, "Communication beside computation (as HTA: NCCL kernels by name, the rank's GPUs together; totals over each side's HTA window, not per step; '-': no NCCL kernels)");
      var side = function (x, f) { return x ? f(x.hta_overlap) : "-"; };
      var comm = function (o) { return o.communication_ms; }, pctg = function (o) { return (+o.comp_comm_overlap_pctg).toFixed(2) + "%"; };
      table(s, [{title: "rank"}, {title: "communication A", num: 1, fmt: function (v) { return v === "-" ? v : ms(v); }},
                {title: "communication B", num: 1, fmt: function (v) { return v === "-" ? v : ms(v); }},
                {title: "comp/comm overlap A", num: 1}, {title: "comp/comm overlap B", num: 1}],
            ho.map(function (r) { return [r.rank, side(r.a, comm), side(r.b, comm), side(r.a, pctg), side(r.b, pctg)]; }), "search ranks");
      var words = function (x) {
        if (!x) return null;
        var w = x.hta_window;
        return w.last_step_left_out ? "without its last step (" + w.last_step + ", " + w.activities_left_out + " activities)"
             : w.window === "all" ? "the whole trace (--hta-window all)" : "the whole trace (fewer than two ProfilerSteps: HTA keeps it all too)";
      };
      var wa = ho.map(function (r) { return words(r.a); }).filter(Boolean), wb = ho.map(function (r) { return words(r.b); }).filter(Boolean);
      note(s, "HTA's window, A: " + (wa[0] || "-") + "; B: " + (wb[0] || "-") + (wa[0] !== wb[0] ? " (the windows differ: the totals cover different parts of the runs)" : ""));
    }
    var f = b.findings;
    [["findings gone in B", f.disappeared], ["findings new in B", f.appeared]].forEach(function (x) {
      if (!x[1].length) return;
      el("h3", {}, s, x[0]);
      var ul = el("ul", {}, s);
      x[1].forEach(function (fi) { el("li", {}, ul, "[" + fi.severity + "] " + fi.id + ": " + fi.title); });
    });
  }

  function selfcheck() {
    var out = {sections: [], charts: {}, svg_count: document.querySelectorAll("svg.chart").length, drawn: charts,
               errors: window.__cuprobeErrors || [], render_ms: Math.round(performance.now()), bytes_of_data: document.getElementById("cuprobe-data").textContent.length};
    document.querySelectorAll("section[data-section]").forEach(function (s) { out.sections.push(s.dataset.section); });
    document.querySelectorAll("svg.chart").forEach(function (g) { var k = g.dataset.chart || "?"; out.charts[k] = (out.charts[k] || 0) + 1; });
    // What the reader sees first, as text: the headline's figures, the top finding, the cards and the cut bars.
    out.headline = [];
    document.querySelectorAll("#sec-headline [data-key]").forEach(function (t) {
      var v = t.querySelector(".value");
      out.headline.push({key: t.dataset.key, value: v ? v.textContent : t.textContent});
    });
    var top = document.querySelector("#sec-headline .topfinding .line");
    out.top_finding = top ? top.textContent : null;
    out.cards = [];
    document.querySelectorAll("#sec-findings .finding").forEach(function (c) {
      var ev = c.querySelector(".evidence"), w = c.querySelector(".whatif");
      out.cards.push({id: c.dataset.id,
                      kernels: Array.prototype.map.call(c.querySelectorAll(".kernels code"), function (k) { return [k.textContent, k.title]; }),
                      evidence: ev ? ev.textContent : "", what_if: w ? w.textContent : ""});
    });
    out.clipped = [];
    document.querySelectorAll("svg.chart.steps").forEach(function (g) {
      out.clipped.push({bars: +g.dataset.clipped, labels: Array.prototype.map.call(g.querySelectorAll(".cut-label"), function (t) { return t.textContent; })});
    });
    // Nothing clipped: every chart's text inside its viewBox, every tile's value inside its tile.
    out.overflow = [];
    document.querySelectorAll("svg.chart").forEach(function (g) {
      if (g.classList.contains("timeline")) return;  // panned and zoomed: cut at its edges on purpose
      var vb = g.viewBox.baseVal;
      g.querySelectorAll("text").forEach(function (t) {
        if (t.closest("[transform]") && t.closest("[transform]") !== t) return;  // scrolled timeline lanes
        var b = t.getBBox();
        if (b.width === 0 && b.height === 0) return;
        if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
          out.overflow.push((g.dataset.chart || "?") + ": " + t.textContent);
      });
    });
    document.querySelectorAll(".tile").forEach(function (t) {
      if (t.scrollWidth > t.clientWidth + 1) out.overflow.push("tile: " + t.textContent);
    });
    var sg = document.querySelector("#sec-ranks .straggler");
    out.straggler = sg ? sg.textContent : null;
    out.cross_rank_rows = Array.prototype.map.call(document.querySelectorAll("#sec-ranks table.data"), function (t) { return t.tBodies[0].rows.length; });
    var calls = document.querySelectorAll("#sec-ranks table.data")[1];
    out.cross_rank_calls_header = calls ? Array.prototype.map.call(calls.tHead.rows[0].cells, function (h) { return h.textContent; }) : null;
    out.cross_rank_calls_first = calls && calls.tBodies[0].rows.length ? calls.tBodies[0].rows[0].cells[1].textContent : null;
    out.peer_tables = Array.prototype.map.call(document.querySelectorAll("#sec-tables h3"), function (h) { return h.textContent.split(" (")[0]; });
    out.baseline_parts = Array.prototype.map.call(document.querySelectorAll("#sec-baseline h3"), function (h) { return h.textContent.split(" (")[0]; });
    out.bench_parts = Array.prototype.map.call(document.querySelectorAll("#sec-bench h3"), function (h) { return h.textContent.split(" (")[0]; });
    document.getElementById("cuprobe-selfcheck").textContent = JSON.stringify(out);
  }

  // ?only=SECTION shows one section alone (used for the screenshots in docs/images/).
  function only() {
    var m = /[?&]only=([a-z]+)/.exec(location.search);
    if (!m) return;
    document.body.classList.add("only");
    document.getElementById("toc").style.display = "none";
    if (m[1] !== "header") document.getElementById("top").style.display = "none";
    document.querySelectorAll("section[data-section]").forEach(function (s) { if (s.dataset.section !== m[1]) s.style.display = "none"; });
  }

  var parts = [header, headline, ranks, findings, steps, timelines, tables, counters, bench, samples, baseline];
  parts.forEach(function (f) {
    try { f(); } catch (e) { (window.__cuprobeErrors = window.__cuprobeErrors || []).push(f.name + ": " + e.message); console.error(e); }
  });
  only();
  selfcheck();
})();
