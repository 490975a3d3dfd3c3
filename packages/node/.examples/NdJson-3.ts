import * as NdJson from "@effect-mcp/node/NdJson"
import * as Stream from "effect/Stream"

const frames = NdJson.fromReadable(process.stdin).pipe(Stream.runCollect)
export {}
