import { defineConfig } from "vitest/config"

// The projects are vitest.workspace.ts's. Two test files at a time: vitest's default on a 2-core
// machine is one (availableParallelism - 1), which leaves a core idle while a file waits on its
// child processes and servers (pnpm test: 272 s -> 180 s wall here, the same 1,554 tests).
export default defineConfig({
  test: { maxWorkers: 2, minWorkers: 1 }
})
