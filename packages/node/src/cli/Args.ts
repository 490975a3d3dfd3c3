/**
 * The `emcp` command line, read without Effect: the global options, the
 * commands with their arguments, options and examples (also the source of
 * the help text), and the parser. Kept free of imports so that `--help` and
 * `--version` answer without loading the protocol stack.
 *
 * @since 0.1.0
 */

/** The global options as given on the command line, not yet checked. */
export interface GlobalConfig {
  readonly stdio: string | undefined
  readonly url: string | undefined
  readonly env: ReadonlyArray<string>
  readonly cwd: string | undefined
  readonly header: ReadonlyArray<string>
  readonly token: string | undefined
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
  readonly scope: string | undefined
  readonly noLogin: boolean
  readonly json: boolean
  readonly timeout: string | undefined
  readonly logLevel: string | undefined
  readonly samplingResponse: string | undefined
  readonly elicit: string | undefined
  readonly root: ReadonlyArray<string>
  readonly quiet: boolean
  readonly verbose: boolean
  readonly protocol: string | undefined
}

type Single =
  | "stdio"
  | "url"
  | "cwd"
  | "token"
  | "clientId"
  | "clientSecret"
  | "scope"
  | "timeout"
  | "logLevel"
  | "samplingResponse"
  | "elicit"
  | "protocol"
type Repeated = "env" | "header" | "root"
type Flag = "json" | "quiet" | "verbose" | "noLogin"

/** One option, for the parser and the help. */
export interface OptionSpec {
  readonly name: string
  readonly alias?: string
  /** The placeholder of its value; none for a flag. */
  readonly value?: string
  readonly repeated?: boolean
  readonly description: string
}

/** A global option: where its value goes. */
export interface GlobalOptionSpec extends OptionSpec {
  readonly key: Single | Repeated | Flag
  readonly group: "connection" | "signin" | "output" | "answers"
}

/** The global options: they may appear anywhere on the command line (before a `--`). */
export const GLOBAL_OPTIONS: ReadonlyArray<GlobalOptionSpec> = [
  {
    name: "stdio",
    key: "stdio",
    group: "connection",
    value: "COMMAND",
    description:
      "Start the server and talk to it over stdin/stdout. The command and its arguments in one string, split like a shell would (quotes and backslashes, no expansion)."
  },
  {
    name: "url",
    key: "url",
    group: "connection",
    value: "URL",
    description: "Connect to a streamable HTTP server; falls back to the legacy HTTP+SSE transport (2024-11-05)."
  },
  {
    name: "env",
    key: "env",
    group: "connection",
    value: "KEY=VALUE",
    repeated: true,
    description: "Set an environment variable of the --stdio server."
  },
  { name: "cwd", key: "cwd", group: "connection", value: "DIR", description: "The working directory of the --stdio server." },
  {
    name: "header",
    key: "header",
    group: "connection",
    value: "'NAME: VALUE'",
    repeated: true,
    description: "Send an HTTP header with every --url request."
  },
  {
    name: "token",
    key: "token",
    group: "connection",
    value: "TOKEN",
    description: "Send this bearer token (Authorization: Bearer TOKEN) with every --url request. Never printed."
  },
  {
    name: "no-login",
    key: "noLogin",
    group: "signin",
    description:
      "Never sign in: when the server answers 401 and no stored token serves, fail. Without it emcp signs in with OAuth: it prints the authorization URL on stderr (and opens a browser on a terminal) and listens on 127.0.0.1 for the redirect."
  },
  {
    name: "protocol",
    key: "protocol",
    group: "connection",
    value: "VERSION",
    description:
      "The protocol revision to speak: 2025-11-25 (initialize; older revisions are negotiated down) or 2026-07-28 (stateless, server/discover). Default: auto, 2026-07-28 when the server speaks it, else 2025-11-25."
  },
  {
    name: "client-id",
    key: "clientId",
    group: "signin",
    value: "ID",
    description: "Sign in as this pre-registered OAuth client (default: a client ID metadata document or dynamic registration)."
  },
  {
    name: "client-secret",
    key: "clientSecret",
    group: "signin",
    value: "SECRET",
    description: "The secret of the --client-id client."
  },
  {
    name: "scope",
    key: "scope",
    group: "signin",
    value: "'SCOPE ...'",
    description: "The scopes to ask for (default: those the server names)."
  },
  { name: "json", key: "json", group: "output", description: "Print exactly the JSON result on stdout, on one line." },
  {
    name: "timeout",
    key: "timeout",
    group: "output",
    value: "DURATION",
    description: "Fail when the whole command takes longer: 500ms, 30s, 2m (a bare number is seconds)."
  },
  {
    name: "log-level",
    key: "logLevel",
    group: "output",
    value: "LEVEL",
    description:
      "Ask the server to log at LEVEL (debug, info, notice, warning, error, critical, alert, emergency) and show its messages from LEVEL up on stderr. Default: show info and up, ask nothing."
  },
  {
    name: "quiet",
    alias: "q",
    key: "quiet",
    group: "output",
    description: "Show no progress and no server log messages on stderr."
  },
  { name: "verbose", key: "verbose", group: "output", description: "Copy the --stdio server's stderr to stderr." },
  {
    name: "sampling-response",
    key: "samplingResponse",
    group: "answers",
    value: "JSON|TEXT",
    description:
      "Answer the server's sampling/createMessage with this text, or with this CreateMessageResult JSON (role and model may be left out). Without it a terminal asks you; otherwise sampling fails."
  },
  {
    name: "elicit",
    key: "elicit",
    group: "answers",
    value: "ANSWER",
    description:
      "Answer the server's elicitation/create: accept:JSON, accept, decline or cancel. Without it a terminal asks you; otherwise it declines."
  },
  {
    name: "root",
    key: "root",
    group: "answers",
    value: "PATH|URI",
    repeated: true,
    description: "Offer a root to the server (roots/list): a path or a file:// URI."
  }
]

