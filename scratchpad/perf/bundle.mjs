import * as esbuild from "esbuild"
const externalNpm = { name: "x", setup(b) { b.onResolve({ filter: /^[^./]/ }, (a) => a.path.startsWith("@effect-mcp/") ? undefined : { path: a.path, external: true }) } }
await esbuild.build({ absWorkingDir: new URL(".", import.meta.url).pathname, entryPoints: ["clientDrive.ts", "httpOnly.ts", "clientInproc.ts", "ops.ts", "clientSessions.ts", "serverSessions.ts"], outdir: "out", bundle: true, platform: "node", format: "esm", target: "node20", conditions: ["effect-mcp-source"], plugins: [externalNpm], nodePaths: ["../../packages/bench/node_modules"] })
