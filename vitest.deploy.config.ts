import { defineConfig } from "vitest/config"
import { alias, bundles } from "./vitest.shared.js"

/**
 * `pnpm test:deploy`: the suite that runs the SDK as users deploy it (real processes started and
 * killed, a Redis of the test's own paused and stopped, sockets that never read), kept apart from
 * `pnpm test` for its time. Its files are `packages/<pkg>/test/deploy/*.test.ts`; CI runs it as a
 * step of its own.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    include: ["packages/*/test/deploy/**/*.test.ts"],
    globalSetup: [bundles],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    minWorkers: 1
  }
})
