import type { AuditEntry } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { usePages } from '../ui/use-pages.ts';
import { useApi } from '../ui/app-context.tsx';

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 1));

/** Every operator change, newest first: who, what, on which record, when, and the record before and after. */
export function AuditScreen() {
  const api = useApi();
  const entries = usePages((cursor) => api.admin.audit({ cursor }), 'audit');
  return (
    <section class="stack" aria-labelledby="audit-title">
      <h2 id="audit-title">{t('ops.audit.title')}</h2>
      <ErrorNotice message={entries.load.error} />
      {entries.items?.length === 0 && <p class="muted">{t('ops.audit.none')}</p>}
      {entries.items && entries.items.length > 0 && (
        <div class="card">
          <table>
            <caption class="visually-hidden">{t('ops.audit.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.audit.when')}</th>
                <th scope="col">{t('ops.audit.who')}</th>
                <th scope="col">{t('ops.audit.change')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.items.map((entry) => (
                <AuditRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries.cursor && (
        <button type="button" class="secondary" disabled={entries.load.busy} onClick={() => void entries.load.run(entries.cursor!)}>
          {t('ops.showOlder')}
        </button>
      )}
    </section>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td>{dateTimeOf(entry.at)}</td>
      <td class="nowrap">{t('ops.audit.operator', { id: entry.actorId })}</td>
      <td>
        <code>{entry.action}</code> · <code>{entry.target.type}</code> {entry.target.id}
        <details>
          <summary>{t('ops.audit.beforeAfter')}</summary>
          <pre class="change">
            <span class="visually-hidden">{t('ops.audit.before')}</span>
            {json(entry.before)}
            {'\n→\n'}
            <span class="visually-hidden">{t('ops.audit.after')}</span>
            {json(entry.after)}
          </pre>
        </details>
      </td>
    </tr>
  );
}