/** A positional argument of a command. */
export interface ArgSpec {
  readonly name: string
  readonly optional?: boolean
  readonly description: string
}

/** A command: its words, arguments, options, help and examples. */
export interface CommandSpec {
  /** The words that name it: `["tools", "call"]`. */
  readonly path: ReadonlyArray<string>
  readonly summary: string
  readonly description?: string
  readonly args: ReadonlyArray<ArgSpec>
  readonly options: ReadonlyArray<OptionSpec>
  readonly examples: ReadonlyArray<string>
}

/** A group of commands (`tools`, `resources`, `prompts`). */
export interface GroupSpec {
  readonly name: string
  readonly summary: string
}

const ARG_OPTION: OptionSpec = {
  name: "arg",
  alias: "a",
  value: "KEY=VALUE",
  repeated: true,
  description: "One argument; its value is typed by the tool's input schema (42 is a number where the schema says so)."
}

export const GROUPS: ReadonlyArray<GroupSpec> = [
  { name: "tools", summary: "List and call tools" },
  { name: "resources", summary: "List, read and subscribe to resources; list resource templates" },
  { name: "prompts", summary: "List and get prompts" }
]

/** `--count N`: end after N notifications (for scripts and tests); without it, run until interrupted. */
const COUNT_OPTION: OptionSpec = {
  name: "count",
  value: "N",
  description: "Exit (code 0) after N notifications instead of waiting for Ctrl-C."
}

const S = `--stdio "node server.js"`
const U = "--url http://127.0.0.1:3000/mcp"

