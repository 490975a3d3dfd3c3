import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"

const transport = StreamableHttpClient.make({ url: "http://localhost:3000/mcp" })
export {}
