import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

import { OUT_OF_SCOPE_TEXT } from '../../src/chat/chat-events';
import { DEMO_TOPICS } from '../../src/demo/demo-kb';
import { buildWidget, integrityOf } from '../../src/widget/widget-build';
import { bootTestApp, postJson, type TestApp } from '../support/app';
import { waitUntil } from '../support/wait';
import { launchChromium, SCREENSHOTS, seriousAxeViolations } from './browser';
import { ask, box, drawerOpen, pills, recordSamples, samples, shown } from './demo-driver';
import { PacedLlm } from './paced-llm';

const FEEDBACK = 'How should I give feedback to a colleague?';
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * `<r42-chat>` in real headless Chromium, on the demo page of the real app (embedded
 * defaults, demo KB). The answerer is the real extractive one, paced (see PacedLlm).
 */
describe('the <r42-chat> widget in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  const llm = new PacedLlm();
  const pages: Page[] = [];

  beforeAll(async () => {
    await buildWidget(); // a fresh bundle from the sources under test, not a stale dist/
    [t, browser] = await Promise.all([
      bootTestApp({ SEED_DEMO_DATA: 'true' }, llm.override),
      launchChromium(),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  beforeEach(() => {
    llm.delayMs = 15;
    llm.stallAfter = Infinity;
  });
  afterEach(async () => {
    // No page may have hit the demo's strict CSP (no inline script, no eval, no inline style).
    for (const page of pages.splice(0)) {
      expect(await page.evaluate(() => (window as unknown as { csp: string[] }).csp)).toEqual([]);
      await page.context().close();
    }
  });

  async function demo(options: BrowserContextOptions = DESKTOP, path = '/widget/'): Promise<Page> {
    const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
    await context.addInitScript(() => {
      const w = window as unknown as { csp: string[] };
      w.csp = [];
      document.addEventListener('securitypolicyviolation', (e) => w.csp.push(e.violatedDirective));
    });
    const page = await context.newPage();
    pages.push(page);
    await page.goto(`${t.url}${path}`);
    await page.waitForFunction(() => customElements.get('r42-chat') !== undefined);
    return page;
  }

  it('streams the answer into the desktop panel, then shows pills that open the topics', async () => {
    const page = await demo();
    await page.click('r42-chat .fab');
    const panel = await box(page, 'r42-chat .drawer');
    const fab = await box(page, 'r42-chat .fab');
    expect(panel.width).toBeLessThan(500); // a panel, not a full-width sheet
    expect(panel.y + panel.height).toBeLessThanOrEqual(fab.y); // above the button
    expect(Math.round(panel.x + panel.width)).toBe(Math.round(fab.x + fab.width));

    await recordSamples(page);
    await ask(page, FEEDBACK);
    await page.locator('r42-chat .pill').first().waitFor();
    const seen = await samples(page);
    const streaming = seen.filter((s) => s.pills === 0 && s.length > 0);
    const lengths = [...new Set(streaming.map((s) => s.length))];
    expect(lengths.length).toBeGreaterThanOrEqual(3); // it grew in steps, not all at once
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    const final = seen.at(-1)!;
    // Pills only under the complete answer: never while busy, never before the last chunk.
    expect(seen.filter((s) => s.pills > 0).every((s) => s.busy === 'false')).toBe(true);
    expect(Math.max(...streaming.map((s) => s.length))).toBe(final.length);

    const links = await pills(page);
    const titles = new Map(DEMO_TOPICS.map((topic) => [topic.topic_id, topic.title]));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const id = new URL(link.href!).searchParams.get('topic')!;
      expect(link.title).toBe(titles.get(id));
    }
    expect(links.map((l) => l.href)).toContain(`${t.url}/widget/?topic=topic_giving_feedback`);
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-desktop.png') });

    await page.click('r42-chat .pill >> text=Giving feedback');
    await page.waitForURL(/\?topic=topic_giving_feedback$/);
    await expect(page.locator('#topic-title').textContent()).resolves.toContain(
      'topic_giving_feedback',
    );
  });

  it('is a bottom drawer on a phone; an outside tap closes it and clears it', async () => {
    const page = await demo(MOBILE);
    await page.tap('r42-chat .fab');
    const drawer = await box(page, 'r42-chat .drawer');
    expect(drawer).toMatchObject({ x: 0, width: 390 });
    expect(Math.round(drawer.y + drawer.height)).toBe(844);
    await ask(page, FEEDBACK);
    await page.locator('r42-chat .pill').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'widget-mobile.png') });

    await page.locator('.brand').tap(); // the app, above the drawer
    expect(await drawerOpen(page)).toBe(false);
    await page.tap('r42-chat .fab');
    expect(await shown(page)).toEqual({ exchanges: 0, input: '' });
  });

  it('answers out of scope with the spec’s text and no pills; Escape closes and clears', async () => {
    const page = await demo();
    await page.click('r42-chat .fab');
    await ask(page, 'Which river flows through Budapest?');
    await page.locator('r42-chat .a.oos').waitFor();
    await expect(page.locator('r42-chat .a').textContent()).resolves.toBe(OUT_OF_SCOPE_TEXT);
    expect(await pills(page)).toEqual([]);
    await page.fill('r42-chat #r42-input', 'half-typed');
    await page.keyboard.press('Escape');
    expect(await drawerOpen(page)).toBe(false);
    await page.click('r42-chat .fab');
    expect(await shown(page)).toEqual({ exchanges: 0, input: '' });
  });

  it('closing mid-answer aborts the request, and the server sees the client go', async () => {
    const gone = async () => {
      const text = await (await fetch(`${t.url}/metrics`)).text();
      return Number(/chat_streams_total\{outcome="client_gone"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await gone();
    llm.stallAfter = 12; // past the server's 20-token hold-back, then nothing until it aborts
    const page = await demo();
    await page.click('r42-chat .fab');
    await ask(page, FEEDBACK);
    await page.locator('r42-chat .a:not([hidden])').waitFor();
    const stream = llm.streams.at(-1)!;
    await page.click('r42-chat .close');
    await stream.aborted; // the model call was cancelled (the test times out otherwise)
    expect(stream.pieces).toBeLessThanOrEqual(12); // it stopped short of the full answer
    await waitUntil('the client_gone count', async () => (await gone()) !== before);
    expect(await gone()).toBe(before + 1);
    await page.click('r42-chat .fab');
    expect(await shown(page)).toEqual({ exchanges: 0, input: '' });
  });

  it('explains pre-stream errors and lets the user retry', async () => {
    const page = await demo();
    await page.click('r42-chat .fab');
    await ask(page, 'hi');
    await expect(page.locator('r42-chat .fail').textContent()).resolves.toContain(
      'longer question',
    );
    await page.$eval('r42-chat', (el) => el.setAttribute('user-id', 'someone-else'));
    await ask(page, FEEDBACK);
    await expect(page.locator('r42-chat .fail').textContent()).resolves.toContain(
      'does not know your account',
    );
    await page.$eval('r42-chat', (el) => el.setAttribute('user-id', 'demo-employee'));
    await page.click('r42-chat .retry');
    await page.locator('r42-chat .pill').first().waitFor();
    await expect(page.locator('r42-chat .q').textContent()).resolves.toContain(FEEDBACK);
  });

  it('renders a knowledge-base passage containing markup as inert text', async () => {
    const payload = '<img src=x onerror="document.title=\'pwned\'">';
    const ingested = await postJson<{ inserted: number }>(`${t.url}/ingest/kb`, [
      {
        topic_id: 'topic_zebra_expenses',
        title: `Zebra expenses ${payload}`,
        theme_id: 'theme_feedback',
        summary: `Zebra expense claims go to the zebra desk ${payload} every Friday.`,
        text: `Zebra expense claims go to the zebra desk ${payload} every Friday. The zebra desk pays zebra expense claims within a week.`,
      },
    ]);
    expect(ingested.status).toBe(200);
    const page = await demo();
    await page.click('r42-chat .fab');
    await ask(page, 'Where do zebra expense claims go?');
    await page.locator('r42-chat .pill').first().waitFor();
    await expect(page.locator('r42-chat .a').textContent()).resolves.toContain(payload);
    expect(await pills(page)).toContainEqual(
      expect.objectContaining({ title: `Zebra expenses ${payload}` }),
    );
    expect(
      await page.$eval('r42-chat', (el) => el.shadowRoot!.querySelectorAll('img').length),
    ).toBe(0);
    expect(await page.title()).not.toBe('pwned');
  });

  it('works by keyboard alone, and axe finds no serious accessibility violation', async () => {
    const page = await demo();
    for (
      let i = 0;
      i < 20 && !(await page.evaluate(() => document.activeElement?.localName === 'r42-chat'));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    const focused = () =>
      page.$eval(
        'r42-chat',
        (el) => el.shadowRoot!.activeElement?.className || el.shadowRoot!.activeElement?.id,
      );
    expect(await focused()).toBe('fab');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('r42-input'); // focus moved into the drawer
    await page.keyboard.type(FEEDBACK);
    await page.keyboard.press('Enter');
    await page.locator('r42-chat .pill').first().waitFor();
    // A single-page app cancels r42-citation and routes itself: the browser does not navigate.
    await page.evaluate(() =>
      document.addEventListener('r42-citation', (e) => {
        (window as unknown as { routed: unknown }).routed = (e as CustomEvent).detail;
        e.preventDefault();
      }),
    );
    await page.locator('r42-chat .pill').first().focus();
    await page.keyboard.press('Enter');
    expect(
      await page.evaluate(() => (window as unknown as { routed: { id: string } }).routed.id),
    ).toMatch(/^topic_/);
    expect(new URL(page.url()).search).toBe('');

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('fab'); // focus back on the button
  });

  it('animates the drawer only when the user has not asked for reduced motion', async () => {
    const duration = (page: Page) =>
      page.$eval(
        'r42-chat',
        (el) => getComputedStyle(el.shadowRoot!.querySelector('.drawer')!).transitionDuration,
      );
    expect(await duration(await demo({ ...DESKTOP, reducedMotion: 'reduce' }))).toBe('0s');
    expect(await duration(await demo({ ...DESKTOP, reducedMotion: 'no-preference' }))).not.toBe(
      '0s',
    );
  });

  it('serves the bundle with cache headers, CORS for module loading, and the README’s hash', async () => {
    const res = await fetch(`${t.url}/widget/r42-chat.js`);
    const code = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(code.length).toBeLessThan(30 * 1024);
    const again = await fetch(`${t.url}/widget/r42-chat.js`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(integrityOf(code));
  });
});
