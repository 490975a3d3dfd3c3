/**
 * The help text of `emcp`, written from the command table in `Args`: plain
 * text (no colours, so nothing to strip when piped or under `NO_COLOR`),
 * wrapped at 80 columns, with examples for every command.
 *
 * @since 0.1.0
 */
import {
  type CommandSpec,
  commandName,
  COMMANDS,
  GLOBAL_OPTIONS,
  type GlobalOptionSpec,
  GROUPS,
  type OptionSpec,
  usageLine
} from "./Args.js"

/** The version `emcp` reports (`--version`, `clientInfo`). */
export const VERSION = "0.1.0"

const WIDTH = 80

/** Wraps `text` to the width, every line indented by `indent`. */
const wrap = (text: string, indent: number): Array<string> => {
  const out: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/)) {
    if (line !== "" && indent + line.length + 1 + word.length > WIDTH) {
      out.push(line)
      line = word
    } else {
      line = line === "" ? word : `${line} ${word}`
    }
  }
  if (line !== "") out.push(line)
  return out.map((l) => `${" ".repeat(indent)}${l}`)
}

/** Two columns: terms on the left, wrapped descriptions from column 28 (under the term when it is long). */
const twoColumns = (rows: ReadonlyArray<readonly [string, string]>): Array<string> => {
  const left = 28
  const out: Array<string> = []
  for (const [term, description] of rows) {
    const lines = wrap(description, left)
    if (term.length + 4 <= left) {
      out.push(`  ${term.padEnd(left - 2)}${lines[0]!.trimStart()}`, ...lines.slice(1))
    } else {
      out.push(`  ${term}`, ...lines)
    }
  }
  return out
}

const optionTerm = (o: OptionSpec): string => {
  const names = o.alias !== undefined ? `-${o.alias}, --${o.name}` : `--${o.name}`
  return o.value !== undefined ? `${names} ${o.value}` : names
}

const optionRows = (options: ReadonlyArray<OptionSpec>): Array<readonly [string, string]> =>
  options.map((o) => [optionTerm(o), o.repeated === true ? `${o.description} Repeatable.` : o.description])

const globalSection = (title: string, group: GlobalOptionSpec["group"]): Array<string> => [
  title,
  ...twoColumns(optionRows(GLOBAL_OPTIONS.filter((o) => o.group === group))),
  ""
]

const commandTerm = (c: CommandSpec): string =>
  [c.path.join(" "), ...c.args.map((a) => (a.optional === true ? `[${a.name}]` : a.name))].join(" ")

const CONNECTION = "(--stdio COMMAND | --url URL)"
const CONNECTION_NOTE = "  with --stdio COMMAND or --url URL, and OPTIONS, anywhere on the line"

/** `emcp --help`. */
export const rootHelp = (): string =>
  [
    `emcp ${VERSION}: talk to an MCP server from the shell`,
    "",
    "Usage:",
    `  emcp ${CONNECTION} [OPTIONS] COMMAND [ARGUMENTS]`,
    "",
    "Commands:",
    ...twoColumns(COMMANDS.map((c) => [commandTerm(c), c.summary])),
    "",
    ...globalSection("Connection (give --stdio or --url):", "connection"),
    ...globalSection("Signing in (--url):", "signin"),
    ...globalSection("Output:", "output"),
    ...globalSection("Answers to the server's requests:", "answers"),
    "Other:",
    ...twoColumns([["-h, --help", "Show this help; after a command, that command's help."], [
      "--version",
      "Print the version."
    ]]),
    "",
    ...wrap(
      "Options may come before or after the command. Put -- before arguments that start with '-'. Results go to stdout; progress, server logs and errors to stderr. Exit codes: 0 success, 1 failure (one line on stderr), 2 usage error.",
      0
    ),
    "",
    "Examples:",
    `  emcp --stdio "node server.js" tools list`,
    `  emcp --stdio "npx -y @modelcontextprotocol/server-everything" tools call echo '{"message":"hi"}'`,
    `  emcp --url http://127.0.0.1:3000/mcp --header 'Authorization: Bearer T' resources list --json`,
    `  emcp --url https://example.com/mcp login`,
    `  emcp --url https://example.com/mcp --no-login tools list`,
    "",
    "Run 'emcp COMMAND --help' for the arguments and examples of a command."
  ].join("\n")

/** `emcp tools --help`. */
export const groupHelp = (group: string): string => {
  const spec = GROUPS.find((g) => g.name === group)!
  const commands = COMMANDS.filter((c) => c.path[0] === group)
  return [
    `${commandName([group])}: ${spec.summary}`,
    "",
    "Usage:",
    ...commands.map((c) => `  ${usageLine(c)}`),
    CONNECTION_NOTE,
    "",
    "Commands:",
    ...twoColumns(commands.map((c) => [commandTerm(c), c.summary])),
    "",
    "Examples:",
    ...commands.flatMap((c) => c.examples.map((e) => `  ${e}`)),
    "",
    ...wrap(`Run '${commandName([group])} COMMAND --help' for more; 'emcp --help' for the options of every command.`, 0)
  ].join("\n")
}

/** `emcp tools call --help`. */
export const commandHelp = (command: CommandSpec): string => {
  const lines = [
    `${commandName(command.path)}: ${command.summary}`,
    "",
    "Usage:",
    `  ${usageLine(command)}`,
    CONNECTION_NOTE,
    ""
  ]
  if (command.description !== undefined) lines.push(...wrap(command.description, 0), "")
  if (command.args.length > 0) {
    lines.push(
      "Arguments:",
      ...twoColumns(command.args.map((a) => [a.name, a.optional === true ? `${a.description} Optional.` : a.description])),
      ""
    )
  }
  if (command.options.length > 0) lines.push("Options:", ...twoColumns(optionRows(command.options)), "")
  lines.push(
    "Examples:",
    ...command.examples.map((e) => `  ${e}`),
    "",
    ...wrap("OPTIONS (--json, --timeout, --log-level, ...) are listed by 'emcp --help'.", 0)
  )
  return lines.join("\n")
}

/** The help for a command path (`[]` for the root). */
export const helpFor = (path: ReadonlyArray<string>): string => {
  if (path.length === 0) return rootHelp()
  const command = COMMANDS.find((c) => c.path.length === path.length && c.path.every((w, i) => path[i] === w))
  return command !== undefined ? commandHelp(command) : groupHelp(path[0]!)
}
