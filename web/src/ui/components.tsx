import { Fragment, type ComponentChildren } from 'preact';

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'warn' | 'error'; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** The message of a failed action, where the action's button is. */
export function ErrorNotice({ message }: { message: string }) {
  return message ? <Notice kind="error">{message}</Notice> : null;
}

export function Field({ label, hint, children }: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
      {hint && <small>{hint}</small>}
    </label>
  );
}

/**
 * A select over a labels record (value → label), in the record's order. `any` adds a first option
 * with the empty value, for filters; the value type then includes ''.
 */
export function Choice<V extends string>({ name, value, labels, any, onChange }: { name: string; value: V; labels: Partial<Record<V, string>>; any?: string; onChange: (value: V) => void }) {
  return (
    <select name={name} value={value} onChange={(event) => onChange(event.currentTarget.value as V)}>
      {any !== undefined && <option value="">{any}</option>}
      {(Object.keys(labels) as V[]).map((key) => (
        <option key={key} value={key}>
          {labels[key]}
        </option>
      ))}
    </select>
  );
}

export function Facts({ items }: { items: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {items.map(([term, value], index) => (
        <Fragment key={index}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
