export { type BridgeApi, type BridgeApiOptions, createBridgeApi, unwrap } from './api';
export {
  CallStream,
  type CallStreamOptions,
  type SpeculativeUpdate,
  type WebSocketLike,
} from './call-stream';
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
  addStreamContext,
  bridgeTurnHook,
  formatBundle,
  type LiveKitBridgeOptions,
} from './livekit';
export * from './types';
