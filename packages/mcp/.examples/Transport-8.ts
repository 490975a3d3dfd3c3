import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const frames: Stream.Stream<JsonRpc.Frame> = Stream.make(JsonRpc.notification("notifications/initialized"))
const transport: Transport.TransportShape = { ...Transport.fromStream(frames), send: () => Effect.void }
export {}
