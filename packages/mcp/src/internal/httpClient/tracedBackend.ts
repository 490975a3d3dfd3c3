/**
 * A backend's exchanges under a tracer that collects spans, as `effect/http`'s `HttpClient`
 * makes them: a client span named after the method (`http.request.method`, `url.full`,
 * `server.address`, `server.port`, `http.response.status_code`, `error.type` for a 4xx or 5xx),
 * its trace context sent (`traceparent`; not effect/http's `b3` too, which no MCP server reads). The fetch transport's, so that tracing in a page
 * loads no `effect/http`.
 */
import * as Effect from "effect/Effect"
import type { Backend } from "./backend.js"

export const traced = (backend: Backend): Backend => ({
  signals: false,
  request: (request) =>
    Effect.useSpan(request.method, { kind: "client" }, (span) => {
      span.attribute("http.request.method", request.method)
      span.attribute("url.full", request.url.href)
      span.attribute("server.address", request.url.hostname)
      if (request.url.port !== "") span.attribute("server.port", Number(request.url.port))
      const headers = {
        ...request.headers,
        traceparent: `00-${span.traceId.padStart(32, "0")}-${span.spanId}-${span.sampled ? "01" : "00"}`
      }
      return Effect.withParentSpan(
        Effect.tap(backend.request({ ...request, headers }), (response) =>
          Effect.sync(() => {
            span.attribute("http.response.status_code", response.status)
            if (response.status >= 400 && response.status < 600) span.attribute("error.type", String(response.status))
          })),
        span
      )
    })
})
