import v8 from 'node:v8';

/**
 * test/support/wasm-code-cache.ts (every project's setup file) keeps one compiled copy of
 * each WASM the service's worker threads compile, for the Jest worker's life. A dependency
 * that moves or renames its .wasm would quietly make every boot slower again: this fails.
 */
describe('the Jest workers keep the worker threads’ WASM compiled', () => {
  it('holds a compiled module of PGlite’s Postgres and of each tfjs backend', async () => {
    const held = (v8 as unknown as Record<symbol, Map<string, Promise<unknown>> | undefined>)[
      Symbol.for('context-bridge.test.wasm-code-cache')
    ];
    expect([...(held?.keys() ?? [])].map((path) => path.split('/').pop())).toEqual([
      'pglite.wasm',
      'tfjs-backend-wasm.wasm',
      'tfjs-backend-wasm-simd.wasm',
      'tfjs-backend-wasm-threaded-simd.wasm',
    ]);
    for (const compiled of held!.values()) {
      expect(Object.prototype.toString.call(await compiled)).toBe('[object WebAssembly.Module]');
    }
  });
});
