// The columns of `notifications` for its text in any language (migration 2026-11-30-41): the name of
// its pair in the service's catalogue (src/platform/i18n) and the values as JSON; null in rows written
// before, which keep only their English title and message. Owned by notifications. Declared here,
// merged into database.ts's NotificationsTable, as later features' columns are kept beside it.

declare module './database.ts' {
  interface NotificationsTable {
    text_name: string | null;
    text_values: string | null;
  }
}

export {};
