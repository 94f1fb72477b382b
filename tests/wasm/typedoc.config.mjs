// typedoc's options for the TypeScript reference of the npm package
// (tests/wasm/run.sh runs `typedoc --options tests/wasm/typedoc.config.mjs`):
// web/pkg/phutball.d.ts, as scripts/build-wasm.sh generates it, into
// target/typescript-reference, warnings as errors. Every name must have its
// doc comment (the Rust bindings' /// comments, which wasm-bindgen copies),
// except wasm-bindgen's own glue, which comes without: the loader's types
// (InitInput, SyncInitInput, InitOutput and its raw exports) and each
// class's free() and [Symbol.dispose](), listed here from the .d.ts itself
// so that the list follows the package.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("../../", import.meta.url);
const typings = fileURLToPath(new URL("web/pkg/phutball.d.ts", root));
const text = readFileSync(typings, "utf8");

const classes = [...text.matchAll(/^export class (\w+)/gm)].map((match) => match[1]);
const rawExports = text.match(/^export interface InitOutput \{([^}]*)\}/m)?.[1] ?? "";
const glue = [
  "InitInput",
  "SyncInitInput",
  "InitOutput",
  ...[...rawExports.matchAll(/^\s*readonly (\w+)/gm)].map((match) => `InitOutput.${match[1]}`),
  ...classes.flatMap((name) => [`${name}.free`, `${name}.[dispose]`]),
];

export default {
  name: "phutball (npm package)",
  entryPoints: [typings],
  out: fileURLToPath(new URL("target/typescript-reference", root)),
  readme: fileURLToPath(new URL("crates/phutball-wasm/README.md", root)),
  // As tests/wasm/run.sh's tsc: the generated code uses Symbol.dispose.
  compilerOptions: {
    target: "es2022",
    module: "es2022",
    moduleResolution: "bundler",
    lib: ["esnext", "dom"],
    strict: true,
  },
  treatWarningsAsErrors: true,
  // The entry point is generated (web/pkg): a link to its source would lead
  // nowhere, and finding one needs a git remote, which a clone without one
  // (or an unpacked tarball) has not: typedoc's warning would fail the run.
  disableSources: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  intentionallyNotDocumented: glue,
};
