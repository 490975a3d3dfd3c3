/**
 * How `emcp` fails: one line on stderr and an exit code (2 for a usage
 * error, 1 for anything else).
 *
 * @since 0.1.0
 */
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import type { TransportError } from "@effect-mcp/mcp/McpError"
import * as Data from "effect/Data"

/**
 * A failure of the command, reported as one line on stderr with its exit code.
 *
 * @since 0.1.0
 * @category errors
 */
export class CliError extends Data.TaggedError("CliError")<{
  readonly message: string
  readonly exitCode: number
}> {
  static usage(message: string): CliError {
    return new CliError({ message, exitCode: 2 })
  }
  static failure(message: string): CliError {
    return new CliError({ message, exitCode: 1 })
  }
}

/**
 * Any text as one line: lines joined with ` | `, bounded in length.
 *
 * @since 0.1.0
 * @category rendering
 */
export const oneLine = (text: string, max = 600): string => {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" | ")
  return line.length > max ? `${line.slice(0, max - 3)}...` : line
}

/** What a failed request reports: a server's answer is named as such, a transport failure by its own message. */
export const describeClientError = (error: McpClient.ClientError | TransportError): string => {
  switch (error._tag) {
    case "McpError": {
      const data = error.data === undefined ? "" : ` (data: ${JSON.stringify(error.data)})`
      return `server error ${error.code}: ${error.message}${data}`
    }
    case "ProtocolError":
      return error.message
    case "TransportError":
      return error.message
  }
}
