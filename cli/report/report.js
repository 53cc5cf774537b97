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
  function fmtBytes(b) {
    if (b < 1000) return Math.round(b) + ' B';
    if (b < 1e6) return sig4(b / 1e3, ' kB');
    if (b < 1e9) return sig4(b / 1e6, ' MB');
    return sig4(b / 1e9, ' GB');
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

  // ---- colours ----
  const OP_COLORS = {
    write: '#2f6db5', read: '#2e9b4f', send: '#e08a1e', send_inv: '#c9711a', send_se: '#eda24a',
    send_se_inv: '#b5651d', immediate: '#8b5fbf', immediate_se: '#a07ad0', atomic_fetch_add: '#8c564b',
    atomic_cmp_swap: '#a8786d', atomic_swap: '#6f4038', terminate: '#c62828',
  };
  const QP_COLORS = ['#2f6db5', '#2e9b4f', '#e08a1e', '#8b5fbf', '#c62828', '#17becf', '#8c564b',
    '#e377c2', '#7f7f7f', '#bcbd22'];
  const qpColor = (i, q) => (q.qp === null ? '#9aa1ae' : QP_COLORS[i % QP_COLORS.length]);
  const MARKS = {
    fast_retransmit: { color: '#e65100', title: 'fast retransmit' },
    timeout: { color: '#c62828', title: 'retransmission after a timeout' },
    zero_window: { color: '#7b1fa2', title: 'zero window' },
    gap: { color: '#000000', title: 'gap: octets never captured' },
  };
  const TEARDOWN = [null, { name: 'FIN', color: '#1a5fb4' }, { name: 'RST', color: '#c62828' },
    { name: 'Terminate', color: '#7f0000' }];

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
    $('facts').textContent = fmtInt(cap.frames) + ' frames, ' + fmtBytes(cap.bytes) + ' in ' +
      fmtDur(cap.duration_ns) + ', from ' + clock(0, true) + ' (' + D.tz.name + '); ' +
      fmtInt(cap.tcp_connections) + ' TCP connections, ' + fmtInt(cap.qps) + ' iWARP QPs, ' +
      fmtInt(cap.operations) + ' operations (' + fmtInt(cap.incomplete) + ' incomplete). ' + D.generator + '.';
    const notes = [];
    if (D.ops.drawn < D.ops.total) {
      notes.push('The timeline draws ' + fmtInt(D.ops.drawn) + ' of ' + fmtInt(D.ops.total) +
        ' operations (--limit ' + D.ops.cap + '): the most troubled (of ' + fmtInt(D.ops.troubled) +
        ' with loss, stalls or errors), the slowest, and an even sample of the rest; grey shading ' +
        'behind each QP shows where all of them started.');
    }
    const others = D.qps.find((q) => q.qp === null);
    if (others) {
      notes.push(others.nqps + ' QPs beyond the first ' + (D.qps.length - 1) +
        ' are drawn together as "other QPs" (their own numbers are in the summary).');
    }
    notes.push('Time buckets of ' + fmtDur(W) + ' (' + D.grid.buckets + ' over the capture).');
    if (D.summary_cut) notes.push('The summary text below is cut at 1 MB.');
    $('notes').innerHTML = notes.map((n) => '<li>' + esc(n) + '</li>').join('');
  }

  // The summary's "!" lines, and what TCP did to each QP.
  function findings() {
    const out = [], global = [];
    let qp = null;
    let last = null;
    for (const line of D.summary.split('\n')) {
      const m = /^QP (\d+)\s/.exec(line);
      if (m) { qp = Number(m[1]); last = null; continue; }
      if (/^(Operations|Latency|Delivery)\b/.test(line)) qp = -1;
      const f = /^\s*! (.*)$/.exec(line);
      if (f && qp !== -1) {
        last = { qp, text: f[1] };
        (qp === null ? global : out).push(last);
      } else if (last && /^ {4,}\S/.test(line)) {
        // a finding's detail lines ("      i2r seq 123, 1460 octets, ...")
        last.text = last.text.replace(/:$/, '') + (/[:;]$/.test(last.text) || last.more ? '; ' : ': ') + line.trim();
        last.more = true;
      } else {
        last = null;
      }
    }
    for (const q of D.qps) {
      if (q.qp === null) continue;
      const t = q.tcp, n = t.fast_retransmits + t.timeouts;
      if (n) {
        out.push({ qp: q.qp, text: n + ' TCP retransmission' + (n === 1 ? '' : 's') + ' (' + t.fast_retransmits +
          ' fast, ' + t.timeouts + ' after a timeout), ' + t.duplicate_acks + ' duplicate ACKs' +
          (q.stall_ns ? '; operations waited ' + fmtDur(q.stall_ns) + ' in all behind lost octets' : '') });
      }
      if (t.zero_windows) {
        out.push({ qp: q.qp, text: t.zero_windows + ' segment' + (t.zero_windows === 1 ? '' : 's') +
          ' advertising a zero window (a receiver had no room)' });
      }
    }
    out.sort((a, b) => a.qp - b.qp);
    const el = $('findings-list');
    if (!out.length && !global.length) {
      el.innerHTML = '<p class="ok">Nothing went wrong that iwarpscope can see: no gaps, no ' +
        'incomplete operations, no Terminates, no CRC errors, no limits reached.</p>';
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
  const view = { t0: 0, t1: FULL };
  let highlight = null; // {qp, id}
  let redrawPending = false;
  function setView(t0, t1) {
    const minSpan = 1000;
    if (t1 - t0 < minSpan) { const m = (t0 + t1) / 2; t0 = m - minSpan / 2; t1 = m + minSpan / 2; }
    const span = Math.min(t1 - t0, FULL * 1.02);
    t0 = Math.max(Math.min(t0, FULL - span), -FULL * 0.01);
    view.t0 = t0;
    view.t1 = t0 + span;
    if (!redrawPending) {
      redrawPending = true;
      requestAnimationFrame(() => { redrawPending = false; drawTimeChart(); });
    }
  }
  function drawTimeChart() {
    drawTimeline();
    drawSeries($('throughput-chart'), 'bytes', 'Throughput', (v) => v * 8 / (W / 1e9), fmtRate);
    drawSeries($('rate-chart'), 'ops', 'Operations started per second', (v) => v / (W / 1e9), fmtPerSec);
    $('zoom-range').textContent = 'showing ' + axisLabel(Math.max(0, view.t0)) + ' to ' + axisLabel(view.t1) +
      ' of ' + fmtDur(FULL);
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
    el.addEventListener('dblclick', () => setView(0, FULL));
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

  // ---- timeline ----
  const LABEL_W = 190, LANE_H = 7, MAX_LANES = 10, MARK_H = 14;
  const tlRows = D.qps.map((q, i) => ({ q, i, ops: [] }));
  const rowOfQp = new Map();
  tlRows.forEach((r) => { if (r.q.qp !== null) rowOfQp.set(r.q.qp, r); });
  const otherRow = tlRows.find((r) => r.q.qp === null);
  ops.forEach((r, k) => {
    const row = rowOfQp.get(r[C.qp]) || otherRow;
    if (row) row.ops.push(k);
  });

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
    if (r[C.retransmissions]) lines.push(r[C.retransmissions] + ' TCP retransmission(s)');
    if (r[C.stall]) lines.push('stalled ' + fmtDur(r[C.stall]) + ' behind lost octets');
    if (!r[C.complete]) lines.push('INCOMPLETE');
    if (r[C.flags]) lines.push('flags: ' + flagsText(r[C.flags]));
    return lines.filter((l) => l).join('\n');
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
      const q = row.q;
      // lanes: greedy, in pixels at this zoom (start order)
      const laneEnd = [], place = [];
      for (const k of row.ops) {
        const r = ops[k];
        if (r[C.end] < t0 || r[C.start] > t1) continue;
        const a = x(r[C.start]), b = Math.max(x(r[C.end]), a + 1.5);
        let lane = laneEnd.findIndex((e) => e <= a);
        if (lane < 0) {
          if (laneEnd.length < MAX_LANES) lane = laneEnd.push(0) - 1;
          else lane = laneEnd.indexOf(Math.min(...laneEnd));
        }
        laneEnd[lane] = b + 1;
        place.push([k, lane, a, b]);
      }
      const lanes = Math.max(1, laneEnd.length);
      const h = Math.max(q.qp === null ? 20 : 44, lanes * LANE_H + MARK_H + 8);
      let s = '<g data-row="' + (q.qp === null ? 'other' : q.qp) + '">';
      s += '<rect x="0" y="' + y + '" width="' + right + '" height="' + h + '" fill="' +
        (row.i % 2 ? '#fafbfc' : '#ffffff') + '"/>';
      s += '<text x="6" y="' + (y + 13) + '" font-weight="600">' + esc(qpLabel(q)) + '</text>';
      if (q.qp !== null) {
        s += '<text x="6" y="' + (y + 26) + '" class="lbl" font-size="10">' + esc(q.initiator) + '</text>';
        s += '<text x="6" y="' + (y + 37) + '" class="lbl" font-size="10">→ ' + esc(q.responder) + '</text>';
      }
      if (sampled) {
        // where every operation started: the grid's counts as shading
        const ser = q.series.ops, bmax = Math.max(1, ...ser);
        const b0 = Math.max(0, Math.floor(t0 / W)), b1 = Math.min(ser.length - 1, Math.ceil(t1 / W));
        for (let b = b0; b <= b1; b++) {
          if (!ser[b]) continue;
          const a = clip(x(b * W)), e = clip(x((b + 1) * W));
          s += '<rect x="' + a + '" y="' + (y + 2) + '" width="' + Math.max(0.5, e - a) + '" height="' +
            (lanes * LANE_H) + '" fill="#5c6475" fill-opacity="' + (0.05 + 0.25 * ser[b] / bmax).toFixed(3) +
            '" data-k="d' + row.i + '.' + b + '"/>';
        }
      }
      for (const [k, lane, a, b] of place) {
        const r = ops[k], yy = y + 3 + lane * LANE_H, col = OP_COLORS[D.op_types[r[C.op]]] || '#666';
        const ca = clip(a), cb = clip(b);
        const bad = !r[C.complete];
        s += '<rect x="' + ca.toFixed(1) + '" y="' + yy + '" width="' + Math.max(1, cb - ca).toFixed(1) +
          '" height="' + (LANE_H - 2) + '" fill="' + col + '"' +
          (bad ? ' fill-opacity="0.35" stroke="#c62828" stroke-width="1"' : '') +
          (r[C.retransmissions] ? ' stroke="#e65100" stroke-width="1"' : '') + ' data-k="o' + k + '"/>';
        if (r[C.stall]) {
          const sa = clip(x(r[C.end] - r[C.stall]));
          s += '<rect x="' + sa.toFixed(1) + '" y="' + (yy + 1) + '" width="' + Math.max(1, cb - sa).toFixed(1) +
            '" height="' + (LANE_H - 4) + '" fill="#ff8f00" data-k="o' + k + '"/>';
        }
        if (r[C.ack] !== null && r[C.start] + r[C.ack] > r[C.end]) {
          const aa = clip(x(r[C.start] + r[C.ack]));
          if (aa - cb > 1) s += '<line x1="' + cb.toFixed(1) + '" x2="' + aa.toFixed(1) + '" y1="' + (yy + 2.5) +
            '" y2="' + (yy + 2.5) + '" stroke="#9aa1ae" stroke-width="1" data-k="o' + k + '"/>';
        }
        if (highlight && highlight.qp === r[C.qp] && highlight.id === r[C.id]) {
          s += '<rect class="hl" x="' + (ca - 3) + '" y="' + (yy - 3) + '" width="' + (cb - ca + 6) + '" height="' + (LANE_H + 4) + '"/>';
        }
        nOps++;
      }
      // TCP events under the lanes
      const my = y + lanes * LANE_H + 6;
      (q.marks || []).forEach((m, i) => {
        if (m[2] < t0 || m[2] > t1) return;
        const px = x(m[2]), kind = D.mark_kinds[m[0]], st = MARKS[kind];
        const shape = kind === 'zero_window'
          ? '<rect x="' + (px - 3) + '" y="' + my + '" width="6" height="6"'
          : kind === 'gap'
            ? '<path d="M' + (px - 3) + ' ' + my + 'l6 6m0 -6l-6 6" stroke="' + st.color + '" stroke-width="1.5"'
            : '<path d="M' + px + ' ' + my + 'l4 7h-8z"';
        s += shape + ' fill="' + st.color + '" data-k="m' + row.i + '.' + i + '"/>';
        nMarks++;
      });
      (q.teardown || []).forEach((t, i) => {
        if (t[2] < t0 || t[2] > t1) return;
        const px = x(t[2]), td = TEARDOWN[t[0]] || TEARDOWN[1];
        s += '<line x1="' + px + '" x2="' + px + '" y1="' + y + '" y2="' + (y + h) + '" stroke="' + td.color +
          '" stroke-width="2" data-k="t' + row.i + '.' + i + '"/>' +
          '<text x="' + (px > right - 60 ? px - 3 : px + 3) + '" y="' + (y + h - 3 - 10 * (i % 3)) +
          '"' + (px > right - 60 ? ' text-anchor="end"' : '') + ' fill="' + td.color + '" font-size="10" data-k="t' +
          row.i + '.' + i + '">' + td.name + '</text>';
        nMarks++;
      });
      body += s + '</g>';
      y += h;
    }
    let svg = '<svg xmlns="' + NS + '" width="' + width + '" height="' + (y + 4) + '">';
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
        ' at ' + clock(t[2]) + ' (' + rel(t[2]) + ')\n' + t[4] + ' operation(s) outstanding';
    } else if (kind === 'd') {
      const q = tlRows[a].q;
      text = qpLabel(q) + ': ' + fmtInt(q.series.ops[b]) + ' operation(s) started in ' + rel(b * W) + ' + ' + fmtDur(W);
    }
    showTip(e, text);
  }

  function flashRow(qp) {
    const g = document.querySelector('#timeline-chart g[data-row="' + qp + '"] rect');
    if (!g) return;
    g.setAttribute('fill', '#fff3c4');
    setTimeout(() => drawTimeline(), 1500);
  }

  // ---- throughput and ops/s: one line per QP, a thicker one for all ----
  function drawSeries(el, key, title, toY, fmtY) {
    const width = Math.max(700, el.clientWidth || 1100), height = 220;
    const left = LABEL_W, right = width - 12, top = 26, bottom = height - 22, pw = right - left;
    const t0 = view.t0, t1 = view.t1, n = D.grid.buckets;
    const x = (t) => left + (t - t0) / (t1 - t0) * pw;
    const b0 = Math.max(0, Math.floor(t0 / W)), b1 = Math.min(n - 1, Math.ceil(t1 / W));
    const total = new Array(n).fill(0), retr = new Array(n).fill(0);
    for (const q of D.qps) {
      for (let b = 0; b < n; b++) { total[b] += q.series[key][b]; retr[b] += q.series.retransmissions[b]; }
    }
    let ymax = 0;
    for (let b = b0; b <= b1; b++) ymax = Math.max(ymax, toY(total[b]));
    if (!ymax) ymax = 1;
    const ystep = niceStep(ymax, 4);
    ymax = Math.ceil(ymax / ystep) * ystep;
    const y = (v) => bottom - v / ymax * (bottom - top);
    const line = (vals) => {
      let d = '';
      for (let b = b0; b <= b1; b++) {
        const xa = Math.max(left, x(b * W)), xb = Math.min(right, x((b + 1) * W)), yy = y(toY(vals[b])).toFixed(1);
        d += (d ? 'L' : 'M') + xa.toFixed(1) + ' ' + yy + 'H' + xb.toFixed(1);
      }
      return d;
    };
    let s = '<svg xmlns="' + NS + '" width="' + width + '" height="' + height + '">';
    s += '<text x="6" y="16" font-weight="600">' + esc(title) + '</text>';
    s += axisSvg(x, t0, t1, left, right, bottom, top - bottom, height - 6);
    for (let v = 0; v <= ymax; v += ystep) {
      s += '<line x1="' + left + '" x2="' + right + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="#eceef2"/>' +
        '<text x="' + (left - 6) + '" y="' + (y(v) + 4) + '" text-anchor="end" class="lbl">' + esc(trim0(fmtY(v))) + '</text>';
    }
    let points = 0;
    if (D.qps.length > 1) {
      D.qps.forEach((q, i) => {
        s += '<path d="' + line(q.series[key]) + '" fill="none" stroke="' + qpColor(i, q) + '" stroke-width="1.2"/>';
      });
    }
    s += '<path d="' + line(total) + '" fill="none" stroke="#1d2330" stroke-width="' + (D.qps.length > 1 ? 1.8 : 1.4) + '"/>';
    points += Math.max(0, b1 - b0 + 1);
    for (let b = b0; b <= b1; b++) {
      if (!retr[b]) continue;
      const px = Math.max(left, x((b + 0.5) * W));
      s += '<line x1="' + px + '" x2="' + px + '" y1="' + bottom + '" y2="' + (bottom - 4 - 3 * Math.log2(1 + retr[b])) +
        '" stroke="#c62828" stroke-width="2"/>';
    }
    s += '<line class="cross" x1="0" x2="0" y1="' + top + '" y2="' + bottom + '" stroke="#9aa1ae" visibility="hidden"/>';
    s += '<rect class="sel" x="0" y="' + top + '" width="0" height="' + (bottom - top) + '"/></svg>';
    if (!D.qps.length) s = '<p class="empty">No iWARP operations in this capture.</p>';
    el.innerHTML = s;
    el._geom = { left, right };
    el._hover = (e) => {
      const r = el.getBoundingClientRect(), px = e.clientX - r.left;
      if (px < left || px > right) { hideTip(); return; }
      const t = t0 + (px - left) / pw * (t1 - t0), b = Math.floor(t / W);
      if (b < 0 || b >= n) { hideTip(); return; }
      const cross = el.querySelector('.cross');
      cross.setAttribute('x1', px); cross.setAttribute('x2', px); cross.setAttribute('visibility', 'visible');
      const rows = D.qps.map((q, i) => [q, i, q.series[key][b]]).filter((v) => v[2]).sort((a, c) => c[2] - a[2]);
      let text = rel(b * W) + ' + ' + fmtDur(W) + '\nall QPs: ' + fmtY(toY(total[b]));
      if (retr[b]) text += ' · ' + retr[b] + ' retransmission(s)';
      if (D.qps.length > 1) for (const [q, , v] of rows.slice(0, 10)) text += '\n' + qpLabel(q) + ': ' + fmtY(toY(v));
      showTip(e, text);
    };
    drawn[key === 'bytes' ? 'throughput' : 'rate'] = points;
  }

  function seriesLegend() {
    if (D.qps.length < 2) return;
    let s = '<div class="legend"><span><i style="background:#1d2330"></i>all QPs</span>';
    D.qps.forEach((q, i) => { s += '<span><i style="background:' + qpColor(i, q) + '"></i>' + esc(qpLabel(q)) + '</span>'; });
    $('throughput-chart').insertAdjacentHTML('beforebegin', s + '</div>');
  }

  function opLegend() {
    const used = new Set(ops.map((r) => D.op_types[r[C.op]]));
    let s = '';
    for (const t of D.op_types) if (used.has(t)) s += '<span><i style="background:' + OP_COLORS[t] + '"></i>' + t + '</span>';
    s += '<span><i style="background:#fff;border:1px solid #c62828"></i>incomplete</span>' +
      '<span><i style="background:#ff8f00"></i>stalled behind lost octets (end of bar)</span>' +
      '<span><i style="background:#9aa1ae;height:2px"></i>waiting for the ACK</span>';
    for (const k of D.mark_kinds) s += '<span><i style="background:' + MARKS[k].color + '"></i>' + MARKS[k].title + '</span>';
    s += '<span><i style="background:#1a5fb4;width:3px"></i>FIN</span><span><i style="background:#c62828;width:3px"></i>RST</span>' +
      '<span><i style="background:#7f0000;width:3px"></i>Terminate</span>';
    $('legend').innerHTML = s;
  }

  // ---- latency and delivery: histogram + CDF per QP and op ----
  const PD = D.hist.per_decade;
  const edge = (b) => (b <= 0 ? 0.5 : Math.pow(10, (b - 1) / PD)); // lower edge of bin b, ns
  const distList = [];

  function distSvg(d, id) {
    const width = 440, height = 200, left = 48, right = width - 40, top = 22, bottom = height - 28;
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
    const col = OP_COLORS[d.op] || '#666';
    let s = '<svg xmlns="' + NS + '" width="' + width + '" height="' + height + '" data-dist="' + id + '">';
    // decade ticks (and 2, 5 in between when the range is short); a label
    // only where it has room
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
        '" height="' + (bottom - y(c)).toFixed(1) + '" fill="' + col + '" fill-opacity="0.55" data-k="h' + id + '.' + b + '"/>';
    }
    // CDF: a staircase at each bin's upper edge
    let cum = 0, path = 'M' + x(edge(first)).toFixed(1) + ' ' + yc(0);
    for (let b = first; b <= last; b++) {
      cum += counts[b - first];
      path += 'H' + x(edge(b + 1)).toFixed(1) + 'V' + yc(cum / total).toFixed(1);
    }
    s += '<path d="' + path + '" fill="none" stroke="#1d2330" stroke-width="1.3"/>';
    // percentiles from the statistics
    const st = d.stats;
    let lastX = -1e9, row = 0;
    [['p50', st.p50], ['p90', st.p90], ['p99', st.p99], ['p99.9', st.p999]].forEach(([name, v]) => {
      const px = x(v);
      row = px - lastX < 30 ? row + 1 : 0;
      lastX = px;
      s += '<line x1="' + px + '" x2="' + px + '" y1="' + (top - 2) + '" y2="' + bottom + '" stroke="#c62828" stroke-dasharray="3 2"/>' +
        '<text x="' + (px > right - 34 ? px - 2 : px + 2) + '" y="' + (top - 4 + row * 10) + '"' +
        (px > right - 34 ? ' text-anchor="end"' : '') + ' fill="#c62828" font-size="10">' + name + '</text>';
    });
    // axes: counts left, CDF right
    s += '<text x="' + (left - 6) + '" y="' + (top + 4) + '" text-anchor="end" class="lbl">' + fmtInt(cmax) + '</text>' +
      '<text x="' + (left - 6) + '" y="' + bottom + '" text-anchor="end" class="lbl">0</text>' +
      '<text x="' + (right + 6) + '" y="' + (top + 4) + '" class="lbl">100%</text>' +
      '<text x="' + (right + 6) + '" y="' + ((top + bottom) / 2 + 4) + '" class="lbl">50%</text>' +
      '<text x="' + (right + 6) + '" y="' + bottom + '" class="lbl">0%</text>';
    return { svg: s + '</svg>', total };
  }

  function distCard(q, d) {
    const id = distList.push(d) - 1;
    const { svg } = distSvg(d, id);
    const st = d.stats;
    const what = d.kind === 'latency' ? 'latency' : 'delivery (to the ACK)';
    let s = '<div class="card"><h4>' + esc(q) + ' · ' + esc(d.op) + ' ' + what + ' · ' + fmtInt(st.count) + '</h4>' + svg;
    s += '<table><tr><th>min</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr><tr>';
    for (const v of [st.min, st.mean, st.p50, st.p90, st.p99, st.p999, st.max]) s += '<td>' + esc(fmtDur(v)) + '</td>';
    return s + '</tr></table></div>';
  }

  function latency() {
    const el = $('latency-charts');
    const groups = [];
    const named = D.qps.filter((q) => q.qp !== null);
    if (named.length > 1 || D.qps.length > named.length) groups.push(['All QPs', D.all.dists]);
    for (const q of named) groups.push(['QP ' + q.qp, q.dists]);
    let html = '', cards = 0;
    groups.forEach(([name, dists], gi) => {
      if (!dists.length) return;
      html += '<details class="qp-latency"' + (gi < 4 ? ' open' : '') + '><summary>' + esc(name) + '</summary><div class="cards">';
      for (const d of dists) { html += distCard(name, d); cards++; }
      html += '</div></details>';
    });
    el.innerHTML = html || '<p class="empty">No complete operation with a latency or an ACK.</p>';
    drawn.latency = cards;
    el.addEventListener('mousemove', (e) => {
      const k = e.target.getAttribute && e.target.getAttribute('data-k');
      if (!k || k[0] !== 'h') { hideTip(); return; }
      const [id, b] = k.slice(1).split('.').map(Number), d = distList[id];
      const c = (d.counts[b - d.first] || 0) + (d.counts[b + 1 - d.first] || 0);
      let below = 0;
      for (let i = d.first; i < b; i++) below += d.counts[i - d.first];
      showTip(e, fmtDur(edge(b)) + ' to ' + fmtDur(edge(b + 2)) + ': ' + fmtInt(c) + ' operation(s)\n' +
        (100 * below / d.stats.count).toFixed(2) + '% below, ' + (100 * (below + c) / d.stats.count).toFixed(2) + '% up to the end');
    });
    el.addEventListener('mouseleave', hideTip);
  }

  // ---- slowest operations ----
  function slowest() {
    const el = $('slowest-table');
    if (!D.slowest.length) {
      el.innerHTML = '<p class="empty">No operation has a latency or an ACK.</p>';
      return;
    }
    let s = '<table class="ops"><thead><tr><th>#</th><th>QP</th><th>id</th><th>op</th><th>time</th><th>of</th>' +
      '<th>bytes</th><th>start</th><th>frames</th><th>ACK frame</th><th class="why">why</th></tr></thead><tbody>';
    D.slowest.forEach((o, i) => {
      s += '<tr data-i="' + i + '"><td>' + (i + 1) + '</td><td>' + o.qp + '</td><td>' + o.id + '</td><td>' + esc(o.op) +
        '</td><td>' + esc(fmtDur(o.time_ns)) + '</td><td>' + o.kind + '</td><td>' + esc(fmtBytes(o.bytes)) + '</td><td>' +
        esc(clock(o.start)) + '</td><td>' + o.first_frame + (o.last_frame !== o.first_frame ? '–' + o.last_frame : '') +
        '</td><td>' + (o.ack_frame === null ? '–' : o.ack_frame) + '</td><td class="why">' + esc(o.why) + '</td></tr>';
    });
    el.innerHTML = s + '</tbody></table>';
    drawn.slowest = D.slowest.length;
    el.addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-i]');
      if (!tr) return;
      const o = D.slowest[Number(tr.dataset.i)], span = Math.max(o.time_ns, 1000);
      highlight = { qp: o.qp, id: o.id };
      setView(o.start - span, o.start + 2 * span);
      $('timeline').scrollIntoView();
    });
  }

  function summaryText() {
    $('summary-text').textContent = D.summary;
    if (D.summary.split('\n').length <= 80) $('summary-details').open = true;
  }

  // ---- wiring ----
  function run() {
    header();
    findings();
    opLegend();
    seriesLegend();
    latency();
    slowest();
    summaryText();
    drawTimeChart(); // last: the page's width is known (scroll bar and all)
    const tl = $('timeline-chart');
    zoomable(tl, () => tl._geom);
    tl.addEventListener('mousemove', timelineHover);
    tl.addEventListener('mouseleave', hideTip);
    for (const id of ['throughput-chart', 'rate-chart']) {
      const el = $(id);
      zoomable(el, () => el._geom);
      el.addEventListener('mousemove', (e) => el._hover && el._hover(e));
      el.addEventListener('mouseleave', () => { hideTip(); const c = el.querySelector('.cross'); if (c) c.setAttribute('visibility', 'hidden'); });
    }
    $('zoom-reset').addEventListener('click', () => setView(0, FULL));
    $('zoom-out').addEventListener('click', () => {
      const s = view.t1 - view.t0;
      setView(view.t0 - s / 2, view.t1 + s / 2);
    });
    let resize = null;
    window.addEventListener('resize', () => { clearTimeout(resize); resize = setTimeout(drawTimeChart, 100); });
    // An empty chart with data to draw is a bug: say so.
    const empty = [];
    if (D.ops.total && !drawn.timeline_ops) empty.push('timeline');
    if (D.ops.total && !drawn.throughput) empty.push('throughput');
    if (D.ops.total && !drawn.rate) empty.push('operations per second');
    if ((D.all.dists.length || D.qps.some((q) => q.dists && q.dists.length)) && !drawn.latency) empty.push('latency');
    if (empty.length) iwsError('empty chart(s) with data to draw: ' + empty.join(', '));
    document.body.setAttribute('data-iws-charts', JSON.stringify(drawn));
    if (location.hash === '#iws-selftest') selftest();
    document.body.setAttribute('data-iws-done', '1');
  }

  // For the browser test (a headless browser cannot move a mouse): what a
  // user does, as synthetic events, each checked; the page is left zoomed.
  function selftest() {
    const fail = (what) => iwsError('selftest: ' + what);
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
    if (view.t0 !== 0 || view.t1 !== FULL) fail('a double-click does not show the whole capture');
    at(tl, 'mousedown', g.left + (g.right - g.left) * 0.3);
    window.dispatchEvent(new MouseEvent('mousemove', { clientX: tl.getBoundingClientRect().left + g.left + (g.right - g.left) * 0.5 }));
    window.dispatchEvent(new MouseEvent('mouseup', { clientX: tl.getBoundingClientRect().left + g.left + (g.right - g.left) * 0.5 }));
    drawTimeChart();
    if (!(view.t1 - view.t0 < FULL * 0.3)) fail('dragging a span does not zoom to it');
    const th = $('throughput-chart');
    at(th, 'mousemove', th._geom.left + 5);
    const row = document.querySelector('#slowest-table tr[data-i]');
    if (row) {
      row.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      drawTimeChart();
      if (!tl.querySelector('.hl')) fail('the slowest operation clicked is not highlighted on the timeline');
    }
    document.body.setAttribute('data-iws-selftest', 'ok');
  }
  run();
})();
