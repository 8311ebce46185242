/**
 * A strict test double: the members given, checked against `T`'s own types, and nothing else.
 * Reading any other member throws `unexpected call: <name>`, so a test fails where the code
 * under test uses something the test did not stub, not later on an `undefined`.
 */
export function strictDouble<T extends object>(members: Partial<T>): T {
  return new Proxy(members, {
    get: (target, prop, receiver) => {
      if (prop in target) {
        return Reflect.get(target, prop, receiver) as unknown;
      }
      // Probes that are not calls: `await double` reads `then`, printers read symbols.
      if (prop === 'then' || typeof prop === 'symbol') {
        return undefined;
      }
      throw new Error(`unexpected call: ${prop}`);
    },
  }) as T;
}
