export * from './deadline';
export * from './errors';
export * from './hash';
