/**
 * The runtime globals the README's entry points use (`bun.ts`, `deno.ts`), declared as far as they
 * use them, so `pnpm docs:check` compiles those blocks without Bun's or Deno's own type packages.
 */
declare const Bun: {
  serve(options: { readonly port: number; readonly fetch: (request: Request) => Response | Promise<Response> }): {
    stop(): void
  }
}
declare const Deno: {
  serve(options: { readonly port: number }, handler: (request: Request) => Response | Promise<Response>): unknown
}
