/**
 * `NodeStreamableHttpClient`'s backend reads a whole body as bytes and decodes
 * it once (into one buffer of the declared length, or joined at the end): the
 * text is the body's, whatever its chunks, with characters split across them.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

/** A server on 127.0.0.1 that answers every request with `pieces`, written one by one (with or without a content-length). */
const serve = (pieces: ReadonlyArray<Buffer>, declare: boolean) =>
  Effect.acquireRelease(
    Effect.callback<http.Server>((resume) => {
      const server = http.createServer((_req, res) => {
        const length = pieces.reduce((n, p) => n + p.length, 0)
        res.writeHead(200, { "content-type": "application/json", ...(declare ? { "content-length": String(length) } : {}) })
        let i = 0
        const next = () => {
          if (i === pieces.length) return res.end()
          res.write(pieces[i++], () => setImmediate(next))
        }
        next()
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
  )

const textOf = (pieces: ReadonlyArray<Buffer>, declare: boolean) =>
  Effect.gen(function*() {
    const server = yield* serve(pieces, declare)
    const backend = yield* StreamableHttpClient.HttpBackend
    const response = yield* backend.request({
      method: "POST",
      url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
      headers: { "content-type": "application/json" },
      body: "{}",
      controller: undefined
    })
    assert.strictEqual(response.status, 200)
    return yield* response.text
  }).pipe(Effect.provide(NodeStreamableHttpClient.layerHttpClient))

// "é" (2 bytes) and "😀" (4 bytes) split across writes
const text = `{"text":"${"x".repeat(70_000)}é${"y".repeat(1000)}😀"}`
const bytes = Buffer.from(text, "utf8")
const cuts = [1, 70_010, 70_011, 71_012, 71_014, bytes.length - 3, bytes.length]
const pieces = cuts.map((end, i) => bytes.subarray(i === 0 ? 0 : cuts[i - 1], end))

describe("NodeStreamableHttpClient backend bodies", () => {
  it.effect("a body of declared length, in pieces that split characters, is decoded whole", () =>
    Effect.map(textOf(pieces, true), (got) => assert.strictEqual(got, text)))

  it.effect("a chunked body (no length) is decoded whole", () =>
    Effect.map(textOf(pieces, false), (got) => assert.strictEqual(got, text)))

  it.effect("an empty body is the empty text", () =>
    Effect.map(textOf([], true), (got) => assert.strictEqual(got, "")))

  it.effect("a 1 MiB body of declared length arrives whole", () => {
    const big = Buffer.alloc(1024 * 1024, 0x61)
    const parts = Array.from({ length: 16 }, (_, i) => big.subarray(i * 65536, (i + 1) * 65536))
    return Effect.map(textOf(parts, true), (got) => assert.strictEqual(got, big.toString("latin1")))
  })
})
