export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  RedisCommandTimeoutError,
  RedisConnection,
  withCommandTimeout,
} from './redis-connection';
export { RedisModule } from './redis.module';
export { type RedisModuleOptions } from './redis.module-definition';
export { closeGracefully, waitUntilReady } from './redis-ready';
