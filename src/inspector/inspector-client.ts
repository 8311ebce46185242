import { type ClientSpec } from '../common/client-bundle';

/** `src/inspector/client` → `dist/inspector/inspector.js`, served at `/inspect/inspector.js`. */
export const INSPECTOR_CLIENT: ClientSpec = {
  entry: 'src/inspector/client/index.ts',
  out: 'dist/inspector/inspector.js',
};
