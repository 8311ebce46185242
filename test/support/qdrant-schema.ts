import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import Ajv, { type ValidateFunction } from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';
import ts from 'typescript';

/**
 * JSON Schema for Qdrant request bodies, derived at test time from the OpenAPI types that
 * `@qdrant/js-client-rest` ships (`dist/types/openapi/generated_schema.d.ts`), so the fake
 * server can reject any body the real server's published schema would not describe.
 *
 * ts-json-schema-generator cannot follow openapi-typescript's `components["schemas"]["X"]`
 * references nor its `OneOf<[...]>` helper, so each schema is first restated as a standalone
 * alias (`Q_X`, prefixed because Qdrant has schemas named `Record` and `Range`), with `OneOf`
 * widened to a plain union, and the `X | (Record<string, unknown> | null)` rendering of a
 * nullable reference read as `X | null` (otherwise any object would pass as a filter). Generation takes seconds, so the result is cached under
 * node_modules/.cache, keyed by the client's types and the requested names; nothing derived
 * from Qdrant's spec is ever written into the repository.
 */

/** Bump when the transform below changes, so stale caches are not reused. */
const TRANSFORM_VERSION = '2';
const PREFIX = 'Q_';

const schemaFile = (): string =>
  join(
    dirname(require.resolve('@qdrant/js-client-rest')),
    '..',
    'types',
    'openapi',
    'generated_schema.d.ts',
  );

const cacheDir = (): string =>
  join(__dirname, '..', '..', 'node_modules', '.cache', 'qdrant-schema');

/** Restates every `components.schemas` member as `export type Q_<name> = …;`. */
function standaloneAliases(source: string): string {
  const file = ts.createSourceFile('generated_schema.d.ts', source, ts.ScriptTarget.ES2022, true);
  const components = file.statements.find(
    (s): s is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(s) && s.name.text === 'components',
  );
  const schemas = components?.members.find(
    (m): m is ts.PropertySignature =>
      ts.isPropertySignature(m) && m.name.getText(file) === 'schemas',
  );
  if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) {
    throw new Error('generated_schema.d.ts has no components.schemas: client layout changed');
  }
  const literal = (node: ts.TypeNode, text: string) =>
    ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal) && node.literal.text === text;
  const isNullableMarker = (node: ts.TypeNode): boolean =>
    ts.isParenthesizedTypeNode(node) &&
    ts.isUnionTypeNode(node.type) &&
    node.type.types.length === 2 &&
    node.type.types[0].getText(file) === 'Record<string, unknown>' &&
    node.type.types[1].getText(file) === 'null';
  const rewrite = (context: ts.TransformationContext) => {
    const visit = (node: ts.Node): ts.Node => {
      // components["schemas"]["X"] → Q_X
      if (
        ts.isIndexedAccessTypeNode(node) &&
        ts.isIndexedAccessTypeNode(node.objectType) &&
        ts.isTypeReferenceNode(node.objectType.objectType) &&
        node.objectType.objectType.typeName.getText(file) === 'components' &&
        literal(node.objectType.indexType, 'schemas') &&
        ts.isLiteralTypeNode(node.indexType) &&
        ts.isStringLiteral(node.indexType.literal)
      ) {
        return ts.factory.createTypeReferenceNode(PREFIX + node.indexType.literal.text);
      }
      // X | (Record<string, unknown> | null) → X | null: openapi-typescript's rendering of the
      // spec's `anyOf: [X, {nullable: true}]`, which means "X or null", not "any object".
      if (ts.isUnionTypeNode(node) && node.types.some(isNullableMarker)) {
        const types = node.types.map((t) =>
          isNullableMarker(t)
            ? ts.factory.createLiteralTypeNode(ts.factory.createNull())
            : (ts.visitNode(t, visit) as ts.TypeNode),
        );
        return ts.factory.createUnionTypeNode(types);
      }
      // OneOf<[A, B, …]> → A | B | … (exclusivity is not checkable in JSON Schema drafts here)
      if (
        ts.isTypeReferenceNode(node) &&
        node.typeName.getText(file) === 'OneOf' &&
        node.typeArguments?.length === 1 &&
        ts.isTupleTypeNode(node.typeArguments[0])
      ) {
        const members = node.typeArguments[0].elements.map(
          (e) => ts.visitNode(e, visit) as ts.TypeNode,
        );
        return ts.factory.createParenthesizedType(ts.factory.createUnionTypeNode(members));
      }
      return ts.visitEachChild(node, visit, context);
    };
    return visit;
  };
  const printer = ts.createPrinter({ removeComments: true });
  const aliases = schemas.type.members.filter(ts.isPropertySignature).map((member) => {
    if (!member.type) {
      throw new Error(`schema ${member.name.getText(file)} has no type`);
    }
    const [rewritten] = ts.transform(member.type, [rewrite]).transformed;
    const name = member.name.getText(file).replace(/^"|"$/g, '');
    return `export type ${PREFIX}${name} = ${printer.printNode(ts.EmitHint.Unspecified, rewritten, file)};`;
  });
  return aliases.join('\n');
}

/** Generates (or loads from cache) the definitions reachable from `names`. */
export function qdrantRequestSchema(names: readonly string[]): {
  definitions: Record<string, object>;
} {
  const source = readFileSync(schemaFile(), 'utf8');
  const key = createHash('sha256')
    .update([TRANSFORM_VERSION, source, ...names].join('\u001f'))
    .digest('hex')
    .slice(0, 16);
  const dir = cacheDir();
  const cached = join(dir, `request-schema-${key}.json`);
  if (existsSync(cached)) {
    return JSON.parse(readFileSync(cached, 'utf8')) as { definitions: Record<string, object> };
  }
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `aliases-${key}-${process.pid}.ts`);
  writeFileSync(entry, standaloneAliases(source));
  const definitions: Record<string, object> = {};
  try {
    const generator = createGenerator({
      path: entry,
      expose: 'export',
      topRef: true,
      jsDoc: 'none',
      skipTypeCheck: true,
      additionalProperties: false,
    });
    for (const name of names) {
      Object.assign(definitions, generator.createSchema(PREFIX + name).definitions);
    }
  } finally {
    rmSync(entry, { force: true });
  }
  // Write-then-rename: parallel jest workers may generate at once; readers see whole files.
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ definitions }));
  renameSync(tmp, cached);
  return { definitions };
}

/** An ajv validator per request schema name; each returns its error lines (none when valid). */
export function qdrantRequestValidators<N extends string>(
  names: readonly N[],
): Record<N, (body: unknown) => string[]> {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema({ $id: 'qdrant', ...qdrantRequestSchema(names) });
  const out = {} as Record<N, (body: unknown) => string[]>;
  for (const name of names) {
    const validate = ajv.getSchema(`qdrant#/definitions/${PREFIX}${name}`) as ValidateFunction;
    out[name] = (body) =>
      validate(body)
        ? []
        : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
  }
  return out;
}
