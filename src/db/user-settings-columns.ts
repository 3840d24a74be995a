/**
 * The column of `user_settings` for the user's language (migration 2026-11-30-11): `en`, `hi` or `kn`,
 * null while the user has not chosen (the apps then follow the browser). Owned by settings.
 */
export interface UserSettingsLanguageColumn {
  language: string | null;
}
