// SPDX-License-Identifier: GPL-2.0-or-later
// The script of `iwarpscope report`'s page: draws the JSON block
// #iws-data (its fields: cli/out_html.c) as SVG. Plain DOM, no library.
// When it is done it sets body[data-iws-done] and body[data-iws-charts]
// (elements drawn per chart); an error or an empty chart is written into
// #iws-errors and body[data-iws-error] (tests/report/browser_test.py reads
// them).
'use strict';

function iwsError(msg) {
  const el = document.getElementById('iws-errors');
  el.hidden = false;
  el.textContent += msg + '\n';
  document.body.setAttribute('data-iws-error', '1');
}
window.addEventListener('error', (e) => iwsError('JavaScript error: ' + e.message + ' (line ' + e.lineno + ')'));
const consoleError = console.error;
console.error = (...args) => { iwsError('console.error: ' + args.join(' ')); consoleError.apply(console, args); };

(function () {
  const D = JSON.parse(document.getElementById('iws-data').textContent);
  const drawn = {};
  const $ = (id) => document.getElementById(id);
  const NS = 'http://www.w3.org/2000/svg';

  // ---- numbers for people (as the CLI prints them: cli/units.c) ----
  function sig4(v, unit) {
    const s = v >= 999.95 ? v.toFixed(0) : v >= 99.995 ? v.toFixed(1) : v >= 9.9995 ? v.toFixed(2) : v.toFixed(3);
    return s + unit;
  }
  function fmtDur(ns) {
    if (ns === null || ns === undefined) return '–';
    const a = Math.abs(ns), s = ns < 0 ? '-' : '';
    if (a < 1000) return s + Math.round(a) + ' ns';
    if (a < 999950) return s + sig4(a / 1e3, ' µs');
    if (a < 999950000) return s + sig4(a / 1e6, ' ms');
    return s + sig4(a / 1e9, ' s');
  }
  // sizes in binary units unless --units si (D.iec)
  function fmtBytes(b) {
    const k = D.iec ? 1024 : 1000, u = D.iec ? [' KiB', ' MiB', ' GiB'] : [' kB', ' MB', ' GB'];
    if (b < k) return Math.round(b) + ' B';
    if (b < 1000 * k) return sig4(b / k, u[0]);
    if (b < 1000 * k * k) return sig4(b / k / k, u[1]);
    return sig4(b / k / k / k, u[2]);
  }
  function fmtRate(bps) {
    if (bps < 1e3) return Math.round(bps) + ' bit/s';
    if (bps < 1e6) return sig4(bps / 1e3, ' kbit/s');
    if (bps < 1e9) return sig4(bps / 1e6, ' Mbit/s');
    return sig4(bps / 1e9, ' Gbit/s');
  }
  function fmtPerSec(v) {
    if (v < 1e3) return (v < 10 ? v.toFixed(1) : Math.round(v)) + '/s';
    if (v < 1e6) return sig4(v / 1e3, 'k/s');
    return sig4(v / 1e6, 'M/s');
  }
  const fmtInt = (n) => Number(n).toLocaleString('en-US');
  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  }
  // A time relative to the grid's origin as wall-clock time in the
  // capture's time zone (the one iwarpscope ran in: TZ).
  const ORIGIN = BigInt(D.grid.origin_ns);
  function clock(rel, withDate) {
    const ns = ORIGIN + BigInt(Math.round(rel)) + BigInt(D.tz.offset_s) * 1000000000n;
    const d = new Date(Number(ns / 1000000n)).toISOString();
    const frac = (((ns % 1000000000n) + 1000000000n) % 1000000000n).toString().padStart(9, '0');
    return (withDate ? d.slice(0, 10) + ' ' : '') + d.slice(11, 19) + '.' + frac;
  }
  const rel = (t) => '+' + (t / 1e9).toFixed(9) + ' s';

  // ---- colours: Okabe and Ito's colour-blind-safe palette, one hue per
  // meaning (operation families; loss events apart by shape and hue) ----
  const OK = { black: '#000000', orange: '#E69F00', sky: '#56B4E9', green: '#009E73', yellow: '#F0E442',
    blue: '#0072B2', vermillion: '#D55E00', purple: '#CC79A7', grey: '#8a8f99' };
  const OP_COLORS = {
    write: OK.blue, read: OK.green, send: OK.orange, send_inv: OK.orange, send_se: OK.orange,
    send_se_inv: OK.orange, immediate: OK.purple, immediate_se: OK.purple, atomic_fetch_add: OK.sky,
    atomic_cmp_swap: OK.sky, atomic_swap: OK.sky, terminate: OK.black,
  };
  const OP_FAMILY = { write: 'Write', read: 'Read', send: 'Send', send_inv: 'Send', send_se: 'Send',
    send_se_inv: 'Send', immediate: 'Immediate Data', immediate_se: 'Immediate Data',
    atomic_fetch_add: 'Atomic', atomic_cmp_swap: 'Atomic', atomic_swap: 'Atomic', terminate: 'Terminate' };
  const QP_COLORS = [OK.blue, OK.vermillion, OK.green, OK.purple, OK.orange, OK.sky, OK.black, OK.yellow];
  const qpColor = (i, q) => (q.qp === null ? OK.grey : QP_COLORS[i % QP_COLORS.length]);
  const MARKS = {
    fast_retransmit: { color: OK.vermillion, title: 'fast retransmit', shape: 'down' },
    timeout: { color: OK.black, title: 'retransmission after a timeout', shape: 'up' },
    zero_window: { color: OK.blue, title: 'zero window', shape: 'square' },
    gap: { color: OK.black, title: 'gap: octets never captured', shape: 'cross' },
  };
  const TEARDOWN = [null, { name: 'FIN', color: OK.blue }, { name: 'RST', color: OK.vermillion },
    { name: 'Terminate', color: OK.black }];
  const plural = (n, one, many) => fmtInt(n) + ' ' + (n === 1 ? one : (many || one + 's'));

  const C = {};
  D.ops.columns.forEach((c, i) => { C[c] = i; });
  const ops = D.ops.rows;
  const W = D.grid.width_ns;
  const qpLabel = (q) => (q.qp === null ? q.nqps + ' other QPs' : 'QP ' + q.qp);
  const flagsText = (f) => D.flag_names.filter((p) => f & p[0]).map((p) => p[1]).join(', ');
  const dirText = (q, dir) => (q.qp === null ? '' : dir === 0 ? q.initiator + ' → ' + q.responder : q.responder + ' → ' + q.initiator);

  // ---- tooltip ----
  const tip = $('tooltip');
  function showTip(e, text) {
    tip.textContent = text;
    tip.hidden = false;
    const r = tip.getBoundingClientRect();
    let x = e.clientX + 14, y = e.clientY + 14;
    if (x + r.width > window.innerWidth - 4) x = e.clientX - r.width - 14;
    if (y + r.height > window.innerHeight - 4) y = e.clientY - r.height - 14;
    tip.style.left = Math.max(4, x) + 'px';
    tip.style.top = Math.max(4, y) + 'px';
  }
  const hideTip = () => { tip.hidden = true; };

  // ---- axes ----
  function niceStep(span, n) {
    const raw = span / Math.max(1, n), p = Math.pow(10, Math.floor(Math.log10(raw)));
    const m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function timeTicks(t0, t1, px) {
    const step = niceStep(t1 - t0, Math.max(2, Math.floor(px / 110)));
    const out = [];
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) out.push(t);
    return out;
  }
  // Axis labels without trailing zeros ("500 ms", "1.5 s", "50 Mbit/s").
  const trim0 = (s) => s.replace(/\.0+(?=\D)|(\.\d*?)0+(?=\D)/, '$1');
  const axisLabel = (t) => (t === 0 ? '0' : trim0(fmtDur(t)));


  // ---- header, notes, findings ----
  function header() {
    const cap = D.capture;
    $('files').textContent = D.files.join(', ');
    $('facts').textContent = plural(cap.frames, 'frame') + ', ' + fmtBytes(cap.bytes) + ' in ' +
      fmtDur(cap.duration_ns) + ', from ' + clock(0, true) + ' (' + D.tz.name + '); ' +
      plural(cap.tcp_connections, 'TCP connection') + ', ' + plural(cap.qps, 'iWARP QP') + ', ' +
      plural(cap.operations, 'operation') + ' (' + fmtInt(cap.incomplete) + ' incomplete). ' + D.generator + '.';
    const notes = [];
    if (cap.window) {
      // --since/--until: every number and chart of the page is of the window
      notes.push(cap.window.text.charAt(0).toUpperCase() + cap.window.text.slice(1) + ': ' +
        plural(cap.window.frames, 'frame') + ', ' + fmtBytes(cap.window.bytes) +
        '. Every table, chart and rate counts what happened inside it.');
    }
    if (D.ops.drawn < D.ops.total) {
      notes.push('The timeline draws ' + fmtInt(D.ops.drawn) + ' of ' + fmtInt(D.ops.total) +
        ' operations (--limit ' + D.ops.cap + '): the most troubled (of ' + fmtInt(D.ops.troubled) +
        ' with loss, stalls or errors), the slowest, and an even sample of the rest; grey shading ' +
        'behind each QP shows where all of them started.');
    }
    const others = D.qps.find((q) => q.qp === null);
    if (others) {
      notes.push(plural(others.nqps, 'QP') + ' beyond the first ' + (D.qps.length - 1) +
        ' are drawn together as "other QPs" (their own numbers are in the summary).');
    }
    notes.push('Time buckets of ' + fmtDur(W) + ' (' + D.grid.buckets + ' over the capture), from the first frame: ' +
      'tshark -z io,stat,' + (W / 1e9).toFixed(6) + ' has the same.');
    if (D.wire.unplaced_segments) {
      notes.push(plural(D.wire.unplaced_segments, 'segment') + ' (' + fmtBytes(D.wire.unplaced_bytes) +
        ') read before their connection was known to be iWARP could not be held: the throughput lacks them.');
    }
    if (D.summary_cut) notes.push('The summary text below is cut at 1 MB.');
    $('notes').innerHTML = notes.map((n) => '<li>' + esc(n) + '</li>').join('');
  }

  // The findings the summary prints as "!" lines, given as data (never
  // read back from its text), and what TCP did to each QP.
  function findings() {
    const out = [], global = [];
    for (const f of D.findings) {
      const text = f.details.length ? f.text.replace(/:$/, '') + ': ' + f.details.join('; ') : f.text;
      (f.qp === null ? global : out).push({ qp: f.qp, text });
    }
    for (const q of D.qps) {
      if (q.qp === null) continue;
      // Every retransmission, by kind, as the summary and `stats` count them.
      const t = q.tcp, n = t.fast_retransmits + t.timeouts + t.other_retransmits;
      if (n || t.reordered) {
        out.push({ qp: q.qp, text: plural(n, 'TCP retransmission') + ' (' + t.fast_retransmits +
          ' fast, ' + t.timeouts + ' after a timeout, ' + t.other_retransmits + ' other), ' +
          (t.reordered ? plural(t.reordered, 'reordered segment') + ', ' : '') +
          plural(t.duplicate_acks, 'duplicate ACK') +
          (q.stall_ns ? '; operations waited ' + fmtDur(q.stall_ns) + ' in all behind lost octets' : '') });
      }
      if (t.zero_windows) {
        out.push({ qp: q.qp, text: plural(t.zero_windows, 'segment') + ' advertising a zero window (a receiver had no room)' });
      }
      if (q.nvme && q.nvme.errors) {
        out.push({ qp: q.qp, text: plural(q.nvme.errors, 'NVMe command') + ' failed (non-zero status; see NVMe-oF)' });
      }
      if (q.nvme && q.nvme.incomplete) {
        out.push({ qp: q.qp, text: plural(q.nvme.incomplete, 'NVMe command') + ' without a completion' });
      }
    }
    out.sort((a, b) => a.qp - b.qp);
    const el = $('findings-list');
    if (!out.length && !global.length) {
      el.innerHTML = '<p class="ok">Nothing went wrong that iwarpscope can see: no gaps, no ' +
        'incomplete operations, no Terminates, no CRC errors, no retransmissions, no limits reached.</p>';
      return;
    }
    let html = '<ul>';
    for (const g of global) html += '<li>' + esc(g.text) + '</li>';
    for (const f of out) {
      html += '<li><a class="qp" data-qp="' + f.qp + '">QP ' + f.qp + '</a>: ' + esc(f.text) + '</li>';
    }
    el.innerHTML = html + '</ul>';
    el.addEventListener('click', (e) => {
      const a = e.target.closest('a[data-qp]');
      if (a) { $('timeline').scrollIntoView(); flashRow(Number(a.dataset.qp)); }
    });
    drawn.findings = out.length + global.length;
  }

  // ---- the shared time view ----
  const FULL = ops.reduce((m, r) => Math.max(m, r[C.end]), Math.max(D.capture.duration_ns, 1));
  // the span every time chart shows at most: the capture, or the window
  // (--since/--until) the page's numbers are of
  const CW = D.capture.window;
  const LO = CW ? Math.max(0, CW.from) : 0, HI0 = CW ? Math.min(FULL, CW.to) : FULL;
  const HI = HI0 > LO ? HI0 : LO + 1000;
  const view = { t0: LO, t1: HI };
  let highlight = null; // {qp, id}
  let redrawPending = false;
  function setView(t0, t1) {
    const minSpan = 1000;
    if (t1 - t0 < minSpan) { const m = (t0 + t1) / 2; t0 = m - minSpan / 2; t1 = m + minSpan / 2; }
    const span = Math.min(t1 - t0, (HI - LO) * 1.02);
    t0 = Math.max(Math.min(t0, HI - span), LO - (HI - LO) * 0.01);
    view.t0 = t0;
    view.t1 = t0 + span;
    if (!redrawPending) {
      redrawPending = true;
      requestAnimationFrame(() => { redrawPending = false; drawTimeChart(); });
    }
  }
  const timeCharts = [];  // [el, draw]
  function drawTimeChart() {
    drawTimeline();
    for (const [, draw] of timeCharts) draw();
    $('zoom-range').textContent = 'showing ' + axisLabel(Math.max(LO, view.t0)) + ' to ' + axisLabel(view.t1) +
      (CW ? ' of the window ' + axisLabel(LO) + ' to ' + axisLabel(HI) : ' of ' + fmtDur(FULL));
  }

  // Wheel, drag, shift+drag and keys on a chart whose plot spans [left, right] px.
  function zoomable(el, geom) {
    let drag = null;
    const tAt = (e) => {
      const g = geom(), r = el.getBoundingClientRect();
      return view.t0 + (e.clientX - r.left - g.left) / (g.right - g.left) * (view.t1 - view.t0);
    };
    el.addEventListener('wheel', (e) => {
      e.preventDefault();
      const t = tAt(e), k = e.deltaY < 0 ? 0.8 : 1.25;
      setView(t - (t - view.t0) * k, t + (view.t1 - t) * k);
    }, { passive: false });
    el.addEventListener('mousedown', (e) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, t: tAt(e), pan: e.shiftKey, v0: view.t0, v1: view.t1 };
      e.preventDefault();
    });
    window.addEventListener('mousemove', (e) => {
      if (!drag) return;
      const g = geom();
      if (drag.pan) {
        const dt = (e.clientX - drag.x) / (g.right - g.left) * (drag.v1 - drag.v0);
        setView(drag.v0 - dt, drag.v1 - dt);
        return;
      }
      const sel = el.querySelector('.sel');
      if (sel) {
        const r = el.getBoundingClientRect();
        const a = Math.max(g.left, Math.min(drag.x, e.clientX) - r.left);
        const b = Math.min(g.right, Math.max(drag.x, e.clientX) - r.left);
        sel.setAttribute('x', a);
        sel.setAttribute('width', Math.max(0, b - a));
      }
    });
    window.addEventListener('mouseup', (e) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      if (!d.pan && Math.abs(e.clientX - d.x) > 4) {
        const t = tAt(e);
        setView(Math.min(t, d.t), Math.max(t, d.t));
      } else {
        const sel = el.querySelector('.sel');
        if (sel) sel.setAttribute('width', 0);
      }
    });
    el.addEventListener('dblclick', () => setView(LO, HI));
    el.addEventListener('keydown', (e) => {
      const s = view.t1 - view.t0;
      if (e.key === 'ArrowLeft') setView(view.t0 - s * 0.2, view.t1 - s * 0.2);
      else if (e.key === 'ArrowRight') setView(view.t0 + s * 0.2, view.t1 + s * 0.2);
      else if (e.key === '+' || e.key === '=') setView(view.t0 + s * 0.2, view.t1 - s * 0.2);
      else if (e.key === '-') setView(view.t0 - s * 0.25, view.t1 + s * 0.25);
      else return;
      e.preventDefault();
    });
  }

  // A time axis at y (tick labels at labelY) with grid lines h down.
  function axisSvg(x, t0, t1, left, right, y, h, labelY) {
    let s = '<g class="axis"><line x1="' + left + '" x2="' + right + '" y1="' + y + '" y2="' + y + '"/>';
    let g = '<g class="grid">';
    for (const t of timeTicks(t0, t1, right - left)) {
      const px = x(t);
      s += '<line x1="' + px + '" x2="' + px + '" y1="' + (y - 4) + '" y2="' + y + '"/>' +
        '<text x="' + px + '" y="' + labelY + '" text-anchor="middle" class="lbl">' + esc(axisLabel(t)) + '</text>';
      g += '<line x1="' + px + '" x2="' + px + '" y1="' + y + '" y2="' + (y + h) + '"/>';
    }
    return g + '</g>' + s + '</g>';
  }


  // The width of a text in the charts' font (svg text, report.css), as the
  // browser will draw it: labels are placed by it, not by a guess per
  // character.
  const measureCtx = document.createElement('canvas').getContext('2d');
  function textW(str, px) {
    measureCtx.font = px + 'px system-ui, "DejaVu Sans", sans-serif';
    return measureCtx.measureText(str).width;
  }

  // Labels on one line of a chart that must not overlap: each {x, text,
  // color}, placed left to right in up to `rows` rows of font size px; one
  // that would pass `right` ends at x - 6 instead (end: true); a label with
  // no room joins the one it would cover ("FIN ×2", "p90, p99"). Returns
  // [{x, row, text, color, end}].
  function placeLabels(items, rows, px, right) {
    items = items.slice().sort((a, b) => a.x - b.x);
    const ends = new Array(rows).fill(-1e9), out = [];
    const box = (l) => {
      const w = textW(l.text, px) + 4;
      l.end = l.x + w > right;
      l.a = l.end ? l.x - 6 - w : l.x;
      l.b = l.end ? l.x - 6 : l.x + w;
    };
    for (const it of items) {
      const prev = out[out.length - 1];
      if (prev && prev.base === it.text && it.x - prev.x < textW(it.text, px) + 4) {
        // the same event at the same place ("FIN" from both sides): one label
        prev.n = (prev.n || 1) + 1;
        prev.text = prev.base + ' ×' + prev.n;
        box(prev);
        ends[prev.row] = Math.max(ends[prev.row], prev.b);
        continue;
      }
      const l = { x: it.x, text: it.text, base: it.text, color: it.color, ref: it.ref };
      box(l);
      const row = ends.findIndex((e) => e <= l.a);
      if (row < 0) {
        if (prev) {
          prev.n = (prev.n || 1) + 1;
          if (prev.base === it.text) prev.text = prev.base + ' ×' + prev.n;
          else if (prev.text.indexOf(it.text) < 0) prev.text += ', ' + it.text;
          box(prev);
          ends[prev.row] = Math.max(ends[prev.row], prev.b);
        }
        continue;
      }
      l.row = row;
      ends[row] = l.b;
      out.push(l);
    }
    return out;
  }

  // ---- timeline: one lane per operation outstanding at once ----
  const LABEL_W = 190, MAX_LANES = 40, MARK_H = 14;
  const tlRows = D.qps.map((q, i) => ({ q, i, ops: [] }));
  const rowOfQp = new Map();
  tlRows.forEach((r) => { if (r.q.qp !== null) rowOfQp.set(r.q.qp, r); });
  const otherRow = tlRows.find((r) => r.q.qp === null);
  ops.forEach((r, k) => {
    const row = rowOfQp.get(r[C.qp]) || otherRow;
    if (row) row.ops.push(k);
  });
  // Lanes by time, not pixels: an operation takes the first lane free at
  // its start, so a QP has as many lanes as operations it had outstanding
  // at once (those past MAX_LANES go to the density band).
  for (const row of tlRows) {
    const ends = [];
    row.lane = new Map();
    row.overflow = [];
    for (const k of row.ops) {
      const r = ops[k];
      let lane = ends.findIndex((e) => e <= r[C.start]);
      if (lane < 0) lane = ends.push(0) - 1;
      ends[lane] = Math.max(r[C.end], r[C.start] + 1);
      if (lane < MAX_LANES) row.lane.set(k, lane);
      else row.overflow.push(k);
    }
    row.lanes = Math.min(MAX_LANES, Math.max(1, ends.length));
    row.peak = ends.length;
    row.laneH = row.lanes > 24 ? 4 : row.lanes > 12 ? 5 : 7;
  }

  function opText(k) {
    const r = ops[k], q = (rowOfQp.get(r[C.qp]) || otherRow).q;
    const type = D.op_types[r[C.op]];
    const lines = ['QP ' + r[C.qp] + ' · ' + type + ' #' + r[C.id] + ' · ' + fmtBytes(r[C.bytes]),
      dirText(q, r[C.dir]),
      'start ' + clock(r[C.start]) + ' (' + rel(r[C.start]) + ')',
      'frames ' + r[C.first_frame] + (r[C.last_frame] !== r[C.first_frame] ? '–' + r[C.last_frame] : '') +
        ', ' + fmtDur(r[C.end] - r[C.start]) + ' first to last'];
    if (r[C.latency] !== null) lines.push('latency ' + fmtDur(r[C.latency]));
    if (r[C.ack] !== null) lines.push('ACK after ' + fmtDur(r[C.ack]) + ' (frame ' + r[C.ack_frame] + ')');
    if (r[C.retransmissions]) lines.push(plural(r[C.retransmissions], 'TCP retransmission'));
    if (r[C.stall]) lines.push('stalled ' + fmtDur(r[C.stall]) + ' behind lost octets');
    if (!r[C.complete]) lines.push('INCOMPLETE');
    if (r[C.flags]) lines.push('flags: ' + flagsText(r[C.flags]));
    return lines.filter((l) => l).join('\n');
  }

  function markShape(kind, px, my) {
    const st = MARKS[kind];
    switch (st.shape) {
      case 'square': return '<rect x="' + (px - 3) + '" y="' + my + '" width="6" height="6" fill="none" stroke="' + st.color + '" stroke-width="1.5"';
      case 'cross': return '<path d="M' + (px - 3) + ' ' + my + 'l6 6m0 -6l-6 6" stroke="' + st.color + '" stroke-width="1.5"';
      case 'up': return '<path d="M' + px + ' ' + my + 'l4 7h-8z" fill="' + st.color + '"';
      default: return '<path d="M' + (px - 4) + ' ' + my + 'h8l-4 7z" fill="' + st.color + '"';
    }
  }

  function drawTimeline() {
    const el = $('timeline-chart');
    const width = Math.max(700, el.clientWidth || 1100);
    const left = LABEL_W, right = width - 12, pw = right - left;
    const t0 = view.t0, t1 = view.t1;
    const x = (t) => left + (t - t0) / (t1 - t0) * pw;
    const clip = (v) => Math.max(left - 2, Math.min(right + 2, v));
    const sampled = D.ops.drawn < D.ops.total;
    let y = 28, body = '', nOps = 0, nMarks = 0;
    for (const row of tlRows) {
      const q = row.q, LH = row.laneH;
      const band = row.overflow.length ? 8 : 0;
      const h = Math.max(q.qp === null ? 22 : 44, row.lanes * LH + band + MARK_H + 18);
      let s = '<g data-row="' + (q.qp === null ? 'other' : q.qp) + '">';
      s += '<rect x="0" y="' + y + '" width="' + right + '" height="' + h + '" fill="' +
        (row.i % 2 ? '#fafbfc' : '#ffffff') + '"/>';
      s += '<text x="6" y="' + (y + 13) + '" font-weight="600">' + esc(qpLabel(q)) + '</text>';
      if (q.qp !== null) {
        s += '<text x="6" y="' + (y + 26) + '" class="lbl" font-size="10">' + esc(q.initiator) + '</text>';
        s += '<text x="6" y="' + (y + 37) + '" class="lbl" font-size="10">→ ' + esc(q.responder) + '</text>';
        if (row.peak > 1) {
          s += '<text x="6" y="' + (y + 48) + '" class="lbl" font-size="10">' + row.peak + ' outstanding at most' + '</text>';
        }
      }
      if (sampled) {
        // where every operation started: the grid's counts as shading
        const ser = q.series.ops, bmax = Math.max(1, ...ser);
        const b0 = Math.max(0, Math.floor(t0 / W)), b1 = Math.min(ser.length - 1, Math.ceil(t1 / W));
        for (let b = b0; b <= b1; b++) {
          if (!ser[b]) continue;
          const a = clip(x(b * W)), e = clip(x((b + 1) * W));
          s += '<rect x="' + a + '" y="' + (y + 2) + '" width="' + Math.max(0.5, e - a) + '" height="' +
            (row.lanes * LH) + '" fill="#5c6475" fill-opacity="' + (0.05 + 0.25 * ser[b] / bmax).toFixed(3) +
            '" data-k="d' + row.i + '.' + b + '"/>';
        }
      }
      for (const k of row.ops) {
        const r = ops[k];
        if (r[C.end] < t0 || r[C.start] > t1) continue;
        const lane = row.lane.get(k);
        if (lane === undefined) continue;
        const a = x(r[C.start]), b = Math.max(x(r[C.end]), a + 1.5);
        const yy = y + 3 + lane * LH, col = OP_COLORS[D.op_types[r[C.op]]] || OK.grey;
        const ca = clip(a), cb = clip(b);
        const bad = !r[C.complete];
        s += '<rect x="' + ca.toFixed(1) + '" y="' + yy + '" width="' + Math.max(1, cb - ca).toFixed(1) +
          '" height="' + (LH - 1) + '" fill="' + (bad ? '#ffffff' : col) + '"' +
          (bad ? ' stroke="' + OK.vermillion + '" stroke-dasharray="2 1" stroke-width="1"' : '') + ' data-k="o' + k + '"/>';
        if (r[C.stall]) {
          const sa = clip(x(r[C.end] - r[C.stall]));
          s += '<rect x="' + sa.toFixed(1) + '" y="' + yy + '" width="' + Math.max(1, cb - sa).toFixed(1) +
            '" height="' + (LH - 1) + '" fill="url(#stall)" data-k="o' + k + '"/>';
        }
        if (r[C.ack] !== null && r[C.start] + r[C.ack] > r[C.end]) {
          const aa = clip(x(r[C.start] + r[C.ack]));
          if (aa - cb > 1) s += '<line x1="' + cb.toFixed(1) + '" x2="' + aa.toFixed(1) + '" y1="' + (yy + LH / 2 - 0.5) +
            '" y2="' + (yy + LH / 2 - 0.5) + '" stroke="' + OK.grey + '" stroke-width="1" data-k="o' + k + '"/>';
        }
        if (highlight && highlight.qp === r[C.qp] && highlight.id === r[C.id]) {
          s += '<rect class="hl" x="' + (ca - 3) + '" y="' + (yy - 3) + '" width="' + (cb - ca + 6) + '" height="' + (LH + 4) + '"/>';
        }
        nOps++;
      }
      // past MAX_LANES: a density band (how many more at once)
      if (row.overflow.length) {
        const by = y + 3 + row.lanes * LH + 1, px0 = Math.max(0, Math.floor(x(t0))), cnt = new Map();
        for (const k of row.overflow) {
          const r = ops[k];
          if (r[C.end] < t0 || r[C.start] > t1) continue;
          for (let p = Math.floor(clip(x(r[C.start]))); p <= Math.floor(clip(x(r[C.end]))); p += 2) cnt.set(p, (cnt.get(p) || 0) + 1);
          nOps++;
        }
        const cmax = Math.max(1, ...cnt.values());
        for (const [p, c] of cnt) {
          s += '<rect x="' + p + '" y="' + by + '" width="2" height="6" fill="' + OK.grey + '" fill-opacity="' +
            (0.2 + 0.8 * c / cmax).toFixed(2) + '" data-k="b' + row.i + '.' + c + '"/>';
        }
        s += '<text x="' + (left - 4) + '" y="' + (by + 6) + '" text-anchor="end" class="lbl" font-size="9">+' + (row.peak - MAX_LANES) + ' more at once</text>';
        for (const k of row.overflow) {
          const r = ops[k];
          if (highlight && highlight.qp === r[C.qp] && highlight.id === r[C.id]) {
            const ca = clip(x(r[C.start])), cb = clip(Math.max(x(r[C.end]), x(r[C.start]) + 1.5));
            s += '<rect x="' + ca + '" y="' + by + '" width="' + Math.max(1, cb - ca) + '" height="6" fill="' + (OP_COLORS[D.op_types[r[C.op]]] || OK.grey) +
              '" data-k="o' + k + '"/><rect class="hl" x="' + (ca - 3) + '" y="' + (by - 3) + '" width="' + (cb - ca + 6) + '" height="12"/>';
          }
        }
        void px0;
      }
      // TCP events under the lanes
      const my = y + row.lanes * LH + band + 6;
      (q.marks || []).forEach((m, i) => {
        if (m[2] < t0 || m[2] > t1) return;
        s += markShape(D.mark_kinds[m[0]], x(m[2]), my) + ' data-k="m' + row.i + '.' + i + '"/>';
        nMarks++;
      });
      // FIN, RST, Terminate: a line each, labels that never overlap
      const labels = [];
      (q.teardown || []).forEach((t, i) => {
        if (t[2] < t0 || t[2] > t1) return;
        const px = x(t[2]), td = TEARDOWN[t[0]] || TEARDOWN[1];
        s += '<line x1="' + px + '" x2="' + px + '" y1="' + y + '" y2="' + (y + h) + '" stroke="' + td.color +
          '" stroke-width="2" data-k="t' + row.i + '.' + i + '"/>';
        labels.push({ x: px + 3, text: td.name, color: td.color, ref: i });
        nMarks++;
      });
      for (const l of placeLabels(labels, 2, 10, right)) {
        s += '<text x="' + (l.end ? l.x - 6 : l.x) + '" y="' + (y + h - 3 - 11 * l.row) + '"' +
          (l.end ? ' text-anchor="end"' : '') + ' fill="' + l.color + '" font-size="10" data-k="t' + row.i + '.' + l.ref + '">' +
          esc(l.text) + '</text>';
      }
      body += s + '</g>';
      y += h;
    }
    let svg = '<svg xmlns="' + NS + '" width="' + width + '" height="' + (y + 4) + '">' +
      '<defs><pattern id="stall" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="4" height="4" fill="#ffffff"/><rect width="2" height="4" fill="' + OK.black + '"/></pattern></defs>';
    svg += axisSvg(x, t0, t1, left, right, 22, y - 22, 15);
    svg += body;
    svg += '<rect class="sel" x="0" y="22" width="0" height="' + (y - 22) + '"/></svg>';
    if (!tlRows.length) svg = '<p class="empty">No iWARP operations in this capture.</p>';
    el.innerHTML = svg;
    el._geom = { left, right };
    drawn.timeline = nOps + nMarks;
    drawn.timeline_ops = nOps;
  }

  function timelineHover(e) {
    const k = e.target.getAttribute && e.target.getAttribute('data-k');
    if (!k) { hideTip(); return; }
    const kind = k[0], [a, b] = k.slice(1).split('.').map(Number);
    let text = '';
    if (kind === 'o') text = opText(a);
    else if (kind === 'm') {
      const q = tlRows[a].q, m = q.marks[b], st = MARKS[D.mark_kinds[m[0]]];
      text = 'QP ' + q.qp + ': ' + st.title + '\nframe ' + m[3] + ' at ' + clock(m[2]) + ' (' + rel(m[2]) + ')\n' + dirText(q, m[1]);
    } else if (kind === 't') {
      const q = tlRows[a].q, t = q.teardown[b], td = TEARDOWN[t[0]] || TEARDOWN[1];
      text = 'QP ' + q.qp + ': ' + td.name + ' from ' + (t[1] === 0 ? q.initiator : q.responder) + '\nframe ' + t[3] +
        ' at ' + clock(t[2]) + ' (' + rel(t[2]) + ')\n' + plural(t[4], 'operation') + ' outstanding';
    } else if (kind === 'd') {
      const q = tlRows[a].q;
      text = qpLabel(q) + ': ' + plural(q.series.ops[b], 'operation') + ' started in ' + rel(b * W) + ' + ' + fmtDur(W);
    } else if (kind === 'b') {
      text = qpLabel(tlRows[a].q) + ': ' + b + ' more operations outstanding at once than the ' + MAX_LANES + ' lanes show';
    }
    showTip(e, text);
  }

  function flashRow(qp) {
    const g = document.querySelector('#timeline-chart g[data-row="' + qp + '"] rect');
    if (!g) return;
    g.setAttribute('fill', '#fff3c4');
    setTimeout(() => drawTimeline(), 1500);
  }

  // ---- lines over time: per QP (and direction), a thicker one for all ----
  // lines: [{label, color, dash, values, width}] (values per bucket; null:
  // no value); area: values drawn as a filled area (or null).
  function drawLines(el, key, title, lines, area, areaLabel, toY, fmtY, tick) {
    const width = Math.max(700, el.clientWidth || 1100), height = 200;
    const left = LABEL_W, right = width - 12, top = 26, bottom = height - 22, pw = right - left;
    const t0 = view.t0, t1 = view.t1, n = D.grid.buckets;
    const x = (t) => left + (t - t0) / (t1 - t0) * pw;
    const b0 = Math.max(0, Math.floor(t0 / W)), b1 = Math.min(n - 1, Math.ceil(t1 / W));
    let ymax = 0;
    for (const l of lines) for (let b = b0; b <= b1; b++) if (l.values[b] !== null) ymax = Math.max(ymax, toY(l.values[b], b));
    if (!ymax) ymax = 1;
    const ystep = niceStep(ymax, 4);
    ymax = Math.ceil(ymax / ystep) * ystep;
    const y = (v) => bottom - v / ymax * (bottom - top);
    const path = (vals) => {
      let d = '', pen = false;
      for (let b = b0; b <= b1; b++) {
        if (vals[b] === null || vals[b] === undefined) { pen = false; continue; }
        const xa = Math.max(left, x(b * W)), xb = Math.min(right, x((b + 1) * W)), yy = y(toY(vals[b], b)).toFixed(1);
        d += (pen ? 'L' : 'M') + xa.toFixed(1) + ' ' + yy + 'H' + xb.toFixed(1);
        pen = true;
      }
      return d;
    };
    let s = '<svg xmlns="' + NS + '" width="' + width + '" height="' + height + '">';
    s += '<text x="6" y="16" font-weight="600">' + esc(title) + '</text>';
    if (lines.length <= 4) {
      // a few lines: say which is which, top right
      let lx = right;
      for (const l of lines.slice().reverse()) {
        const text = l.short || l.label;
        lx -= text.length * 6 + 30;
        s += '<line x1="' + lx + '" x2="' + (lx + 16) + '" y1="12" y2="12" stroke="' + l.color + '" stroke-width="2.5"' +
          (l.dash ? ' stroke-dasharray="5 2"' : '') + '/><text x="' + (lx + 20) + '" y="16" class="lbl">' + esc(text) + '</text>';
      }
    }
    s += axisSvg(x, t0, t1, left, right, bottom, top - bottom, height - 6);
    for (let v = 0; v <= ymax + ystep / 2; v += ystep) {
      s += '<line x1="' + left + '" x2="' + right + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#eceef2"/>' +
        '<text x="' + (left - 6) + '" y="' + (y(v) + 4) + '" text-anchor="end" class="lbl">' + esc(trim0(fmtY(v))) + '</text>';
    }
    if (area) {
      let d = 'M' + Math.max(left, x(b0 * W)).toFixed(1) + ' ' + bottom;
      for (let b = b0; b <= b1; b++) {
        const xa = Math.max(left, x(b * W)), xb = Math.min(right, x((b + 1) * W)), yy = y(toY(area[b], b)).toFixed(1);
        d += 'L' + xa.toFixed(1) + ' ' + yy + 'H' + xb.toFixed(1);
      }
      d += 'V' + bottom + 'Z';
      s += '<path d="' + d + '" fill="' + OK.vermillion + '" fill-opacity="0.55" stroke="none"/>';
    }
    let points = 0;
    for (const l of lines) {
      s += '<path d="' + path(l.values) + '" fill="none" stroke="' + l.color + '" stroke-width="' + (l.width || 1.3) + '"' +
        (l.dash ? ' stroke-dasharray="6 2"' : '') + '/>';
      if (l.dots) {
        // values of single buckets (commands that complete now and then)
        for (let b = b0; b <= b1; b++) {
          if (l.values[b] === null || l.values[b] === undefined) continue;
          s += '<circle cx="' + Math.max(left, Math.min(right, x((b + 0.5) * W))).toFixed(1) + '" cy="' + y(toY(l.values[b], b)).toFixed(1) +
            '" r="2.5" fill="' + l.color + '"/>';
        }
      }
      points += Math.max(0, b1 - b0 + 1);
    }
    if (tick) {
      for (let b = b0; b <= b1; b++) {
        if (!tick[b]) continue;
        const px = Math.max(left, x((b + 0.5) * W));
        s += '<line x1="' + px + '" x2="' + px + '" y1="' + bottom + '" y2="' + (bottom - 4 - 3 * Math.log2(1 + tick[b])) +
          '" stroke="' + OK.vermillion + '" stroke-width="2"/>';
      }
    }
    s += '<line class="cross" x1="0" x2="0" y1="' + top + '" y2="' + bottom + '" stroke="#9aa1ae" visibility="hidden"/>';
    s += '<rect class="sel" x="0" y="' + top + '" width="0" height="' + (bottom - top) + '"/></svg>';
    el.innerHTML = s;
    el._geom = { left, right };
    el._hover = (e) => {
      const r = el.getBoundingClientRect(), px = e.clientX - r.left;
      if (px < left || px > right) { hideTip(); return; }
      const t = t0 + (px - left) / pw * (t1 - t0), b = Math.floor(t / W);
      if (b < 0 || b >= n) { hideTip(); return; }
      const cross = el.querySelector('.cross');
      cross.setAttribute('x1', px); cross.setAttribute('x2', px); cross.setAttribute('visibility', 'visible');
      let text = rel(b * W) + ' + ' + fmtDur(W);
      for (const l of lines.slice(0, 14)) {
        if (l.values[b] !== null && l.values[b] !== undefined) text += '\n' + l.label + ': ' + fmtY(toY(l.values[b], b));
      }
      if (area && area[b]) text += '\n' + areaLabel + ': ' + fmtY(toY(area[b], b));
      if (tick && tick[b]) text += '\n' + plural(tick[b], 'retransmitted segment');
      showTip(e, text);
    };
    drawn[key] = points;
  }

  // The QP directions that carry something of series `base` (base_i2r/_r2i).
  // (dashed: responder to initiator, where a QP's two directions are both
  // drawn and each carries something worth seeing)
  function dirLines(base) {
    const lines = [];
    const sum = (v) => v.reduce((a, x) => a + x, 0);
    D.qps.forEach((q, i) => {
      const a = sum(q.series[base + '_i2r']), b = sum(q.series[base + '_r2i']);
      const both = a && b && Math.min(a, b) >= 0.05 * (a + b);
      for (const dir of ['i2r', 'r2i']) {
        const v = q.series[base + '_' + dir];
        if (!v || !v.some((x) => x)) continue;
        lines.push({ label: qpLabel(q) + ' ' + dir + (q.qp === null ? '' : ' (' + dirText(q, dir === 'i2r' ? 0 : 1) + ')'),
          short: qpLabel(q) + ' ' + dir, color: qpColor(i, q), dash: both && dir === 'r2i', values: v });
      }
    });
    return lines;
  }

  const sumOf = (arrs) => {
    const t = new Array(D.grid.buckets).fill(0);
    for (const a of arrs) for (let b = 0; b < t.length; b++) t[b] += a[b] || 0;
    return t;
  };
  const perSec = (v) => v / (W / 1e9);
  const bitsPerSec = (v) => v * 8 / (W / 1e9);

  function seriesCharts() {
    const wire = dirLines('wire'), good = dirLines('goodput');
    const retx = sumOf(D.qps.flatMap((q) => [q.series.retransmitted_i2r, q.series.retransmitted_r2i]));
    const retrans = sumOf(D.qps.map((q) => q.series.retransmissions));
    const inflight = D.qps.map((q, i) => ({ label: qpLabel(q), color: qpColor(i, q), values: q.series.inflight_ns }));
    const started = D.qps.map((q, i) => ({ label: qpLabel(q), color: qpColor(i, q), values: q.series.ops }));
    // an "all" line, unless one line is (nearly) all of it
    const withTotal = (ls, name) => {
      if (ls.length < 2) return ls;
      const tot = sumOf(ls.map((l) => l.values)), sum = (v) => v.reduce((a, x) => a + (x || 0), 0), all = sum(tot);
      if (ls.some((l) => sum(l.values) >= 0.95 * all)) return ls;
      return [{ label: 'all ' + name, color: '#1d2330', width: 2, values: tot }].concat(ls);
    };
    if (wire.length) {
      timeCharts.push([$('wire-chart'), () => drawLines($('wire-chart'), 'throughput', 'On the wire: TCP payload (bit/s)',
        withTotal(wire, 'QPs'), retx.some((v) => v) ? retx : null, 'retransmitted', bitsPerSec, fmtRate, null)]);
    }
    if (good.length) {
      timeCharts.push([$('goodput-chart'), () => drawLines($('goodput-chart'), 'goodput', 'Goodput: RDMA payload delivered in order (bit/s)',
        withTotal(good, 'QPs'), null, '', bitsPerSec, fmtRate, null)]);
    }
    if (inflight.some((l) => l.values.some((v) => v))) {
      timeCharts.push([$('inflight-chart'), () => drawLines($('inflight-chart'), 'inflight', 'Operations in flight (mean per bucket)',
        withTotal(inflight.filter((l) => l.values.some((v) => v)), 'QPs'), null, '', (v) => v / W, (v) => (v < 10 ? v.toFixed(2) : v.toFixed(0)), null)]);
    }
    if (started.some((l) => l.values.some((v) => v))) {
      timeCharts.push([$('rate-chart'), () => drawLines($('rate-chart'), 'rate', 'Operations started per second',
        withTotal(started.filter((l) => l.values.some((v) => v)), 'QPs'), null, '', perSec, fmtPerSec, retrans)]);
    }
    let legend = '';
    if (D.qps.length > 1) legend += '<span><i style="background:#1d2330"></i>all QPs</span>';
    D.qps.forEach((q, i) => { legend += '<span><i style="background:' + qpColor(i, q) + '"></i>' + esc(qpLabel(q)) + '</span>'; });
    legend += '<span><i class="dash"></i>dashed: responder → initiator (where both directions carry data)</span>';
    if (retx.some((v) => v)) legend += '<span><i style="background:' + OK.vermillion + ';opacity:.55"></i>retransmitted octets</span>';
    if (retrans.some((v) => v)) legend += '<span><i style="background:' + OK.vermillion + ';width:3px"></i>retransmitted segments</span>';
    $('legend-qps').innerHTML = legend;
    for (const id of ['wire-chart', 'goodput-chart', 'inflight-chart', 'rate-chart']) {
      if (!timeCharts.some(([el]) => el.id === id)) $(id).hidden = true;
    }
    // nothing over time to draw (no iWARP QP): no section
    if (!timeCharts.length) {
      $('throughput').hidden = true;
      document.querySelector('#nav a[href="#throughput"]').hidden = true;
    }
  }

  // ---- time-sequence (tcptrace): per lossy QP, its data directions ----
  function tseqCharts() {
    const list = D.qps.filter((q) => q.qp !== null && q.tseq);
    if (!list.length) return;
    $('tseq').hidden = false;
    const box = $('tseq-charts');
    for (const q of list) {
      const segs = q.tseq.segments;
      const retxDirs = [0, 1].filter((d) => segs.some((r) => r[1] === d && r[3] > 0 && (r[5] & 1)));
      const bytesOf = (d) => segs.reduce((a, r) => a + (r[1] === d ? r[3] : 0), 0);
      const dirs = retxDirs.length ? retxDirs : [bytesOf(0) >= bytesOf(1) ? 0 : 1];
      for (const dir of dirs) {
        const data = segs.filter((r) => r[1] === dir && r[3] > 0);
        if (!data.length) continue;
        const acks = segs.filter((r) => r[1] !== dir && r[4] !== null);
        const retx = data.filter((r) => r[5] & 1).length;
        const el = document.createElement('div');
        el.className = 'chart';
        box.appendChild(el);
        const name = qpLabel(q) + ' ' + (dir ? 'r2i' : 'i2r') + ' (' + dirText(q, dir) + '): ' +
          plural(data.length, 'data segment') + ' kept, ' + retx + ' retransmitted' +
          (q.tseq.left_out ? ', ' + plural(q.tseq.left_out, 'segment') + ' left out (limit)' : '');
        el._wantRetx = retx;
        timeCharts.push([el, () => drawTseq(el, name, data, acks)]);
        zoomable(el, () => el._geom);
        el.addEventListener('mousemove', (e) => el._hover && el._hover(e));
        el.addEventListener('mouseleave', hideTip);
      }
    }
  }

  // segment rows: [t, dir, seq, len, ack, flags, frame, win, flight, sack]
  // (out_html.c); flags & 1: retransmitted
  function drawTseq(el, title, data, acks) {
    const width = Math.max(700, el.clientWidth || 1100), height = 276, fh = 90;
    const left = LABEL_W, right = width - 12, top = 42, bottom = height - 22, pw = right - left;
    const ftop = height + 8, fbottom = height + fh - 16;
    const t0 = view.t0, t1 = view.t1;
    const x = (t) => left + (t - t0) / (t1 - t0) * pw;
    const vis = data.filter((r) => r[0] >= t0 && r[0] <= t1), va = acks.filter((r) => r[0] >= t0 && r[0] <= t1);
    let lo = Infinity, hi = -Infinity;
    for (const r of vis) { lo = Math.min(lo, r[2]); hi = Math.max(hi, r[2] + r[3]); }
    for (const r of va) { if (r[4] >= lo - 1 && r[4] <= hi + 1) hi = Math.max(hi, r[4]); }
    let s = '<svg xmlns="' + NS + '" width="' + width + '" height="' + (height + fh) + '">';
    s += '<text x="6" y="16" font-weight="600">' + esc(title) + '</text>';
    s += axisSvg(x, t0, t1, left, right, bottom, top - bottom, height - 6);
    const retx = vis.filter((r) => r[5] & 1);
    if (!vis.length) {
      s += '<text x="' + ((left + right) / 2) + '" y="' + ((top + bottom) / 2) + '" text-anchor="middle" class="lbl">' +
        'no segment kept in this span: zoom to a loss</text>';
    } else {
      if (hi <= lo) hi = lo + 1;
      const y = (v) => bottom - (v - lo) / (hi - lo) * (bottom - top);
      const clampY = (v) => Math.max(top, Math.min(bottom, y(v)));
      const step = niceStep(hi - lo, 4);
      for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
        s += '<line x1="' + left + '" x2="' + right + '" y1="' + y(v).toFixed(1) + '" y2="' + y(v).toFixed(1) + '" stroke="#eceef2"/>' +
          '<text x="' + (left - 6) + '" y="' + (y(v) + 4).toFixed(1) + '" text-anchor="end" class="lbl">' + esc(trim0(fmtBytes(v))) + '</text>';
      }
      // the peer's cumulative ACK (green) and the right edge of the
      // window it advertises, ACK + window (tcptrace's yellow line): step lines
      let d = '', w = '';
      for (const r of va) {
        d += (d ? 'H' + x(r[0]).toFixed(1) + 'V' : 'M' + x(r[0]).toFixed(1) + ' ') + clampY(r[4]).toFixed(1);
        if (r[7] !== null) w += (w ? 'H' + x(r[0]).toFixed(1) + 'V' : 'M' + x(r[0]).toFixed(1) + ' ') + clampY(r[4] + r[7]).toFixed(1);
      }
      if (w) s += '<path d="' + w + '" fill="none" stroke="' + OK.orange + '" stroke-width="1.2" data-k="rwnd"/>';
      if (d) s += '<path d="' + d + '" fill="none" stroke="' + OK.green + '" stroke-width="1.2"/>';
      // SACK blocks: what the receiver holds above the ACK, at the ACK's time
      for (const r of va) {
        for (const [a, b] of r[9] || []) {
          const px = x(r[0]).toFixed(1);
          s += '<line x1="' + px + '" x2="' + px + '" y1="' + clampY(a).toFixed(1) + '" y2="' + Math.min(clampY(a) - 1.5, clampY(b)).toFixed(1) +
            '" stroke="' + OK.purple + '" stroke-width="3" data-k="sack"/>';
        }
      }
      // segments, then the retransmitted ones over them
      for (const r of vis.filter((r) => !(r[5] & 1)).concat(retx)) {
        const px = x(r[0]).toFixed(1), re = r[5] & 1;
        s += '<line x1="' + px + '" x2="' + px + '" y1="' + y(r[2]).toFixed(1) + '" y2="' + Math.min(y(r[2]) - 1.5, y(r[2] + r[3])).toFixed(1) +
          '" stroke="' + (re ? OK.vermillion : OK.blue) + '" stroke-width="' + (re ? 2.5 : 1.5) + '"/>';
      }
      // every retransmission also as a mark on the top edge: visible at any
      // scale, however dense the segments around it
      for (const r of retx) {
        const px = x(r[0]);
        s += '<path d="M' + (px - 4).toFixed(1) + ' ' + top + 'h8l-4 7z" fill="' + OK.vermillion + '" data-k="retx"/>';
      }
      s += '<text x="' + left + '" y="' + (top - 8) + '" class="lbl">' +
        '<tspan fill="' + OK.blue + '">▮ segment</tspan>  <tspan fill="' + OK.vermillion + '">▼ retransmitted</tspan>  <tspan fill="' +
        OK.green + '">— ACK</tspan>  <tspan fill="' + OK.orange + '">— ACK + receive window</tspan>  <tspan fill="' + OK.purple +
        '">▮ SACK</tspan></text>';
    }
    // octets in flight of this direction's sender (its highest octet sent
    // less the peer's ACK), under the receive window the peer advertises
    const vf = vis.filter((r) => r[8] !== null), vw = va.filter((r) => r[7] !== null);
    // scaled to the octets in flight (the window, often far larger, runs
    // along the top where it is above them: the label says how large)
    let fmax = 0, wmax = 0;
    for (const r of vf) fmax = Math.max(fmax, r[8]);
    for (const r of vw) wmax = Math.max(wmax, r[7]);
    if (!fmax) fmax = wmax;
    s += '<text x="6" y="' + (ftop + 8) + '" class="lbl">octets in flight</text>';
    if (fmax > 0) {
      const yf = (v) => fbottom - Math.min(v, fmax) / fmax * (fbottom - ftop);
      s += '<line x1="' + left + '" x2="' + right + '" y1="' + fbottom + '" y2="' + fbottom + '" stroke="#c9ced6"/>' +
        '<text x="' + (left - 6) + '" y="' + (ftop + 8) + '" text-anchor="end" class="lbl">' + esc(trim0(fmtBytes(fmax))) + '</text>' +
        '<text x="' + (left - 6) + '" y="' + fbottom + '" text-anchor="end" class="lbl">0</text>';
      let pf = '', pw2 = '';
      for (const r of vf) pf += (pf ? 'H' + x(r[0]).toFixed(1) + 'V' : 'M' + x(r[0]).toFixed(1) + ' ') + yf(r[8]).toFixed(1);
      for (const r of vw) pw2 += (pw2 ? 'H' + x(r[0]).toFixed(1) + 'V' : 'M' + x(r[0]).toFixed(1) + ' ') + yf(r[7]).toFixed(1);
      if (pw2) s += '<path d="' + pw2 + '" fill="none" stroke="' + OK.orange + '" stroke-width="1.2"/>';
      if (pf) s += '<path d="' + pf + '" fill="none" stroke="' + OK.blue + '" stroke-width="1.4" data-k="flight"/>';
      for (const r of retx) {
        const px = x(r[0]).toFixed(1);
        s += '<line x1="' + px + '" x2="' + px + '" y1="' + ftop + '" y2="' + fbottom + '" stroke="' + OK.vermillion + '" stroke-width="1" stroke-dasharray="2 2"/>';
      }
      s += '<text x="' + (right - 4) + '" y="' + (ftop + 8) + '" text-anchor="end" class="lbl"><tspan fill="' + OK.blue +
        '">— in flight</tspan>  <tspan fill="' + OK.orange + '">— receive window' +
        (wmax > fmax ? ' (up to ' + esc(trim0(fmtBytes(wmax))) + ', above the scale)' : '') + '</tspan></text>';
    } else {
      s += '<text x="' + ((left + right) / 2) + '" y="' + ((ftop + fbottom) / 2 + 4) + '" text-anchor="middle" class="lbl">' +
        (vis.length && !vw.length ? 'receive window unknown: the SYNs were not captured' : 'nothing in flight in this span') + '</text>';
    }
    s += '<rect class="sel" x="0" y="' + top + '" width="0" height="' + (bottom - top) + '"/></svg>';
    el.innerHTML = s;
    el._geom = { left, right };
    el._retx = retx.length;
    el._hover = (e) => {
      const r = el.getBoundingClientRect(), px = e.clientX - r.left;
      if (px < left || px > right || !vis.length) { hideTip(); return; }
      let best = null;
      for (const seg of vis) if (!best || Math.abs(x(seg[0]) - px) < Math.abs(x(best[0]) - px)) best = seg;
      let ack = null;
      for (const a of va) if (a[0] <= best[0]) ack = a;
      showTip(e, 'frame ' + best[6] + ' at ' + rel(best[0]) + '\nseq +' + fmtInt(best[2]) + ', ' + plural(best[3], 'octet') +
        (best[5] & 1 ? '\nretransmitted' : '') +
        (best[8] !== null ? '\n' + fmtInt(best[8]) + ' octets in flight' : '') +
        (ack && ack[7] !== null ? '\nreceive window ' + fmtInt(ack[7]) + ' (frame ' + ack[6] + ')' : '') +
        (ack && ack[9] ? '\nSACK ' + ack[9].map((b) => '+' + fmtInt(b[0]) + '-' + fmtInt(b[1])).join(', ') : ''));
    };
    drawn.tseq = (drawn.tseq || 0) + vis.length;
  }

  // ---- distributions: histogram + CDF on a log axis ----
  const PD = D.hist.per_decade;
  const edge = (b) => (b <= 0 ? 0.5 : Math.pow(10, (b - 1) / PD)); // lower edge of bin b, ns
  const distList = [];
  // a histogram from 20 samples up (out_html.c REPORT_MIN_DRAWN); fewer are listed
  const MIN_DRAWN = 20;

  function distSvg(d, id, col) {
    const width = 440, height = 210, left = 48, right = width - 40, top = 34, bottom = height - 28;
    const counts = d.counts, first = d.first, last = first + counts.length - 1;
    const total = counts.reduce((a, c) => a + c, 0);
    let lo = Math.log10(edge(first)), hi = Math.log10(edge(last + 1));
    if (hi - lo < 1) { const m = (hi + lo) / 2; lo = m - 0.5; hi = m + 0.5; }
    lo -= 0.05; hi += 0.05;
    const x = (ns) => left + (Math.log10(Math.max(ns, 0.5)) - lo) / (hi - lo) * (right - left);
    // bars at half the resolution of the bins (2 bins each)
    const bars = [];
    for (let b = first - ((first - 1) % 2 + 2) % 2; b <= last; b += 2) {
      const c = (counts[b - first] || 0) + (counts[b + 1 - first] || 0);
      if (c) bars.push([b, c]);
    }
    const cmax = Math.max(1, ...bars.map((v) => v[1]));
    const y = (c) => bottom - c / cmax * (bottom - top);
    const yc = (p) => bottom - p * (bottom - top);
    let s = '<svg xmlns="' + NS + '" width="' + width + '" height="' + height + '" data-dist="' + id + '">';
    let lastLabel = -1e9;
    for (let e = Math.floor(lo); e <= Math.ceil(hi); e++) {
      for (const m of (hi - lo < 3 ? [1, 2, 5] : [1])) {
        const v = m * Math.pow(10, e), px = x(v);
        if (px < left - 0.5 || px > right + 0.5) continue;
        s += '<line x1="' + px + '" x2="' + px + '" y1="' + top + '" y2="' + bottom + '" stroke="' + (m === 1 ? '#e3e6eb' : '#f1f2f5') + '"/>';
        if (px - lastLabel < 44) continue;
        lastLabel = px;
        s += '<text x="' + px + '" y="' + (bottom + 13) + '" text-anchor="middle" class="lbl">' + esc(axisLabel(v)) + '</text>';
      }
    }
    s += '<line x1="' + left + '" x2="' + right + '" y1="' + bottom + '" y2="' + bottom + '" stroke="#9aa1ae"/>';
    for (const [b, c] of bars) {
      const a = x(edge(b)), e = x(edge(b + 2));
      s += '<rect x="' + a.toFixed(1) + '" y="' + y(c).toFixed(1) + '" width="' + Math.max(1, e - a - 0.5).toFixed(1) +
        '" height="' + (bottom - y(c)).toFixed(1) + '" fill="' + col + '" fill-opacity="0.6" data-k="h' + id + '.' + b + '"/>';
    }
    let cum = 0, path = 'M' + x(edge(first)).toFixed(1) + ' ' + yc(0);
    for (let b = first; b <= last; b++) {
      cum += counts[b - first];
      path += 'H' + x(edge(b + 1)).toFixed(1) + 'V' + yc(cum / total).toFixed(1);
    }
    s += '<path d="' + path + '" fill="none" stroke="#1d2330" stroke-width="1.3"/>';
    // percentiles from the statistics: equal values share one label, the
    // others stand in rows that never overlap
    const st = d.stats, marks = [];
    for (const [name, v] of [['p50', st.p50], ['p90', st.p90], ['p99', st.p99], ['p99.9', st.p999]]) {
      const same = marks.find((m) => m.v === v);
      if (same) { same.text += '=' + name; continue; }
      marks.push({ v, text: name });
    }
    for (const m of marks) {
      const px = x(m.v);
      s += '<line x1="' + px + '" x2="' + px + '" y1="' + (top - 2) + '" y2="' + bottom + '" stroke="' + OK.vermillion + '" stroke-dasharray="3 2"/>';
    }
    // one label per line, in two rows that never overlap; a label with no
    // room joins its neighbour ("p90, p99=p99.9"); none passes the plot's
    // right edge (the 100% label is there)
    for (const l of placeLabels(marks.map((m) => ({ x: x(m.v) + 2, text: m.text, color: OK.vermillion })), 2, 10, right)) {
      s += '<text x="' + (l.end ? l.x - 6 : l.x) + '" y="' + (top - 5 - 11 * l.row) + '"' + (l.end ? ' text-anchor="end"' : '') +
        ' fill="' + OK.vermillion + '" font-size="10" data-k="pct">' + esc(l.text) + '</text>';
    }
    s += '<text x="' + (left - 6) + '" y="' + (top + 4) + '" text-anchor="end" class="lbl">' + fmtInt(cmax) + '</text>' +
      '<text x="' + (left - 6) + '" y="' + bottom + '" text-anchor="end" class="lbl">0</text>' +
      '<text x="' + (right + 6) + '" y="' + (top + 4) + '" class="lbl">100%</text>' +
      '<text x="' + (right + 6) + '" y="' + ((top + bottom) / 2 + 4) + '" class="lbl">50%</text>' +
      '<text x="' + (right + 6) + '" y="' + bottom + '" class="lbl">0%</text>';
    return s + '</svg>';
  }

  function statsTable(st) {
    let s = '<table><tr><th>count</th><th>min</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr><tr>';
    s += '<td>' + fmtInt(st.count) + '</td>';
    for (const v of [st.min, st.mean, st.p50, st.p90, st.p99, st.p999, st.max]) s += '<td>' + esc(fmtDur(v)) + '</td>';
    return s + '</tr></table>';
  }

  // Cards for the distributions with enough samples, a table row for the others.
  function distGroup(title, items, open) {
    const big = items.filter((it) => it.d.stats.count >= MIN_DRAWN), small = items.filter((it) => it.d.stats.count < MIN_DRAWN);
    let html = '<details class="qp-latency"' + (open ? ' open' : '') + '><summary>' + esc(title) + '</summary><div class="cards">';
    for (const it of big) {
      const id = distList.push(it.d) - 1;
      html += '<div class="card"><h4>' + esc(it.name) + ' · ' + plural(it.d.stats.count, 'sample') + '</h4>' +
        distSvg(it.d, id, it.color) + statsTable(it.d.stats) + '</div>';
    }
    html += '</div>';
    if (small.length) {
      html += '<table class="ops few"><thead><tr><th class="why">fewer than ' + MIN_DRAWN + ' samples</th><th>count</th><th>mean</th>' +
        '<th class="why">the samples, smallest first</th></tr></thead><tbody>';
      for (const it of small) {
        const st = it.d.stats, v = it.d.samples || [st.min, st.max];
        html += '<tr><td class="why">' + esc(it.name) + '</td><td>' + st.count + '</td><td>' + esc(fmtDur(st.mean)) +
          '</td><td class="why few-samples">' + esc(v.map((x) => fmtDur(x)).join(', ')) + '</td></tr>';
      }
      html += '</tbody></table>';
    }
    return { html: html + '</details>', cards: big.length, rows: small.length };
  }

  // RDMA latency or delivery: the QPs' groups, and "All QPs" for the
  // types more than one QP has (else it would repeat the QP's chart).
  function opDists(kind, elId, open) {
    const named = D.qps.filter((q) => q.qp !== null);
    const perType = {};
    for (const q of D.qps) for (const d of (q.dists || [])) if (d.kind === kind) perType[d.op] = (perType[d.op] || 0) + 1;
    const groups = [];
    const allItems = D.all.dists.filter((d) => d.kind === kind && (perType[d.op] > 1 || D.qps.some((q) => q.qp === null)))
      .map((d) => ({ name: 'all QPs · ' + d.op, d, color: OP_COLORS[d.op] || OK.grey }));
    if (allItems.length) groups.push(['All QPs', allItems]);
    for (const q of named) {
      const items = (q.dists || []).filter((d) => d.kind === kind).map((d) => ({ name: 'QP ' + q.qp + ' · ' + d.op, d, color: OP_COLORS[d.op] || OK.grey }));
      if (items.length) groups.push(['QP ' + q.qp, items]);
    }
    let html = '', cards = 0, rows = 0;
    groups.forEach(([name, items], gi) => {
      const g = distGroup(name, items, open && gi < 4);
      html += g.html;
      cards += g.cards;
      rows += g.rows;
    });
    $(elId).innerHTML = html;
    return { cards, rows, groups: groups.length };
  }

  function histHover(el) {
    el.addEventListener('mousemove', (e) => {
      const k = e.target.getAttribute && e.target.getAttribute('data-k');
      if (!k || k[0] !== 'h') { hideTip(); return; }
      const [id, b] = k.slice(1).split('.').map(Number), d = distList[id];
      const c = (d.counts[b - d.first] || 0) + (d.counts[b + 1 - d.first] || 0);
      let below = 0;
      for (let i = d.first; i < b; i++) below += d.counts[i - d.first];
      showTip(e, fmtDur(edge(b)) + ' to ' + fmtDur(edge(b + 2)) + ': ' + fmtInt(c) + ' sample(s)\n' +
        (100 * below / d.stats.count).toFixed(2) + '% below, ' + (100 * (below + c) / d.stats.count).toFixed(2) + '% up to the end');
    });
    el.addEventListener('mouseleave', hideTip);
  }

  function latency() {
    const r = opDists('latency', 'latency-charts', true);
    if (r.groups) $('latency').hidden = false;
    drawn.latency = r.cards + r.rows;
    // delivery histograms open where they are all the timing there is (no
    // Read, Atomic or NVMe latency), folded where latency says more
    const nvmeDists = D.qps.some((q) => q.nvme && q.nvme.dists.length);
    const dl = opDists('delivery', 'delivery-charts', !r.groups && !nvmeDists);
    if (dl.groups) $('delivery').hidden = false;
    if (!r.groups && !nvmeDists) $('delivery-details').open = true;
    drawn.delivery = dl.cards + dl.rows;
    const delayed = D.slowest.delayed_ack;
    $('delivery-note').textContent = delayed ? plural(delayed, 'delivery', 'deliveries') +
      ' only waited for the receiver\'s delayed ACK (a bare ACK 40 ms or more after the last octet, nothing lost): ' +
      'the histograms count them, the slowest list does not.' : '';
    histHover($('latency-charts'));
    histHover($('delivery-charts'));
    histHover($('nvme-charts'));
  }

  // ---- NVMe-oF: per queue, over time and in histograms ----
  function nvme() {
    const list = D.qps.filter((q) => q.nvme);
    if (!list.length) return;
    $('nvme').hidden = false;
    const box = $('nvme-charts');
    let cards = 0;
    list.forEach((q) => {
      const n = q.nvme, ser = n.series;
      const head = document.createElement('h3');
      head.textContent = 'QP ' + q.qp + ' · queue ' + (n.qid === null ? '?' : n.qid + (n.qid === 0 ? ' (admin)' : ' (I/O)')) + ' · ' +
        plural(n.commands, 'command') + ', ' + n.incomplete + ' incomplete, ' + plural(n.errors, 'error') +
        (n.awaiting_event ? ', ' + plural(n.awaiting_event, 'Asynchronous Event Request') + ' outstanding by design' : '');
      box.appendChild(head);
      const iops = document.createElement('div'), lat = document.createElement('div');
      iops.className = lat.className = 'chart';
      box.appendChild(iops);
      box.appendChild(lat);
      const done = ser.completed;
      const mean = done.map((c, b) => (c ? ser.latency_sum_ns[b] / c : null));
      const max = done.map((c, b) => (c ? ser.latency_max_ns[b] : null));
      timeCharts.push([iops, () => drawLines(iops, 'nvme_iops', 'QP ' + q.qp + ': commands completed per second (IOPS), and their data',
        [{ label: 'IOPS', color: OK.blue, values: done }], null, '', perSec, fmtPerSec, null)]);
      timeCharts.push([lat, () => drawLines(lat, 'nvme_latency', 'QP ' + q.qp + ': command latency (mean and max of those completing)',
        [{ label: 'max', color: OK.vermillion, values: max, dots: true }, { label: 'mean', color: OK.blue, values: mean, dots: true }], null, '',
        (v) => v, (v) => trim0(fmtDur(v)), null)]);
      const data = document.createElement('div');
      data.className = 'chart';
      box.appendChild(data);
      if (ser.bytes.some((v) => v)) {
        timeCharts.push([data, () => drawLines(data, 'nvme_bytes', 'QP ' + q.qp + ': data of the commands completed (bit/s)',
          [{ label: 'data', color: OK.green, values: ser.bytes }], null, '', bitsPerSec, fmtRate, null)]);
      } else {
        data.hidden = true;
      }
      for (const el of [iops, lat, data]) {
        zoomable(el, () => el._geom);
        el.addEventListener('mousemove', (e) => el._hover && el._hover(e));
        el.addEventListener('mouseleave', hideTip);
      }
      const items = n.dists.map((d) => ({ name: 'QP ' + q.qp + ' · qid ' + (d.qid === null ? '?' : d.qid) + ' · ' + d.op, d,
        color: OP_COLORS[d.op] || OK.blue }));
      if (items.length) {
        const g = distGroup('QP ' + q.qp + ': command latency by type', items, true);
        box.insertAdjacentHTML('beforeend', g.html);
        cards += g.cards + g.rows;
      }
    });
    // all queues per command type, for the types more than one queue has
    // (else it would repeat that queue's)
    const queues = {};
    for (const q of list) for (const d of q.nvme.dists) queues[d.op] = (queues[d.op] || 0) + 1;
    const allItems = (D.nvme_all || []).filter((d) => queues[d.op] > 1 || D.qps.some((q) => q.qp === null && q.nvme))
      .map((d) => ({ name: 'all queues · ' + d.op, d, color: OP_COLORS[d.op] || OK.grey }));
    if (allItems.length) {
      const g = distGroup('All queues: command latency by type', allItems, true);
      box.insertAdjacentHTML('beforeend', g.html);
      cards += g.cards + g.rows;
    }
    drawn.nvme = cards;
    // fio's ladder: every queue/type, then every type over all queues
    const rows = list.flatMap((q) => q.nvme.dists.map((d) => ['QP ' + q.qp + ' · qid ' + (d.qid === null ? '?' : d.qid) + ' · ' + d.op, d]))
      .concat((D.nvme_all || []).map((d) => ['all queues · ' + d.op, d]));
    const steps = rows.length ? Object.keys(rows[0][1].ladder) : [];
    let lh = '<table class="ops ladder"><thead><tr><th class="why">queue · command</th><th>count</th>' +
      steps.map((k) => '<th>' + esc(String(+k)) + '</th>').join('') + '</tr></thead><tbody>';
    for (const [name, d] of rows) {
      lh += '<tr><td class="why">' + esc(name) + '</td><td>' + d.stats.count + '</td>' +
        steps.map((k) => '<td>' + esc(fmtDur(d.ladder[k])) + '</td>').join('') + '</tr>';
    }
    $('nvme-ladder').innerHTML = rows.length ? lh + '</tbody></table>' : '<p class="empty">No complete command.</p>';
    drawn.nvme_ladder = rows.length;
    // the slowest commands with their data phase
    const slow = D.slowest.waits.filter((w) => w.kind === 'nvme');
    let s = '<table class="ops"><thead><tr><th>#</th><th>QP</th><th>qid</th><th>cid</th><th>op</th><th>latency</th>' +
      '<th>data phase</th><th>bytes</th><th>start</th><th>frames</th><th>data frames</th><th class="why">why</th></tr></thead><tbody>';
    slow.forEach((o, i) => {
      s += '<tr data-q="' + o.qp + '" data-t="' + o.start + '" data-s="' + o.time_ns + '"><td>' + (i + 1) + '</td><td>' + o.qp + '</td><td>' +
        (o.qid === null ? '?' : o.qid) + '</td><td>' + o.cid + '</td><td>' + esc(o.op) + '</td><td>' + esc(fmtDur(o.time_ns)) +
        '</td><td>' + (o.data_first_frame === null ? '–' : esc(fmtDur(o.data_ns))) + '</td><td>' + esc(fmtBytes(o.bytes)) + '</td><td>' +
        esc(clock(o.start)) + '</td><td>' + o.first_frame + '–' + o.last_frame + '</td><td>' +
        (o.data_first_frame === null ? '–' : o.data_first_frame + '–' + o.data_last_frame) + '</td><td class="why">' + esc(o.why) + '</td></tr>';
    });
    $('nvme-slowest').innerHTML = slow.length ? s + '</tbody></table>' : '<p class="empty">No complete command.</p>';
    drawn.nvme_slowest = slow.length;
    $('nvme-slowest').addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-q]');
      if (!tr) return;
      const t = Number(tr.dataset.t), span = Math.max(Number(tr.dataset.s), 1000);
      setView(t - span, t + 2 * span);
      $('timeline').scrollIntoView();
    });
    // statuses: counts per queue and type, then the failed commands
    const st = list.flatMap((q) => q.nvme.statuses.map((x) => Object.assign({ qp: q.qp }, x)));
    if (!st.length) {
      $('nvme-statuses').innerHTML = '<p class="ok">Every completion had status 0 (success).</p>';
      return;
    }
    let h = '<table class="ops"><thead><tr><th>QP</th><th>qid</th><th>op</th><th>status</th><th class="why">name</th><th>count</th></tr></thead><tbody>';
    for (const x of st) {
      h += '<tr><td>' + x.qp + '</td><td>' + (x.qid === null ? '?' : x.qid) + '</td><td>' + esc(x.op) + '</td><td>0x' +
        x.status.toString(16).padStart(4, '0') + '</td><td class="why">' + esc(x.name || '?') + '</td><td>' + x.count + '</td></tr>';
    }
    h += '</tbody></table>';
    if (D.nvme_failed.length) {
      h += '<table class="ops"><thead><tr><th>QP</th><th>qid</th><th>cid</th><th>op</th><th>status</th><th>start</th><th>frames</th></tr></thead><tbody>';
      for (const x of D.nvme_failed) {
        h += '<tr><td>' + x.qp + '</td><td>' + (x.qid === null ? '?' : x.qid) + '</td><td>' + x.cid + '</td><td>' + esc(x.op) +
          '</td><td>0x' + x.status.toString(16).padStart(4, '0') + ' ' + esc(x.name || '') + '</td><td>' + esc(clock(x.start)) +
          '</td><td>' + x.first_frame + '–' + x.last_frame + '</td></tr>';
      }
      h += '</tbody></table>';
    }
    $('nvme-statuses').innerHTML = h;
  }

  // ---- RPC over RDMA: per procedure, the slowest with their phases ----
  function rpc() {
    const R = D.rpc;
    if (!R) return;
    $('rpc').hidden = false;
    const d = (v) => (v === null || v === undefined ? '–' : esc(fmtDur(v)));
    let h = '<table class="ops"><thead><tr><th class="why">procedure</th><th>RPCs</th><th>incomplete</th><th>RDMA bytes</th>' +
      '<th>min</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th>mean</th></tr></thead><tbody>';
    for (const g of R.procs) {
      const l = g.latency_ns, has = l && l.count;
      h += '<tr><td class="why">' + esc(g.proc) + '</td><td>' + g.count + '</td><td>' + (g.count - g.complete) + '</td><td>' +
        esc(fmtBytes(g.rdma_bytes)) + '</td>' + ['min', 'p50', 'p90', 'p99', 'max', 'mean'].map((k) => '<td>' + (has ? d(l[k]) : '–') + '</td>').join('') + '</tr>';
    }
    h += '</tbody></table>';
    if (R.other) h += '<p class="explain">' + esc(plural(R.other, 'RPC') + ' of further procedures not grouped.') + '</p>';
    $('rpc-procs').innerHTML = h;
    if (!R.slowest.length) {
      $('rpc-slowest').innerHTML = '<p class="empty">No complete RPC in the window.</p>';
      return;
    }
    let s = '<table class="ops"><thead><tr><th>#</th><th>QP</th><th>xid</th><th class="why">procedure</th><th>latency</th>' +
      '<th>think</th><th>data</th><th>tail</th><th>RDMA</th><th>start</th><th>frames</th></tr></thead><tbody>';
    R.slowest.forEach((x, i) => {
      s += '<tr data-i="' + i + '"><td>' + (i + 1) + '</td><td>' + x.qp + '</td><td>0x' + x.xid.toString(16).padStart(8, '0') +
        '</td><td class="why">' + esc(x.proc) + '</td><td>' + d(x.latency_ns) + '</td><td>' + d(x.think_ns) + '</td><td>' +
        d(x.data_ns) + '</td><td>' + d(x.tail_ns) + '</td><td>' + (x.rdma_ops ? esc(plural(x.rdma_ops, 'op') + ', ' + fmtBytes(x.rdma_bytes)) : '–') +
        '</td><td>' + esc(clock(x.start)) + '</td><td>' + x.call_frame + '–' + x.reply_frame + '</td></tr>';
    });
    $('rpc-slowest').innerHTML = s + '</tbody></table>';
    $('rpc-slowest').addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-i]');
      if (!tr) return;
      const x = R.slowest[Number(tr.dataset.i)], span = Math.max(x.latency_ns, 1000);
      setView(x.start - span, x.start + 2 * span);
      $('timeline').scrollIntoView();
    });
  }

  // ---- the slowest: waits, then deliveries ----
  function slowTable(el, rows, withKind) {
    if (!rows.length) {
      el.innerHTML = '<p class="empty">' + (withKind ? 'No Read, Atomic or NVMe command with a latency.' : 'No delivery to rank.') + '</p>';
      return 0;
    }
    let s = '<table class="ops"><thead><tr><th>#</th><th>QP</th><th>id</th><th>op</th><th>time</th>' +
      '<th>bytes</th><th>start</th><th>frames</th>' + (withKind ? '' : '<th>ACK frame</th>') + '<th class="why">why</th></tr></thead><tbody>';
    rows.forEach((o, i) => {
      const what = o.kind === 'nvme' ? 'NVMe ' + o.op + ' (cid ' + o.cid + ')' : o.op;
      s += '<tr data-i="' + i + '"><td>' + (i + 1) + '</td><td>' + o.qp + '</td><td>' + o.id + '</td><td>' + esc(what) +
        '</td><td>' + esc(fmtDur(o.time_ns)) + '</td><td>' + esc(fmtBytes(o.bytes)) + '</td><td>' +
        esc(clock(o.start)) + '</td><td>' + o.first_frame + (o.last_frame !== o.first_frame ? '–' + o.last_frame : '') +
        '</td>' + (withKind ? '' : '<td>' + (o.ack_frame === null ? '–' : o.ack_frame) + '</td>') + '<td class="why">' + esc(o.why) + '</td></tr>';
    });
    el.innerHTML = s + '</tbody></table>';
    el.addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-i]');
      if (!tr) return;
      const o = rows[Number(tr.dataset.i)], span = Math.max(o.time_ns, 1000);
      highlight = o.kind === 'nvme' ? null : { qp: o.qp, id: o.id };
      setView(o.start - span, o.start + 2 * span);
      $('timeline').scrollIntoView();
    });
    return rows.length;
  }

  function slowest() {
    drawn.slowest = slowTable($('slowest-table'), D.slowest.waits, true) +
      slowTable($('deliveries-table'), D.slowest.deliveries, false);
    if (D.slowest.delayed_ack) {
      $('deliveries-table').insertAdjacentHTML('beforeend', '<p class="explain">' + esc(plural(D.slowest.delayed_ack, 'delivery', 'deliveries') +
        ' only waited for the receiver\'s delayed ACK (a bare ACK 40 ms or more after the last octet, nothing lost or stalled): not listed.') + '</p>');
    }
  }

  function summaryText() {
    $('summary-text').textContent = D.summary;
    if (D.summary.split('\n').length <= 80) $('summary-details').open = true;
  }

  function opLegend() {
    const used = new Set(ops.map((r) => OP_FAMILY[D.op_types[r[C.op]]]));
    let s = '';
    const fam = {};
    for (const t of D.op_types) if (used.has(OP_FAMILY[t]) && !fam[OP_FAMILY[t]]) fam[OP_FAMILY[t]] = OP_COLORS[t];
    for (const f of Object.keys(fam)) s += '<span><i style="background:' + fam[f] + '"></i>' + f + '</span>';
    s += '<span><i style="background:#fff;border:1px dashed ' + OK.vermillion + '"></i>incomplete</span>' +
      '<span><i class="stall"></i>stalled behind lost octets (end of bar)</span>' +
      '<span><i style="background:' + OK.grey + ';height:2px"></i>waiting for the ACK</span>';
    s += '<span><b style="color:' + OK.vermillion + '">▼</b> fast retransmit</span><span><b>▲</b> retransmission after a timeout</span>' +
      '<span><b style="color:' + OK.blue + '">□</b> zero window</span><span><b>×</b> gap (never captured)</span>';
    s += '<span><i style="background:' + OK.blue + ';width:3px"></i>FIN</span><span><i style="background:' + OK.vermillion +
      ';width:3px"></i>RST</span><span><i style="background:' + OK.black + ';width:3px"></i>Terminate</span>';
    $('legend').innerHTML = s;
  }

  // ---- wiring ----
  function run() {
    header();
    findings();
    opLegend();
    seriesCharts();
    tseqCharts();
    nvme();
    rpc();
    latency();
    slowest();
    summaryText();
    for (const a of document.querySelectorAll('#nav a[data-section]')) {
      if ($(a.dataset.section).hidden) a.hidden = true;
    }
    drawTimeChart(); // last: the page's width is known (scroll bar and all)
    const tl = $('timeline-chart');
    zoomable(tl, () => tl._geom);
    tl.addEventListener('mousemove', timelineHover);
    tl.addEventListener('mouseleave', hideTip);
    for (const id of ['wire-chart', 'goodput-chart', 'inflight-chart', 'rate-chart']) {
      const el = $(id);
      zoomable(el, () => el._geom);
      el.addEventListener('mousemove', (e) => el._hover && el._hover(e));
      el.addEventListener('mouseleave', () => { hideTip(); const c = el.querySelector('.cross'); if (c) c.setAttribute('visibility', 'hidden'); });
    }
    $('zoom-reset').addEventListener('click', () => setView(LO, HI));
    $('zoom-out').addEventListener('click', () => {
      const s = view.t1 - view.t0;
      setView(view.t0 - s / 2, view.t1 + s / 2);
    });
    let resize = null;
    window.addEventListener('resize', () => { clearTimeout(resize); resize = setTimeout(drawTimeChart, 100); });
    // An empty chart with data to draw is a bug: say so.
    const empty = [];
    const any = (k) => D.qps.some((q) => q.series[k + '_i2r'].some((v) => v) || q.series[k + '_r2i'].some((v) => v));
    if (D.ops.total && !drawn.timeline_ops) empty.push('timeline');
    if (any('wire') && !drawn.throughput) empty.push('throughput');
    if (any('goodput') && !drawn.goodput) empty.push('goodput');
    if (D.ops.total && !drawn.rate) empty.push('operations per second');
    if (D.qps.some((q) => (q.dists || []).some((d) => d.kind === 'latency')) && !drawn.latency) empty.push('latency');
    if (D.qps.some((q) => q.nvme && q.nvme.dists.length) && !drawn.nvme) empty.push('NVMe-oF');
    if (empty.length) iwsError('empty chart(s) with data to draw: ' + empty.join(', '));
    document.body.setAttribute('data-iws-charts', JSON.stringify(drawn));
    if (location.hash === '#iws-selftest') selftest();
    document.body.setAttribute('data-iws-done', '1');
  }

  // For the browser test (a headless browser cannot move a mouse): what a
  // user does, as synthetic events, each checked; the page is left zoomed.
  // Labels that touch: every pair of texts of one chart whose boxes
  // intersect by more than a pixel (a label over another is unreadable).
  function overlappingLabels() {
    const found = [];
    for (const svg of document.querySelectorAll('svg')) {
      if (!svg.getClientRects().length) continue;
      const boxes = [];
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent.trim()) continue;
        const b = t.getBBox();
        if (b.width && b.height) boxes.push([b, t.textContent]);
      }
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, ta] = boxes[i], [b, tb] = boxes[j];
          const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
          const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
          // (lines of one label stand 11 px apart in 10 px type: their
          // boxes touch by a pixel or two, the glyphs do not)
          if (w > 1 && h > 0.35 * Math.min(a.height, b.height)) found.push('"' + ta + '" over "' + tb + '"' + (svg.parentNode.id ? ' in ' + svg.parentNode.id : ''));
        }
      }
    }
    return found;
  }

  // What the whole-capture view must show before any zoom: legends drawn as
  // the charts draw (the dashed swatch a dashed line), every retransmission
  // of a time-sequence view marked, no label over another.
  function selftestWholeView(fail) {
    for (const i of document.querySelectorAll('.legend i.dash')) {
      const st = getComputedStyle(i);
      if (st.borderTopStyle !== 'dashed' || i.getBoundingClientRect().height > 3) fail('the dashed legend swatch is not a dashed line');
    }
    if (document.querySelector('#throughput svg [stroke-dasharray="6 2"]') && !document.querySelector('#legend-qps i.dash'))
      fail('dashed lines in the throughput charts but no dashed swatch in their legend');
    for (const el of document.querySelectorAll('#tseq-charts .chart')) {
      const marks = el.querySelectorAll('[data-k="retx"]').length;
      if (marks !== el._wantRetx) fail('time-sequence: ' + marks + ' retransmission marks for ' + el._wantRetx + ' retransmitted segments');
    }
    const o = overlappingLabels();
    if (o.length) fail('labels overlap (whole capture): ' + o.slice(0, 4).join('; '));
  }

  function selftest() {
    const fail = (what) => iwsError('selftest: ' + what);
    selftestWholeView(fail);
    const tl = $('timeline-chart'), at = (el, type, x, extra) => {
      const r = el.getBoundingClientRect();
      const o = Object.assign({ bubbles: true, cancelable: true, clientX: r.left + x, clientY: r.top + 40 }, extra || {});
      el.dispatchEvent(type === 'wheel' ? new WheelEvent(type, o) : type === 'keydown' ? new KeyboardEvent(type, o) : new MouseEvent(type, o));
    };
    const bar = tl.querySelector('[data-k^="o"]');
    if (bar) {
      const b = bar.getBoundingClientRect();
      bar.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: b.left + 1, clientY: b.top + 1 }));
      if (tip.hidden || !/QP \d+/.test(tip.textContent)) fail('hovering an operation shows no tooltip');
      hideTip();
    } else if (D.ops.total) fail('no operation bar to hover');
    if (!D.qps.length) return;
    const g = tl._geom, before = view.t1 - view.t0;
    at(tl, 'wheel', (g.left + g.right) / 2, { deltaY: -100 });
    drawTimeChart();
    if (!(view.t1 - view.t0 < before)) fail('the wheel does not zoom in');
    at(tl, 'keydown', 0, { key: 'ArrowRight' });
    at(tl, 'dblclick', g.left + 10);
    drawTimeChart();
    if (view.t0 !== LO || view.t1 !== HI) fail('a double-click does not show the whole capture (or window)');
    at(tl, 'mousedown', g.left + (g.right - g.left) * 0.3);
    window.dispatchEvent(new MouseEvent('mousemove', { clientX: tl.getBoundingClientRect().left + g.left + (g.right - g.left) * 0.5 }));
    window.dispatchEvent(new MouseEvent('mouseup', { clientX: tl.getBoundingClientRect().left + g.left + (g.right - g.left) * 0.5 }));
    drawTimeChart();
    if (!(view.t1 - view.t0 < (HI - LO) * 0.3)) fail('dragging a span does not zoom to it');
    const th = $('wire-chart');
    if (th._geom) {
      at(th, 'mousemove', th._geom.left + 5);
      if (th._hover && tip.hidden && view.t0 <= 0) fail('hovering the throughput shows no tooltip');
      hideTip();
    }
    const wi = D.slowest.waits.findIndex((w) => w.kind === 'rdma');
    const row = wi >= 0 ? document.querySelector('#slowest-table tr[data-i="' + wi + '"]')
      : document.querySelector('#deliveries-table tr[data-i]');
    if (row) {
      row.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      drawTimeChart();
      if (!tl.querySelector('.hl')) fail('the slowest operation clicked is not highlighted on the timeline');
    }
    const o = overlappingLabels();
    if (o.length) fail('labels overlap (zoomed): ' + o.slice(0, 4).join('; '));
    document.body.setAttribute('data-iws-selftest', 'ok');
  }
  run();
})();
