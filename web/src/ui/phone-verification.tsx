import { useEffect, useState } from 'preact/hooks';
import type { AccountPhone } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Field, Notice } from './components.tsx';
import { useAction } from './use-action.ts';

/**
 * The account's phone number in the rider and the driver app: a code sent by SMS verifies it, and
 * masked calls on a ride then ring it. Only its owner ever sees it (docs/safety.md).
 */
export function PhoneVerification() {
  const api = useApi();
  const [phone, setPhone] = useState<AccountPhone | null>(null);
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState('');
  const load = useAction(async () => setPhone(await api.safety.phone()));
  useEffect(() => void load.run(), [api]);
  const send = useAction(async () => {
    setSent((await api.safety.sendPhoneCode(number.trim())).message);
    setPhone(await api.safety.phone());
  });
  const verify = useAction(async () => {
    setPhone(await api.safety.verifyPhone(code.trim()));
    setSent('');
    setCode('');
  });
  const waiting = phone?.pendingPhone ?? null;
  return (
    <section class="card stack" aria-labelledby="phone-title">
      <h3 id="phone-title">Phone number</h3>
      <p class="flush">{phone?.phone ? `Verified: ${phone.phone}. Calls on a ride ring it; nobody sees it.` : 'No verified number yet: add one to call or be called on a ride.'}</p>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void send.run();
        }}
      >
        <Field label={phone?.phone ? 'New number' : 'Number'} hint="With the country code, as +919845012345.">
          <input name="phone" type="tel" autocomplete="tel" pattern="\+[1-9][0-9]{7,14}" required value={number} onInput={(e) => setNumber(e.currentTarget.value)} />
        </Field>
        <button type="submit" class="secondary" disabled={send.busy}>
          Send a code
        </button>
      </form>
      {sent && <Notice>{sent}</Notice>}
      {waiting && (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void verify.run();
          }}
        >
          <Field label={`Code sent to ${waiting}`} hint="Six digits, valid 10 minutes.">
            <input name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
          </Field>
          <button type="submit" disabled={verify.busy}>
            Verify
          </button>
        </form>
      )}
      <ErrorNotice message={load.error || send.error || verify.error} />
    </section>
  );
}
