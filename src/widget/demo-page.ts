/**
 * The demo: a mock employee-app screen with `<r42-chat>` on it, served under the same strict
 * CSP an app should use (no inline script or style), so the demo itself proves the widget
 * needs neither. Pills link back here with `?topic=`, standing in for the knowledge library.
 */
export const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

const topicPanel = (topic: string) => `
  <section class="card topic" aria-labelledby="topic-title">
    <p class="crumb">Knowledge library</p>
    <h2 id="topic-title">Topic <code>${escapeHtml(topic)}</code></h2>
    <p>This is where the employee app would show the topic. <a href="/widget/">Back to home</a></p>
  </section>`;

/** The demo page; `topic` is the topic a pill navigated to, if any. */
export function demoPage(topic?: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme People: R42 demo</title>
<link rel="stylesheet" href="/widget/demo.css">
<script type="module" src="/widget/r42-chat.js"></script>
</head>
<body>
<header class="bar">
  <strong class="brand">Acme People</strong>
  <nav aria-label="Main"><a href="/widget/" aria-current="page">Home</a><a href="/widget/?topic=library">Knowledge</a><a href="/widget/">Time off</a><a href="/widget/">Directory</a></nav>
</header>
<main>
  <h1>Good morning, Dana</h1>${topic ? topicPanel(topic) : ''}
  <section class="card" aria-labelledby="week">
    <h2 id="week">This week: Feedback culture</h2>
    <p>Read <em>Giving feedback</em> and <em>Receiving feedback</em>, then try the situation-behaviour-impact model in your next one-to-one.</p>
  </section>
  <section class="card" aria-labelledby="todo">
    <h2 id="todo">Your tasks</h2>
    <ul><li>Prepare Thursday's tactical meeting agenda</li><li>Post your asynchronous status update</li><li>Review the circle's role proposals</li></ul>
  </section>
  <p class="note">Not sure about something? Tap the R42 button in the corner and ask, for example
  <q>How should I give feedback to a colleague?</q></p>
</main>
<r42-chat user-id="demo-employee" company-name="Acme" topic-url="/widget/?topic={id}" history></r42-chat>
</body>
</html>
`;
}

export const DEMO_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: #1d2330; background: #f3f5fa; }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px; padding: 12px 24px;
  background: #1d2330; color: #fff; }
.bar nav { display: flex; gap: 16px; }
.bar a { color: #d6dcf5; text-decoration: none; }
.bar a[aria-current] { color: #fff; text-decoration: underline; }
main { max-width: 860px; margin: 0 auto; padding: 24px; }
h1 { font-size: 26px; margin: 8px 0 20px; }
.card { background: #fff; border-radius: 12px; padding: 16px 20px; margin: 0 0 16px;
  box-shadow: 0 1px 3px rgba(20, 30, 80, .12); }
.card h2 { font-size: 18px; margin: 0 0 8px; }
.topic { border-left: 4px solid #3450d8; }
.crumb { margin: 0; color: #4a5568; font-size: 13px; }
.note { color: #4a5568; }
`;
