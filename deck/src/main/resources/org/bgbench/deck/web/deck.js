// BG deck: the set-up forms (built from /api/forms), the live view (/api/live, server-sent events) and the results.
'use strict';
const $ = s => document.querySelector(s);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};
// Every POST carries this header: the deck refuses a cookie-authenticated POST without it, and no other site's page
// can add it (a custom header needs the deck's consent, which it never gives).
const post = (url, body) => fetch(url, {method: 'POST', headers: {'X-Bg-Deck': '1'}, body});
const fmt = (v, d = 1) => v == null || Number.isNaN(v) ? '–' : Number(v).toLocaleString('en', {maximumFractionDigits: d});
const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7ea4', '#57606a'];

// The options each command offers: [name, label, placeholder (BG's default), 'flag' or 'flag-on' (ticked)].
const OPTIONS = {
  run: [['--threads', 'T, members at once', '1'], ['--duration', 'duration', '60s'], ['--warmup', 'warm-up', 'a sixth of it, at most 10s'],
        ['--beta', 'β', '100ms'], ['--load', 'load the graph first if needed', 'flag-on'], ['--workers', 'workers HOST:PORT,… (empty: local)', ''],
        ['--store-host', "store hosts' node exporters HOST[:PORT],…", ''], ['--metrics', 'Prometheus endpoint HOST:PORT', '']],
  rate: [['--sla', 'SLA α:β:τ:Δ', '95%:100ms:0.01%:60s'], ['--target', 'soar, socialites or both', 'both'], ['--delta', 'δ per experiment', '10s'],
         ['--warmup', 'warm-up', '2s'], ['--max-threads', 'largest T', '1024'], ['--reset', 'reset between experiments', 'auto'],
         ['--no-confirm', 'skip the confirmation run', 'flag'], ['--workers', 'workers HOST:PORT,… (empty: local)', ''],
         ['--store-host', "store hosts' node exporters HOST[:PORT],…", ''], ['--metrics', 'Prometheus endpoint HOST:PORT', '']],
  load: [['--threads', 'loader threads', '2 × cores'], ['--replace', 'replace a graph the store holds', 'flag']],
  delta: [['--method', 'experiments or windows', 'experiments'], ['--threads', 'T (no search)', 'found by probing'], ['--duration', 'Δ', '60s'],
          ['--deltas', 'windows: δ candidates S,S,…', '1,2,3,5,10,15,20,30,60,120,…'],
          ['--warmup', 'warm-up', '1s']],
  sweep: [['--threads', 'T,T,…', '1,2,4,8,16,32,64,128'], ['--duration', 'duration each', '30s'], ['--warmup', 'warm-up', '0s'], ['--load', 'load first if needed', 'flag-on']],
};
// The mix each command runs when given none (its --workload default; run and sweep: low unless -p keys say).
const DEFAULT_MIX = {run: 'low', sweep: 'low', rate: 'high', delta: 'high'};
// Names BG's messages use for the graph's keys.
const ALIASES = {members: 'usercount', mix: 'workload', '--workload': 'workload', '--store': 'store'};
let forms = null;

function tabs() {
  document.querySelectorAll('nav .tab').forEach(b => b.addEventListener('click', () => show(b.dataset.tab)));
}
function show(tab) {
  document.querySelectorAll('nav .tab').forEach(b => b.classList.toggle('active', b.dataset.tab === tab));
  document.querySelectorAll('.panel').forEach(p => p.classList.toggle('active', p.id === tab));
  if (tab === 'results') loadRuns();
  if (tab === 'live') redrawLive();
}

