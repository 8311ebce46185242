export {
  type CoalescerConfig,
  DEFAULT_MAX_CALLS,
  DEFAULT_MAX_TAIL_CHARS,
  DEFAULT_TAIL_WORDS,
  DEFAULT_TTL_MS,
  resolveCoalescerConfig,
} from './coalescer.config';
export { CoalescerModule } from './coalescer.module';
export { type CoalescerModuleOptions } from './coalescer.module-definition';
export { createCoalescerStateStore } from './coalescer.providers';
export { COALESCER_CONFIG, COALESCER_STATE_STORE } from './coalescer.constants';
export { type CoalescerStateStore } from './interfaces/coalescer-state-store.interface';
export { MemoryStateStore, type MemoryStateStoreOptions } from './memory/memory-state.store';
export {
  REDIS_KEY_PREFIX,
  RedisStateStore,
  type RedisStateStoreOptions,
} from './redis/redis-state.store';
export { tailWordsForMs, WORDS_PER_SECOND } from './tail';
export { type CoalescedQuery, TranscriptCoalescer } from './transcript-coalescer';
