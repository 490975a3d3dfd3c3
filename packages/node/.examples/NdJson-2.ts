import * as NdJson from "@effect-mcp/node/NdJson"

const decoder = NdJson.makeDecoder()
const frames = decoder.push(Buffer.from("\uFEFF{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n\r\n"))
// frames.length === 1: BOM, CRLF and the blank line are tolerated
export {}
