/** Polls until `check` returns a value (no fixed sleeps); fails with `what` after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `waitFor` for a yes/no condition. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  await waitFor(what, async () => ((await check()) ? true : undefined), ms);
}
