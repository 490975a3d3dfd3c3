// a.ts
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import * as Stream from "effect/Stream";
import * as Layer from "effect/Layer";
console.log(typeof Effect, typeof Schema, typeof Stream, typeof Layer);
