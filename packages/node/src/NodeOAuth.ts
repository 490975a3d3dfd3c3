/**
 * Node.js parts of the client's sign-in (`@effect-mcp/mcp/McpOAuth`): the
 * loopback redirect, for a person at a browser (a listener on 127.0.0.1 at
 * a random port receives the redirect), and a token store in a file
 * (`0600`, one entry per issuer and resource), for command line tools.
 *
 * @since 0.1.0
 */
import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as Console from "effect/Console"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as fs from "node:fs/promises"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"

/**
 * Options of the loopback redirect.
 *
 * @since 0.1.0
 * @category models
 */
export interface LoopbackOptions {
  /** Sends the user to the authorization URL (default: print it on stderr). */
  readonly open?: ((authorizationUrl: URL) => Effect.Effect<void>) | undefined
  /** The path of the redirect URI (default `/callback`). */
  readonly path?: string | undefined
  /** How long to wait for the redirect (default 5 minutes). */
  readonly timeout?: Duration.Input | undefined
}

const page = (title: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${title}. You may close this window.</p>`

/**
 * The loopback `AuthorizationRedirect`: listens on 127.0.0.1 (a random port)
 * for as long as its scope, sends the user to the authorization URL, and
 * resolves with the redirect the browser brings back.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
 *
 * const redirect = NodeOAuth.layerLoopback({})
 * ```
 */
export const makeLoopback = (
  options: LoopbackOptions = {}
): Effect.Effect<McpOAuth.AuthorizationRedirectShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const callbackPath = options.path ?? "/callback"
    let waiting: Deferred.Deferred<URL> | undefined
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1")
      if (url.pathname !== callbackPath || waiting === undefined) {
        res.writeHead(404, { "content-type": "text/html" }).end(page("Nothing is waiting for a sign-in here"))
        return
      }
      Deferred.doneUnsafe(waiting, Exit.succeed(new URL(`${redirectUri}${url.search}`)))
      waiting = undefined
      const failed = url.searchParams.has("error")
      res.writeHead(200, { "content-type": "text/html" }).end(page(failed ? "Signing in failed" : "Signed in"))
    })
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${callbackPath}`
    const open = options.open ??
      ((url: URL) => Console.error(`Open this URL in a browser to sign in:\n  ${url.href}`))
    const lock = yield* Semaphore.make(1)
    const authorize = (url: URL) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const deferred = yield* Deferred.make<URL>()
        waiting = deferred
        yield* open(url)
        return yield* Deferred.await(deferred).pipe(
          Effect.timeoutOrElse({
            duration: options.timeout ?? "5 minutes",
            orElse: () =>
              Effect.fail(
                new McpOAuth.OAuthError({ reason: "Authorization", message: `No sign-in came back to ${redirectUri} in time` })
              )
          }),
          Effect.ensuring(Effect.sync(() => {
            if (waiting === deferred) waiting = undefined
          }))
        )
      }))
    return { redirectUri, authorize }
  })

/**
 * The loopback redirect, its listener started on the first sign-in only (and
 * closed with the scope): nothing listens while a stored token serves.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
 * import * as Effect from "effect/Effect"
 *
 * const redirect = Effect.scoped(NodeOAuth.makeLoopbackOnDemand({}))
 * ```
 */
export const makeLoopbackOnDemand = (
  options: LoopbackOptions = {}
): Effect.Effect<McpOAuth.AuthorizationRedirectShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    let started: McpOAuth.AuthorizationRedirectShape | undefined
    const start = yield* Effect.cached(
      Effect.tap(Scope.provide(makeLoopback(options), scope), (loopback) => Effect.sync(() => (started = loopback)))
    )
    return {
      get redirectUri(): string {
        if (started === undefined) throw new Error("the loopback redirect is read before it was prepared")
        return started.redirectUri
      },
      prepare: Effect.asVoid(start),
      authorize: (url: URL) => Effect.flatMap(start, (loopback) => loopback.authorize(url))
    }
  })

/**
 * The loopback redirect as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerLoopback = (options: LoopbackOptions = {}): Layer.Layer<McpOAuth.AuthorizationRedirect> =>
  Layer.effect(McpOAuth.AuthorizationRedirect, makeLoopback(options))

interface FileContents {
  clients: Record<string, McpOAuth.StoredClient>
  tokens: Record<string, McpOAuth.StoredTokens>
}

/**
 * A `TokenStore` in the JSON file at `file`, readable by its owner only
 * (`0600`; its directory is made `0700` when created). Written whole, through
 * a temporary file and a rename; a file that cannot be read counts as empty.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
 * import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
 * import * as Layer from "effect/Layer"
 * import * as os from "node:os"
 * import * as path from "node:path"
 *
 * const Tokens = Layer.succeed(
 *   McpOAuth.TokenStore,
 *   NodeOAuth.makeFileStore(path.join(os.homedir(), ".config", "my-app", "tokens.json"))
 * )
 * ```
 */
