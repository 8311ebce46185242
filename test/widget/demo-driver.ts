import { type Page } from 'playwright-core';

// Reading and driving `<r42-chat>` on a page; Playwright selectors pierce its open shadow root.

/** Records the answer length, pill count and busy flag at every DOM change of the log. */
export const recordSamples = (page: Page) =>
  page.evaluate(() => {
    const log = document.querySelector('r42-chat')!.shadowRoot!.querySelector('.log')!;
    const samples: Array<{ length: number; pills: number; busy: string | null }> = [];
    (window as unknown as { samples: typeof samples }).samples = samples;
    new MutationObserver(() =>
      samples.push({
        length: log.querySelector('.a')?.textContent?.length ?? 0,
        pills: log.querySelectorAll('.pill').length,
        busy: log.getAttribute('aria-busy'),
      }),
    ).observe(log, { subtree: true, childList: true, characterData: true, attributes: true });
  });
export const samples = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { samples: Array<{ length: number; pills: number; busy: string }> })
        .samples,
  );

export const ask = async (page: Page, question: string) => {
  await page.fill('r42-chat #r42-input', question);
  await page.press('r42-chat #r42-input', 'Enter');
};
export const drawerOpen = (page: Page) =>
  page.$eval('r42-chat', (el) => el.shadowRoot!.querySelector('.drawer')!.matches('.open'));
export const shown = (page: Page) =>
  page.$eval('r42-chat', (el) => ({
    exchanges: el.shadowRoot!.querySelectorAll('.ex').length,
    input: el.shadowRoot!.querySelector('input')!.value,
  }));
export const pills = (page: Page) =>
  page.$$eval('r42-chat .pill', (links) =>
    links.map((a) => ({ title: a.textContent, href: a.getAttribute('href') })),
  );
export const box = async (page: Page, selector: string) =>
  (await page.locator(selector).boundingBox())!;
