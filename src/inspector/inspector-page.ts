/**
 * The inspector's page: a static shell (no data in it, so nothing to escape) under the
 * widget demo's strict CSP: no inline script or style, scripts and styles from this origin
 * only, no framing. Everything it shows is fetched by its script from the key-protected API.
 */
export { DEMO_CSP as INSPECTOR_CSP } from '../widget/demo-page';

export const INSPECTOR_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Context Bridge inspector</title>
<link rel="stylesheet" href="/inspect/inspector.css">
<script type="module" src="/inspect/inspector.js"></script>
</head>
<body>
<header class="bar"><h1>Context Bridge inspector</h1>
<p>One <code>POST /context</code> with <code>explain: true</code>: the bundle, its stages and the whole candidate pool.</p></header>
<main>
<form id="ask" class="card" novalidate>
  <div class="field key">
    <label for="api-key">API key</label>
    <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="api-key-help">
    <small id="api-key-help">Needed when the service has API keys. Kept in this tab's memory only.</small>
  </div>
  <div class="field">
    <label for="contact">Contact</label>
    <select id="contact" name="contact"><option value="">No contact: all history the key may read</option></select>
  </div>
  <div class="field">
    <label for="contact-id">Or a contact id</label>
    <input id="contact-id" name="contact-id" type="text" autocomplete="off" spellcheck="false" aria-describedby="contact-id-help">
    <small id="contact-id-help">Overrides the list when filled.</small>
  </div>
  <div class="field wide">
    <label for="transcript">Transcript</label>
    <textarea id="transcript" name="transcript" rows="3" required maxlength="8000"></textarea>
  </div>
  <div class="field">
    <label for="pool-k">Pool size (pool_k)</label>
    <input id="pool-k" name="pool-k" type="number" min="1" max="100" value="20" inputmode="numeric">
  </div>
  <div class="field">
    <label for="final-k">Most excerpts (final_k)</label>
    <input id="final-k" name="final-k" type="number" min="1" max="50" inputmode="numeric" aria-describedby="final-k-help">
    <small id="final-k-help">Empty: the service's default.</small>
  </div>
  <div class="field">
    <label for="timeout-ms">Deadline (ms)</label>
    <input id="timeout-ms" name="timeout-ms" type="number" min="50" max="5000" value="800" inputmode="numeric">
  </div>
  <div class="actions"><button type="submit" id="run">Build the bundle</button></div>
</form>
<p id="status" role="status" aria-live="polite"></p>
<section class="card" aria-labelledby="bundle-title">
  <h2 id="bundle-title">Bundle</h2>
  <div id="bundle"><p class="empty">Nothing yet.</p></div>
</section>
<section class="card" aria-labelledby="stages-title">
  <h2 id="stages-title">Stages</h2>
  <div id="waterfall"><p class="empty">Nothing yet.</p></div>
</section>
<section class="card" aria-labelledby="pool-title">
  <h2 id="pool-title">Candidate pool</h2>
  <p class="legend">Sort by any column with its header button. Rows <span class="kept-key">kept</span> in the bundle are highlighted; <em>merged</em> rows joined an overlapping excerpt.</p>
  <div id="pool"><p class="empty">Nothing yet.</p></div>
</section>
</main>
</body>
</html>
`;

export const INSPECTOR_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: #1d2330; background: #f3f5fa; }
.bar { padding: 12px 24px; background: #1d2330; color: #fff; }
.bar h1 { font-size: 20px; margin: 0; }
.bar p { margin: 4px 0 0; color: #d6dcf5; }
.bar code { color: #fff; }
main { max-width: 1400px; margin: 0 auto; padding: 16px 24px; }
.card { background: #fff; border-radius: 10px; padding: 14px 18px; margin: 0 0 16px;
  box-shadow: 0 1px 3px rgba(20, 30, 80, .12); }
.card h2 { font-size: 17px; margin: 0 0 8px; }
form { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 12px 18px; }
.field { display: flex; flex-direction: column; gap: 4px; }
.field.wide { grid-column: 1 / -1; }
.field small { color: #4a5568; }
label { font-weight: 600; }
input, select, textarea, button { font: inherit; }
input, select, textarea { padding: 6px 8px; border: 1px solid #6b7280; border-radius: 6px; background: #fff; color: #1d2330; }
.actions { display: flex; align-items: flex-end; }
button { cursor: pointer; border-radius: 6px; }
#run { padding: 8px 16px; border: 0; background: #2f45c4; color: #fff; font-weight: 600; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
#status { min-height: 1.4em; margin: 0 0 12px; font-weight: 600; }
#status.error { color: #b42318; }
.empty { color: #4a5568; margin: 0; }
.meta { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 0 0 10px; padding: 0; list-style: none; }
.meta li strong { margin-right: 4px; }
.excerpt { border-left: 4px solid #2f45c4; padding: 4px 10px; margin: 8px 0; }
.excerpt h3 { font-size: 14px; margin: 0; }
.excerpt pre, td.text { white-space: pre-wrap; word-break: break-word; }
.excerpt pre { margin: 4px 0 0; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
dl.contact { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; }
dl.contact dt { font-weight: 600; }
dl.contact dd { margin: 0; }
ol.waterfall { list-style: none; margin: 0; padding: 0; }
ol.waterfall li { display: grid; grid-template-columns: 300px 1fr; align-items: center; gap: 10px; margin: 3px 0; }
.track { position: relative; height: 16px; background: #eef1f8; border-radius: 3px; }
.track .bar-fill { position: absolute; top: 0; bottom: 0; min-width: 2px; border-radius: 3px; background: #2f45c4; }
.track .bar-fill.live { background: #0f766e; }
.track .bar-fill.retrieval { background: #7c3aed; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 4px 6px; border-bottom: 1px solid #d6dae5; text-align: right; vertical-align: top; }
th { background: #f7f8fc; position: sticky; top: 0; }
th button { border: 0; background: none; padding: 2px; font-weight: 600; color: #1d2330; text-align: inherit; }
th[aria-sort] button::after { content: ' \\2195'; color: #4a5568; }
th[aria-sort='ascending'] button::after { content: ' \\2191'; color: #1d2330; }
th[aria-sort='descending'] button::after { content: ' \\2193'; color: #1d2330; }
td.id, td.outcome, td.text, th.text { text-align: left; }
td.text { min-width: 220px; max-width: 360px; font-size: 12px; }
tr.kept td { background: #e3f6e8; }
tr.kept td.outcome { font-weight: 700; color: #065f2c; }
tr.merged td.outcome { color: #1e3a8a; }
.kept-key { background: #e3f6e8; padding: 0 4px; font-weight: 700; color: #065f2c; }
.legend { color: #4a5568; margin: 0 0 8px; }
`;