export const makeFileStore = (file: string): McpOAuth.TokenStoreShape => {
  const key = (issuer: string, resource: string) => `${issuer} ${resource}`
  const read = Effect.promise(async (): Promise<FileContents> => {
    try {
      const parsed = JSON.parse(await fs.readFile(file, "utf8")) as Partial<FileContents>
      return { clients: parsed.clients ?? {}, tokens: parsed.tokens ?? {} }
    } catch {
      return { clients: {}, tokens: {} }
    }
  })
  const update = (f: (contents: FileContents) => void) =>
    Effect.flatMap(read, (contents) =>
      Effect.tryPromise(async () => {
        f(contents)
        await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
        const temporary = `${file}.${process.pid}.tmp`
        await fs.writeFile(temporary, JSON.stringify(contents, null, 2), { mode: 0o600 })
        await fs.chmod(temporary, 0o600)
        await fs.rename(temporary, file)
      })).pipe(Effect.catch((error) => Effect.logWarning(`could not write the token store ${file}`, error.message)))
  const set = <A>(record: Record<string, A>, k: string, value: A | undefined) => {
    if (value === undefined) delete record[k]
    else record[k] = value
  }
  const lock = Semaphore.makeUnsafe(1)
  return {
    client: (issuer) => Effect.map(read, (c) => c.clients[issuer]),
    saveClient: (issuer, client) => lock.withPermits(1)(update((c) => set(c.clients, issuer, client))),
    tokens: (issuer, resource) => Effect.map(read, (c) => c.tokens[key(issuer, resource)]),
    saveTokens: (issuer, resource, tokens) => lock.withPermits(1)(update((c) => set(c.tokens, key(issuer, resource), tokens)))
  }
}

/**
 * The file `TokenStore` as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFileStore = (file: string): Layer.Layer<McpOAuth.TokenStore> =>
  Layer.sync(McpOAuth.TokenStore, () => makeFileStore(file))

/**
 * Removes from the file store at `file` the tokens whose issuer and resource
 * `remove` selects (client registrations are kept); returns how many went.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
 *
 * const removed = NodeOAuth.removeFileTokens("/home/me/.config/emcp/tokens.json", (_issuer, resource) =>
 *   resource === "https://example.com/mcp")
 * ```
 */
export const removeFileTokens = (
  file: string,
  remove: (issuer: string, resource: string) => boolean
): Effect.Effect<number, Error> =>
  Effect.tryPromise({
    try: async () => {
      let contents: FileContents
      try {
        contents = JSON.parse(await fs.readFile(file, "utf8")) as FileContents
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0
        throw error
      }
      const tokens = contents.tokens ?? {}
      const gone = Object.keys(tokens).filter((k) => {
        const space = k.indexOf(" ")
        return remove(k.slice(0, space), k.slice(space + 1))
      })
      if (gone.length === 0) return 0
      for (const k of gone) delete tokens[k]
      const temporary = `${file}.${process.pid}.tmp`
      await fs.writeFile(temporary, JSON.stringify({ ...contents, tokens }, null, 2), { mode: 0o600 })
      await fs.chmod(temporary, 0o600)
      await fs.rename(temporary, file)
      return gone.length
    },
    catch: (cause) => new Error(`could not update the token store ${file}: ${(cause as Error).message}`)
  })

/**
 * The issuers and resources the file store at `file` holds tokens for (no
 * token in the answer).
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
 *
 * const signedIn = NodeOAuth.listFileTokens("/home/me/.config/emcp/tokens.json")
 * ```
 */
export const listFileTokens = (
  file: string
): Effect.Effect<ReadonlyArray<{ readonly issuer: string; readonly resource: string }>> =>
  Effect.map(Effect.promise(() => fs.readFile(file, "utf8").then(JSON.parse, () => ({}))), (contents) =>
    Object.keys((contents as Partial<FileContents>).tokens ?? {}).map((k) => {
      const space = k.indexOf(" ")
      return { issuer: k.slice(0, space), resource: k.slice(space + 1) }
    }))