// ---- set up ----
function fieldId(name) { return 'f-' + name.replace(/[^\w-]/g, '_'); }
function field(name, label, placeholder, title) {
  const flag = placeholder === 'flag' || placeholder === 'flag-on';
  const input = flag ? el('input', {type: 'checkbox', id: fieldId(name), 'data-name': name, ...(placeholder === 'flag-on' ? {checked: ''} : {})})
    : el('input', {type: 'text', id: fieldId(name), 'data-name': name, placeholder: placeholder || ''});
  const l = el('label', {title: title || ''}, el('span', {text: label}), input, el('span', {class: 'field-error', 'data-for': name}));
  return l;
}
function renderOptions() {
  const box = $('#options'); box.replaceChildren();
  for (const [name, label, ph] of OPTIONS[$('#command').value]) box.append(field(name, `${name} (${label})`, ph));
  $('#workload-set').hidden = $('#command').value === 'load';
  // Until a mix is chosen, the command's own default is selected, as the command line would run it.
  const sel = $('#workload');
  if (sel.options.length && !sel.dataset.chosen && DEFAULT_MIX[$('#command').value]) sel.value = DEFAULT_MIX[$('#command').value];
}
function renderStore() {
  const s = forms.stores.find(x => x.name === $('#store').value);
  $('#store-description').textContent = s.description;
  const box = $('#store-settings'); box.replaceChildren();
  for (const st of s.settings) box.append(field(st.key, st.key, st.default || '', st.description));
}
function renderGraph() {
  const box = $('#graph'); box.replaceChildren();
  for (const g of forms.graph) box.append(field(g.key, g.key, '', g.description));
  graphDefaults();
}
// Each graph field shows, greyed, the command line's default from its key's description; the commands other than
// load run on the graph the store holds when the fields are left empty.
function graphDefaults() {
  const load = $('#command').value === 'load';
  for (const g of forms.graph) {
    const m = /\(default:? ([^)]*)\)/.exec(g.description || '');
    const input = document.getElementById(fieldId(g.key));
    if (input) input.placeholder = m ? (load ? m[1] : `${m[1]}, or the store's graph`) : (load ? '' : "the store's graph");
  }
}
function renderMixes() {
  const sel = $('#workload');
  for (const m of forms.mixes) sel.append(el('option', {value: m.name, text: `${m.name}: ${m.description}`}));
  sel.append(el('option', {value: 'custom', text: 'custom: my own percentages'}));
  sel.value = DEFAULT_MIX[$('#command').value] || 'low';
  const box = $('#mix-fields');
  for (const k of forms.kinds) {
    box.append(el('label', {title: k.key}, el('span', {text: `${k.code} ${k.title}`}),
      el('input', {type: 'number', min: '0', max: '100', step: 'any', id: 'mix-' + k.code, 'data-code': k.code, 'data-key': k.key, oninput: checkMix})));
  }
  sel.addEventListener('change', () => {
    sel.dataset.chosen = 'true';
    $('#custom-mix').hidden = sel.value !== 'custom';
    if (sel.value === 'custom') checkMix();
  });
}
function customMix() {
  const mix = {};
  document.querySelectorAll('#mix-fields input').forEach(i => { if (i.value !== '') mix[i.dataset.code] = Number(i.value); });
  return mix;
}
let mixOk = false;
let mixAsked = 0;
async function checkMix() {
  // One request per keystroke: their answers can come back out of order, and only the last one asked describes the
  // fields as they are now (an earlier one shown last left a stale check on the page).
  const asked = ++mixAsked;
  const r = await (await post('/api/mix', JSON.stringify(customMix()))).json();
  if (asked !== mixAsked) return;
  mixOk = r.sums_to_100 && r.errors.length === 0;
  const parts = [`sum ${fmt(r.sum, 4)} %` + (r.sums_to_100 ? ' ✓' : ' — must be 100 %')];
  if (r.sums_to_100) parts.push(r.symmetric ? 'symmetric ✓' : 'not symmetric: ' + r.warnings.join('; '));
  parts.push(...r.errors);
  const p = $('#mix-check'); p.textContent = parts.join(' · '); p.className = mixOk ? 'hint ok' : 'field-error';
}
function clearErrors() {
  document.querySelectorAll('.field-error[data-for]').forEach(e => e.textContent = '');
  document.querySelectorAll('.invalid').forEach(e => e.classList.remove('invalid'));
}
function showError(field, message) {
  let name = field ? (ALIASES[field] || field) : '_form';
  const kind = forms && field ? forms.kinds.find(k => k.key.toLowerCase() === field.toLowerCase()) : null;
  if (kind) name = 'workload';
  let target = document.querySelector(`.field-error[data-for="${CSS.escape(name)}"]`);
  if (!target) target = $('#form-error');
  target.textContent = message;
  const input = document.getElementById(fieldId(name)) || (name === 'workload' ? $('#workload') : null);
  if (input) input.classList.add('invalid');
  show('setup');
}
function request() {
  const r = {command: $('#command').value, store: $('#store').value, settings: {}, graph: {}, options: {}, workload: $('#workload').value, mix: {}};
  document.querySelectorAll('#store-settings input').forEach(i => { if (i.value.trim()) r.settings[i.dataset.name] = i.value.trim(); });
  document.querySelectorAll('#graph input').forEach(i => { r.graph[i.dataset.name] = i.value.trim(); });
  document.querySelectorAll('#options input').forEach(i => {
    if (i.type === 'checkbox') { if (i.checked) r.options[i.dataset.name] = true; } else if (i.value.trim()) r.options[i.dataset.name] = i.value.trim();
  });
  if (r.workload === 'custom') r.mix = customMix();
  return r;
}
const shownErrors = new Set();
async function start(ev) {
  ev.preventDefault();
  clearErrors();
  if ($('#workload').value === 'custom' && $('#command').value !== 'load' && !mixOk) {
    showError('workload', 'the custom mix must sum to 100 %'); return;
  }
  const res = await post('/api/jobs', JSON.stringify(request()));
  const j = await res.json();
  if (!res.ok) { showError(j.field || null, j.error); return; }
  $('#status').textContent = `started #${j.id}: bg ${j.args.join(' ')}`;
  if (j.command !== 'load') { followNext = j.result; }
}
let followNext = null;
function renderJobs(jobs) {
  const tb = $('#jobs tbody'); tb.replaceChildren();
  for (const j of jobs.slice().reverse()) {
    const state = j.running ? 'running' : (j.exit_code === 0 ? 'done' : `failed (exit ${j.exit_code})` + (j.error ? ': ' + j.error.message : j.failure ? ': ' + j.failure : ''));
    const stop = j.running ? el('button', {text: 'stop', onclick: () => post('/api/jobs/stop?id=' + j.id)}) : '';
    tb.append(el('tr', {'data-job': j.id}, el('td', {text: j.id}), el('td', {class: 'l', text: j.command}), el('td', {class: 'l' + (j.error || j.failure ? ' bad' : ''), text: state}),
      el('td', {class: 'l', text: j.result && (j.running || j.result_written) ? j.result : ''}), el('td', {class: 'l', text: j.output.length ? j.output[j.output.length - 1] : ''}), el('td', {}, stop)));
    if (j.error && !shownErrors.has(j.id)) { shownErrors.add(j.id); showError(j.error.field, j.error.message); }
  }
}

