// Preloaded by server/server.test.ts (`node --import`): when the process exits, reports every development
// bundle it ran (react.development.js, react-dom-server.node.development.js …). A CommonJS module that ran is
// `loaded` in the module cache; the ESM loader also caches, unloaded, the files it only reads to find a
// module's exports (both branches of react/index.js), so those do not count.
import Module from 'node:module';

process.on('exit', () => {
  for (const [file, module] of Object.entries(Module._cache)) {
    if (module?.loaded && /\.development\.c?js$/.test(file)) process.stderr.write(`DEVELOPMENT BUNDLE ${file}\n`);
  }
});
