import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/endpoints.ts';
import type { AuditEntry } from '../api/types.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { dateTimeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';

/** Every operator change, newest first: who, what, on which record, when. */
export function AuditScreen({ api }: { api: Api }) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const load = useAction(async (from?: string) => {
    const page = await api.admin.audit({ cursor: from });
    setEntries((list) => (from && list ? [...list, ...page.items] : page.items));
    setCursor(page.nextCursor);
  });
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit trail</h2>
      <ErrorNotice message={load.error} />
      {entries?.length === 0 && <p class="muted">No operator change yet.</p>}
      {entries && entries.length > 0 && (
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
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{dateTimeOf(entry.at)}</td>
                  <td>operator {entry.actorId}</td>
                  <td>
                    {entry.action} · {entry.target.type} {entry.target.id}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void load.run(cursor)}>
          Show older
        </button>
      )}
    </section>
  );
}
