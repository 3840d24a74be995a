// push handlers: see branch push. The service worker (sw.ts) imports this module, so the `push` and
// `notificationclick` handlers written here run in the same worker as the offline shell.
export {};
