import { defineProject } from "vitest/config"
import { alias } from "../../vitest.shared.js"

export default defineProject({
  resolve: { alias },
  test: { include: ["test/**/*.test.ts"], exclude: ["test/deploy/**", "**/node_modules/**"], testTimeout: 30_000, hookTimeout: 30_000 }
})
