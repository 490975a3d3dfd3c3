/**
 * Validates what crossed an in-memory wire against the official MCP JSON
 * Schema (2025-11-25): each request and notification against the definition
 * of its method, each result against the result definition of the request it
 * answers, each error against `JSONRPCErrorResponse`.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import type { ValidateFunction } from "ajv/dist/2020.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Transport from "@effect-mcp/mcp/Transport"
import type { WireRecord } from "@effect-mcp/mcp/Transport"

// the official schema, kept in the repository as a test fixture (test/fixtures/spec/README.md)
const schemaUrl = new URL("../fixtures/spec/2025-11-25/schema.json", import.meta.url)

type Json = { readonly [key: string]: unknown }

const schema = JSON.parse(readFileSync(fileURLToPath(schemaUrl), "utf8")) as {
  readonly $defs: { readonly [name: string]: Json }
}

const ajv = new Ajv2020.default({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(schema as object, "mcp")

const validators = new Map<string, ValidateFunction>()
/** A validator for one definition of the schema, e.g. `CallToolRequest`. */
export const validatorFor = (def: string): ValidateFunction => {
  let v = validators.get(def)
  if (v === undefined) {
    if (schema.$defs[def] === undefined) throw new Error(`no definition ${def} in the MCP schema`)
    v = ajv.getSchema(`mcp#/$defs/${def}`)
    if (v === undefined) throw new Error(`could not compile ${def}`)
    validators.set(def, v)
  }
  return v
}

/** method → definition name, read from the `method` const of each member of a union. */
const methodsOf = (union: string): ReadonlyMap<string, string> => {
  const members = (schema.$defs[union]?.anyOf ?? []) as ReadonlyArray<{ readonly $ref: string }>
  const map = new Map<string, string>()
  for (const member of members) {
    const name = member.$ref.replace("#/$defs/", "")
    const method = ((schema.$defs[name]?.properties as Json | undefined)?.method as Json | undefined)?.const
    if (typeof method !== "string") throw new Error(`${name} has no method const`)
    map.set(method, name)
  }
  return map
}

const clientRequests = methodsOf("ClientRequest")
const serverRequests = methodsOf("ServerRequest")
const clientNotifications = methodsOf("ClientNotification")
const serverNotifications = methodsOf("ServerNotification")

/** `CallToolRequest` → `CallToolResult`; requests whose answer is empty → `EmptyResult`. */
const resultDefOf = (requestDef: string): string => {
  // a task-augmented request is answered with the task (2025-11-25 tasks)
  if (requestDef.endsWith("+task")) return "CreateTaskResult"
  // tasks/result answers with the original request's result type (an open object)
  if (requestDef === "GetTaskPayloadRequest") return "GetTaskPayloadResult"
  const name = requestDef.replace(/Request$/, "Result")
  return schema.$defs[name] !== undefined ? name : "EmptyResult"
}

const formatErrors = (v: ValidateFunction) =>
  ajv.errorsText(v.errors, { separator: "\n  ", dataVar: "message" })

export interface ParsedRecord {
  readonly from: "client" | "server"
  readonly message: Json
}

/** The wire as parsed messages. */
export const parsed = (wire: ReadonlyArray<WireRecord>): ReadonlyArray<ParsedRecord> =>
  wire.map((w) => ({ from: w.from, message: JSON.parse(w.json) as Json }))

/** Messages sent by one side. */
export const sentBy = (wire: ReadonlyArray<WireRecord>, from: "client" | "server"): ReadonlyArray<Json> =>
  parsed(wire).filter((r) => r.from === from).map((r) => r.message)

/** Requests sent by one side with the given method. */
export const requests = (wire: ReadonlyArray<WireRecord>, from: "client" | "server", method: string) =>
  sentBy(wire, from).filter((m) => m.method === method && "id" in m)

/** Notifications sent by one side with the given method. */
export const notifications = (wire: ReadonlyArray<WireRecord>, from: "client" | "server", method: string) =>
  sentBy(wire, from).filter((m) => m.method === method && !("id" in m))

/** The response sent by one side to the request with `id`, if any. */
export const responseTo = (wire: ReadonlyArray<WireRecord>, from: "client" | "server", id: unknown) =>
  sentBy(wire, from).find((m) => !("method" in m) && m.id === id)

/**
 * Validates every message of the wire and throws one error listing every
 * problem. Batches are validated message by message.
 */
