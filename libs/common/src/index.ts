export * from './deadline';
export * from './errors';
export * from './hash';
export * from './redis-ready';
export * from './lexical-terms';
export * from './root-module';