export const COMMANDS: ReadonlyArray<CommandSpec> = [
  {
    path: ["info"],
    summary: "Show the server's name, version, protocol version and capabilities",
    args: [],
    options: [],
    examples: [`emcp ${S} info`, `emcp ${U} info --json`]
  },
  {
    path: ["tools", "list"],
    summary: "List the tools with their arguments",
    description: "ARGUMENTS shows each property of the input schema with its JSON type; a '?' marks an optional one.",
    args: [],
    options: [],
    examples: [`emcp ${S} tools list`, `emcp ${U} tools list --json`]
  },
  {
    path: ["tools", "call"],
    summary: "Call a tool and print its result",
    description:
      "Text content is printed as is, images, audio and blobs are summarised. A result with isError set exits 1. Progress and log messages go to stderr.",
    args: [
      { name: "NAME", description: "The tool." },
      { name: "ARGUMENTS_JSON", optional: true, description: "The arguments, as a JSON object; --arg adds to it." }
    ],
    options: [ARG_OPTION, {
      name: "task",
      description:
        "Run the call as a task (2025-11-25 tasks, or the 2026-07-28 tasks extension, where the server decides): each status is printed on stderr as it changes, then the result; a task that asks for input (input_required) is answered as any request is (--elicit, --sampling-response, or a terminal prompt); interrupting (Ctrl-C) cancels the task. A tool listed as requiring a task runs as one without it."
    }],
    examples: [
      `emcp ${S} tools call echo '{"text":"hi"}'`,
      `emcp ${U} tools call build-report --arg month=May --task`,
      `emcp ${S} tools call add --arg a=1 --arg b=2`,
      `emcp ${U} tools call summarise --arg path=README.md --sampling-response "A short summary"`
    ]
  },
  {
    path: ["resources", "list"],
    summary: "List the resources",
    args: [],
    options: [],
    examples: [`emcp ${S} resources list`]
  },
  {
    path: ["resources", "templates"],
    summary: "List the resource templates",
    args: [],
    options: [],
    examples: [`emcp ${S} resources templates --json`]
  },
  {
    path: ["resources", "read"],
    summary: "Read a resource: text is printed, blobs are summarised",
    args: [{ name: "URI", description: "The resource." }],
    options: [],
    examples: [`emcp ${S} resources read file:///etc/hosts`, `emcp ${U} resources read test://static-binary --json`]
  },
  {
    path: ["resources", "subscribe"],
    summary: "Subscribe to a resource and print each update until interrupted (Ctrl-C)",
    description:
      "Prints 'updated URI' on stdout for each notifications/resources/updated (--json: each notification as one JSON line). Either protocol era: a 2026-07-28 server is listened to with subscriptions/listen. Ctrl-C ends it (exit code 130).",
    args: [{ name: "URI", description: "The resource." }],
    options: [COUNT_OPTION],
    examples: [`emcp ${S} resources subscribe file:///var/log/app.log`, `emcp ${U} resources subscribe docs://readme --count 1 --json`]
  },
  {
    path: ["watch"],
    summary: "Print the server's change notifications until interrupted (Ctrl-C)",
    description:
      "Without options: the tools, prompts and resources list changes. Each notification is one line on stdout: its method without 'notifications/' and the URI of a resource update (--json: the notification as one JSON line). Ctrl-C ends it (exit code 130).",
    args: [],
    options: [
      { name: "tools", description: "Tools list changes." },
      { name: "prompts", description: "Prompts list changes." },
      { name: "resources", description: "Resources list changes." },
      { name: "resource", value: "URI", repeated: true, description: "Subscribe to this resource's updates." },
      COUNT_OPTION
    ],
    examples: [`emcp ${S} watch`, `emcp ${U} watch --tools --resource docs://readme --json`]
  },
  {
    path: ["prompts", "list"],
    summary: "List the prompts with their arguments",
    description: "A '?' marks an optional argument.",
    args: [],
    options: [],
    examples: [`emcp ${S} prompts list`]
  },
  {
    path: ["prompts", "get"],
    summary: "Get a prompt and print its messages",
    args: [
      { name: "NAME", description: "The prompt." },
      { name: "ARGUMENTS_JSON", optional: true, description: "The arguments, as a JSON object of strings; --arg adds to it." }
    ],
    options: [{ ...ARG_OPTION, description: "One argument (prompt arguments are strings)." }],
    examples: [`emcp ${S} prompts get greet --arg name=Ada`, `emcp ${S} prompts get greet '{"name":"Ada"}' --json`]
  },
  {
    path: ["complete"],
    summary: "Complete a prompt argument or a resource template variable",
    description: "Give exactly one of --prompt and --resource.",
    args: [
      { name: "ARGUMENT", description: "The argument (or template variable) to complete." },
      { name: "VALUE", optional: true, description: "What is typed so far (default: empty)." }
    ],
    options: [
      { name: "prompt", value: "NAME", description: "Complete an argument of this prompt." },
      { name: "resource", value: "URI_TEMPLATE", description: "Complete a variable of this resource template." },
      { name: "context", value: "KEY=VALUE", repeated: true, description: "An argument already chosen." }
    ],
    examples: [
      `emcp ${S} complete --prompt greet name A`,
      `emcp ${S} complete --resource 'file:///{path}' path src/ --context root=/srv`
    ]
  },
  {
    path: ["ping"],
    summary: "Ping the server and print the round trip",
    args: [],
    options: [],
    examples: [`emcp ${S} ping`]
  },
  {
    path: ["call"],
    summary: "Send any request and print its JSON result",
    args: [
      { name: "METHOD", description: "The JSON-RPC method, e.g. tools/list." },
      { name: "PARAMS_JSON", optional: true, description: "The params, as a JSON object." }
    ],
    options: [],
    examples: [`emcp ${S} call tools/list`, `emcp ${S} call tools/call '{"name":"echo","arguments":{"text":"hi"}}'`]
  },
  {
    path: ["login"],
    summary: "Sign in to a --url server with OAuth and store its tokens",
    description:
      "Forgets the stored tokens for the server, then connects and signs in: the authorization URL is printed on stderr and the redirect comes back to a listener on 127.0.0.1. Tokens are stored in tokens.json (mode 0600) under $EMCP_CONFIG_DIR, else $XDG_CONFIG_HOME/emcp, else ~/.config/emcp, and used by the next commands; they are never printed. Other commands sign in by themselves on a 401 unless --no-login is given.",
    args: [],
    options: [],
    examples: [`emcp ${U} login`, `emcp ${U} --client-id my-app --client-secret s3cret --scope 'mcp:tools' login`]
  },
  {
    path: ["logout"],
    summary: "Forget the stored tokens of a --url server",
    args: [],
    options: [],
    examples: [`emcp ${U} logout`]
  }
]