export const assertWireValid = (wire: ReadonlyArray<WireRecord>): void => {
  const problems: Array<string> = []
  // ids of requests sent by each side, to know which method a response answers
  const sent = { client: new Map<unknown, string>(), server: new Map<unknown, string>() }
  const check = (def: string, value: unknown, what: string) => {
    const v = validatorFor(def)
    if (!v(value)) problems.push(`${what} is not a valid ${def}:\n  ${formatErrors(v)}\n  ${JSON.stringify(value)}`)
  }
  wire.forEach((record, index) => {
    const raw = JSON.parse(record.json) as unknown
    const messages = (Array.isArray(raw) ? raw : [raw]) as ReadonlyArray<Json>
    for (const m of messages) {
      const where = `#${index} (${record.from})`
      const peer = record.from === "client" ? "server" : "client"
      if (typeof m.method === "string") {
        const isRequest = "id" in m
        const table = isRequest
          ? record.from === "client" ? clientRequests : serverRequests
          : record.from === "client"
          ? clientNotifications
          : serverNotifications
        const def = table.get(m.method)
        if (def === undefined) {
          problems.push(`${where}: ${m.method} is not a ${record.from} ${isRequest ? "request" : "notification"}`)
          continue
        }
        check(def, m, where)
        if (isRequest) {
          if (sent[record.from].has(m.id)) problems.push(`${where}: request id ${String(m.id)} reused while known`)
          const params = m.params as { readonly task?: unknown } | undefined
          sent[record.from].set(m.id, params?.task !== undefined ? `${def}+task` : def)
        }
      } else if ("result" in m) {
        check("JSONRPCResultResponse", m, where)
        const requestDef = sent[peer].get(m.id)
        if (requestDef === undefined) {
          problems.push(`${where}: result for unknown request id ${JSON.stringify(m.id)}`)
          continue
        }
        check(resultDefOf(requestDef), m.result, `${where} result of ${requestDef}`)
        sent[peer].delete(m.id)
      } else if ("error" in m) {
        check("JSONRPCErrorResponse", m, where)
        if (m.id !== null && m.id !== undefined) {
          if (!sent[peer].has(m.id)) problems.push(`${where}: error for unknown request id ${JSON.stringify(m.id)}`)
          sent[peer].delete(m.id)
        }
      } else {
        problems.push(`${where}: neither a request, a notification nor a response: ${JSON.stringify(m)}`)
      }
    }
  })
  if (problems.length > 0) throw new Error(`invalid messages on the wire:\n${problems.join("\n")}`)
}

/** Prints the wire, for debugging a test. */
export const dump = (wire: ReadonlyArray<WireRecord>): void => {
  for (const w of wire) console.log(w.from.padEnd(6), w.json)
}

// ----------------------------------------------------------------------------
// harness: a server definition, sessions on memory pairs, fake peers
// ----------------------------------------------------------------------------

/** Builds a server definition with its feature Layer; lives as long as the scope. */
export const buildServer = <E, R>(
  features: Layer.Layer<never, E, McpServer.McpServer | R>,
  options?: Partial<McpServer.ServerOptions>
): Effect.Effect<McpServer.McpServerShape, E, Exclude<R, McpServer.McpServer> | Scope.Scope> =>
  Effect.map(
    Layer.build(features.pipe(Layer.provideMerge(McpServer.layer({ name: "test-server", version: "1.0.0", ...options })))),
    Context.get(McpServer.McpServer)
  ) as Effect.Effect<McpServer.McpServerShape, E, Exclude<R, McpServer.McpServer> | Scope.Scope>

/** Serves one session of `server` on a new memory pair; `quiet` hides the engine's logs (a defect is logged). */
export const serve = (server: McpServer.McpServerShape, options?: { readonly quiet?: boolean }) =>
  Effect.gen(function*() {
    const pair = yield* Transport.makeMemoryPair()
    yield* server.serve(pair.server).pipe(
      options?.quiet === true ? Effect.provideService(References.MinimumLogLevel, "None") : (e) => e,
      Effect.forkScoped
    )
    return pair
  })

/** Connects a client (with its options: handlers among them) to a new session of `server`. */
export const connect = (
  server: McpServer.McpServerShape,
  options?: {
    readonly client?: Partial<McpClient.ClientOptions>
    readonly quiet?: boolean
  }
) =>
  Effect.gen(function*() {
    const pair = yield* serve(server, options?.quiet === undefined ? undefined : { quiet: options.quiet })
    // the tests' handlers need nothing: their requirements are `never`
    const make = McpClient.make({ era: "2025", name: "test-client", version: "1.0.0", ...options?.client }) as Effect.Effect<
      McpClient.McpClientShape,
      McpClient.ClientError,
      Transport.Transport | Scope.Scope
    >
    const client = yield* make.pipe(Effect.provideService(Transport.Transport, pair.client))
    return { pair, client }
  })

/**
 * A fake peer written directly on one side of a memory transport: it answers
 * requests with `answer` (undefined: never answers) and ignores the rest. The
 * engine would answer `ping` itself; this one does not.
 */
export const fakePeer = (
  transport: Transport.TransportShape,
  answer: (request: JsonRpc.Request) => JsonRpc.Response | undefined
): Effect.Effect<void, never, Scope.Scope> =>
  Transport.incoming(transport).pipe(
    Stream.runForEach((frame) => {
      if (JsonRpc.isBatch(frame) || !JsonRpc.isRequest(frame)) return Effect.void
      const response = answer(frame)
      return response === undefined ? Effect.void : Effect.ignore(transport.send(response))
    }),
    Effect.ignore,
    Effect.forkScoped,
    Effect.asVoid
  )

/** A valid `initialize` result for fake servers. */
export const initializeResult = (
  id: JsonRpc.RequestId,
  capabilities: { readonly [key: string]: unknown } = {},
  protocolVersion = "2025-11-25"
): JsonRpc.Response =>
  JsonRpc.success(id, { protocolVersion, capabilities, serverInfo: { name: "fake", version: "0" } })

/** Waits until a message matching `predicate` crossed (polling; fails the test after `ms`). */
export const waitForWire = (
  wire: ReadonlyArray<WireRecord>,
  predicate: (record: ParsedRecord) => boolean,
  ms = 1000
): Effect.Effect<void> => {
  const deadline = Date.now() + ms
  const loop: Effect.Effect<void> = Effect.suspend(() => {
    if (parsed(wire).some(predicate)) return Effect.void
    if (Date.now() > deadline) return Effect.die(new Error(`no matching message on the wire after ${ms} ms`))
    return Effect.andThen(Effect.sleep("5 millis"), loop)
  })
  return loop
}

/** Lets forked fibers (stream subscribers) start. */
export const settle = Effect.sleep("20 millis")
