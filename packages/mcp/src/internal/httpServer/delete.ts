/**
 * DELETE on the streamable HTTP endpoint: ends the session it names (its
 * streams, its engine, its stored events) and answers 200.
 */
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import type { PrincipalInfo } from "../auth/principal.js"
import type { Endpoint } from "./config.js"
import { unavailable } from "./fleet/records.js"
import { notAllowed } from "./era2026.js"
import { isSession } from "./registry.js"
import { type EndpointRequest, jsonRpcError, postOnly } from "./validate.js"

export const make = ({ config, fleet, sessions }: Endpoint) =>
(
  request: EndpointRequest,
  principal: PrincipalInfo | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const refused2026 = notAllowed(config.server.options.eras, request.headers)
  if (refused2026 !== undefined) return Effect.succeed(refused2026)
  if (config.sessionPerRequest) return Effect.succeed(postOnly())
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
