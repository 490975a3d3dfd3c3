/**
 * The programs the tests run as child processes (the conformance server, the
 * stdio fixtures, the CLI, a fleet instance), bundled from the workspace
 * sources once per `vitest` run (the packages' `globalSetup`), so a test
 * spawns `node bundle.mjs` instead of `node --import tsx file.ts`.
 *
 * Why: a child started through tsx loads ~700 modules through tsx's loader
 * hooks, ~4 s of CPU for the conformance server (measured with
 * `/usr/bin/time`), against ~0.6 s for the same program bundled. The suite
 * starts about a hundred such children. The bundles are the same sources
 * (esbuild, `effect-mcp-source` condition, nothing minified), rebuilt on
 * every run and every watch-mode rerun, so a test still fails when the
 * program it spawns is broken.
 *
 * In a test: `bundled("conformance-server")` (`vitest.bundled.ts`) is the file to give `node`.
 * This file runs in vitest's main process: it must not import `vitest`.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"

const root = fileURLToPath(new URL(".", import.meta.url))

/** Each program, by the name its bundle gets. */
const entries = {
  "conformance-server": "packages/conformance/src/server.ts",
  "echo-server": "packages/node/test/fixtures/echo-server.ts",
  "otel-server": "packages/node/test/fixtures/otel-server.ts",
  "cli-server": "packages/node/test/fixtures/cli-server.ts",
  "stdio-entries": "packages/node/test/fixtures/stdio-entries.ts",
  "stdio-app": "packages/node/examples/app/stdio.ts",
  cli: "packages/node/src/cli.ts",
  "fleet-instance": "packages/redis/test/fixtures/instance.ts",
  "wire-check": "packages/bench/src/wireCheck.ts"
} as const

export type Program = keyof typeof entries

interface Build {
  readonly dir: string
  readonly ready: Promise<{ readonly rebuild: () => Promise<unknown>; readonly dispose: () => Promise<void> }>
  users: number
}

// one build shared by the projects of a run (each project runs its global setup in this process)
const shared = globalThis as { __effectMcpTestBundles?: Build }

const start = (): Build => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "effect-mcp-test-bundles-"))
  const ready = import("esbuild").then(async (esbuild) => {
    const context = await esbuild.context({
      absWorkingDir: root,
      entryPoints: entries,
      outdir: dir,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["effect-mcp-source"],
      logLevel: "warning",
      // CommonJS dependencies bundled into ESM still call `require` for node's builtins
      banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" }
    })
    await context.rebuild()
    return { rebuild: () => context.rebuild(), dispose: () => context.dispose() }
  })
  return { dir, ready, users: 0 }
}

/** The global setup: builds (or shares) the bundles, provides their directory, removes it at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const build = (shared.__effectMcpTestBundles ??= start())
  build.users++
  const { rebuild, dispose } = await build.ready
  project.provide("testBundles", build.dir)
  project.onTestsRerun(async () => {
    await rebuild()
  })
  return async () => {
    if (--build.users > 0) return
    delete shared.__effectMcpTestBundles
    await dispose()
    fs.rmSync(build.dir, { recursive: true, force: true })
  }
}
