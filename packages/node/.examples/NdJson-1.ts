import * as NdJson from "@effect-mcp/node/NdJson"

const decoder = NdJson.makeDecoder({ maxMessageBytes: 1024 * 1024 })
decoder.push(Buffer.from('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc"')) // [notification a]
decoder.push(Buffer.from(':"2.0","id":1,"method":"b"}\n'))             // [request 1]
export {}
