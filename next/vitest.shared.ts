import { fileURLToPath } from "node:url"

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src`, import.meta.url))

/** Resolve workspace packages to their sources so tests never need a build. */
export const alias = [
  { find: /^@effect-mcp\/mcp$/, replacement: `${pkg("mcp")}/index.ts` },
  { find: /^@effect-mcp\/mcp\/(.*)$/, replacement: `${pkg("mcp")}/$1.ts` },
  { find: /^@effect-mcp\/redis$/, replacement: `${pkg("redis")}/index.ts` },
  { find: /^@effect-mcp\/redis\/(.*)$/, replacement: `${pkg("redis")}/$1.ts` },
  { find: /^@effect-mcp\/node$/, replacement: `${pkg("node")}/index.ts` },
  { find: /^@effect-mcp\/node\/(.*)$/, replacement: `${pkg("node")}/$1.ts` }
]

/** The global setup that bundles the programs the tests spawn (`vitest.bundles.ts`), for the packages that spawn them. */
export const bundles = fileURLToPath(new URL("./vitest.bundles.ts", import.meta.url))
