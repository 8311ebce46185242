/** jose's module type (jose 6 is ESM-only; this file is compiled to CommonJS). */
export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/**
 * Loads jose with a real dynamic `import()`. Spelled through `Function` because the swc
 * transform used by jest and `@swc-node/register` rewrites `import()` into `require()`,
 * which jest cannot apply to an ES module; the native `import()` works everywhere
 * (compiled `dist/`, the CLI, and jest, which runs with `--experimental-vm-modules`).
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant string, see above
const importJose = new Function('return import("jose")') as () => Promise<Jose>;

let loaded: Promise<Jose> | undefined;

/** jose, loaded once on first use (only CHAT_AUTH=jwt needs it). */
export function loadJose(): Promise<Jose> {
  loaded ??= importJose();
  return loaded;
}
