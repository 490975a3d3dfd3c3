/**
 * Questions on a terminal, one line per answer: choose from a numbered
 * list, type a value, yes or no. Line-based on `node:readline` (so that a
 * stream of lines drives it in the tests, and `emcp` needs no prompt
 * library); Ctrl-C or the end of input cancels.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as readline from "node:readline"

/** The user ended the dialog (Ctrl-C, end of input). */
export class Cancelled extends Data.TaggedError("Cancelled")<{}> {}

/** One question, one line of answer. */
export class Dialog extends Context.Service<Dialog, {
  /** Writes text (a line of context) before the next question. */
  readonly say: (text: string) => Effect.Effect<void>
  /** Asks and returns the line typed, without its end of line. */
  readonly ask: (question: string) => Effect.Effect<string, Cancelled>
}>()("@effect-mcp/node/cli/Dialog") {}

/**
 * A dialog reading `input` and writing to `output` (stdin and stderr for
 * `emcp`, so that stdout keeps only the result); closed with its scope.
 */
export const make = (
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream
): Effect.Effect<Dialog["Service"], never, Scope.Scope> =>
  Effect.gen(function*() {
    // lines are queued as they come: an answer typed (or piped) ahead of its question is kept
    const lines = yield* Queue.unbounded<Option.Option<string>>()
    const rl = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const terminal = (output as NodeJS.WriteStream).isTTY === true && (input as NodeJS.ReadStream).isTTY === true
        const rl = readline.createInterface({ input, output, terminal })
        rl.on("line", (line) => Queue.offerUnsafe(lines, Option.some(line)))
        rl.on("close", () => Queue.offerUnsafe(lines, Option.none()))
        rl.on("SIGINT", () => rl.close())
        return rl
      }),
      (rl) => Effect.sync(() => rl.close())
    )
    return {
      say: (text) => Effect.sync(() => void output.write(text.endsWith("\n") ? text : `${text}\n`)),
      ask: (question) =>
        Effect.sync(() => {
          rl.setPrompt(question)
          rl.prompt()
        }).pipe(
          Effect.andThen(Queue.take(lines)),
          Effect.flatMap(Option.match({
            // ended: every later question ends too
            onNone: () => Effect.andThen(Queue.offer(lines, Option.none()), Effect.fail(new Cancelled())),
            onSome: Effect.succeed
          }))
        )
    }
  })

/** Asks until `check` accepts the answer, saying why it did not. */
const askUntil = <A>(question: string, check: (answer: string) => Result.Result<A, string>) =>
  Effect.flatMap(Dialog, (dialog) => {
    const loop: Effect.Effect<A, Cancelled> = Effect.flatMap(dialog.ask(question), (answer) =>
      Result.match(check(answer.trim()), {
        onFailure: (why) => Effect.andThen(dialog.say(`  ${why}`), loop),
        onSuccess: Effect.succeed
      }))
    return loop
  })

/** A choice of a list. */
export interface Choice<A> {
  readonly title: string
  readonly value: A
}

const numbered = <A>(message: string, choices: ReadonlyArray<Choice<A>>) =>
  Effect.flatMap(Dialog, (dialog) =>
    dialog.say([message, ...choices.map((c, i) => `  ${String(i + 1).padStart(2)}) ${c.title}`)].join("\n")))

/** Chooses one of `choices` by its number; an empty answer takes the first. */
export const select = <A>(message: string, choices: ReadonlyArray<Choice<A>>): Effect.Effect<A, Cancelled, Dialog> =>
  Effect.andThen(
    numbered(message, choices),
    askUntil(`choose 1-${choices.length} [1]: `, (answer) => {
      if (answer === "") return Result.succeed(choices[0]!.value)
      const n = Number(answer)
      return Number.isInteger(n) && n >= 1 && n <= choices.length
        ? Result.succeed(choices[n - 1]!.value)
        : Result.fail(`answer a number from 1 to ${choices.length}`)
    })
  )

/** Chooses any of `choices` by their numbers, separated by commas or spaces. */
export const multiSelect = <A>(
  message: string,
  choices: ReadonlyArray<Choice<A> & { readonly selected?: boolean }>,
  bounds: { readonly min?: number; readonly max?: number } = {}
): Effect.Effect<Array<A>, Cancelled, Dialog> => {
  const defaults = choices.flatMap((c, i) => (c.selected === true ? [i + 1] : []))
  return Effect.andThen(
    numbered(message, choices),
    askUntil(`numbers separated by commas [${defaults.join(",") || "none"}]: `, (answer) => {
      const picked = answer === "" ? defaults : answer.split(/[\s,]+/).map(Number)
      if (picked.some((n) => !Number.isInteger(n) || n < 1 || n > choices.length)) {
        return Result.fail(`answer numbers from 1 to ${choices.length}`)
      }
      const unique = [...new Set(picked)]
      if (bounds.min !== undefined && unique.length < bounds.min) return Result.fail(`choose at least ${bounds.min}`)
      if (bounds.max !== undefined && unique.length > bounds.max) return Result.fail(`choose at most ${bounds.max}`)
      return Result.succeed(unique.map((n) => choices[n - 1]!.value))
    })
  )
}

/** Types a value; an empty answer takes the default (when there is one); `check` may refuse it. */
export const text = (
  message: string,
  options: { readonly default?: string; readonly check?: (value: string) => Result.Result<string, string> } = {}
): Effect.Effect<string, Cancelled, Dialog> =>
  askUntil(`${message}${options.default !== undefined ? ` [${options.default}]` : ""}: `, (answer) => {
    const value = answer === "" && options.default !== undefined ? options.default : answer
    return options.check !== undefined ? options.check(value) : Result.succeed(value)
  })

/** Yes or no; an empty answer takes `initial`. */
export const confirm = (message: string, initial: boolean): Effect.Effect<boolean, Cancelled, Dialog> =>
  askUntil(`${message} (${initial ? "Y/n" : "y/N"}): `, (answer) => {
    const a = answer.toLowerCase()
    if (a === "") return Result.succeed(initial)
    if (a === "y" || a === "yes") return Result.succeed(true)
    if (a === "n" || a === "no") return Result.succeed(false)
    return Result.fail("answer y or n")
  })
