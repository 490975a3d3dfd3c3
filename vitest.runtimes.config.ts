import { defineConfig } from "vitest/config"
import { alias } from "./vitest.shared.js"

/**
 * `pnpm test:runtimes`: the fetch handler under the real runtimes (Bun, Deno, workerd through
 * miniflare: npm devDependencies of `packages/runtimes`), driven from Node (`packages/runtimes/test/runtimes`).
 * Kept apart from `pnpm test` for its real waits (a standing GET held past Bun's 10 s idle cut) and
 * its child runtimes; CI runs it as a step of its own (about a minute).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 1,
    projects: [{
      extends: true,
      test: {
        name: "runtimes",
        include: ["packages/runtimes/test/runtimes/**/*.test.ts"],
        testTimeout: 60_000,
        hookTimeout: 60_000
      }
    }]
  }
})