// ---- names ----
// A run in words: store, mix, T and when it started; the file's name stays in the tooltip.
function clock(ms) {
  if (ms == null) return '';
  const d = new Date(typeof ms === 'number' ? ms : Date.parse(ms));
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString('en-GB', {day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit'});
}
function runName(store, mix, threads, started) {
  return [store, mix ? mix + ' mix' : '', threads ? 'T=' + threads : '', started ? 'started ' + clock(started) : ''].filter(x => x).join(' · ');
}
// A result document as /api/result gives it.
const resultName = r => runName(r.store && r.store.name, r.workload && r.workload.mix_name, r.threads, r.started || r.start_time || r.modified) || r.path;
// A rating in words: store, mix and when its first experiment started.
function ratingName(r) {
  const g = r.rating || {}, first = (r.experiments || g.experiments || [])[0] || {};
  const words = runName(g.store, g.workload, null, first.started);
  return words ? 'rating: ' + words : r.path;
}
// A live run: the rating's experiment (#n of a rating) if its file lies in a rating's directory.
function liveName(path, start) {
  const st = start || {};
  const m = /(?:^|\/)(\d+)-[TR][^/]*\.live\.jsonl$/.exec(path);
  const name = runName(st.store, st.mix, st.threads, st.t);
  return (m ? `rating experiment ${Number(m[1])}: ` : '') + (name || path.replace(/\.live\.jsonl$/, ''));
}

// ---- live ----
const live = {runs: {}, ratings: {}, selected: null, charts: {}, dirty: false};
function connect() {
  const es = new EventSource('/api/live');
  es.addEventListener('line', e => onLine(JSON.parse(e.data)));
  es.addEventListener('experiment', e => onExperiment(JSON.parse(e.data)));
  es.addEventListener('jobs', e => renderJobs(JSON.parse(e.data)));
  es.onerror = () => { $('#status').textContent = 'live feed interrupted; reconnecting…'; };
  es.onopen = () => { $('#status').textContent = 'live feed connected'; };
}
function onLine(ev) {
  let r = live.runs[ev.path];
  // A start line earlier in the file than what was read: the same name holds a new run.
  if (!r || ev.data.type === 'start' && ev.at < r.at) {
    if (!r) $('#live-run').append(el('option', {value: ev.path, text: liveName(ev.path, null), title: ev.path}));
    r = live.runs[ev.path] = {at: 0, seconds: [], start: null, end: null};
  }
  if (ev.at <= r.at) return;
  r.at = ev.at;
  const d = ev.data;
  if (d.type === 'start') {
    r.start = d; r.seconds = []; r.end = null;
    const o = [...$('#live-run').options].find(x => x.value === ev.path);
    if (o) o.textContent = liveName(ev.path, d);
  }
  else if (d.type === 'second') r.seconds.push(d);
  else if (d.type === 'end') r.end = d;
  const wanted = followNext && ev.path.startsWith(followNext.replace(/\.json$/, ''));
  // A run that starts while the one shown has ended (the next experiment of a rating, a new run) is shown instead.
  const shownEnded = live.selected && live.runs[live.selected] && live.runs[live.selected].end;
  if (!live.selected || wanted || (d.type === 'start' && shownEnded && ev.path !== live.selected)) { live.selected = ev.path; $('#live-run').value = ev.path; if (wanted) { followNext = null; show('live'); } }
  if (ev.path === live.selected) live.dirty = true;
}
function onExperiment(ev) {
  const r = live.ratings[ev.path] = live.ratings[ev.path] || {at: 0, experiments: []};
  if (ev.at <= r.at) return;
  r.at = ev.at; r.experiments.push(ev.data);
  if (live.selected && live.selected.startsWith(ev.path + '/')) live.dirty = true;
  if (followNext && followNext.endsWith(ev.path)) live.dirty = true;
}
// Tick steps in whole units: seconds of a run (x), or T and counts; uPlot never picks a step below 1 from these.
const SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 43200, 86400];
const WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7];
// Tick labels with as many decimals as the step between ticks needs, so that no two read the same; thousands separated.
function tickText(u, splits) {
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) : 1;
  const d = !(step > 0) || step >= 1 ? 0 : Math.min(8, Math.ceil(-Math.log10(step) - 1e-9));
  return splits.map(v => v == null ? '' : Number(v).toLocaleString('en', {minimumFractionDigits: d, maximumFractionDigits: d}));
}
// An axis as wide as its longest tick label (seven-digit counts included), so that none is clipped.
function axisSize(u, values, i, cycle) {
  const axis = u.axes[i];
  if (cycle > 1) return axis._size;
  let size = (axis.ticks.size || 10) + (axis.gap || 5) + 8;
  const longest = (values || []).reduce((a, v) => v.length > a.length ? v : a, '');
  if (longest) { u.ctx.font = axis.font[0]; size += u.ctx.measureText(longest).width / devicePixelRatio; }
  return Math.ceil(size);
}
// What the axes show, on the chart's element (uPlot draws them on a canvas): the tick labels, the widest y label's
// width and the y axis's width, for the page's tests and anyone inspecting the page.
function axesDrawn(u) {
  const [x, y] = u.axes;
  u.ctx.save();
  u.ctx.font = y.font[0];
  const widest = Math.max(0, ...(y._values || []).map(v => u.ctx.measureText(v).width / devicePixelRatio));
  u.ctx.restore();
  Object.assign(u.root.dataset, {xTicks: (x._values || []).join('|'), yTicks: (y._values || []).join('|'),
    yLabelWidth: Math.ceil(widest), yAxisSize: y._size});
}
// A figure as a legend shows it: whole above 100, else three significant digits; '–' when there is none.
function legendValue(v) {
  if (v == null || Number.isNaN(v)) return '–';
  const a = Math.abs(v);
  return a >= 100 || a === 0 ? fmt(v, 0) : a >= 1 ? fmt(v, 2) : Number(v.toPrecision(3)).toLocaleString('en', {maximumFractionDigits: 8});
}
// A legend cell's value: at the point under the cursor, else at the last x where any series has a figure (the x
// series: that x), so that the cells of one legend always read at one moment.
function lastFigured(u) {
  for (let i = (u.data[0] || []).length - 1; i >= 0; i--) if (u.data.some((ys, si) => si > 0 && ys[i] != null)) return i;
  return null;
}
const legendCell = (u, v, si, idx) => {
  const at = idx != null ? idx : lastFigured(u);
  return legendValue(at == null ? null : u.data[si][at]);
};
// The warm-up of a live run, shaded from the axis to its last second and labelled (chart.warmupTo, seconds).
function shadeWarmup(u) {
  if (!(u.warmupTo > 0)) return;
  const c = u.ctx, x0 = u.bbox.left, x1 = Math.min(u.valToPos(u.warmupTo, 'x', true), u.bbox.left + u.bbox.width);
  c.save();
  c.fillStyle = 'rgba(154, 103, 0, 0.10)';
  c.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
  c.fillStyle = '#9a6700';
  c.font = `${11 * devicePixelRatio}px sans-serif`;
  c.textAlign = 'left';
  c.textBaseline = 'alphabetic';
  c.fillText('warm-up', x0 + 4 * devicePixelRatio, u.bbox.top + 12 * devicePixelRatio);
  c.restore();
}
// A uPlot chart: x in whole units (seconds of the run from 0 unless opts.x names another quantity; opts.seconds: it is
// seconds all the same, from 0); a chart of several
// series has a legend naming them with their values (at the cursor, else the latest point), a chart of one series
// none (its heading names it).
// A result's series covers its measured period only: its seconds count from the end of the warm-up.
const MEASURED = {x: 'seconds measured (after the warm-up)', seconds: true};
function chart(id, title, series, opts = {}) {
  const target = document.getElementById(id);
  const xLabel = opts.x || 'seconds of the run';
  const extra = opts.uplot || {};
  const xScale = Object.assign({time: false}, opts.x && !opts.seconds ? {} : {range: (u, min, max) => [0, max > 0 ? max : 1]}, (extra.scales || {}).x);
  const o = Object.assign({width: Math.max(480, target.clientWidth || 560), height: 240, title: '',
    legend: {show: series.length > 1, live: true},
    series: [{label: opts.x && !opts.seconds ? xLabel : 'second', value: legendCell}, ...series.map((s, i) => Object.assign({stroke: COLORS[i % COLORS.length], width: 1.5, value: legendCell}, s))],
    axes: [{label: xLabel, labelSize: 20, incrs: opts.xIncrs || SECONDS, values: tickText, space: 50},
      Object.assign({values: tickText, size: axisSize}, opts.yIncrs ? {incrs: opts.yIncrs} : {})]}, extra);
  o.scales = Object.assign({}, extra.scales, {x: xScale});
  o.hooks = Object.assign({}, o.hooks);
  o.hooks.draw = [shadeWarmup, ...(o.hooks.draw || []), axesDrawn];
  target.replaceChildren();
  const u = new uPlot(o, [[], ...series.map(() => [])], target);
  u.root.classList.add('bg-chart');
  target.chart = u; // the chart of its element, for the page's tests
  return u;
}
function liveCharts() {
  if (live.charts.throughput) return;
  live.charts.throughput = chart('live-throughput', '', [{label: 'actions/s'}]);
  live.charts.latency = chart('live-latency', '', [{label: 'p50'}, {label: 'p95'}, {label: 'p99'}]);
  live.charts.beta = chart('live-beta', '', [{label: '% ≤ β'}], {uplot: {scales: {x: {time: false}, y: {range: [0, 100]}}}});
  live.charts.errors = chart('live-errors', '', [{label: 'errors'}, {label: 'no-ops'}]);
  live.charts.rating = ratingChart('live-rating-chart');
}
// Throughput against T, each experiment a point green when it met the SLA and red when it failed; from 0, so that
// the heights compare.
function ratingChart(id) {
  return chart(id, '', [{label: 'meets SLA', stroke: '#1a7f37', paths: () => null, points: {show: true, size: 9}},
    {label: 'fails SLA', stroke: '#d1242f', paths: () => null, points: {show: true, size: 9}}],
    {x: 'threads T', xIncrs: WHOLE, uplot: {scales: {y: {range: (u, min, max) => [0, (max > 0 ? max : 1) * 1.1]}}}});
}
// A run's intervals without the short one that ends a phase (under half a second), as the terminal's progress lines
// leave it out: its few actions would draw a drop at the end of every chart. The files keep it, for the totals.
function whole(series) {
  return series.filter(p => p.interval_s == null || p.interval_s >= 0.5);
}
function redrawLive() {
  liveCharts();
  const r = live.runs[live.selected];
  if (!r) return;
  const s = whole(r.seconds);
  // Seconds of the run, warm-up included (a line's own "second" restarts at 1 when measuring starts).
  const x = s.map((p, i) => p.run_s != null ? p.run_s : i + 1);
  const warm = x.filter((v, i) => s[i].warmup);
  const warmupTo = warm.length ? Math.max(...warm) : null;
  for (const k of ['throughput', 'latency', 'beta', 'errors']) live.charts[k].warmupTo = warmupTo;
  live.charts.throughput.setData([x, s.map(p => p.throughput)]);
  live.charts.latency.setData([x, s.map(p => p.p50_ms), s.map(p => p.p95_ms), s.map(p => p.p99_ms)]);
  live.charts.beta.setData([x, s.map(p => p.within_beta_pct)]);
  live.charts.errors.setData([x, s.map(p => p.errors), s.map(p => p.noops)]);
  $('#live-seconds').textContent = s.length;
  const st = r.start || {};
  const phase = r.end ? 'ended' : !s.length ? 'starting: no second yet' : s[s.length - 1].warmup ? 'warming up' : 'measuring';
  $('#live-info').textContent = `${st.store || ''} · ${st.mix || ''} · T=${st.threads || ''} · β ${fmt(st.beta_ms)} ms · ${phase}`
    + (r.end && r.end.unpredictable_pct != null ? ` · unpredictable ${fmt(r.end.unpredictable_pct, 4)} %` : '');
  const last = s[s.length - 1];
  const kb = $('#live-kinds tbody'); kb.replaceChildren();
  if (last) for (const [code, k] of Object.entries(last.kinds)) {
    kb.append(el('tr', {}, el('td', {text: code}), el('td', {text: fmt(k.throughput, 0)}), el('td', {text: fmt(k.p95_ms, 2)}),
      el('td', {text: fmt(k.within_beta_pct, 2)}), el('td', {text: k.errors}), el('td', {text: k.noops})));
  }
  renderNodes(last ? last.nodes : []);
  renderSummary(live.selected, r);
  const dir = live.selected.includes('/') ? live.selected.slice(0, live.selected.lastIndexOf('/')) : null;
  const rating = dir && live.ratings[dir];
  $('#live-rating').hidden = !rating;
  if (rating) renderRating(rating.experiments, live.charts.rating, '#live-rating-table');
}
// A finished run: its figures over the measured period and a link to its result (open here, or the JSON itself).
function renderSummary(path, r) {
  const box = $('#live-summary');
  box.hidden = !r.end;
  if (!r.end) { box.replaceChildren(); return; }
  const e = r.end;
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const result = dir + ((r.start && r.start.result) || path.replace(/\.live\.jsonl$/, '.json'));
  const measured = r.seconds.filter(p => !p.warmup);
  const errors = measured.reduce((a, p) => a + (p.errors || 0), 0);
  const actions = e.actions != null ? e.actions : measured.reduce((a, p) => a + (p.actions || 0), 0);
  const figures = [['throughput', fmt(e.throughput, 0) + ' actions/s'], ['actions', fmt(actions, 0)], ['p95', e.p95_ms == null ? '–' : fmt(e.p95_ms, 2) + ' ms'],
    ['within β', fmt(e.within_beta_pct, 2) + ' %'], ['errors', fmt(e.errors != null ? e.errors : errors, 0)],
    ['unpredictable reads', e.unpredictable_pct == null ? '–' : fmt(e.unpredictable_pct, 4) + ' %'], ['measured', fmt(measured.length, 0) + ' s']];
  box.replaceChildren(el('h3', {text: 'Finished: ' + liveName(path, r.start)}),
    el('table', {id: 'live-summary-table'}, el('tbody', {}, ...figures.map(([k, v]) => el('tr', {}, el('td', {class: 'l', text: k}), el('td', {text: v}))))),
    el('p', {class: 'downloads'}, el('a', {href: '#results', class: 'open-result', text: 'open the result', onclick: ev => { ev.preventDefault(); show('results'); openResult(result); }}),
      el('a', {href: '/files/' + encodeURI(result), class: 'result-json', text: 'result JSON (' + result + ')'})));
}
function utilisation(n) {
  const parts = [];
  if (n.busy_cores != null && n.cpus) parts.push(n.busy_cores / n.cpus);
  if (n.disk_busy_pct != null) parts.push(n.disk_busy_pct / 100);
  if (n.mem_used_bytes != null && n.mem_total_bytes) parts.push(n.mem_used_bytes / n.mem_total_bytes);
  return parts.length ? Math.max(...parts) : 0;
}
function renderNodes(nodes) {
  const tb = $('#live-nodes tbody'); tb.replaceChildren();
  let worst = null;
  for (const n of nodes || []) if (!worst || utilisation(n) > utilisation(worst)) worst = n;
  const mb = v => v == null ? '–' : fmt(v / 1048576, 1) + ' MB';
  for (const n of nodes || []) {
    const cpu = n.answered === false ? 'no answer' : n.busy_cores == null ? '–'
      : `${fmt(n.busy_cores, 2)} of ${n.cpus} cores` + (n.bg_cores != null ? ` (BG's JVM ${fmt(n.bg_cores, 2)})` : '');
    tb.append(el('tr', {class: n === worst && utilisation(n) > 0 ? 'bottleneck' : '', 'data-node': n.name},
      el('td', {text: n.name}), el('td', {class: 'l', text: n.role}), el('td', {text: cpu}),
      el('td', {text: n.mem_used_bytes == null ? '–' : `${mb(n.mem_used_bytes)} of ${mb(n.mem_total_bytes)}`}),
      el('td', {text: (n.net_rx_bytes_per_s == null ? '–' : `${mb(n.net_rx_bytes_per_s)}/s / ${mb(n.net_tx_bytes_per_s)}/s`)
        + (n.lo_bytes_per_s ? ` (loopback ${mb(n.lo_bytes_per_s)}/s)` : '')}),
      el('td', {text: n.disk_read_bytes_per_s == null ? '–' : `${mb(n.disk_read_bytes_per_s)}/s / ${mb(n.disk_write_bytes_per_s)}/s`}),
      el('td', {text: n.disk_busy_pct == null ? (n.iowait_cores != null ? `iowait ${fmt(n.iowait_cores, 2)} cores` : '–') : fmt(n.disk_busy_pct, 1) + ' %'})));
  }
}
function renderRating(experiments, plot, tableSel) {
  const sorted = experiments.slice().sort((a, b) => a.threads - b.threads);
  plot.setData([sorted.map(e => e.threads), sorted.map(e => e.success ? e.throughput : null), sorted.map(e => e.success ? null : e.throughput)]);
  const tb = document.querySelector(tableSel + ' tbody'); tb.replaceChildren();
  for (const e of experiments) {
    tb.append(el('tr', {}, el('td', {text: e.index}), el('td', {class: 'l', text: e.phase}), el('td', {text: e.threads}),
      el('td', {text: fmt(e.throughput, 0)}), el('td', {text: fmt(e.within_beta_pct, 2)}), el('td', {text: fmt(e.unpredictable_pct, 4)}),
      el('td', {class: e.success ? 'ok' : 'bad', text: e.success ? 'meets' : 'fails' + (e.failures && e.failures.length ? ': ' + e.failures.join('; ') : '')})));
  }
}