/** What the command line asks for. */
export type CommandLine =
  | { readonly _tag: "Help"; readonly path: ReadonlyArray<string> }
  | { readonly _tag: "Version" }
  | {
    readonly _tag: "Run"
    readonly command: CommandSpec
    readonly globals: GlobalConfig
    /** The positional arguments, by name (absent when optional and not given). */
    readonly args: Readonly<Record<string, string>>
    /** The command's options, by name, every value given. */
    readonly options: Readonly<Record<string, ReadonlyArray<string>>>
  }
  | { readonly _tag: "UsageError"; readonly message: string }

/** The command line split by `normalizeArgs`. */
export interface NormalizedArgs {
  /** The global options. */
  readonly globals: GlobalConfig
  /** The rest: the command, its arguments and options. */
  readonly args: ReadonlyArray<string>
}

const globalByFlag = new Map<string, GlobalOptionSpec>()
for (const o of GLOBAL_OPTIONS) {
  globalByFlag.set(`--${o.name}`, o)
  if (o.alias !== undefined) globalByFlag.set(`-${o.alias}`, o)
}

const isFlag = (key: GlobalOptionSpec["key"]): key is Flag =>
  key === "json" || key === "quiet" || key === "verbose" || key === "noLogin"
const isRepeated = (key: GlobalOptionSpec["key"]): key is Repeated => key === "env" || key === "header" || key === "root"

/**
 * Takes the global options out of the command line, wherever they are (up to
 * a `--`), so that `emcp tools call echo '{}' --json --stdio "..."` means
 * `emcp --stdio "..." --json tools call echo '{}'`. `--name value` and
 * `--name=value` are both accepted; a value may start with `-`. Returns the
 * message of a usage error as a string.
 */
export const normalizeArgs = (args: ReadonlyArray<string>): NormalizedArgs | string => {
  const single: Partial<Record<Single, string>> = {}
  const repeated: Record<Repeated, Array<string>> = { env: [], header: [], root: [] }
  const flags: Record<Flag, boolean> = { json: false, quiet: false, verbose: false, noLogin: false }
  const rest: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--") {
      rest.push(...args.slice(i))
      break
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const name = eq === -1 ? arg : arg.slice(0, eq)
    const spec = globalByFlag.get(name)
    if (spec === undefined) {
      rest.push(arg)
      continue
    }
    const key = spec.key
    if (isFlag(key)) {
      if (eq !== -1) return `${name} takes no value`
      flags[key] = true
      continue
    }
    let value: string
    if (eq !== -1) value = arg.slice(eq + 1)
    else if (i + 1 < args.length) value = args[++i]!
    else return `${name} needs a value`
    if (isRepeated(key)) {
      repeated[key].push(value)
    } else {
      if (single[key] !== undefined) return `${name} given more than once`
      single[key] = value
    }
  }
  return {
    globals: { ...single, ...repeated, ...flags } as GlobalConfig,
    args: rest
  }
}

/** `emcp tools call`: the command's words after `emcp`. */
export const commandName = (path: ReadonlyArray<string>): string => ["emcp", ...path].join(" ")

const findCommand = (words: ReadonlyArray<string>): CommandSpec | undefined =>
  COMMANDS.find((c) => c.path.every((w, i) => words[i] === w))

