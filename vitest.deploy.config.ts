import { defineConfig } from "vitest/config"
import { alias, bundles } from "./vitest.shared.js"

/**
 * `pnpm test:deploy`: the suite that runs the SDK as users deploy it (real processes started and
 * killed, a Redis of the test's own paused and stopped, sockets that never read), kept apart from
 * `pnpm test` for its time (which stays under 4 minutes on a 2-core machine: it was 3 min 57 s on
 * 2026-12-03 before the slowest process-level files, the CLI, stdio and cross-era interop runs and the
 * conformance server as a program, moved here). Its files are `packages/<pkg>/test/deploy/*.test.ts`;
 * CI runs it as a step of its own. One project of its own (`projects`), so vitest does not take the packages'
 * projects (each package's vitest.config.ts), which exclude these files.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 2,
    projects: [{
      extends: true,
      test: {
        name: "deploy",
        include: ["packages/*/test/deploy/**/*.test.ts"],
        globalSetup: [bundles],
        testTimeout: 60_000,
        hookTimeout: 60_000
      }
    }]
  }
})
