export {
  type CallOptions,
  type ChatOptions,
  ContextBridgeClient,
  type ContextBridgeClientOptions,
} from './client';
export { BridgeAbortedError, BridgeError, BridgeTimeoutError } from './errors';
export {
  addBridgeContext,
  bridgeTurnHook,
  formatBundle,
  type LiveKitBridgeOptions,
} from './livekit';
export * from './types';
