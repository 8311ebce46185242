import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, type Page } from 'playwright-core';

import { FUSION_COMPONENTS } from '../../libs/rerank/src';
import { buildClient } from '../../src/common/client-bundle';
import { generateApiKey } from '../../src/config/api-key-entries';
import { type ContextBundle } from '../../src/context/context.dto';
import { INSPECTOR_CLIENT } from '../../src/inspector/inspector-client';
import { bootTestApp, postJson, type TestApp } from '../support/app';
import { launchChromium, SCREENSHOTS, seriousAxeViolations } from './browser';

const KEY = generateApiKey('inspector-e2e');
/**
 * `INSPECT_URL=http://127.0.0.1:3004 INSPECT_API_KEY=cb_… ` drives a server started as a user
 * would (`npm start`, demo data, that key in API_KEYS) instead of booting one in process.
 */
const EXTERNAL = process.env.INSPECT_URL;
const apiKey = EXTERNAL ? (process.env.INSPECT_API_KEY ?? '') : KEY.key;
const TRANSCRIPT = 'the leg on my dining table is scratched, when does the new one ship?';
const POOL_K = 20;
const FINAL_K = 2;
/** Every part of a fusion score, sorted. */
const FUSION_PARTS = [...FUSION_COMPONENTS].sort();

/**
 * `GET /inspect` in real headless Chromium against the real app (demo data, an API key
 * configured as in production), driven by keyboard only.
 */
describe('the inspector page in a browser', () => {
  let t: Pick<TestApp, 'url' | 'close'>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await buildClient(INSPECTOR_CLIENT); // from the sources under test, not a stale dist/
    [t, browser] = await Promise.all([
      EXTERNAL
        ? { url: EXTERNAL.replace(/\/$/, ''), close: () => Promise.resolve() }
        : bootTestApp({ SEED_DEMO_DATA: 'true', API_KEYS: KEY.line }),
      launchChromium(),
    ]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      reducedMotion: 'reduce',
    });
    await context.addInitScript(() => {
      const w = window as unknown as { csp: string[] };
      w.csp = [];
      document.addEventListener('securitypolicyviolation', (e) => w.csp.push(e.violatedDirective));
    });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Tabs until `selector` has focus (fails after 30 presses). */
  async function tabTo(selector: string): Promise<void> {
    for (let i = 0; i < 30; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
        return;
      }
      await page.keyboard.press('Tab');
    }
    throw new Error(`never reached ${selector} by Tab`);
  }

  it('asks for the key, then by keyboard alone builds a demo contact’s bundle with its whole pool', async () => {
    await page.goto(`${t.url}/inspect`);
    // Without a key the API refuses, and the page says what to do.
    await page.waitForFunction(() =>
      document.getElementById('status')?.textContent?.includes('API key'),
    );

    await tabTo('#api-key');
    await page.keyboard.type(apiKey);
    await page.keyboard.press('Tab'); // change: the contacts load with the key
    await page.waitForFunction(() => Number(document.body.dataset.contacts) >= 3);
    await tabTo('#contact');
    await page.keyboard.type('Alice'); // a select's type-ahead
    expect(await page.$eval('#contact', (el) => (el as HTMLSelectElement).value)).toBe(
      'ctc_demo_alice',
    );
    await tabTo('#transcript');
    await page.keyboard.type(TRANSCRIPT);
    await tabTo('#pool-k');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(String(POOL_K));
    await tabTo('#final-k');
    await page.keyboard.type(String(FINAL_K)); // fewer than the pool: some rows are dropped
    await tabTo('#run');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.body.dataset.state === 'done');

    // What the API answers for the same request, and every window the contact has.
    const headers = { authorization: `Bearer ${apiKey}` };
    const api = await postJson<ContextBundle>(
      `${t.url}/context`,
      {
        transcript: TRANSCRIPT,
        contact_uid: 'ctc_demo_alice',
        pool_k: POOL_K,
        final_k: FINAL_K,
        explain: true,
      },
      headers,
    );
    const windows = await postJson<{ hits: unknown[] }>(
      `${t.url}/search`,
      { query: TRANSCRIPT, contact_uid: 'ctc_demo_alice', top_k: 100 },
      headers,
    );
    const pool = api.body.explain!.candidates;
    expect(pool.length).toBe(Math.min(POOL_K, windows.body.hits.length));

    const rows = await page.$$eval('#pool-table tbody tr', (trs) =>
      trs.map((tr) => ({ id: tr.getAttribute('data-id'), kept: tr.classList.contains('kept') })),
    );
    expect(rows.map((r) => r.id).sort()).toEqual(pool.map((c) => c.id).sort());
    expect(
      rows
        .filter((r) => r.kept)
        .map((r) => r.id)
        .sort(),
    ).toEqual(api.body.historical_excerpts.map((e) => e.id).sort());
    const headersText = await page.$$eval('#pool-table thead th', (ths) =>
      ths.map((th) => th.textContent ?? ''),
    );
    for (const label of [
      'Score',
      'Dense rank',
      'Cosine',
      'BM25 rank',
      'BM25 score',
      ...FUSION_PARTS.map((p) => `Fusion ${p}`),
    ]) {
      expect(headersText).toContain(label);
    }
    // Every component has a value in every row (fusion answered for the whole pool).
    const componentCells = await page.$$eval('#pool-table thead th', (ths) =>
      ths
        .map((th, i) => ((th.textContent ?? '').startsWith('Fusion ') ? i : -1))
        .filter((i) => i >= 0),
    );
    const blanks = await page.$$eval(
      '#pool-table tbody tr',
      (trs, cols) => trs.flatMap((tr) => cols.filter((i) => tr.children[i]?.textContent === '–')),
      componentCells,
    );
    expect(blanks).toEqual([]);
    // Kept rows look different from the rest.
    const backgrounds = await page.$$eval('#pool-table tbody tr td:first-child', (tds) =>
      tds.map((td) => getComputedStyle(td).backgroundColor),
    );
    expect(rows.some((r) => !r.kept)).toBe(true);
    expect(new Set(backgrounds).size).toBe(2);

    // The waterfall has the stages of the explain answer.
    const stages = await page.$$eval('ol.waterfall li', (lis) =>
      lis.map((li) => li.getAttribute('data-stage')),
    );
    expect(stages).toEqual(
      expect.arrayContaining(['embed', 'search', 'rerank', 'live', 'select', 'budget']),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'inspector.png'), fullPage: true });
  });

  it('sorts the table by keyboard, aria-sort saying the order', async () => {
    await tabTo('#pool-table button[data-key="cosine"]');
    await page.keyboard.press('Enter');
    const cosines = () =>
      page.$$eval('#pool-table tbody tr', (trs) => {
        const col = [...document.querySelectorAll('#pool-table thead th')].findIndex(
          (th) => th.textContent === 'Cosine',
        );
        return trs.map((tr) => Number(tr.children[col].textContent));
      });
    const sortOf = () =>
      page.$eval('#pool-table button[data-key="cosine"]', (b) =>
        b.parentElement?.getAttribute('aria-sort'),
      );
    expect(await sortOf()).toBe('descending');
    const down = await cosines();
    expect(down).toEqual([...down].sort((a, b) => b - a));
    // Focus stays on the header, so a second Enter flips the order.
    await page.keyboard.press('Enter');
    expect(await sortOf()).toBe('ascending');
    const up = await cosines();
    expect(up).toEqual([...down].reverse().sort((a, b) => a - b));
  });

  it('axe finds no serious accessibility violation, and nothing hit the CSP', async () => {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { csp: string[] }).csp)).toEqual([]);
  });
});
