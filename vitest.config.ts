import { defineConfig } from "vitest/config"

// One project per package (packages/*/vitest.config.ts). Two test files at a time: vitest's default on a 2-core
// machine is one (availableParallelism - 1), which leaves a core idle while a file waits on its
// child processes and servers (pnpm test: 272 s -> ~200 s wall on an idle machine here; 3 min 19 s for 1,607 tests on 2026-12-03).
export default defineConfig({
  test: { maxWorkers: 2, projects: ["packages/*/vitest.config.ts"] }
})
