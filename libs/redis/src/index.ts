export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  RedisCommandTimeoutError,
  RedisConnection,
  type RedisModuleOptions,
  withCommandTimeout,
} from './redis-connection';
export { RedisModule } from './redis.module';
export { closeGracefully, waitUntilReady } from './redis-ready';
