import { type Browser, chromium } from 'playwright-core';

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
