import { defineProject } from "vitest/config"
import { alias } from "../../vitest.shared.js"

// `pnpm test`: the fetch handler on Node; the real runtimes (test/runtimes) are `pnpm test:runtimes` (vitest.runtimes.config.ts)
export default defineProject({
  resolve: { alias },
  test: { include: ["test/**/*.test.ts"], exclude: ["test/runtimes/**", "**/node_modules/**"], testTimeout: 30_000, hookTimeout: 30_000 }
})
