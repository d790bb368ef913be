// What every feature's schema table (<feature>.ts) is built with: a feature's zod-free routes joined by name to
// their schemas, so each route is named once per table and a schema for a route the feature lacks (or a route
// without its schemas) does not compile.
import { z } from 'zod';
import type { RouteInfo, RouteTable } from './route-info';

export const Ok = z.object({ ok: z.literal(true) });

/** A route's schemas; method, path and auth come from the zod-free table. */
export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
}
export type RouteDef = RouteInfo & RouteSchemas;

type Joined<R extends RouteTable, S extends { [K in keyof R]: RouteSchemas }> = {
  [K in keyof R]: { [P in keyof (R[K] & S[K])]: (R[K] & S[K])[P] };
};

/** Each route of `routes` with its schemas from `schemas` (the same names, no more and no fewer). */
export function withSchemas<R extends RouteTable, const S extends { [K in keyof R]: RouteSchemas }>(
  routes: R,
  schemas: S & Record<Exclude<keyof S, keyof R>, never>,
): Joined<R, S> {
  const byName = schemas as Record<string, RouteSchemas>;
  return Object.fromEntries(
    Object.entries(routes).map(([name, info]) => [name, { ...info, ...byName[name] }]),
  ) as Joined<R, S>;
}
