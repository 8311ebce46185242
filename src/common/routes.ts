import { type INestApplicationContext, RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';

/** One HTTP route declared by a Nest controller. */
export interface RouteInfo {
  /** Upper case, as in `RequestMethod`. */
  method: string;
  /** Leading slash, `:param` segments as Nest writes them. */
  path: string;
  controller: Type;
  handler: (...args: unknown[]) => unknown;
}

/** Nest stores a path as a string or a list of strings. */
const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

const join = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter((p) => p.length > 0)
    .join('/')}`;

/**
 * Every controller route of the app, from the same metadata Nest routes by: the OpenAPI
 * document marks public routes with it, and the docs test checks each one is documented.
 */
export function listRoutes(app: INestApplicationContext): RouteInfo[] {
  const routes: RouteInfo[] = [];
  const seen = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller || seen.has(controller)) {
        continue;
      }
      seen.add(controller);
      const bases = asList(Reflect.getMetadata(PATH_METADATA, controller) as string | string[]);
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') {
          continue;
        }
        const paths = asList(
          Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined,
        );
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (paths.length === 0 || method === undefined) {
          continue;
        }
        for (const base of bases.length > 0 ? bases : ['']) {
          for (const path of paths) {
            routes.push({
              method: RequestMethod[method],
              path: join(base, path),
              controller,
              handler: handler as RouteInfo['handler'],
            });
          }
        }
      }
    }
  }
  return routes;
}

/** `/a/:id` → `/a/{id}`, as OpenAPI paths are written. */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
