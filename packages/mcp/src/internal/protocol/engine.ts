/**
 * What the parts of one protocol engine share: its side, its transport's
 * `send`, whether it closed and why, and the context its own fibers (the read
 * loop, request handlers) are forked with (Effect 4 has no `Runtime`: a fiber
 * started outside any fiber is given a `Context`, references included).
 */
import type * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as JsonRpc from "../../JsonRpc.js"
import { ProtocolError, type TransportError } from "../../McpError.js"
import type { Route, TransportShape } from "../../Transport.js"

export interface Engine {
  readonly side: "client" | "server"
  readonly send: (message: JsonRpc.Outgoing, route?: Route) => Effect.Effect<void, TransportError>
  /** `send`, done at once when the transport can (`TransportShape.sendNow`): undefined when it went. */
  readonly sendNow: (message: JsonRpc.Outgoing, route?: Route) => Effect.Effect<void, TransportError> | undefined
  /** Whether the transport has a `sendNow` of its own (else `sendNow` is `send`). */
  readonly sendsNow: boolean
  /**
   * What the engine's fibers start with (`Effect.runForkWith`): the context of the fiber that
   * made the engine. Forked so they are interruptible whatever the caller's mask was, as under
   * `FiberMap.run`.
   */
  readonly context: Context.Context<never>
  /** Why the engine closed; undefined while it runs. */
  closedReason: string | undefined
  readonly connectionClosed: (method: string) => ProtocolError
}

/** As a class: its methods are shared by every engine (an idle HTTP session keeps one). */
class EngineImpl implements Engine {
  closedReason: string | undefined = undefined
  constructor(
    readonly side: Engine["side"],
    readonly transport: Pick<TransportShape, "send" | "sendNow">,
    readonly context: Context.Context<never>
  ) {
    this.sendsNow = transport.sendNow !== undefined
  }
  readonly sendsNow: boolean
  send(message: JsonRpc.Outgoing, route?: Route): Effect.Effect<void, TransportError> {
    return this.transport.send(message, route)
  }
  sendNow(message: JsonRpc.Outgoing, route?: Route): Effect.Effect<void, TransportError> | undefined {
    return this.transport.sendNow === undefined ? this.transport.send(message, route) : this.transport.sendNow(message, route)
  }
  connectionClosed(method: string): ProtocolError {
    return new ProtocolError({
      reason: "ConnectionClosed",
      method,
      message: `Connection closed: ${this.closedReason ?? "closed"}`
    })
  }
}

/** `transport.send` is called as its method (a class's methods keep their `this`). */
export const make = (
  side: Engine["side"],
  transport: Pick<TransportShape, "send" | "sendNow">,
  context: Context.Context<never>
): Engine => new EngineImpl(side, transport, context)
