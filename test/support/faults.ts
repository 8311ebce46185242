/**
 * A fault switch around a real provider: while a fault is on, every async method of the
 * wrapped object hangs forever (ignoring abort signals, the worst case) or rejects.
 * Everything else passes through to the real implementation.
 */
export class FaultSwitch {
  mode: 'off' | 'hang' | 'reject' = 'off';
  rejectWith: Error = new Error('injected fault');

  wrap<T extends object>(target: T, methods: Array<keyof T>): T {
    return new Proxy(target, {
      get: (obj, prop, receiver) => {
        const value = Reflect.get(obj, prop, receiver) as unknown;
        if (typeof value !== 'function' || !methods.includes(prop as keyof T)) {
          return typeof value === 'function' ? (value.bind(obj) as unknown) : value;
        }
        return (...args: unknown[]) => {
          switch (this.mode) {
            case 'hang':
              return new Promise(() => undefined);
            case 'reject':
              return Promise.reject(this.rejectWith);
            case 'off':
              return (value as (...a: unknown[]) => unknown).apply(obj, args);
          }
        };
      },
    });
  }
}
