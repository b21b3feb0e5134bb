/**
 * The catalogue's HTTP projection: one route per operation (docs/ARCHITECTURE.md). The path's
 * `:name` segments are input fields; a GET's other fields are query parameters (text, so booleans
 * and numbers are read from their spelling), any other method's are the JSON body. The route's
 * schemas — validation and OpenAPI alike — and its response schema come from the operation.
 */
import { z } from 'zod';
import { CATALOG, httpLayout, type Operation } from '../../../catalog/index.js';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';

/** A field as a query string carries it: `true`/`false`/`1`/`0` for booleans, digits for numbers. */
function fromQuery(field: z.ZodType): z.ZodType {
  const optional = field instanceof z.ZodOptional;
  const inner = (optional ? field.unwrap() : field) as z.ZodType;
  const described = (s: z.ZodType) => (inner.description ? s.describe(inner.description) : s);
  const read =
    inner instanceof z.ZodBoolean
      ? described(z.stringbool())
      : inner instanceof z.ZodNumber
        ? described(z.coerce.number().pipe(inner))
        : inner;
  return optional ? read.optional() : read;
}

function split(op: Operation) {
  const layout = httpLayout(op);
  const names = new Set(layout.pathFields);
  const shape = op.input.shape as Record<string, z.ZodType>;
  const params = Object.fromEntries(Object.entries(shape).filter(([k]) => names.has(k)));
  const rest = Object.entries(shape).filter(([k]) => !names.has(k));
  const strict = op.input.def.catchall instanceof z.ZodNever;
  const read = layout.rest === 'query';
  return {
    params: names.size ? z.object(params) : undefined,
    query:
      read && rest.length ? z.object(Object.fromEntries(rest.map(([k, f]) => [k, fromQuery(f)]))) : undefined,
    body: !read
      ? strict
        ? z.strictObject(Object.fromEntries(rest))
        : z.object(Object.fromEntries(rest))
      : undefined,
  };
}

/** Register every catalogue operation as a route. */
export function registerCatalogRoutes({ app, registry }: RoutesContext): void {
  for (const op of CATALOG) {
    const { params, query, body } = split(op);
    addRoute(app, registry, {
      method: op.http.method,
      path: op.http.path,
      tag: op.name.split('.')[0],
      summary: op.summary,
      params,
      query,
      body,
      need: op.need,
      status: op.http.status,
      output: op.output,
      // Validated by the route's schemas already; the answer is held to the output schema.
      handler: async ({ engine, params: p, query: q, body: b }) =>
        op.output.parse(
          await op.handler(engine, { ...(q as object), ...(b as object), ...(p as object) }, {}),
        ),
    });
  }
}
