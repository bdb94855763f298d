// The Errata mod's hooks module (docs/mod.md), written by scripts/bundle-mod.js: edit the
// template there. Its handlers live in errata-core.js, built by `npm run build` from
// runtime/mod/core.ts. Each hook is guarded twice: the core logs a fault and passes the event
// on, and `.catch` passes it on should that fail.
import { createErrataMod } from "./errata-core.js";

export function register(on) {
  const mod = createErrataMod();
  on("session.start", ($, e, next) =>
    mod.sessionStart({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("prompt.submit", ($, e, next) =>
    mod.promptSubmit({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("turn.complete", ($, e, next) =>
    mod.turnComplete({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("tool.check", ($, e, next) =>
    mod.toolCheck({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("tool.call", ($, e, next) =>
    mod.toolCall({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("prompt.context", ($, e, next) =>
    mod.promptContext({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("command.run", { command: "errata" }, ($, e, next) =>
    mod.commandRun({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("ui.render", { component: "Pane", requestId: "errata" }, ($, e, next) =>
    mod.uiRender({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
  on("prompt.attachment", { type: "nested_memory" }, ($, e, next) =>
    mod.promptAttachment({
      log: (text) => $.ui.log(text, { to: "debug" }),
      sessionInfo: () => $.session.info(),
      sessionId: () => $.session.id(),
      sessionCwd: () => $.session.cwd(),
      hookEnv: () => $.process.hookEnv(),
      read: (path) => $.fs.read(path),
      write: (path, text) => $.fs.write(path, text),
      exists: (path) => $.fs.exists(path),
      list: (path) => $.fs.list(path),
      run: (argv, init) => $.process.run(argv, init),
      settings: () => $.settings.read(),
      env: async () => {
        const [ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME] = await Promise.all([
          $.env.get("ERRATA_DIR"),
          $.env.get("ERRATA_STATE_DIR"),
          $.env.get("HOME"),
          $.env.get("XDG_DATA_HOME"),
          $.env.get("XDG_STATE_HOME"),
        ]);
        return { ERRATA_DIR, ERRATA_STATE_DIR, HOME, XDG_DATA_HOME, XDG_STATE_HOME };
      },
      registerCommand: (spec) => $.command.register(spec),
      readData: (path) => $.fs.read(path),
      open: (pane) => $.ui.open(pane),
      invalidate: () => $.ui.invalidate("ui.render"),
      resolve: (event) => $.ui.resolve(event),
      h: (tag, props, ...children) => h(tag, props, ...children),
    }, e, next),
  ).catch(($, e, next) => next(e));
}
