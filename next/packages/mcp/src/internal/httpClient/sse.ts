/**
 * An incremental `text/event-stream` parser whose work is linear in the
 * input: each chunk is scanned once, and a line or an event's data that spans
 * chunks is joined once, when it is complete. (Re-flattening a growing buffer
 * on every chunk, as simpler parsers do, makes one 16 MiB event cost seconds
 * and a gigabyte.)
 */
import * as Duration from "effect/Duration"

export type SseEvent =
  | {
    readonly _tag: "Event"
    /** The event type (`message` unless the server set one). */
    readonly event: string
    /** The event's `id`, or the last one seen on the stream. */
    readonly id: string | undefined
    readonly data: string
  }
  | { readonly _tag: "Retry"; readonly duration: Duration.Duration }

export class SseError extends Error {
  readonly _tag = "SseError"
}

export interface SseParser {
  /** Feeds decoded text; an error when an event grows past `maxEventSize`. */
  readonly feed: (chunk: string) => SseError | undefined
}

export const DEFAULT_MAX_EVENT_SIZE = 32 * 1024 * 1024

export const makeParser = (
  onEvent: (event: SseEvent) => void,
  options?: { readonly maxEventSize?: number | undefined }
): SseParser => {
  const maxEventSize = options?.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE
  // the current, incomplete line, in pieces
  let lineParts: Array<string> = []
  let lineSize = 0
  // the current event
  let data: Array<string> = []
  let dataSize = 0
  let type = ""
  let hasFields = false
  let lastId: string | undefined
  let skipLf = false

  const dispatch = () => {
    if (hasFields) onEvent({ _tag: "Event", event: type === "" ? "message" : type, id: lastId, data: data.join("\n") })
    data = []
    dataSize = 0
    type = ""
    hasFields = false
  }

  const onLine = (line: string) => {
    if (line === "") return dispatch()
    if (line.charCodeAt(0) === 58 /* : */) return // a comment
    const colon = line.indexOf(":")
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32 /* space */) value = value.slice(1)
    switch (field) {
      case "data":
        data.push(value)
        dataSize += value.length
        hasFields = true
        return
      case "event":
        type = value
        hasFields = true
        return
      case "id":
        if (!value.includes("\u0000")) lastId = value
        hasFields = true
        return
      case "retry":
        if (/^\d+$/.test(value)) onEvent({ _tag: "Retry", duration: Duration.millis(Number(value)) })
        return
    }
  }

  const feed = (chunk: string): SseError | undefined => {
    let start = 0
    if (skipLf && chunk.charCodeAt(0) === 10) start = 1
    skipLf = false
    for (;;) {
      // the next line end: \n, \r, or \r\n
      let end = -1
      for (let i = start; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i)
        if (c === 10 || c === 13) {
          end = i
          break
        }
      }
      if (end === -1) {
        if (start < chunk.length) {
          lineParts.push(chunk.slice(start))
          lineSize += chunk.length - start
        }
        break
      }
      const piece = chunk.slice(start, end)
      const line = lineParts.length === 0 ? piece : (lineParts.push(piece), lineParts.join(""))
      lineParts = []
      lineSize = 0
      onLine(line)
      if (chunk.charCodeAt(end) === 13) {
        if (end + 1 < chunk.length) {
          start = chunk.charCodeAt(end + 1) === 10 ? end + 2 : end + 1
        } else {
          skipLf = true
          start = end + 1
        }
      } else {
        start = end + 1
      }
    }
    if (dataSize + lineSize > maxEventSize) {
      lineParts = []
      lineSize = 0
      data = []
      dataSize = 0
      return new SseError(`An SSE event exceeded the maximum size of ${maxEventSize} characters`)
    }
    return undefined
  }

  return { feed }
}