/** The options and arguments of one command, after its words. */
const parseCommandArgs = (
  command: CommandSpec,
  words: ReadonlyArray<string>,
  globals: GlobalConfig
): CommandLine => {
  const name = commandName(command.path)
  const options: Record<string, Array<string>> = {}
  const positionals: Array<string> = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (word === "--") {
      positionals.push(...words.slice(i + 1))
      break
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word)
      continue
    }
    const eq = word.startsWith("--") ? word.indexOf("=") : -1
    const flag = eq === -1 ? word : word.slice(0, eq)
    const spec = command.options.find((o) => flag === `--${o.name}` || (o.alias !== undefined && flag === `-${o.alias}`))
    if (spec === undefined) return usage(`unknown option ${flag} for ${name} (see ${name} --help)`)
    let value: string
    // a command flag (no value placeholder) takes no value
    if (spec.value === undefined) value = eq !== -1 ? word.slice(eq + 1) : ""
    else if (eq !== -1) value = word.slice(eq + 1)
    else if (i + 1 < words.length) value = words[++i]!
    else return usage(`${flag} needs a value ${spec.value ?? ""}`.trimEnd())
    const values = (options[spec.name] ??= [])
    if (values.length > 0 && spec.repeated !== true) return usage(`${flag} given more than once`)
    values.push(value)
  }
  const args: Record<string, string> = {}
  for (const [i, spec] of command.args.entries()) {
    const value = positionals[i]
    if (value === undefined) {
      if (spec.optional === true) continue
      return usage(`${name} needs ${spec.name} (usage: ${usageLine(command)})`)
    }
    args[spec.name] = value
  }
  if (positionals.length > command.args.length) {
    return usage(`unexpected argument '${positionals[command.args.length]}' for ${name} (usage: ${usageLine(command)})`)
  }
  return { _tag: "Run", command, globals, args, options }
}

const usage = (message: string): CommandLine => ({ _tag: "UsageError", message })

/** `emcp tools call NAME [ARGUMENTS_JSON] [--arg KEY=VALUE]...` */
export const usageLine = (command: CommandSpec): string => {
  const parts = [commandName(command.path)]
  for (const a of command.args) parts.push(a.optional === true ? `[${a.name}]` : a.name)
  for (const o of command.options) parts.push(`[--${o.name}${o.value !== undefined ? ` ${o.value}` : ""}]${o.repeated === true ? "..." : ""}`)
  return parts.join(" ")
}

/**
 * Reads a command line (without the runtime and script): the command to run
 * with its global options, a request for help or the version, or a usage
 * error.
 */
export const parseCommandLine = (argv: ReadonlyArray<string>): CommandLine => {
  const dashes = argv.indexOf("--")
  const before = dashes === -1 ? argv : argv.slice(0, dashes)
  const normalized = normalizeArgs(argv)
  const path = typeof normalized === "string" ? [] : normalized.args.filter((w) => !w.startsWith("-"))
  if (before.includes("--help") || before.includes("-h")) return { _tag: "Help", path: helpPath(path) }
  if (before.includes("--version")) return { _tag: "Version" }
  if (typeof normalized === "string") return usage(normalized)
  const rest = normalized.args
  if (rest.length === 0) return usage("missing command (see emcp --help)")
  const [first, second] = rest
  if (first!.startsWith("-")) return usage(`unknown option ${first!.split("=")[0]} (see emcp --help)`)
  const group = GROUPS.find((g) => g.name === first)
  if (group !== undefined && (second === undefined || second.startsWith("-"))) {
    return usage(`${commandName([group.name])} needs a command: ${subcommands(group.name).join(", ")} (see emcp ${group.name} --help)`)
  }
  const command = findCommand(rest)
  if (command === undefined) {
    return group !== undefined
      ? usage(`unknown command '${second}' for emcp ${group.name} (expected ${subcommands(group.name).join(", ")})`)
      : usage(`unknown command '${first}' (see emcp --help)`)
  }
  return parseCommandArgs(command, rest.slice(command.path.length), normalized.globals)
}

/** The subcommands of a group. */
export const subcommands = (group: string): ReadonlyArray<string> =>
  COMMANDS.filter((c) => c.path.length === 2 && c.path[0] === group).map((c) => c.path[1]!)

/** The longest known command or group named by the leading words. */
const helpPath = (words: ReadonlyArray<string>): ReadonlyArray<string> => {
  const command = findCommand(words)
  if (command !== undefined) return command.path
  if (words[0] !== undefined && GROUPS.some((g) => g.name === words[0])) return [words[0]]
  return []
}
