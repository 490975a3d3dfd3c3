/**
 * DELETE on the streamable HTTP endpoint: ends the session it names (its
 * streams, its engine, its stored events) and answers 200.
 * @internal
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type { PrincipalInfo } from "../auth/principal.js"
import type { Endpoint } from "./config.js"
import { unavailable } from "./fleet.js"
import { notAllowed } from "./modern.js"
import { isSession } from "./registry.js"
import { type EndpointRequest, jsonRpcError, statelessOnly } from "./validate.js"

export const make = ({ config, fleet, sessions }: Endpoint) =>
(
  request: EndpointRequest,
  principal: PrincipalInfo | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const modern = notAllowed(config.server.options.eras, request.headers)
  if (modern !== undefined) return Effect.succeed(modern)
  if (config.stateless) return Effect.succeed(statelessOnly())
  const id = request.headers["mcp-session-id"]
  if (id === undefined) return Effect.succeed(jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required"))
  if (fleet !== undefined) {
    return Effect.flatMap(fleet.find(id, principal), (session) =>
      !isSession(session) ? Effect.succeed(session) : fleet.end(session).pipe(
        Effect.as(HttpServerResponse.empty({ status: 200 })),
        Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable()))
      ))
  }
  const session = sessions.registry.find(id, principal)
  if (!isSession(session)) return Effect.succeed(session)
  return Effect.as(sessions.close(session), HttpServerResponse.empty({ status: 200 }))
}
