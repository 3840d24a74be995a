import type { AuditEntry } from '../api/types.ts';
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
      <h2 id="audit-title">Audit trail</h2>
      <ErrorNotice message={entries.load.error} />
      {entries.items?.length === 0 && <p class="muted">No operator change yet.</p>}
      {entries.items && entries.items.length > 0 && (
        <div class="card">
          <table>
            <caption class="visually-hidden">Operator changes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Change</th>
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
          Show older
        </button>
      )}
    </section>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td>{dateTimeOf(entry.at)}</td>
      <td class="nowrap">operator {entry.actorId}</td>
      <td>
        {entry.action} · {entry.target.type} {entry.target.id}
        <details>
          <summary>Before and after</summary>
          <pre class="change">
            <span class="visually-hidden">Before: </span>
            {json(entry.before)}
            {'\n→\n'}
            <span class="visually-hidden">After: </span>
            {json(entry.after)}
          </pre>
        </details>
      </td>
    </tr>
  );
}
