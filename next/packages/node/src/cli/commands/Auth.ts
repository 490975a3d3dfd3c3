/**
 * `emcp login` and `emcp logout`: sign in to a `--url` server with OAuth
 * (tokens kept in the file store under the config directory), and forget
 * the tokens. No token is printed.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type { GlobalConfig } from "../Args.js"
import { CliError } from "../CliError.js"
import { stdout } from "../Output.js"
import { type CommandHandler, execute } from "../Session.js"
import { type SignIn, toSettings } from "../Settings.js"

/** Whether the tokens of `resource` serve `url`: the same URL, or a resource whose path contains it. */
export const covers = (resource: string, url: string): boolean => {
  if (resource === url) return true
  try {
    const r = new URL(resource)
    const u = new URL(url)
    const prefix = r.pathname.endsWith("/") ? r.pathname : `${r.pathname}/`
    return r.origin === u.origin && r.search === "" && u.pathname.startsWith(prefix)
  } catch {
    return false
  }
}

/** The `--url` and its sign-in, or a usage error naming what is missing. */
const signInOf = (globals: GlobalConfig, command: string) =>
  Effect.gen(function*() {
    const settings = yield* toSettings(globals)
    const c = settings.connection
    if (c._tag !== "Http") return yield* CliError.usage(`emcp ${command} needs --url (a --stdio server does not sign in)`)
    if (c.signIn === undefined) {
      return yield* CliError.usage(`emcp ${command} does not go with --token or an Authorization header`)
    }
    return { url: c.url, signIn: c.signIn }
  })

const forget = (url: string, signIn: SignIn) =>
  Effect.flatMap(
    Effect.promise(() => import("../../NodeOAuth.js")),
    (NodeOAuth) =>
      NodeOAuth.removeFileTokens(signIn.tokenFile, (_issuer, resource) => covers(resource, url)).pipe(
        Effect.mapError((e) => CliError.failure(e.message))
      )
  )

export const login: CommandHandler = ({ globals }) =>
  Effect.gen(function*() {
    const { signIn, url } = yield* signInOf(globals, "login")
    if (!signIn.login) return yield* CliError.usage("emcp login and --no-login conflict")
    yield* forget(url, signIn)
    yield* execute(globals, () => Effect.void)
    const NodeOAuth = yield* Effect.promise(() => import("../../NodeOAuth.js"))
    const stored = yield* NodeOAuth.listFileTokens(signIn.tokenFile)
    const entry = stored.find((t) => covers(t.resource, url))
    const settings = yield* toSettings(globals)
    if (settings.json) return yield* stdout(JSON.stringify({ signedIn: entry !== undefined, ...entry }))
    yield* stdout(
      entry !== undefined
        ? `signed in to ${entry.resource} at ${entry.issuer}`
        : `${url} did not ask to sign in: nothing stored`
    )
  })

export const logout: CommandHandler = ({ globals }) =>
  Effect.gen(function*() {
    const { signIn, url } = yield* signInOf(globals, "logout")
    const removed = yield* forget(url, signIn)
    if (globals.json) return yield* stdout(JSON.stringify({ removed }))
    yield* stdout(removed > 0 ? `signed out of ${url}` : `not signed in to ${url}: nothing to forget`)
  })
