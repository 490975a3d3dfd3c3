/**
 * What the fetch transport loads on first use, in one module (one lazy chunk, so that a page's
 * own code splits into no more chunks than that): the legacy client over its backend, for the
 * fallback, and the signing of exchanges, for `auth`.
 */
export { authorizedBackend } from "../oauth/backendAuth.js"
export { make as legacyClient } from "../legacy/client.js"
