import { defineProject } from "vitest/config"
import { alias, bundles } from "../../vitest.shared.js"

export default defineProject({
  resolve: { alias },
  test: { globalSetup: [bundles], include: ["test/**/*.test.ts", "examples/app/*.test.ts"], exclude: ["test/deploy/**", "test/browser/**", "**/node_modules/**"], testTimeout: 30_000, hookTimeout: 30_000 }
})
