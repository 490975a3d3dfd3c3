/**
 * What a user reads and installs: the README's "Five minutes" code is
 * the type-checked files in examples/app, the install line names the peer
 * ranges the packages declare, and the exports maps list every public module
 * and nothing internal. (`pnpm test:pack` installs and runs the packed
 * packages; `pnpm lint:pkg` runs publint and attw on them.)
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, "utf8")
const packageJson = (name: string) => JSON.parse(read(`packages/${name}/package.json`))
const readme = read("README.md")
const heading = "## Five minutes: install, serve, connect, test"
const section = readme.slice(readme.indexOf(heading), readme.indexOf("\n## ", readme.indexOf(heading) + 1))

describe("README: Five minutes", () => {
  it("shows every examples/app file (docs:check holds each block to its file: readme:same-as)", () => {
    const files = readdirSync(`${root}packages/node/examples/app`).filter((file) => file.endsWith(".ts"))
    expect(files.sort()).toEqual(["client.ts", "http.ts", "server.test.ts", "server.ts", "stdio.ts"])
    for (const file of files) {
      expect(section, `${file} is not in the README`).toContain(`<!-- readme:same-as packages/node/examples/app/${file} -->\n\`\`\`ts\n`)
    }
  })

  it("names the peer ranges the packages declare in its install line", () => {
    const peers = { ...packageJson("mcp").peerDependencies, ...packageJson("node").peerDependencies }
    const versions = Object.entries(peers).sort(([a], [b]) => a.localeCompare(b)).map(([name, range]) => `${name}@${range}`)
    expect(section).toContain(`npm install @effect-mcp/mcp @effect-mcp/node ${versions.join(" ")}\n`)
    // and so does the package's own README (what npm shows)
    expect(read("packages/node/README.md")).toContain(`npm install @effect-mcp/mcp @effect-mcp/node ${versions.join(" ")}\n`)
  })
})

describe("ready to publish", () => {
  const published = ["mcp", "node", "redis"]
  it("each published package builds before it is packed (prepack), and the README says how to install from a clone", () => {
    for (const name of published) {
      expect(packageJson(name).scripts.prepack, `packages/${name}`).toBe("node ../../scripts/prepack.mjs")
    }
    expect(JSON.parse(read("package.json")).scripts["install-into"]).toBe("node scripts/install-into.mjs")
    expect(section).toContain("pnpm install-into ../my-app")
  })

  it("one version: the packages', emcp --version's, and no @since after it", async () => {
    const versions = new Set(published.map((name) => packageJson(name).version))
    expect([...versions]).toHaveLength(1)
    const [version] = versions
    const { VERSION } = await import("@effect-mcp/node/McpCli")
    expect(VERSION).toBe(version)
    const parse = (v: string) => v.split(".").map(Number)
    const later = (a: string, b: string) => {
      const [x, y] = [parse(a), parse(b)]
      for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!
      return false
    }
    for (const name of published) {
      const files = readdirSync(`${root}packages/${name}/src`, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))
      for (const file of files) {
        for (const [, since] of read(`packages/${name}/src/${file}`).matchAll(/@since (\S+)/g)) {
          expect(later(since!, version), `packages/${name}/src/${file}: @since ${since} is after the package's ${version}`).toBe(false)
        }
      }
    }
  })
})

describe("exports", () => {
  for (const name of ["mcp", "node"]) {
    it(`@effect-mcp/${name} lists each public module, in the repo and as published, and no internal one`, () => {
      const pkg = packageJson(name)
      const modules = readdirSync(`${root}packages/${name}/src`)
        .filter((file) => file.endsWith(".ts") && file !== "index.ts" && file !== "cli.ts")
        .map((file) => `./${file.slice(0, -3)}`)
      const expected = [".", ...modules, "./package.json"].sort()
      expect(Object.keys(pkg.exports).sort()).toEqual(expected)
      expect(Object.keys(pkg.publishConfig.exports).sort()).toEqual(expected)
      for (const [path, target] of Object.entries(pkg.publishConfig.exports)) {
        if (path === "./package.json") continue
        const module = path === "." ? "index" : path.slice(2)
        // published: no source condition, types before default
        expect(target).toEqual({ types: `./dist/${module}.d.ts`, default: `./dist/${module}.js` })
        expect(pkg.exports[path]).toEqual({ "effect-mcp-source": `./src/${module}.ts`, ...(target as object) })
      }
    })
  }

  it("effect (and, for node, @effect/platform-node) are peers, a tight range around the versions the workspace develops against", () => {
    for (const name of ["mcp", "node"]) {
      const pkg = packageJson(name)
      expect(pkg.dependencies?.effect).toBeUndefined()
      expect(pkg.dependencies?.["@effect/platform-node"]).toBeUndefined()
      expect(pkg.peerDependencies["@effect/platform"]).toBeUndefined()
      expect(pkg.peerDependencies.effect).toBe("~4.1.5")
      expect(pkg.devDependencies.effect).toBe("4.1.5")
    }
    expect(packageJson("node").peerDependencies["@effect/platform-node"]).toBe("~4.1.5")
    expect(packageJson("mcp").peerDependencies["@effect/platform-node"]).toBeUndefined()
  })
})
