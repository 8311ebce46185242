import { tmpdir } from 'node:os';
import { join } from 'node:path';

import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Where the browser suites leave their screenshots: the docs' own (`docs/screenshots`, which
 * the docs embed) with `UPDATE_SCREENSHOTS=1`, else a scratch dir, so a test run leaves the
 * tracked files as they were.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(__dirname, '..', '..', 'docs', 'screenshots')
  : join(tmpdir(), 'context-bridge-screenshots');

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it). Never a downloaded one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for the browser suites. The background-networking flags keep it from
 * dialling Google on a closed network; Playwright gives each launch a fresh, empty
 * `--user-data-dir` of its own (it refuses one passed in `args`).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** axe-core's serious and critical violations on the page, as `rule: targets` lines. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
