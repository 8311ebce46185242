export { type BridgeApi, type BridgeApiOptions, createBridgeApi, unwrap } from './api';
export {
  type CallOptions,
  type ChatOptions,
  ContextBridgeClient,
  type ContextBridgeClientOptions,
} from './client';
export { BridgeAbortedError, BridgeError, BridgeTimeoutError } from './errors';
export type * from './generated/openapi';
export {
  addBridgeContext,
  bridgeTurnHook,
  formatBundle,
  type LiveKitBridgeOptions,
} from './livekit';
export * from './types';
