/**
 * Imported first by `main.ts`, before any module that loads `http`, `pg` or `ioredis`:
 * registers the instrumentations while those are still unloaded (why: `tracing.ts`).
 */
import { instrument } from './instrumentations';

instrument();