// ---- results ----
async function loadRuns() {
  const runs = await (await fetch('/api/runs')).json();
  const tb = $('#runs tbody'); tb.replaceChildren();
  for (const r of runs) {
    // A run by its T and when it started (else when it was written); the others by when they were written.
    const run = r.kind === 'run';
    const words = runName(null, null, run ? r.threads : null, run && r.started ? r.started : null);
    const written = run && r.started ? '' : r.modified ? 'written ' + clock(r.modified) : '';
    const name = run ? [words, written].filter(x => x).join(' · ') || r.path : [r.kind, written].filter(x => x).join(' · ');
    const ge = r.lower_bound ? '≥ ' : '';
    const tput = r.kind === 'rating' ? (r.soar != null ? `SoAR ${ge}${fmt(r.soar, 0)} · Socialites ${ge}${fmt(r.socialites, 0)}` : 'running')
      : r.kind === 'scale' ? `${r.mode}: ` + (r.configurations || []).map(c => `N=${c.nodes} ${c.soar == null ? 'failed' : (c.lower_bound ? '≥ ' : '') + fmt(c.soar, 0)}`).join(' · ')
      : r.kind === 'sweep' ? (r.points || []).map(p => `T=${p.threads} ${fmt(p.throughput, 0)}`).join(' · ')
      : r.kind === 'elasticity' ? `${r.nodes_before} → ${r.nodes_after} nodes · elasticity ${fmt(r.elasticity, 1)} · stable after ${fmt(r.stabilisation_seconds, 1)} s`
      : fmt(r.throughput, 0);
    tb.append(el('tr', {'data-path': r.path}, el('td', {}, el('input', {type: 'checkbox', class: 'pick', value: r.path, 'data-kind': r.kind})),
      el('td', {class: 'l', text: name, title: r.path}), el('td', {class: 'l', text: r.store || ''}), el('td', {class: 'l', text: r.mix || ''}),
      el('td', {text: r.threads || ''}), el('td', {text: tput}), el('td', {text: fmt(r.within_beta_pct, 2)}), el('td', {text: fmt(r.unpredictable_pct, 4)}),
      el('td', {}, el('button', {text: 'open', class: 'open', onclick: () => openResult(r.path)}))));
  }
}
async function openResult(path) {
  const r = await (await fetch('/api/result?path=' + encodeURIComponent(path))).json();
  const d = $('#detail'); d.replaceChildren();
  const heading = (r.kind === 'run' || !r.kind) && r.store ? resultName(r) : r.kind === 'rating' ? ratingName(r)
    : r.kind === 'scale' && r.scale ? `${r.scale.mode} of ${r.scale.store}` + (r.scale.workload ? ` · ${r.scale.workload} mix` : '')
    : r.kind === 'sweep' ? `sweep of ${r.store} · ${r.mix} mix`
    : r.kind === 'elasticity' && r.store ? `elasticity of ${r.store}: ${r.nodesBefore} → ${r.nodesAfter} nodes` : path;
  d.append(el('h2', {text: heading, title: path}));
  if (r.kind === 'rating') return openRating(r, d);
  if (r.kind === 'scale') return openScale(r, d);
  if (r.kind === 'elasticity') return openElasticity(r, d);
  if (r.kind === 'sweep') return openSweep(r, d);
  const dl = el('p', {class: 'downloads'}, el('a', {href: '/files/' + encodeURI(path), text: 'JSON'}),
    el('a', {href: '/api/csv?path=' + encodeURIComponent(path), text: 'CSV (per second)'}));
  if (r.hlog_path) dl.append(el('a', {href: '/files/' + encodeURI(r.hlog_path), text: 'HdrHistogram log (.hlog)'}));
  d.append(dl);
  const t = r.total || {};
  d.append(el('p', {text: `${r.store.name} · ${r.workload.mix_name} · T=${r.threads} · ${fmt(r.throughput, 0)} actions/s · p95 ${fmt(t.p95_ms, 2)} ms · ${fmt(t.within_beta_pct, 2)} % within β ${fmt(r.beta_ms)} ms`
    + (r.unpredictable ? ` · unpredictable ${fmt(r.unpredictable.pct, 4)} %` : '')}));
  const charts = el('div', {class: 'charts'});
  for (const id of ['d-throughput', 'd-latency', 'd-freshness']) charts.append(el('div', {}, el('h3', {text: {'d-throughput': 'Throughput (actions/s)', 'd-latency': 'Latency p50 / p95 / p99 (ms)', 'd-freshness': 'Freshness: probability a read is valid, by the age of the last write (ms)'}[id]}), el('div', {id})));
  d.append(charts);
  const ws = whole(r.series);
  const x = ws.map(p => p.elapsed_s);
  chart('d-throughput', '', [{label: 'actions/s'}], MEASURED).setData([x, ws.map(p => p.throughput)]);
  chart('d-latency', '', [{label: 'p50'}, {label: 'p95'}, {label: 'p99'}], MEASURED).setData([x, ws.map(p => p.p50_ms), ws.map(p => p.p95_ms), ws.map(p => p.p99_ms)]);
  const fr = r.unpredictable && r.unpredictable.freshness;
  if (fr && fr.buckets) chart('d-freshness', '', [{label: 'P(valid) within the bucket'}, {label: 'P(valid) up to it'}],
    {x: 'age of the last write (ms)', xIncrs: WHOLE, uplot: {scales: {y: {range: [0, 1]}}}})
    .setData([fr.buckets.map(b => b.to_ms), fr.buckets.map(b => b.p), fr.buckets.map(b => b.p_at_most)]);
  const tb = el('tbody');
  for (const [code, k] of Object.entries(Object.assign({}, r.actions, r.sessions))) {
    if (!k.count && !k.errors && !k.noops) continue;
    tb.append(el('tr', {}, el('td', {text: code}), el('td', {text: fmt(k.count, 0)}), el('td', {text: fmt(k.throughput, 0)}), el('td', {text: fmt(k.p50_ms, 3)}),
      el('td', {text: fmt(k.p95_ms, 3)}), el('td', {text: fmt(k.p99_ms, 3)}), el('td', {text: fmt(k.within_beta_pct, 2)}), el('td', {text: k.errors}), el('td', {text: k.noops})));
  }
  d.append(el('table', {}, el('thead', {}, el('tr', {}, ...['action', 'count', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', '% ≤ β', 'errors', 'no-ops'].map(h => el('th', {text: h})))), tb));
  if (r.nodes && r.nodes.length) {
    const mm = (v, f) => v && v.mean != null ? `${f(v.mean)} / ${f(v.max)}` : '–';
    const mb = v => fmt(v / 1048576, 1) + ' MB';
    d.append(el('h3', {text: 'Nodes over the measured period (mean / max a second)'}));
    d.append(el('table', {id: 'd-nodes'}, el('thead', {}, el('tr', {}, ...['node', 'role', 'CPUs', 'busy cores', 'memory used', 'net rx /s', 'net tx /s', 'disk read /s', 'disk write /s', 'disk busy %', 'seconds missing'].map(h => el('th', {text: h})))),
      el('tbody', {}, ...r.nodes.map(n => el('tr', {}, el('td', {text: n.name}), el('td', {class: 'l', text: n.role}), el('td', {text: n.cpus}),
        el('td', {text: mm(n.busy_cores, v => fmt(v, 2))}), el('td', {text: mm(n.mem_used_bytes, mb)}), el('td', {text: mm(n.net_rx_bytes_per_s, mb)}),
        el('td', {text: mm(n.net_tx_bytes_per_s, mb)}), el('td', {text: mm(n.disk_read_bytes_per_s, mb)}), el('td', {text: mm(n.disk_write_bytes_per_s, mb)}),
        el('td', {text: mm(n.disk_busy_pct, v => fmt(v, 1))}), el('td', {text: n.missing_seconds}))))));
  }
  const c = r.config || {};
  if (c.chi_square_measured != null) d.append(el('p', {text: `χ² of the socialites' distribution across workers: measured ${fmt(c.chi_square_measured, 3)}, planned ${fmt(c.chi_square_planned, 3)}`}));
  for (const w of r.bottleneck_warnings || []) d.append(el('p', {class: 'bad', text: w}));
}
function openRating(r, d) {
  const g = r.rating || {};
  d.append(el('p', {class: 'downloads'}, el('a', {href: '/files/' + encodeURI(r.path + '/rating.html'), text: 'report (HTML)'}), el('a', {href: '/files/' + encodeURI(r.path + '/rating.json'), text: 'rating JSON'}),
    el('a', {href: '/files/' + encodeURI(r.path + '/experiments.jsonl'), text: 'experiments (JSON lines)'})));
  const ge = g.lower_bound ? '≥ ' : '';
  if (g.soar) d.append(el('p', {text: `SoAR ${ge}${fmt(g.soar.actions_per_second, 0)} actions/s at T=${g.soar.threads} (${g.soar.status}) · Socialites ${g.socialites ? ge + g.socialites.threads + ' (' + g.socialites.status + ')' : '–'}`
    + (g.lower_bound && g.lower_bound_reason ? ' · ≥: ' + g.lower_bound_reason : '')}));
  // Named beside the headline, as the terminal and the report do: other processes competed for the host's CPU.
  if (g.noisy_host) d.append(el('p', {class: 'bad', id: 'd-noisy', text: 'On a noisy host: ' + g.noisy_host}));
  d.append(el('h3', {text: 'Throughput versus T'}), el('div', {id: 'd-rating'}));
  d.append(el('table', {id: 'd-rating-table'}, el('thead', {}, el('tr', {}, ...['#', 'phase', 'T', 'actions/s', '% ≤ β', 'unpredictable %', 'SLA'].map(h => el('th', {text: h})))), el('tbody')));
  const plot = ratingChart('d-rating');
  renderRating(r.experiments.length ? r.experiments : (g.experiments || []), plot, '#d-rating-table');
  const t = g.rating_time;
  if (t) {
    d.append(el('h3', {text: 'Rating time: Λ = ζ + ω·ν + η·δ + Δ'}));
    d.append(el('table', {}, el('tbody', {}, ...[['ζ, before the first experiment', t.zeta_s], ['ω resets', t.omega], ['ν, seconds a reset', t.nu_s], ['η experiments', t.eta],
      ['δ, seconds each', t.delta_s], ['Δ, confirmation', t.confirmation_s], ['Λ, the model', t.model_s], ['measured', t.total_s]]
      .map(([k, v]) => el('tr', {}, el('td', {text: k}), el('td', {text: fmt(v, 2)}))))));
  }
}
// bg scale (docs/scaling.md): SoAR against nodes with the ideal line through the baseline, and the configurations.
function openScale(r, d) {
  const g = r.scale || {};
  const cs = g.configurations || [];
  d.append(el('p', {class: 'downloads'}, el('a', {href: '/files/' + encodeURI(r.path + '/scale.json'), text: 'scale JSON'}),
    el('a', {href: '/files/' + encodeURI(r.path + '/scale.svg'), text: 'scale SVG'})));
  d.append(el('p', {text: `${g.mode} of ${g.store} · SLA ${g.sla}` + (g.workload ? ` · ${g.workload} mix` : '') + ` · ${cs.length} configurations`
    + (g.complete ? '' : ' · not every configuration was rated')}));
  for (const w of g.warnings || []) d.append(el('p', {class: 'bad', text: 'warning: ' + w}));
  d.append(el('h3', {text: 'SoAR against nodes (dashed: ideal)'}), el('div', {id: 'd-scale'}));
  const base = cs[0];
  const pts = cs.map((c, i) => ({n: c.nodes, soar: c.soar, ideal: base && base.soar != null && c.ideal != null ? base.soar * c.ideal : null, i}))
    .sort((a, b) => a.n - b.n || a.i - b.i);
  chart('d-scale', '', [{label: 'SoAR', stroke: '#ef6c00', points: {show: true, size: 8}, spanGaps: true},
    {label: 'ideal', stroke: '#9e9e9e', dash: [6, 4], spanGaps: true}],
    // whole nodes on x; SoAR from 0, as the paper's figures 9 and 10 draw it
    {x: 'nodes', xIncrs: [1, 2, 5, 10, 20, 50, 100], uplot: {scales: {x: {time: false}, y: {range: (u, min, max) => [0, (max || 1) * 1.1]}}}})
    .setData([pts.map(p => p.n), pts.map(p => p.soar), pts.map(p => p.ideal)]);
  const ratio = g.mode === 'scaleup' ? 'scaleup' : 'speedup';
  // A lower-bound SoAR prints "≥"; the ratio and efficiency carry the sign of its ratio_bound (docs/scaling.md).
  const sign = c => ({lower_bound: '≥ ', upper_bound: '≤ ', bounds_on_both_sides: '~ '})[c.ratio_bound] || '';
  d.append(el('table', {id: 'd-scale-table'}, el('thead', {}, el('tr', {}, ...['configuration', 'nodes', 'members', 'SoAR', 'T', ratio, 'ideal', 'efficiency', 'bottleneck', 'status', ''].map(h => el('th', {text: h})))),
    el('tbody', {}, ...cs.map(c => el('tr', {'data-config': c.name}, el('td', {class: 'l', text: c.name}), el('td', {text: c.nodes}), el('td', {text: fmt(c.members, 0)}),
      el('td', {text: (c.lower_bound ? '≥ ' : '') + fmt(c.soar, 0), title: c.lower_bound_reason || ''}), el('td', {text: c.threads == null ? '–' : c.threads}),
      el('td', {text: c.ratio == null ? fmt(c.ratio, 2) : sign(c) + fmt(c.ratio, 2)}), el('td', {text: fmt(c.ideal, 2)}),
      el('td', {text: c.efficiency == null ? '–' : sign(c) + fmt(100 * c.efficiency, 0) + ' %'}),
      el('td', {class: 'l' + (c.bottleneck && c.bottleneck.known ? '' : ' muted'), text: c.bottleneck ? c.bottleneck.text : '–'}),
      el('td', {class: 'l ' + (c.status === 'rated' ? 'ok' : 'bad'), text: c.status + (c.soar_status ? ` (${c.soar_status})` : '') + (c.error ? ': ' + c.error : '')}),
      el('td', {}, c.rating_path ? el('button', {text: 'open rating', class: 'open', onclick: () => openResult(c.rating_path)}) : '')))))) ;
}
// bg sweep: throughput against T, one point for each T run (from 0, so that the heights compare), and a table of
// the points with a button to open each point's run.
function openSweep(r, d) {
  d.append(el('p', {class: 'downloads'}, el('a', {href: '/files/' + encodeURI(r.path), text: 'sweep JSON'}),
    el('a', {href: '/files/' + encodeURI(r.path.replace(/\.json$/, '.csv')), text: 'CSV'})));
  d.append(el('p', {text: `${r.store} · ${r.mix} · ${fmt(r.duration_s, 0)} s each after a warm-up of ${fmt(r.warmup_s, 0)} s · β ${fmt(r.beta_ms)} ms · reset by ${r.reset}`}));
  d.append(el('h3', {text: 'Throughput (actions/s) versus T'}), el('div', {id: 'd-sweep'}));
  const pts = (r.points || []).slice().sort((a, b) => a.threads - b.threads);
  chart('d-sweep', '', [{label: 'actions/s', points: {show: true, size: 8}}],
    {x: 'threads T', xIncrs: WHOLE, uplot: {scales: {y: {range: (u, min, max) => [0, (max > 0 ? max : 1) * 1.1]}}}})
    .setData([pts.map(p => p.threads), pts.map(p => p.throughput)]);
  d.append(el('table', {id: 'd-sweep-table'}, el('thead', {}, el('tr', {}, ...['T', 'actions/s', '% ≤ β', 'actions', 'errors', 'unpredictable %', ''].map(h => el('th', {text: h})))),
    el('tbody', {}, ...pts.map(p => el('tr', {'data-threads': p.threads}, el('td', {text: p.threads}), el('td', {text: fmt(p.throughput, 0)}),
      el('td', {text: fmt(p.withinBetaPct, 2)}), el('td', {text: fmt(p.actions, 0)}), el('td', {text: fmt(p.errors, 0)}),
      el('td', {text: p.unpredictablePct == null ? '–' : fmt(p.unpredictablePct, 4)}),
      el('td', {}, p.result_path ? el('button', {text: 'open run', class: 'open', onclick: () => openResult(p.result_path)}) : ''))))));
}
// An elasticity result: request-set time over wall time with ±sd error bars, the add-node and stable moments, the
// stable phase's margin (mean ± median delta), and the score's terms.
function openElasticity(r, d) {
  const dl = el('p', {class: 'downloads'}, el('a', {href: '/files/' + encodeURI(r.path), text: 'JSON'}));
  if (r.svg_path) dl.append(el('a', {href: '/files/' + encodeURI(r.svg_path), text: 'chart (SVG)'}));
  d.append(dl);
  d.append(el('p', {text: `${r.store} · ${r.nodesBefore} → ${r.nodesAfter} nodes · request set of ${fmt(r.requestSet, 0)} requests × ${r.repeats} · ${fmt(r.readPct, 0)} % reads · T=${r.threads}`
    + (r.status ? ` · ${r.status}` : '') + (r.reason ? `: ${r.reason}` : '')}));
  for (const w of r.warnings || []) d.append(el('p', {class: 'bad', text: 'warning: ' + w}));
  d.append(el('h3', {text: 'Request-set time (mean of the repeats, s) over time (s); bars ±1 sd'}), el('div', {id: 'd-elasticity'}));
  const ps = (r.points || []).slice().sort((a, b) => a.t - b.t);
  const stableAt = r.stableAt;
  const stable = stableAt == null ? [] : ps.filter(p => p.t >= stableAt);
  const stableMean = stable.length ? stable.reduce((s, p) => s + p.mean, 0) / stable.length : (r.score ? r.score.av2 : null);
  // The margin is the baseline's median delta time × the run's --margin factor (1 is the paper's rule).
  const md = r.medianDelta == null ? null : r.medianDelta * (r.margin || 1);
  const margin = sign => ps.map(p => stableAt != null && p.t >= stableAt && stableMean != null && md != null ? stableMean + sign * md : null);
  const marks = [...(r.adds || []).map(a => ({t: a.t, label: 'add node', color: '#8250df'})),
    ...(r.settledAt == null ? [] : [{t: r.settledAt, label: 'settled', color: '#9a6700'}]),
    ...(stableAt == null ? [] : [{t: stableAt, label: 'stable', color: '#1a7f37'}])];
  const draw = u => {
    const c = u.ctx;
    c.save();
    c.lineWidth = 1.5 * devicePixelRatio;
    c.strokeStyle = '#1f6feb';
    for (const p of ps) {   // error bars: mean ± sd at each point
      if (p.sd == null) continue;
      const x = u.valToPos(p.t, 'x', true), y1 = u.valToPos(p.mean - p.sd, 'y', true), y2 = u.valToPos(p.mean + p.sd, 'y', true), w = 4 * devicePixelRatio;
      c.beginPath(); c.moveTo(x, y1); c.lineTo(x, y2); c.moveTo(x - w, y1); c.lineTo(x + w, y1); c.moveTo(x - w, y2); c.lineTo(x + w, y2); c.stroke();
    }
    c.setLineDash([5 * devicePixelRatio, 4 * devicePixelRatio]);
    c.font = `${11 * devicePixelRatio}px sans-serif`;
    c.textAlign = 'left';
    c.textBaseline = 'alphabetic';
    for (const m of marks) {  // vertical marks: each add-node moment and the stable moment
      const x = u.valToPos(m.t, 'x', true);
      c.strokeStyle = m.color; c.fillStyle = m.color;
      c.beginPath(); c.moveTo(x, u.bbox.top); c.lineTo(x, u.bbox.top + u.bbox.height); c.stroke();
      c.fillText(m.label, x + 4 * devicePixelRatio, u.bbox.top + 12 * devicePixelRatio);
    }
    c.restore();
    u.root.dataset.marks = marks.length; // what was drawn, for the page's tests
    u.root.dataset.errorBars = ps.filter(p => p.sd != null).length;
    u.root.dataset.margin = md == null ? '' : md;
  };
  const lo = Math.min(...ps.map(p => p.mean - (p.sd || 0)));
  const hi = Math.max(...ps.map(p => p.mean + (p.sd || 0)));
  const xs = ps.map(p => p.t).concat(marks.map(m => m.t));
  chart('d-elasticity', '', [{label: 'mean (s)', stroke: '#1f6feb', points: {show: true, size: 7}},
    {label: 'stable + median Δ', stroke: '#1a7f37', dash: [3, 3]}, {label: 'stable − median Δ', stroke: '#1a7f37', dash: [3, 3]}],
    {x: 'seconds', uplot: {hooks: {draw: [draw]}, scales: {x: {time: false, range: [Math.min(0, ...xs), Math.max(...xs) * 1.02]},
      y: {range: [Math.max(0, lo - 0.1 * (hi - lo)), hi + 0.1 * (hi - lo)]}}}})
    .setData([ps.map(p => p.t), ps.map(p => p.mean), margin(1), margin(-1)]);
  const sc = r.score || {};
  const rows = [['elasticity score', sc.elasticity, 2], ['a (area before the add)', sc.a, 4], ['b (area after)', sc.b, 4], ['rt1', sc.rt1, 6], ['rt2', sc.rt2, 6],
    ['av1: mean before the add (s)', sc.av1, 3], ['av2: mean when stable (s)', sc.av2, 3], ['stable at (s)', stableAt, 1],
    ['sd1: sd before the add (s)', sc.sd1, 3], ['sd2: sd when stable (s)', sc.sd2, 3],
    ['stabilisation time (s)', r.stabilisationSeconds, 1], ['median delta (s)', r.medianDelta, 4], ['margin (× median delta)', r.margin || 1, 2]];
  if (r.scalability) rows.push(['scalability: avg with N', r.scalability.avgN, 3], ['scalability: avg with 2N', r.scalability.avg2N, 3], ['scalability score', r.scalability.score, 3]);
  d.append(el('h3', {text: 'Score'}), el('table', {id: 'd-elasticity-score'}, el('tbody', {}, ...rows.map(([k, v, n]) => el('tr', {}, el('td', {class: 'l', text: k}), el('td', {text: fmt(v, n)}))))));
  if ((r.adds || []).length) d.append(el('h3', {text: 'Nodes added'}), el('table', {id: 'd-elasticity-adds'},
    el('thead', {}, el('tr', {}, ...['at (s)', 'command', 'exit code', 'took (s)'].map(h => el('th', {text: h})))),
    el('tbody', {}, ...r.adds.map(a => el('tr', {}, el('td', {text: fmt(a.t, 1)}), el('td', {class: 'l', text: a.command}), el('td', {class: a.exitCode === 0 ? 'ok' : 'bad', text: a.exitCode}), el('td', {text: fmt(a.seconds, 1)}))))));
}
async function compareSelected() {
  const paths = [...document.querySelectorAll('.pick:checked')].filter(c => c.dataset.kind === 'run').map(c => c.value);
  if (paths.length < 2) { $('#status').textContent = 'select at least two runs to compare'; return; }
  const rs = await Promise.all(paths.map(async p => (await fetch('/api/result?path=' + encodeURIComponent(p))).json()));
  show('compare'); // before drawing: a hidden panel has no width to size the charts by
  // One x axis for all: every run's seconds where its intervals end, each run's line drawn across the others' moments.
  const x = [...new Set(rs.flatMap(r => whole(r.series).map(p => p.elapsed_s)))].sort((a, b) => a - b);
  const col = (r, f) => { const at = new Map(whole(r.series).map(p => [p.elapsed_s, p[f]])); return x.map(v => at.has(v) ? at.get(v) : null); };
  const lines = () => rs.map(r => ({label: resultName(r), spanGaps: true}));
  chart('compare-throughput', '', lines(), MEASURED).setData([x, ...rs.map(r => col(r, 'throughput'))]);
  chart('compare-latency', '', lines(), MEASURED).setData([x, ...rs.map(r => col(r, 'p95_ms'))]);
  const tb = $('#compare-table tbody'); tb.replaceChildren();
  for (const r of rs) tb.append(el('tr', {}, el('td', {class: 'l', text: resultName(r), title: r.path}), el('td', {class: 'l', text: r.store.name}), el('td', {class: 'l', text: r.workload.mix_name}),
    el('td', {text: r.threads}), el('td', {text: fmt(r.throughput, 0)}), el('td', {text: fmt(r.total.p95_ms, 3)}), el('td', {text: fmt(r.total.within_beta_pct, 2)}),
    el('td', {text: r.unpredictable ? fmt(r.unpredictable.pct, 4) : '–'})));
}

async function main() {
  tabs();
  forms = await (await fetch('/api/forms')).json();
  for (const s of forms.stores) $('#store').append(el('option', {value: s.name, text: s.name}));
  $('#store').value = forms.stores.some(s => s.name === 'sqlite') ? 'sqlite' : forms.stores[0].name;
  $('#store').addEventListener('change', renderStore);
  $('#command').addEventListener('change', () => { renderOptions(); graphDefaults(); });
  renderOptions(); renderStore(); renderGraph(); renderMixes();
  $('#setup-form').addEventListener('submit', start);
  $('#live-run').addEventListener('change', () => { live.selected = $('#live-run').value; live.dirty = true; });
  $('#refresh').addEventListener('click', loadRuns);
  $('#compare-selected').addEventListener('click', compareSelected);
  connect();
  // Drawn at most twice a second, and only while the live view is on screen.
  setInterval(() => { if (live.dirty && !document.hidden && $('#live').classList.contains('active')) { live.dirty = false; redrawLive(); } }, 500);
  if (location.hash === '#live') show('live');
  document.body.dataset.ready = 'true';
}
main();
