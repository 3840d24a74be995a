// The column of `user_settings` for the user's language (migration 2026-11-30-11): `en`, `hi` or `kn`,
// null while the user has not chosen (the apps then follow the browser). Owned by settings. Declared
// here, merged into database.ts's UserSettingsTable, as the columns of later features are kept
// beside it rather than in it.

declare module './database.ts' {
  interface UserSettingsTable {
    language: string | null;
  }
}

export {};
