/**
 * The widget's CSS, scoped by its shadow root. Applied as a constructed stylesheet
 * (`adoptedStyleSheets`), which a strict `style-src` CSP does not block, unlike a `<style>`.
 * Below 640px the drawer is a bottom sheet over the full width; above, a panel over the button.
 */
export const CSS = `
:host { all: initial; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: #1d2330; --r42-accent: #3450d8; --r42-ink: #1d2330; }
*, *::before, *::after { box-sizing: border-box; }
.fab { position: fixed; right: 24px; bottom: 24px; z-index: 2147483000; width: 56px; height: 56px;
  border: 0; border-radius: 50%; background: var(--r42-accent); color: #fff; cursor: pointer;
  box-shadow: 0 6px 20px rgba(20, 30, 80, .3); display: grid; place-items: center; }
.fab:focus-visible, button:focus-visible, a:focus-visible, input:focus-visible {
  outline: 3px solid #f5a524; outline-offset: 2px; }
.fab svg { width: 26px; height: 26px; }
.drawer { position: fixed; z-index: 2147483001; right: 24px; bottom: 92px; width: 380px;
  height: min(560px, calc(100vh - 120px)); display: flex; flex-direction: column; background: #fff;
  border-radius: 14px; box-shadow: 0 12px 40px rgba(20, 30, 80, .28); overflow: hidden;
  visibility: hidden; opacity: 0; transform: translateY(16px);
  transition: transform .2s ease-out, opacity .2s ease-out, visibility 0s linear .2s; }
.drawer.open { visibility: visible; opacity: 1; transform: none;
  transition: transform .2s ease-out, opacity .2s ease-out; }
@media (max-width: 640px) {
  .drawer { left: 0; right: 0; bottom: 0; width: 100%; height: 85vh; height: 85dvh;
    border-radius: 16px 16px 0 0; opacity: 1; transform: translateY(100%);
    transition: transform .25s ease-out, visibility 0s linear .25s; }
  .drawer.open { transform: none; transition: transform .25s ease-out; }
}
@media (prefers-reduced-motion: reduce) { .drawer, .drawer.open { transition: none; } }
header { display: flex; align-items: center; gap: 8px; padding: 12px 12px 12px 16px;
  background: var(--r42-accent); color: #fff; }
h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; }
.sub { display: block; font-size: 12px; font-weight: 400; opacity: .9; }
.close { border: 0; background: transparent; color: #fff; width: 36px; height: 36px;
  border-radius: 8px; cursor: pointer; font-size: 22px; line-height: 1; }
.log { flex: 1; overflow-y: auto; padding: 16px; display: flex; flex-direction: column; gap: 14px; }
.hint { color: #4a5568; margin: 0; }
.q { align-self: flex-end; max-width: 85%; margin: 0; padding: 8px 12px; border-radius: 12px 12px 2px 12px;
  background: #e8ecfb; white-space: pre-wrap; overflow-wrap: anywhere; }
.a { margin: 6px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.a.oos { color: #4a5568; font-style: italic; }
.status { color: #4a5568; margin: 6px 0 0; }
.fail { margin: 6px 0 0; padding: 8px 10px; border-radius: 8px; background: #fdecec; color: #8a1c1c; }
.retry { margin-left: 8px; border: 1px solid #8a1c1c; background: #fff; color: #8a1c1c;
  border-radius: 6px; padding: 2px 10px; cursor: pointer; font: inherit; }
.pills { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0 0; padding: 0; list-style: none; }
.pill { display: inline-block; padding: 4px 10px; border-radius: 999px; border: 1px solid #3450d8;
  color: #26399c; text-decoration: none; font-size: 13px; }
.pill:hover { background: #eef1fd; }
form { display: flex; gap: 8px; padding: 12px; border-top: 1px solid #e2e6ef; background: #fafbfe; }
input { flex: 1; min-width: 0; font: inherit; padding: 10px 12px; border: 1px solid #8792a8;
  border-radius: 10px; color: var(--r42-ink); background: #fff; }
.send { border: 0; border-radius: 10px; padding: 0 16px; background: var(--r42-accent); color: #fff;
  font: inherit; font-weight: 600; cursor: pointer; }
.send:disabled { opacity: .55; cursor: default; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
`;
