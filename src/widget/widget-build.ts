import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import {
  buildClient,
  type ClientBundle,
  type ClientSpec,
  integrityOf,
  loadClient,
  projectRoot,
} from '../common/client-bundle';
import { INSPECTOR_CLIENT } from '../inspector/inspector-client';

export { integrityOf, projectRoot };

/** The built widget: one minified ES module and what a page needs to pin it. */
export type WidgetBundle = ClientBundle;

/** `src/widget/client` → `dist/widget/r42-chat.js`, which the service reads. */
export const WIDGET_CLIENT: ClientSpec = {
  entry: 'src/widget/client/index.ts',
  out: 'dist/widget/r42-chat.js',
};

/** Where `npm run build` writes the bundle and the service reads it. */
export const bundlePath = (root = projectRoot()) => join(root, WIDGET_CLIENT.out);

/** Builds the `<r42-chat>` bundle (see {@link buildClient}). */
export const buildWidget = (root = projectRoot()) => buildClient(WIDGET_CLIENT, root);

/** Reads the built bundle, or builds it when it is missing (a clean clone running tests). */
export const loadWidget = (root = projectRoot()) => loadClient(WIDGET_CLIENT, root);

/**
 * `node dist/src/widget/widget-build.js`: the `build` script's second step. Builds the
 * browser clients (the widget and the inspector); prints each one's size and SRI.
 */
if (require.main === module) {
  const clients = { widget: WIDGET_CLIENT, inspector: INSPECTOR_CLIENT };
  Promise.all(
    Object.entries(clients).map(async ([name, spec]) => ({
      name,
      spec,
      ...(await buildClient(spec)),
    })),
  ).then(
    (built) =>
      built.forEach(({ name, spec, code, integrity }) => {
        const gzip = gzipSync(code, { level: 9 });
        process.stdout.write(
          `${name}: ${spec.out} ${code.length} bytes minified, ${gzip.length} gzip\nintegrity: ${integrity}\n`,
        );
      }),
    (error: unknown) => {
      process.stderr.write(`client build failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
