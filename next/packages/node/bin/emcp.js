#!/usr/bin/env node
// The `emcp` executable as installed: runs the compiled CLI. A committed file, so that
// `pnpm install` links the bin before anything is built (run `pnpm build` in a checkout).
import("../dist/cli.js").catch((error) => {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli.js")) {
    process.stderr.write("emcp: not built yet: run `pnpm build` in the repository first\n")
    process.exit(1)
  }
  throw error
})
