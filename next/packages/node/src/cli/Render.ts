/**
 * MCP results for a human: content blocks, resource contents, tables.
 *
 * @since 0.1.0
 */
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import { schemaTypes } from "./Values.js"

const base64Bytes = (data: string): number => {
  const clean = data.replace(/\s/g, "")
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** One content block for a human: text as is, binary summarised. */
export const renderContent = (block: unknown): string => {
  const c = block as { readonly type?: unknown; readonly [key: string]: unknown }
  switch (c.type) {
    case "text":
      return String(c.text)
    case "image":
    case "audio":
      return `[${c.type} ${String(c.mimeType)}, ${plural(base64Bytes(String(c.data ?? "")), "byte")}]`
    case "resource_link": {
      const extra = [c.name !== undefined ? `"${String(c.name)}"` : "", c.mimeType !== undefined ? String(c.mimeType) : ""]
        .filter((s) => s !== "")
        .join(" ")
      return `[resource link ${String(c.uri)}${extra === "" ? "" : ` ${extra}`}]`
    }
    case "resource": {
      const r = (c.resource ?? {}) as { readonly [key: string]: unknown }
      const mime = r.mimeType !== undefined ? ` ${String(r.mimeType)}` : ""
      if (typeof r.text === "string") return `[resource ${String(r.uri)}${mime}]\n${r.text}`
      return `[resource ${String(r.uri)}${mime}, ${plural(base64Bytes(String(r.blob ?? "")), "byte")}]`
    }
    default:
      return JSON.stringify(block)
  }
}

/** Resource contents for a human: text as is, blobs summarised; several get a header each. */
export const renderResourceContents = (contents: ReadonlyArray<unknown>): string => {
  const parts = contents.map((item) => {
    const r = item as { readonly [key: string]: unknown }
    const mime = r.mimeType !== undefined ? ` ${String(r.mimeType)}` : ""
    if (typeof r.text === "string") {
      return contents.length === 1 ? r.text : `[${String(r.uri)}${mime}]\n${r.text}`
    }
    return `[blob ${String(r.uri)}${mime}, ${plural(base64Bytes(String(r.blob ?? "")), "byte")}]`
  })
  return parts.join("\n")
}

/** A plain text table; lines are cut to `columns` (the terminal's width) when given. */
export const table = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  columns = 0
): string => {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)))
  return all
    .map((row) => {
      const line = row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd()
      return columns > 10 && line.length > columns ? `${line.slice(0, columns - 1)}…` : line
    })
    .join("\n")
}

/** The first line of a description. */
export const firstLine = (text: string | undefined): string => (text ?? "").split("\n")[0]!.trim()

/** `text: string, bytes?: integer` from a tool's input schema. */
export const toolArguments = (schema: McpSchema.Tool["inputSchema"]): string => {
  const props = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  return Object.entries(props)
    .map(([name, p]) => {
      const types = schemaTypes(p)
      return `${name}${required.has(name) ? "" : "?"}${types.length > 0 ? `: ${types.join("|")}` : ""}`
    })
    .join(", ")
}

