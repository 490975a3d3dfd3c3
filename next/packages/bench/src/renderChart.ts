/**
 * `pnpm bench:chart`: redraws `results/headline.svg` from `results/latest.json`
 * (the last complete `pnpm bench` run) without running the bench. Paths can be
 * given: `renderChart.ts [results.json] [chart.svg]`.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type Results, renderHeadline } from "./chart.js"

const resultsDir = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), "results")
const input = process.argv[2] ?? path.join(resultsDir, "latest.json")
const output = process.argv[3] ?? path.join(path.dirname(input), "headline.svg")
const results = JSON.parse(fs.readFileSync(input, "utf8")) as Results
fs.writeFileSync(output, renderHeadline(results))
process.stdout.write(`wrote ${output}\n`)
