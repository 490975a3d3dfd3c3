/**
 * The client side of the deprecated HTTP+SSE transport (protocol 2024-11-05),
 * written against `@effect/platform`'s `HttpClient`.
 *
 * A GET opens an SSE stream; its first `endpoint` event names the URL to POST
 * messages to (it must be on the same origin as the SSE URL); every `message`
 * event is a JSON-RPC message from the server. There is no session header, no
 * resumption: when the SSE stream ends, `incoming` ends (or fails when it broke).
 *
 * `StreamableHttpClient` falls back to this transport when the initialize POST
 * of a streamable HTTP client gets 400, 404 or 405 (see its `legacyFallback`).
 *
 * @example
 * ```ts
 * import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Layer from "effect/Layer"
 *
 * const client = McpClient.layer({ name: "app", version: "1.0.0" }).pipe(
 *   Layer.provide(LegacySseClient.layer({ url: "http://localhost:3000/sse" })),
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 * @since 0.1.0
 */
import * as Sse from "@effect/experimental/Sse"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as JsonRpc from "./JsonRpc.js"
import { TransportError } from "./McpError.js"
import { Transport, type TransportShape } from "./Transport.js"

export interface LegacySseClientOptions {
  /** The SSE URL (the GET endpoint). */
  readonly url: string | URL
  /** Extra headers on every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>) | undefined
  /** How long to wait for the `endpoint` event (default 10 s). */
  readonly endpointTimeout?: Duration.DurationInput | undefined
  /** Bound on one POST (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** Largest SSE event accepted, in characters (default 10 MiB). */
  readonly maxEventSize?: number | undefined
}

const mediaType = (value: string | undefined): string => (value ?? "").split(";")[0]!.trim().toLowerCase()

const userHeaders = (headers: LegacySseClientOptions["headers"]): Readonly<Record<string, string>> =>
  typeof headers === "function" ? headers() : (headers ?? {})

/**
 * Opens the SSE stream and waits for the `endpoint` event. The stream and
 * every request are aborted when the scope closes.
 */
export const make = (
  options: LegacySseClientOptions
): Effect.Effect<TransportShape, TransportError, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const client = HttpClient.withScope(yield* HttpClient.HttpClient)
    const base = new URL(options.url)
    const mailbox = yield* Mailbox.make<JsonRpc.Frame, TransportError>()
    yield* Effect.addFinalizer(() => mailbox.end)
    const endpoint = yield* Deferred.make<URL, TransportError>()
    const requestTimeout = Duration.decode(options.requestTimeout ?? Duration.seconds(30))

    const reader = Effect.scoped(
      Effect.gen(function*() {
        const response = yield* client.execute(
          HttpClientRequest.get(base).pipe(
            HttpClientRequest.setHeaders(userHeaders(options.headers)),
            HttpClientRequest.setHeader("accept", "text/event-stream")
          )
        ).pipe(
          Effect.mapError((cause) =>
            new TransportError({ reason: "Read", message: `Could not open the SSE stream: ${cause.message}`, cause })
          )
        )
        if (response.status < 200 || response.status >= 300 || mediaType(response.headers["content-type"]) !== "text/event-stream") {
          return yield* new TransportError({
            reason: "Protocol",
            message: `The legacy SSE endpoint answered HTTP ${response.status} (${response.headers["content-type"] ?? "no content type"})`
          })
        }
        const decoder = new TextDecoder()
        const parser = Sse.makeParser((event) => {
          if (event._tag !== "Event") return
          if (event.event === "endpoint") {
            let target: URL
            try {
              target = new URL(event.data.trim(), base)
            } catch {
              Deferred.unsafeDone(
                endpoint,
                Exit.fail(new TransportError({ reason: "Protocol", message: `Invalid endpoint URL: ${event.data}` }))
              )
              return
            }
            Deferred.unsafeDone(
              endpoint,
              target.origin === base.origin
                ? Exit.succeed(target)
                : Exit.fail(
                  new TransportError({
                    reason: "Protocol",
                    message: `The endpoint ${target.origin} is not on the origin of the SSE stream (${base.origin})`
                  })
                )
            )
            return
          }
          if (event.event === "message" && event.data.trim() !== "") mailbox.unsafeOffer(JsonRpc.parse(event.data))
        }, options.maxEventSize === undefined ? undefined : { maxEventSize: options.maxEventSize })
        yield* response.stream.pipe(
          Stream.mapError((cause) => new TransportError({ reason: "Read", message: `The SSE stream broke: ${cause.message}`, cause })),
          Stream.runForEach((bytes) => {
            const error = parser.feed(decoder.decode(bytes, { stream: true }))
            return error === undefined ? Effect.void : Effect.fail(new TransportError({ reason: "Read", message: error.message }))
          })
        )
      })
    ).pipe(
      Effect.matchCauseEffect({
        onSuccess: () =>
          Deferred.fail(endpoint, new TransportError({ reason: "Closed", message: "The SSE stream ended before the endpoint event" })).pipe(
            Effect.zipRight(mailbox.end)
          ),
        onFailure: (cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.void
            : Deferred.failCause(endpoint, cause).pipe(Effect.zipRight(mailbox.failCause(cause)))
      })
    )
    yield* Effect.forkScoped(reader)

    const target = yield* Deferred.await(endpoint).pipe(
      Effect.timeoutFail({
        duration: options.endpointTimeout ?? Duration.seconds(10),
        onTimeout: () => new TransportError({ reason: "Protocol", message: "The legacy SSE server sent no endpoint event" })
      })
    )

    const send: TransportShape["send"] = (message) =>
      Effect.scoped(
        Effect.gen(function*() {
          const response = yield* client.execute(
            HttpClientRequest.post(target).pipe(
              HttpClientRequest.setHeaders(userHeaders(options.headers)),
              HttpClientRequest.bodyText(JsonRpc.encode(message), "application/json")
            )
          ).pipe(
            Effect.mapError((cause) => new TransportError({ reason: "Write", message: `POST failed: ${cause.message}`, cause }))
          )
          if (response.status < 200 || response.status >= 300) {
            const text = yield* Effect.orElseSucceed(response.text, () => "")
            return yield* new TransportError({
              reason: "Write",
              message: `The server refused the message: HTTP ${response.status}${text === "" ? "" : ` ${text.slice(0, 200)}`}`
            })
          }
        })
      ).pipe(
        Effect.timeoutFail({
          duration: requestTimeout,
          onTimeout: () => new TransportError({ reason: "Write", message: "POST timed out" })
        })
      )

    return { incoming: Mailbox.toStream(mailbox), send, info: {} } satisfies TransportShape
  })

/** The legacy HTTP+SSE client transport as a Layer. */
export const layer = (options: LegacySseClientOptions): Layer.Layer<Transport, TransportError, HttpClient.HttpClient> =>
  Layer.scoped(Transport, make(options))
