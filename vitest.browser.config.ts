import { defineConfig } from "vitest/config"
import { alias } from "./vitest.shared.js"

/**
 * `pnpm test:browser`: our client in headless Chromium (Debian's `chromium`, driven by
 * `playwright-core`), a page on one origin talking to our server on another
 * (`packages/<pkg>/test/browser/*.test.ts`), kept apart from `pnpm test` for the browser it needs
 * and its time; CI runs it as a step of its own (`.ci/run` installs the browser when missing).
 * One project of its own (`projects`), so vitest does not take the packages' projects, which
 * exclude these files.
 */
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 1,
    projects: [{
      extends: true,
      test: {
        name: "browser",
        include: ["packages/*/test/browser/**/*.test.ts"],
        testTimeout: 90_000,
        hookTimeout: 60_000
      }
    }]
  }
})
