#!/usr/bin/env node
// ES module alias of bin/errata.cjs (the package's `errata` binary), kept for scripts that
// name this file. Hooks should run bin/errata.cjs: it skips the ES module loader.
import errata from "./errata.cjs";

errata.main();
