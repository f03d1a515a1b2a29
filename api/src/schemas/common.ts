// Building blocks of route schemas. A response schema per status is also the output allowlist:
// fast-json-stringify drops any field a schema does not name.
import { MAX_ROW_ID } from '@bookshop/rules';
import { type TProperties, type TSchema, Type } from 'typebox';

export const ErrorBody = Type.Object(
  {
    data: Type.Null(),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      requestId: Type.Optional(Type.String({ description: "The request's id, also in every server log line about it" })),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { $id: 'ErrorBody' },
);

const errorRef = Type.Ref('ErrorBody');

/**
 * A request body: a closed object. Unknown properties are stripped before the handler runs
 * (`removeAdditional: 'all'`), so a client that sends extra fields (the spec's own sends an `Id` on
 * the book-copy update) is served, and nothing it adds reaches a write.
 */
export const Body = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });

export const ok = <T extends TSchema>(data: T) => Type.Object({ data });

/** Response schemas: the success body plus the error body for each listed status. */
export function responses<T extends TSchema>(success: T, ...errorStatuses: number[]) {
  const out: Record<number, TSchema> = { 200: ok(success) };
  for (const status of [...errorStatuses, 500]) out[status] = errorRef;
  return out;
}

/** Positive whole number in a path segment such as `{pageNumber}`; ids too. */
export const PositiveInt = Type.Integer({ minimum: 1, maximum: MAX_ROW_ID });
export const PageSize = Type.Integer({ minimum: 1, maximum: 100 });

/** An Idempotency-Key's length: a UUID fits, a whole request does not. */
export const IDEMPOTENCY_KEY_LENGTH = { minLength: 1, maxLength: 100 };
/** A write that, sent again with the same key (a retry after a timeout), does what it did once. */
export const IdempotencyKeyHeader = Type.Object({ 'idempotency-key': Type.Optional(Type.String(IDEMPOTENCY_KEY_LENGTH)) });

/** A cover: the book's image over https, or a drawn SVG cover as a data URL. Never null (spec 3 and 9). */
export const ImageUrl = Type.String({
  description: 'The cover over https, or a drawn SVG cover (a data: URL) when the book has none; never null',
});

export const Paging = { pageNumber: PositiveInt, pageSize: PageSize };
/** A querystring whose page and size may be left out (the route says what each defaults to). */
export const OptionalPaging = Type.Object(
  { pageNumber: Type.Optional(PositiveInt), pageSize: Type.Optional(PageSize) },
  { additionalProperties: false },
);
