/**
 * The process's stdout, once a stdio server owns it: its `write` goes to stderr for the rest of
 * the process, so that nothing but the protocol's frames reaches the client, whoever writes
 * (`process.stdout.write` itself, a `console` or logger that holds the stream since before the
 * server started), while the protocol's writer keeps the stream's own `write`. Only a `write`
 * function taken off the stream before (`process.stdout.write.bind(…)`) and writes to file
 * descriptor 1 itself (`fs.writeSync(1, …)`) pass by.
 */
import type { Writable } from "node:stream"

const ProtocolWrite: unique symbol = Symbol.for("@effect-mcp/node/stdout/protocolWrite")

/** `Writable.write` as the protocol calls it (the overload with a callback and no encoding). */
type Write = (chunk: string, done: (error: Error | null | undefined) => void) => boolean

interface Guarded {
  [ProtocolWrite]?: Write
}

/** Sends what anyone but the protocol writes to `stdout` to `stderr` (once; not undone). */
export const guard = (stdout: Writable, stderr: Writable): void => {
  const guarded = stdout as Writable & Guarded
  if (guarded[ProtocolWrite] !== undefined) return
  guarded[ProtocolWrite] = stdout.write as Write
  // the same signature and result (stderr's backpressure), so a writer that waits for 'drain' on
  // stdout does not wait forever: stdout itself is not written to
  stdout.write = ((...args: Parameters<Writable["write"]>) => stderr.write(...args)) as Writable["write"]
}

/** How the protocol writes to `writable`: with the stream's own `write`, also once it is guarded. */
export const protocolWrite = (writable: Writable): Write => {
  const own = (writable as Writable & Guarded)[ProtocolWrite]
  return own === undefined
    ? (chunk, done) => writable.write(chunk, done)
    : (chunk, done) => own.call(writable, chunk, done)
}
