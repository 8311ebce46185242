export * from './deadline';
export * from './errors';
export * from './hash';
export * from './lexical-terms';
export * from './root-module';
export * from './startup-retry';
export * from './cooperative';
export * from './tracing';
