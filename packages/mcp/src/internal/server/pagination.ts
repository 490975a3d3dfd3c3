/**
 * Pagination of the list methods (`tools/list`, `resources/list`, …): a page
 * of `pageSize` items and an opaque cursor naming the next offset (also the
 * cursor of `tasks/list`, whose pages the `TaskStore` cuts).
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Base64Url from "effect/encoding/Base64Url"
import { ErrorResponse } from "../../McpError.js"
import type * as Protocol from "../../Protocol.js"

/** The cursor of the page starting at `offset`. */
export const encodeCursor = (offset: number): string => Base64Url.encode(JSON.stringify({ o: offset }))

/** The offset a cursor names (none: 0); an invalid cursor is -32602. */
export const decodeCursor = (cursor: string | undefined): Result.Result<number, ErrorResponse> => {
  if (cursor === undefined) return Result.succeed(0)
  const text = Base64Url.decodeString(cursor)
  if (Result.isSuccess(text)) {
    try {
      const parsed = JSON.parse(text.success) as { o?: unknown }
      if (typeof parsed.o === "number" && Number.isInteger(parsed.o) && parsed.o >= 0) return Result.succeed(parsed.o)
    } catch {
      // fall through
    }
  }
  return Result.fail(ErrorResponse.invalidParams("Invalid cursor"))
}

/** One page of a list result, `{ [key]: items, nextCursor? }`; an invalid cursor is -32602. */
export type ListPage = <A>(
  key: string,
  items: ReadonlyArray<A>,
  cursor: string | undefined
) => Effect.Effect<Protocol.Result, ErrorResponse>

/** The pager of a server whose pages hold `pageSize` items. */
export const make = (pageSize: number): ListPage => (key, items, cursor) =>
  Result.match(decodeCursor(cursor), {
    onFailure: Effect.fail,
    onSuccess: (offset) => {
      const slice = items.slice(offset, offset + pageSize)
      const next = offset + pageSize
      return Effect.succeed(next < items.length ? { [key]: slice, nextCursor: encodeCursor(next) } : { [key]: slice })
    }
  })
