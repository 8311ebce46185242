/** jose's module type (jose 6 is ESM-only). */
export type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

let loaded: Jose | undefined;

/**
 * jose, loaded once on first use (only CHAT_AUTH=jwt needs it). A plain `require`: Node ≥ 20.19
 * loads ES modules synchronously, and jest compiles jose to CommonJS (jest.config.js). The
 * earlier `new Function('return import("jose")')` failed at random under jest: Node's vm
 * loses the referrer of a dynamic import made from such a function once it is collected.
 */
export function loadJose(): Promise<Jose> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('jose') as Jose;
  return Promise.resolve(loaded);
}
