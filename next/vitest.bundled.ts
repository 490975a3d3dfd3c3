/**
 * The test side of `vitest.bundles.ts`: where the bundle of a program the
 * tests spawn is, for `node`.
 */
import * as path from "node:path"
import { inject } from "vitest"
import type { Program } from "./vitest.bundles.js"

export type { Program }

declare module "vitest" {
  export interface ProvidedContext {
    /** The directory holding the bundles (`vitest.bundles.ts`). */
    readonly testBundles: string
  }
}

/** The bundle of a program (`vitest.bundles.ts`), a file to give `node`. */
export const bundled = (program: Program): string => path.join(inject("testBundles"), `${program}.mjs`)
